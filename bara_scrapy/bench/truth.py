"""Ground truth for a site and a budget (D, W, P), computed from its `SiteSpec` alone.

The page list is the sequential BFS reference of docs/design.md ("BFS
semantics"), written here independently of `bara_scrapy.frontier`: links in
final DOM order, canonicalised, off-scope / denied / non-http / robots-
disallowed ones dropped (none of them counts toward W), the first W distinct
kept, each unseen one admitted at depth+1 unless that exceeds D or P pages are
admitted. A redirect inside scope makes both URLs seen. A page that does not
exist is admitted, fails and contributes no links.

Per page it lists what extraction should return: key sentences, images
(with acceptable variants), videos, embeds, and the bad media that must never
be returned; every expectation carries the quirks that produced it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from ..urls import DenyPolicy, canonicalize, in_scope, is_http_url
from .reference import Rendered, Visit, sequential_bfs
from .sites import (
    COMMENT_LAYOUTS,
    MECHANISMS,
    PLACEHOLDER_HOSTS,
    TEMPLATE_WIDGET,
    Budget,
    Hosts,
    Link,
    PageSpec,
    SiteSpec,
    dom_links,
    effective_budget,
)


@dataclass(frozen=True)
class ExpectedMedia:
    url: str  # canonical absolute URL
    kind: str  # image | video | embed
    variants: tuple[str, ...] = ()  # other acceptable URLs (canonical)
    quirks: tuple[str, ...] = ()

    def matches(self, url: str) -> bool:
        return url == self.url or url in self.variants


@dataclass(frozen=True)
class KeySentence:
    text: str
    quirks: tuple[str, ...] = ()


@dataclass(frozen=True)
class PageTruth:
    url: str
    final_url: str
    depth: int
    bfs_index: int
    parent_url: str | None
    status: str  # "ok" | "failed" (the page does not exist)
    quirks: tuple[str, ...] = ()
    key_sentences: tuple[KeySentence, ...] = ()
    boilerplate: tuple[KeySentence, ...] = ()  # planted furniture sentences `text` must not hold
    images: tuple[ExpectedMedia, ...] = ()
    videos: tuple[ExpectedMedia, ...] = ()
    embeds: tuple[ExpectedMedia, ...] = ()
    bad: tuple[ExpectedMedia, ...] = ()
    links: tuple[str, ...] = ()  # the selected child links (first W), canonical
    width_dropped: int = 0  # distinct allowed links beyond W


@dataclass(frozen=True)
class SiteTruth:
    site_id: str
    seed_url: str
    budget: Budget
    pages: tuple[PageTruth, ...]
    dropped_by_budget: int = 0  # unseen links refused because P pages were admitted
    depth_cut: int = 0  # pages at depth D whose links were not followed
    _by_url: dict[str, PageTruth] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_url.update({p.url: p for p in self.pages})

    def page(self, url: str) -> PageTruth | None:
        return self._by_url.get(url)

    @property
    def width_bound(self) -> bool:
        return any(p.width_dropped for p in self.pages)


def site_path(url: str) -> str:
    """Path and query of a URL, the key pages are served under.

    >>> site_path("http://127.0.0.1:5/events?month=2")
    '/events?month=2'
    """
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def robots_allowed(spec: SiteSpec, url: str) -> bool:
    path = urlsplit(url).path or "/"
    return not any(path.startswith(prefix) for prefix in spec.robots_disallow)


def select_children(
    spec: SiteSpec, page: PageSpec, base_url: str, seed: str, hosts: Hosts, width: int
) -> tuple[list[tuple[str, tuple[str, ...]]], int]:
    """The first `width` distinct allowed links of a page, with the quirks of the link that gave them."""
    policy = DenyPolicy()
    kept: list[tuple[str, tuple[str, ...]]] = []
    taken: set[str] = set()
    beyond: set[str] = set()
    for link, where in dom_links(spec, page):
        url = _allowed(spec, link, base_url, seed, hosts, policy)
        if url is None or url in taken:
            continue
        if len(kept) >= width:
            beyond.add(url)
            continue
        taken.add(url)
        tags = link.quirks + ((where,) if where in MECHANISMS and where != "static" else ())
        kept.append((url, tags))
    return kept, len(beyond)


def _allowed(spec: SiteSpec, link: Link, base: str, seed: str, hosts: Hosts, policy: DenyPolicy) -> str | None:
    raw = urljoin(base, hosts.href(link.href))
    if not is_http_url(raw):
        return None
    url = canonicalize(raw)
    if not in_scope(url, seed, "host") or policy.is_denied(url) or not robots_allowed(spec, url):
        return None
    return url


def compute_truth(spec: SiteSpec, hosts: Hosts, budget: Budget | None = None) -> SiteTruth:
    """The sequential BFS reference (`reference.sequential_bfs`) and the per-page expectations.

    `budget` is the bench default; a site's own `spec.budget` wins.
    """
    bud = effective_budget(spec, budget)
    seed = canonicalize(hosts.site + "/")
    pages: list[PageTruth] = []

    def render(visit: Visit) -> Rendered:
        target = spec.redirect_target(site_path(visit.url))
        final = canonicalize(urljoin(visit.url, target)) if target else visit.url
        page = spec.page_at(site_path(final))
        if page is None:
            pages.append(PageTruth(visit.url, final, visit.depth, visit.bfs_index, visit.parent, "failed",
                                   _unique(visit.via)))
            return Rendered((final,))
        children, width_dropped = select_children(spec, page, final, seed, hosts, bud.max_width)
        quirks = visit.via + (("redirect",) if target else ())
        pages.append(_page_truth(page, hosts, visit.url, final, visit.depth, visit.bfs_index, visit.parent, quirks,
                                 children, width_dropped))
        return Rendered((final,), children)

    run = sequential_bfs(seed, render, bud.max_depth, bud.max_pages)
    return SiteTruth(spec.site_id, seed, bud, tuple(pages), run.dropped_by_budget, run.depth_cut)


def _page_truth(
    page: PageSpec, hosts: Hosts, url: str, final: str, depth: int, index: int, parent: str | None,
    via: tuple[str, ...], children: list[tuple[str, tuple[str, ...]]], width_dropped: int,
) -> PageTruth:
    base = page.quirks
    keys: list[KeySentence] = []
    found: dict[str, list[ExpectedMedia]] = {"image": [], "video": [], "embed": [], "bad": []}
    layouts = tuple(b.layout for b in page.blocks if b.layout and b.layout != "entries")
    for block in page.blocks:
        mech = () if block.mechanism == "static" else (block.mechanism,)
        layout = (block.layout,) if block.layout and block.layout != "entries" else ()
        keys += [KeySentence(k, _unique(base + mech + layout)) for k in block.key]
        for m in block.media:
            host = ("cdn",) if m.url.startswith("cdn:") else ()
            tags = _unique((m.quirk, *host, *mech, *base))
            variants = tuple(canonicalize(hosts.resolve(v)) for v in m.variants)
            media = ExpectedMedia(canonicalize(hosts.resolve(m.url)), m.kind, variants, tags)
            found["bad" if m.bad else m.kind].append(media)
            if m.poster:
                poster_tags = _unique(("poster", *mech, *base))
                found["image"].append(ExpectedMedia(canonicalize(hosts.resolve(m.poster)), "image", (), poster_tags))
    return PageTruth(
        url, final, depth, index, parent, "ok", _unique(via + base), tuple(keys),
        tuple(KeySentence(text, _unique((f"boiler_{kind}", *base, *layouts))) for kind, text in page.boilerplate
              # the seed has no parent, and a page served as its parent (a redirect to it) repeats it: the
              # widget is the page's alone there, not counted
              if kind != TEMPLATE_WIDGET or (index and final != parent)),
        tuple(found["image"]), tuple(found["video"]), tuple(found["embed"]), tuple(found["bad"]),
        tuple(c for c, _ in children), width_dropped,
    )


def _unique(tags: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(tags))


def bfs_depths(spec: SiteSpec, budget: Budget | None = None) -> list[int]:
    """Depths of the admitted pages, in admission order (used by the generator)."""
    return [p.depth for p in compute_truth(spec, PLACEHOLDER_HOSTS, budget).pages]


def perfect_items(truth: SiteTruth) -> list[dict[str, object]]:
    """The items a perfect crawl would return (PageItem-shaped dicts): for tests and sanity checks."""

    def media(ms: tuple[ExpectedMedia, ...]) -> list[dict[str, object]]:
        return [{"url": m.url, "kind": m.kind, "found_in": ["truth"], "variants": list(m.variants),
                 "verified": m.kind != "embed"} for m in ms]

    return [
        {
            "url": p.url, "final_url": p.final_url, "depth": p.depth, "parent_url": p.parent_url,
            "bfs_index": p.bfs_index, "status": p.status, "http_status": 200 if p.status == "ok" else 404,
            "title": "", "text": " ".join(k.text for k in p.key_sentences),
            "comments": [{"author": None, "text": k.text} for k in p.key_sentences
                         if COMMENT_LAYOUTS.intersection(k.quirks)],
            "images": media(p.images), "videos": media(p.videos), "embeds": media(p.embeds),
            "rejected_media": [], "attempts": [], "error": None if p.status == "ok" else "http_error",
            "extractor": "dom",
        }
        for p in truth.pages
    ]
