"""Does a page's HTTP result equal its rendered result? The test a page must pass to be served over HTTP.

Three things decide what a page contributes to the crawl, and each must be equal:

- `links`: the in-scope child links, canonical, in DOM order, each at its first occurrence. BFS admits
  the first W of them (robots.txt aside, the same predicate on both sides), so any difference in this
  order can change which pages are admitted and their `bfs_index`: compared exactly, whatever W is.
- `text`: the item's main text after `normalise_text` (whitespace runs and no-break spaces only, nothing
  that could hide a real difference).
- `media`: the set of (kind, URL) of the item's images, videos and embeds; verification then decides
  per URL on either path alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..links import eligible_links
from ..urls import DenyPolicy, canonicalize_media

ASPECTS = ("links", "text", "media")
_SPACES = re.compile(r"[\s\u00a0\u2007\u202f\ufeff]+")


def normalise_text(text: str) -> str:
    """Whitespace runs (newlines, tabs, no-break and narrow no-break spaces) as one space, trimmed.

    >>> normalise_text("  Hello\\u00a0 world\\n\\n  again\\t")
    'Hello world again'
    >>> normalise_text("Hello, world") == normalise_text("Hello world")
    False
    """
    return _SPACES.sub(" ", text).strip()


def child_links(links: Iterable[str], *, seed: str, scope: str = "host",
                policy: DenyPolicy | None = None) -> tuple[str, ...]:
    """The canonical in-scope child links of a page in order, each once (what BFS takes its first W from).

    >>> child_links(["/x", "https://a.org/b#top", "https://b.org/", "https://a.org/b?utm_source=n",
    ...              "https://a.org/c"], seed="https://a.org/")
    ('https://a.org/b', 'https://a.org/c')
    """
    seen: dict[str, None] = {}
    for url in eligible_links(links, seed=seed, scope=scope, policy=policy).kept:
        seen.setdefault(url, None)
    return tuple(seen)


@dataclass(frozen=True)
class PageResult:
    """What one way of fetching a page gave: its child links, normalised text and media."""

    links: tuple[str, ...] = ()
    text: str = ""
    media: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def of(cls, links: Iterable[str], text: str, media: Iterable[tuple[str, str]], *, seed: str,
           scope: str = "host", policy: DenyPolicy | None = None) -> PageResult:
        """From raw page links, item text and (kind, URL) pairs."""
        return cls(child_links(links, seed=seed, scope=scope, policy=policy), normalise_text(text),
                   frozenset((kind, canonicalize_media(url)) for kind, url in media))


@dataclass(frozen=True)
class Comparison:
    """The aspects in which the HTTP result differs from the rendered one, and a line on each."""

    differences: tuple[str, ...] = ()
    detail: dict[str, str] = field(default_factory=dict)

    @property
    def equal(self) -> bool:
        return not self.differences


def _links_detail(http: tuple[str, ...], rendered: tuple[str, ...]) -> str:
    at = next((i for i, (a, b) in enumerate(zip(http, rendered, strict=False)) if a != b),
              min(len(http), len(rendered)))
    return f"http {len(http)} rendered {len(rendered)}, first difference at {at}"


def compare(http: PageResult, rendered: PageResult) -> Comparison:
    """Compare a page's HTTP result with its rendered result.

    >>> page = PageResult(("https://a.org/1", "https://a.org/2"), "Text.", frozenset({("image", "https://a.org/i.png")}))
    >>> compare(page, page).equal
    True
    >>> c = compare(PageResult(page.links[:1], "Text.", frozenset()), page)
    >>> c.differences, c.detail["links"], c.detail["media"]
    (('links', 'media'), 'http 1 rendered 2, first difference at 1', 'missing 1, extra 0')
    """
    detail: dict[str, str] = {}
    if http.links != rendered.links:
        detail["links"] = _links_detail(http.links, rendered.links)
    if http.text != rendered.text:
        detail["text"] = f"http {len(http.text)} chars, rendered {len(rendered.text)}"
    if http.media != rendered.media:
        detail["media"] = f"missing {len(rendered.media - http.media)}, extra {len(http.media - rendered.media)}"
    return Comparison(tuple(a for a in ASPECTS if a in detail), detail)
