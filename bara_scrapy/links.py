"""Link selection: which of a page's links become its children (eligible, distinct, the first W).

Pure functions over URLs (`urls.py` decides canonical form, scope and the
deny list), so the BFS rules can be tested without Scrapy or a browser.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .urls import MAX_PATH_SEGMENTS, URL_LENGTH_LIMIT, DenyPolicy, canonicalize, in_scope, is_http_url


def trap_reason(url: str) -> str | None:
    """Why a URL looks like a crawler trap, or None.

    >>> trap_reason("https://a.org/a/a/a/x"), trap_reason("https://a.org/ok/page")
    ('path_loop', None)
    """
    if len(url) > URL_LENGTH_LIMIT:
        return "url_too_long"
    segments = [s for s in urlsplit(url).path.split("/") if s]
    if len(segments) > MAX_PATH_SEGMENTS:
        return "too_many_segments"
    run = 1
    for prev, cur in itertools.pairwise(segments):
        run = run + 1 if cur == prev else 1
        if run > 2:
            return "path_loop"
    return None


@dataclass(frozen=True)
class PageLinks:
    """A page's links on their way from the spider to the frontier, in DOM order.

    The spider yields the links it found, link selection replaces them with the kept ones, and the
    frontier admits from those: no `Request` exists for a link until the frontier admits its page.
    """

    urls: tuple[str, ...]


@dataclass
class LinkSelection:
    """The outcome of choosing a page's child links."""

    kept: list[str] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)


def eligible_links(links: Iterable[str], *, seed: str, scope: str = "host",
                   policy: DenyPolicy | None = None) -> LinkSelection:
    """The canonical, in-scope, non-denied, non-trap links in order (repeats kept); the rest counted.

    >>> sel = eligible_links(["https://x.org/a#f", "mailto:a@x.org", "https://y.org/"], seed="https://x.org/")
    >>> sel.kept, dict(sel.dropped)
    (['https://x.org/a'], {'scheme': 1, 'offsite': 1})
    """
    policy = policy or DenyPolicy()
    out = LinkSelection()
    for raw in links:
        url, reason = _check(raw, seed=seed, scope=scope, policy=policy)
        if url is not None:
            out.kept.append(url)
        else:
            out.dropped[reason] += 1
    return out


def keep_width(
    eligible: LinkSelection, *, max_width: int, allowed: Callable[[str], bool] | None = None
) -> LinkSelection:
    """The first `max_width` distinct allowed links of an `eligible_links` result.

    `allowed` is the robots.txt predicate: a forbidden link is dropped like a
    denied one and does not count toward the width.
    """
    out = LinkSelection(dropped=Counter(eligible.dropped))
    kept: set[str] = set()
    for url in eligible.kept:
        if url in kept:
            reason = "duplicate"
        elif allowed is not None and not allowed(url):
            reason = "robots"
        elif len(out.kept) >= max_width:
            reason = "width"
        else:
            kept.add(url)
            out.kept.append(url)
            continue
        out.dropped[reason] += 1
    return out


def select_links(
    links: Iterable[str],
    *,
    seed: str,
    max_width: int,
    scope: str = "host",
    policy: DenyPolicy | None = None,
    allowed: Callable[[str], bool] | None = None,
) -> LinkSelection:
    """Keep the first `max_width` distinct, canonical, in-scope, allowed links in order.

    >>> select_links(["https://x.org/a", "https://x.org/b#f", "https://x.org/a?utm_source=1",
    ...               "https://y.org/", "mailto:a@x.org", "https://x.org/login"],
    ...              seed="https://x.org/", max_width=5).kept
    ['https://x.org/a', 'https://x.org/b']
    """
    eligible = eligible_links(links, seed=seed, scope=scope, policy=policy)
    return keep_width(eligible, max_width=max_width, allowed=allowed)


def _check(raw: str, *, seed: str, scope: str, policy: DenyPolicy) -> tuple[str | None, str]:
    """(canonical URL, "") for an eligible link, else (None, why it was dropped)."""
    if not is_http_url(raw):
        return None, "scheme"
    try:
        url = canonicalize(raw)
    except ValueError:
        return None, "invalid"
    if not in_scope(url, seed, scope):
        return None, "offsite"
    if policy.is_denied(url):
        return None, "denied"
    trap = trap_reason(url)
    return (None, trap) if trap else (url, "")
