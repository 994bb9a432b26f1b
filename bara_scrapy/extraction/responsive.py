"""Which source of a responsive image a browser would load (`currentSrc`), read from markup alone.

The plain-HTTP path has no `currentSrc`; without it, an `<img srcset>` or a `<picture>` gets its `src`
as the primary URL where the rendered page gets the source Chromium chose, and the two items differ.
This follows the HTML source selection as Chromium does it, for the crawl's browser: Playwright's
default viewport (1280 CSS px wide) at device scale 1. `<source>` elements are tried in order (a
`media` query must match, a `type` must be one Chromium decodes), then the image's own `srcset`;
`sizes` gives the slot width; among the candidates' densities Chromium takes the first whose
geometric mean with the next is at least the device scale. Anything this cannot evaluate (a media
feature other than width, `calc()`, unknown units) gives None: no guess.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from urllib.parse import urljoin

VIEWPORT_WIDTH = 1280  # CSS px: Playwright's default viewport, which the crawl's contexts keep
DEVICE_SCALE = 1.0
FONT_PX = 16  # 1em in `sizes`
DECODED_TYPES = frozenset({"image/webp", "image/avif", "image/png", "image/jpeg", "image/jpg", "image/gif",
                           "image/apng", "image/svg+xml", "image/bmp", "image/x-icon"})
_CONDITION = re.compile(r"\(\s*(min|max)-width\s*:\s*([\d.]+)(px|em)\s*\)")
_LENGTH = re.compile(r"([\d.]+)(px|vw|em)")


def _media_matches(query: str) -> bool | None:
    """A `media`/`sizes` condition against the viewport: width features joined by `and` only.

    >>> _media_matches("(max-width: 600px)"), _media_matches("(min-width: 40em) and (max-width: 2000px)")
    (False, True)
    >>> _media_matches("(orientation: portrait)") is None
    True
    """
    parts = [p.strip() for p in re.split(r"\band\b", query.strip().lower()) if p.strip()]
    if not parts:
        return True
    ok = True
    for part in parts:
        m = _CONDITION.fullmatch(part)
        if m is None:
            return None
        px = float(m.group(2)) * (FONT_PX if m.group(3) == "em" else 1)
        ok = ok and (VIEWPORT_WIDTH >= px if m.group(1) == "min" else VIEWPORT_WIDTH <= px)
    return ok


def slot_width(sizes: str | None) -> float | None:
    """The slot width, in CSS px, that `sizes` gives at the viewport (100vw without `sizes`).

    >>> slot_width("(max-width: 600px) 480px, 960px"), slot_width(None), slot_width("50vw")
    (960.0, 1280.0, 640.0)
    >>> slot_width("calc(100vw - 2em)") is None
    True
    """
    for entry in (sizes or "100vw").split(","):
        entry = entry.strip().lower()
        m = re.search(r"([\d.]+)(px|vw|em)$", entry)
        if m is None or not _LENGTH.fullmatch(m.group(0)):
            return None
        condition = entry[: m.start()].strip()
        matches = _media_matches(condition) if condition else True
        if matches is None:
            return None
        if matches:
            value = float(m.group(1))
            return value * {"px": 1.0, "vw": VIEWPORT_WIDTH / 100, "em": float(FONT_PX)}[m.group(2)]
    return float(VIEWPORT_WIDTH)


def _candidates(srcset: str, sizes: str | None, src: str | None) -> list[tuple[float, str]] | None:
    """(density, URL) of a srcset (the `src` as 1x when no candidate says 1x), or None if unreadable."""
    out: list[tuple[float, str]] = []
    slot: float | None = None
    for part in re.split(r",\s+(?=\S)", srcset.strip()):
        bits = part.strip().split()
        if not bits:
            continue
        url, descriptor = bits[0].rstrip(","), (bits[1].lower() if len(bits) > 1 else "1x")
        if descriptor.endswith("w"):
            slot = slot if slot is not None else slot_width(sizes)
            if slot is None or slot <= 0:
                return None
            density = float(descriptor[:-1]) / slot
        elif descriptor.endswith("x"):
            density = float(descriptor[:-1])
        else:
            return None
        out.append((density, url))
    if src and not any(d == 1.0 for d, _ in out) and not any(p.strip().split()[-1].endswith("w")
                                                                 for p in srcset.split(",") if p.strip()):
        out.append((1.0, src))
    return out


def pick(candidates: Sequence[tuple[float, str]], scale: float = DEVICE_SCALE) -> str | None:
    """Chromium's winner among (density, URL): the first whose geometric mean with the next reaches `scale`.

    >>> pick([(0.5, "480"), (1.0, "960"), (1.5, "1440")]), pick([(1.0, "a"), (2.0, "b")]), pick([])
    ('960', 'a', None)
    """
    ordered = sorted(candidates, key=lambda c: c[0])
    for (d, url), (nd, _) in itertools.pairwise(ordered):
        if scale <= math.sqrt(d * nd):
            return url
    return ordered[-1][1] if ordered else None


def current_src(img: Mapping[str, str], sources: Sequence[Mapping[str, str]], base: str) -> str | None:
    """The absolute URL a browser would load for an `<img>` (with its `<picture>` `sources`), or None.

    >>> img = {"src": "a.jpg", "srcset": "a-480.jpg 480w, a-960.jpg 960w", "sizes": "(max-width: 600px) 480px, 960px"}
    >>> current_src(img, [], "https://x.org/p/")
    'https://x.org/p/a-960.jpg'
    >>> current_src({"src": "a.jpg"}, [{"srcset": "a.webp", "type": "image/webp"}], "https://x.org/")
    'https://x.org/a.webp'
    >>> current_src({"src": "a.jpg"}, [{"srcset": "a.jxl", "type": "image/jxl"}], "https://x.org/")
    'https://x.org/a.jpg'
    """
    for source in sources:
        if not source.get("srcset"):
            continue
        kind = (source.get("type") or "").split(";")[0].strip().lower()
        if kind and kind not in DECODED_TYPES:
            continue
        if source.get("media"):
            matches = _media_matches(source["media"])
            if matches is None:
                return None
            if not matches:
                continue
        cands = _candidates(source["srcset"], source.get("sizes") or img.get("sizes"), None)
        chosen = pick(cands) if cands else None
        return urljoin(base, chosen) if chosen else None
    src = img.get("src") or ""
    if img.get("srcset"):
        cands = _candidates(img["srcset"], img.get("sizes"), src if src and not src.startswith("data:") else None)
        chosen = pick(cands) if cands else None
        return urljoin(base, chosen) if chosen else None
    return urljoin(base, src) if src and not src.startswith(("data:", "about:")) else None
