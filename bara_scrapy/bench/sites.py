"""Deterministic synthetic websites for `scrapy bara-bench`, described as data.

A `SiteSpec` is the single description from which the HTML and media bytes
(`render`), the server routes (`serve`) and the ground truth (`truth`) are
all derived. Links are listed in *final DOM order* (after scripts, scrolling,
clicks): nav, then the main blocks in order, then the footer.

URL tokens stand in for hosts whose ports are only known once served:

- ``/path``       a root-relative link on the site itself
- ``site:/path``  the same, written as an absolute URL
- ``cdn:/path``   the shared media CDN host
- ``tp:/path``    the third-party embed host
- anything else (``https://…invalid/``, ``mailto:``) is written verbatim.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

LAYOUTS = ("blog", "shop", "gallery", "news", "docs")
MECHANISMS = ("static", "script", "delayed", "feed", "load_more", "overlay")

# Features a site can exercise; dealt from a reshuffled deck, so each appears in several sites.
LINK_FEATURES = (
    "script", "delayed", "feed", "load_more", "overlay", "flaky_503", "redirect", "calendar",
    "deep_branch", "wide_hub", "page_budget", "robots", "duplicates", "broken_link",
)
MEDIA_FEATURES = (
    "lazy_native", "lazy_io", "srcset", "picture", "css_bg", "poster", "video_src", "video_source",
    "video_script", "hls", "blob_mse", "blob_fetch", "iframe_thirdparty", "iframe_offsite",
    "redirect_cdn", "bad_404", "bad_html200", "bad_wrong_kind", "dash_mse",
)
# Content laid out as a list of short items (`Block.layout`), one key sentence per item.
LIST_FEATURES = ("card_grid", "quotes", "long_table", "accordion", "forum_thread", "search_results")
# Parts of a page a reader sees, in the markup real CMSs and apps give them (WordPress, Drupal, Bootstrap,
# Tailwind, a React app), class names that name furniture included (`banner`, `page-header`, `hidden`,
# `d-none`, `collapse`): one key sentence per item (`render._ITEM_MARKUP`), (fewest, most) items each.
PAGE_PARTS = {
    "hero_headline": (1, 1), "article_header": (1, 1), "figure_captions": (2, 4), "card_links": (4, 8),
    "profile_bio": (1, 1), "comment_cards": (2, 5), "faq_links": (3, 6), "list_intro": (3, 6),
    "carousel": (2, 4), "tag_items": (5, 10), "utility_hidden": (3, 6),
}
# the layouts whose items are readers' comments (`render._ITEM_MARKUP`): an item's `comments` holds them too
COMMENT_LAYOUTS = frozenset({"comment_cards", "quotes"})
# items whose sentence is short, as a quote's among its tag links is
SHORT_PARTS = ("tag_items",)
# parts that stand above a page's text, as a hero, an article's header, a profile's bio and a listing's intro do
TOP_PARTS = ("hero_headline", "article_header", "profile_bio", "list_intro")
# Furniture planted on every page, one sentence each, that `text` must leave out.
BOILERPLATE = ("menu", "footer", "cookie", "related", "share")
# furniture the same on every page of a site, in markup whose names say nothing (a "who is online" box): only
# repetition tells it from content (`extraction/template.py`); the seed, which has no parent, keeps it
TEMPLATE_WIDGET = "widget"
WIDE_HUB_WIDTH = 8  # W of wide-hub sites (their hub links to more pages than that)
BAD_QUIRKS = {"bad_404": "404", "bad_html200": "html200", "bad_wrong_kind": "wrong_kind"}


@dataclass(frozen=True)
class Budget:
    """The crawl budget (D, W, P) of docs/design.md."""

    max_depth: int = 3
    max_width: int = 20
    max_pages: int = 100


@dataclass(frozen=True)
class Link:
    href: str  # URL token, may carry tracking parameters or a fragment
    text: str
    quirks: tuple[str, ...] = ()  # e.g. ("duplicate",), ("redirect",)


@dataclass(frozen=True)
class MediaRef:
    """A media reference placed on a page; `quirk` says how it is placed."""

    kind: str  # image | video | embed
    quirk: str
    url: str  # token of the URL the page references (the expected URL)
    variants: tuple[str, ...] = ()  # other acceptable URLs (srcset, <source>, segments, redirect target)
    poster: str | None = None  # video poster image token (an expected image too)
    alt: str = ""
    bad: str | None = None  # "404" | "html200" | "wrong_kind": must never be returned


@dataclass(frozen=True)
class Block:
    """A run of main content revealed by one mechanism, in DOM position."""

    mechanism: str  # one of MECHANISMS
    paragraphs: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    media: tuple[MediaRef, ...] = ()
    key: tuple[str, ...] = ()  # key sentences (each appears in `paragraphs` or `items`)
    layout: str = ""  # one of LIST_FEATURES or PAGE_PARTS, or "entries" (feed / load-more items), or "" (prose)
    items: tuple[tuple[str, str], ...] = ()  # (label, sentence) per list item: author, title, name, question


@dataclass(frozen=True)
class PageSpec:
    path: str
    title: str
    blocks: tuple[Block, ...] = ()
    quirks: tuple[str, ...] = ()  # page-level: flaky_503, cookie_banner, calendar, deep_branch, ...
    boilerplate: tuple[tuple[str, str], ...] = ()  # (BOILERPLATE kind, sentence) that text must not hold


@dataclass(frozen=True)
class SiteSpec:
    site_id: str
    name: str
    layout: str
    pages: tuple[PageSpec, ...]
    nav: tuple[Link, ...] = ()
    footer: tuple[Link, ...] = ()
    redirects: tuple[tuple[str, str], ...] = ()  # page path -> page path (301, in scope)
    robots_disallow: tuple[str, ...] = ()  # path prefixes
    calendar: str | None = None  # path of an endless ?month=N calendar, or None
    budget: Budget | None = None  # site-specific budget; None = the bench default
    features: tuple[str, ...] = ()
    _index: dict[str, PageSpec] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index.update({p.path: p for p in self.pages})

    def page_at(self, path: str) -> PageSpec | None:
        """The page served at `path` (path + query), calendar pages included; None = 404."""
        if path in self._index:
            return self._index[path]
        if self.calendar is not None:
            parts = urlsplit(path)
            month = parse_qs(parts.query).get("month", [""])[0]
            if parts.path == self.calendar and month.isdigit() and len(month) <= 4:
                return calendar_page(self, int(month))
        return None

    def redirect_target(self, path: str) -> str | None:
        return dict(self.redirects).get(path)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("_index")
        return data


@dataclass(frozen=True)
class Hosts:
    """Base URLs (scheme://host:port, no trailing slash) that URL tokens resolve against."""

    site: str
    cdn: str
    thirdparty: str

    def resolve(self, token: str) -> str:
        """The absolute URL of a token.

        >>> h = Hosts("http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3")
        >>> h.resolve("/a"), h.resolve("site:/b"), h.resolve("cdn:/c"), h.resolve("mailto:x@y")
        ('http://127.0.0.1:1/a', 'http://127.0.0.1:1/b', 'http://127.0.0.1:2/c', 'mailto:x@y')
        """
        if token.startswith("/"):
            return self.site + token
        for prefix, base in (("site:", self.site), ("cdn:", self.cdn), ("tp:", self.thirdparty)):
            if token.startswith(prefix):
                return base + token[len(prefix):]
        return token

    def href(self, token: str) -> str:
        """How a token is written in HTML: root-relative for ``/path``, else absolute."""
        return token if token.startswith("/") else self.resolve(token)


PLACEHOLDER_HOSTS = Hosts("http://127.0.0.1:1", "http://127.0.0.1:2", "http://127.0.0.1:3")


def dom_links(spec: SiteSpec, page: PageSpec) -> list[tuple[Link, str]]:
    """A page's links in final DOM order (nav, main blocks, footer), each with where it sits."""
    main = [(link, b.mechanism) for b in page.blocks for link in b.links]
    return [*((lk, "nav") for lk in spec.nav), *main, *((lk, "footer") for lk in spec.footer)]


def final_links(spec: SiteSpec, page: PageSpec) -> list[Link]:
    """A page's links in final DOM order: nav, main blocks, footer."""
    return [link for link, _ in dom_links(spec, page)]


def effective_budget(spec: SiteSpec, default: Budget | None = None) -> Budget:
    return spec.budget or default or Budget()


def calendar_page(spec: SiteSpec, month: int) -> PageSpec:
    """The endless calendar trap: every month links to the next one."""
    if spec.calendar is None:
        raise ValueError(f"site {spec.site_id} has no calendar")
    rng = random.Random(f"{spec.site_id}/calendar/{month}")
    text = paragraph(rng, 3)
    links = [Link(f"{spec.calendar}?month={month + 1}", "Next month", ("calendar",))]
    if month > 0:
        links.insert(0, Link(f"{spec.calendar}?month={month - 1}", "Previous month", ("calendar",)))
    block = Block("static", (text,), tuple(links), (), (text.split(". ")[0] + ".",))
    return PageSpec(f"{spec.calendar}?month={month}", f"Events, month {month}", (block,), ("calendar",))


def make_page(
    path: str,
    links: list[str] | tuple[str, ...] = (),
    *,
    media: tuple[MediaRef, ...] = (),
    text: str = "",
    quirks: tuple[str, ...] = (),
    mechanism: str = "static",
) -> PageSpec:
    """A one-block page, for hand-written specs in tests and docs.

    >>> make_page("/a", ["/b"]).blocks[0].links[0].href
    '/b'
    """
    body = text or f"This is the page at {path}."
    block = Block(mechanism, (body,), tuple(Link(h, h) for h in links), media, (body,))
    return PageSpec(path, path, (block,), quirks)


# --- deterministic text ---------------------------------------------------------------------------

_SYLLABLES = ("ka", "lo", "mir", "ven", "tha", "sol", "ru", "dri", "nor", "bel", "zan", "fi", "gor", "ish",
              "umi", "pe", "tar", "qua", "lin", "os")
_VERBS = ("gathers", "paints", "measures", "repairs", "describes", "studies", "collects", "arranges",
          "tests", "visits", "charts", "sorts", "restores", "maps")
_ADJS = ("quiet", "amber", "northern", "tiny", "curious", "ancient", "silver", "bright", "patient",
         "hollow", "coastal", "woven", "crooked", "gentle")
_NOUNS = ("lantern", "harbour", "orchard", "bridge", "archive", "meadow", "engine", "garden", "library",
          "market", "canal", "tower", "kettle", "compass")
_TAILS = ("before the first frost", "every second morning", "with remarkable care", "under a pale sky",
          "for the winter fair", "at the edge of town", "without any hurry", "while the bells ring",
          "after the long rain", "in the old quarter")


def slug_word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))


def sentence(rng: random.Random) -> str:
    """One generated sentence, distinctive enough to serve as a key sentence.

    >>> sentence(random.Random(1)) == sentence(random.Random(1))
    True
    """
    name = slug_word(rng).capitalize()
    a, b = rng.sample(_ADJS, 2)
    n1, n2 = rng.sample(_NOUNS, 2)
    return f"{name} {rng.choice(_VERBS)} the {a} {n1} near the {b} {n2} {rng.choice(_TAILS)}."


def paragraph(rng: random.Random, sentences: int = 3) -> str:
    return " ".join(sentence(rng) for _ in range(sentences))


# --- the generator --------------------------------------------------------------------------------

_PREFIXES = {
    "blog": ("category", "post", "note", "remark", "reply"),
    "shop": ("dept", "category", "product", "variant", "part"),
    "gallery": ("album", "set", "photo", "detail", "crop"),
    "news": ("section", "topic", "story", "update", "comment"),
    "docs": ("guide", "chapter", "topic", "section", "para"),
}
_IMAGE_EXT = ("jpg", "png", "gif", "webp")
_MAX_PAGES = 40


@dataclass
class _Node:
    path: str
    title: str
    depth: int
    links: list[Link] = field(default_factory=list)
    media: list[MediaRef] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    quirks: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)


def _deal(deck: tuple[str, ...], k: int, index: int, seed: int) -> tuple[str, ...]:
    """Site `index`'s `k` features: consecutive cards of a deck reshuffled every round.

    Every feature appears about equally often across sites, in varying company.

    >>> sorted(_deal(("a", "b", "c"), 3, 0, 0))
    ['a', 'b', 'c']
    """
    out: list[str] = []
    pos = index * k
    while len(out) < k:
        rnd, at = divmod(pos, len(deck))
        order = random.Random(f"deck/{seed}/{deck[0]}/{rnd}").sample(deck, len(deck))
        if order[at] not in out:
            out.append(order[at])
        pos += 1
    return tuple(out)


class _Builder:
    def __init__(self, index: int, seed: int) -> None:
        self.rng = random.Random(f"bara-bench/{seed}/{index}")
        self.site_id = f"s{index:02d}"
        self.layout = LAYOUTS[index % len(LAYOUTS)]
        self.features = _deal(LINK_FEATURES, 3, index, seed) + _deal(MEDIA_FEATURES, 4, index, seed)
        self.list_features = _deal(LIST_FEATURES, 2, index, seed)
        self.lists = random.Random(f"bara-bench/{seed}/{index}/lists")
        self.page_parts = _deal(tuple(PAGE_PARTS), 2, index, seed)
        self.parts = random.Random(f"bara-bench/{seed}/{index}/parts")
        self.nodes: dict[str, _Node] = {}
        self.nav: list[Link] = []
        self.footer: list[Link] = []
        self.redirects: list[tuple[str, str]] = []
        self.robots: list[str] = []
        self.calendar: str | None = None
        self.counter = 0
        self.size_class = index % 3

    # helpers
    def uid(self) -> int:
        self.counter += 1
        return self.counter

    def add(self, path: str, depth: int, quirks: tuple[str, ...] = ()) -> _Node:
        title = " ".join(slug_word(self.rng).capitalize() for _ in range(2))
        node = _Node(path, title, depth, quirks=list(quirks))
        self.nodes[path] = node
        return node

    def link(self, path: str, quirks: tuple[str, ...] = ()) -> Link:
        node = self.nodes.get(path)
        return Link(path, node.title if node else path.rsplit("/", 1)[-1].replace("-", " ").title(), quirks)

    def pick(self, k: int, max_depth: int = 2, with_children: bool = False) -> list[_Node]:
        pool = [n for n in self.nodes.values() if n.depth <= max_depth and not n.quirks]
        if with_children and any(n.children for n in pool):
            pool = [n for n in pool if n.children]
        return self.rng.sample(pool, min(k, len(pool)))

    def media_url(self, folder: str, ext: str) -> str:
        host = self.rng.choice(("/media", f"cdn:/{self.site_id}"))
        return f"{host}/{folder}/{slug_word(self.rng)}-{self.uid()}.{ext}"

    def image(self, quirk: str = "img") -> MediaRef:
        url = self.media_url("img", self.rng.choice(_IMAGE_EXT))
        return MediaRef("image", quirk, url, alt=" ".join(sentence(self.rng).split()[:4]))

    # structure
    def extra_pages(self) -> int:
        f = self.features
        return 1 + 6 * ("deep_branch" in f) + 2 * ("robots" in f) + 5 * ("wide_hub" in f)

    def tree(self) -> None:
        # small sites keep the 50-site bench (6 variants) within 15 minutes on 2 cores
        lo, hi = ((3, 5), (4, 7), (6, 10))[self.size_class]
        target = self.rng.randint(lo, hi)
        target = min(target, _MAX_PAGES - self.extra_pages())
        depth_cap = self.rng.choice((2, 3, 3, 4, 5))
        fanout = self.rng.randint(2, 5)
        prefixes = _PREFIXES[self.layout]
        self.add("/", 0)
        level = [self.nodes["/"]]
        while level and len(self.nodes) < target:
            nxt: list[_Node] = []
            for parent in level:
                if parent.depth >= depth_cap:
                    continue
                for _ in range(self.rng.randint(max(1, fanout - 1), fanout + 1)):
                    if len(self.nodes) >= target:
                        break
                    prefix = prefixes[parent.depth]
                    child = self.add(f"/{prefix}/{slug_word(self.rng)}-{self.uid()}", parent.depth + 1)
                    parent.children.append(child.path)
                    nxt.append(child)
            level = nxt
        for node in list(self.nodes.values()):
            node.links = [self.link(p) for p in node.children]
            if self.rng.random() < 0.3:  # a cross link makes the graph more than a tree
                other = self.rng.choice(list(self.nodes))
                node.links.insert(self.rng.randint(0, len(node.links)), self.link(other))
            node.media = [self.image() for _ in range(self.rng.randint(0, 2))]
        about = self.add("/about", 1)
        level1 = self.nodes["/"].children[:3]
        self.nav = [Link("/", "Home"), *(self.link(p) for p in level1)]
        self.footer = [self.link(about.path), Link(f"https://elsewhere.invalid/{self.site_id}", "Partner site")]
        extras = [Link("/login", "Log in"), Link("/cart", "Cart"), Link("/logout", "Log out"),
                  Link(f"mailto:hello@{self.site_id}.invalid", "Contact"),
                  Link(f"/files/{self.site_id}-brochure.pdf", "Brochure (PDF)"),
                  Link(f"cdn:/{self.site_id}/img/banner.png", "Press kit")]
        self.footer += self.rng.sample(extras, self.rng.randint(3, len(extras)))

    # link features
    def dynamic_block(self, mechanism: str) -> None:
        for node in self.pick(self.rng.randint(1, 2), with_children=True):
            moved = [lk for lk in node.links if lk.href in node.children]
            moved = moved[len(moved) // 2:] if len(moved) > 1 else moved
            node.links = [lk for lk in node.links if lk not in moved]
            if not moved:
                moved = [self.link(p) for p in self.rng.sample(list(self.nodes), 2)]
            text = paragraph(self.rng, 2)
            n_media = 2 if mechanism in ("feed", "load_more") else 1
            media = tuple(self.image() for _ in range(n_media))
            key = (text.split(". ")[0] + ".",)
            if mechanism in ("feed", "load_more"):  # entries with their own text, one per batch or more
                items = self.list_items(len(moved) + 4)
                node.blocks.append(Block(mechanism, (text,), tuple(moved), media, key + tuple(s for _, s in items),
                                         "entries", items))
                continue
            node.blocks.append(Block(mechanism, (text,), tuple(moved), media, key))
            if mechanism == "overlay":  # the gated block is tagged "overlay", the whole page "cookie_banner"
                node.quirks.append("cookie_banner")

    def apply_link_feature(self, feature: str) -> None:
        home = self.nodes["/"]
        if feature in ("script", "delayed", "feed", "load_more", "overlay"):
            self.dynamic_block(feature)
        elif feature == "flaky_503":
            for node in self.pick(2, max_depth=2):
                if node.path != "/":
                    node.quirks.append("flaky_503")
        elif feature == "redirect":
            nav = {lk.href for lk in self.nav}
            movable = [lk.href for lk in home.links if lk.href in home.children and lk.href not in nav]
            if movable:  # a page reachable only through a redirect
                target = self.rng.choice(movable)
                old = f"/old/{target.rsplit('/', 1)[-1]}"
                self.redirects.append((old, target))
                home.links = [Link(old, lk.text, ("redirect",)) if lk.href == target else lk
                              for lk in home.links]
            other = self.rng.choice(list(self.nodes))  # a redirect to a page linked directly too
            moved = f"/moved/{self.uid()}"
            self.redirects.append((moved, other))
            home.links.append(Link(moved, "Moved page", ("redirect",)))
        elif feature == "calendar":
            self.calendar = "/events"
            self.nav.append(Link("/events?month=1", "Events", ("calendar",)))
        elif feature == "deep_branch":
            parts = [self.add(f"/series/part-{k}", 1 + k, ("deep_branch",)) for k in range(1, 7)]
            for a, b in itertools.pairwise(parts):
                a.links.append(self.link(b.path, ("deep_branch",)))
            level1 = [n for n in self.nodes.values() if n.depth == 1 and not n.quirks]
            anchor = self.rng.choice(level1 or [self.nodes["/"]])
            anchor.links.append(self.link(parts[0].path, ("deep_branch",)))
        elif feature == "wide_hub":
            hub = self.add("/archive", 1, ("wide_hub",))
            self.nav.append(self.link(hub.path))
            tree = [p for p, n in self.nodes.items() if n.depth > 0 and not n.quirks]
            n_old = max(4, WIDE_HUB_WIDTH + 4 - len(tree) - len(self.nav))  # more distinct links than W
            olds = [self.add(f"/archive/old-{k}", 2, ("wide_hub",)) for k in range(1, n_old + 1)]
            hub.links = [self.link(p) for p in tree] + [self.link(o.path, ("wide_hub",)) for o in olds]
        elif feature == "robots":
            self.robots.append("/private/")
            for k in (1, 2):
                self.add(f"/private/notes-{k}", 1, ("robots",))
                home.links.append(self.link(f"/private/notes-{k}", ("robots",)))
        elif feature == "duplicates":
            for node in self.pick(3, max_depth=2):
                for k, lk in enumerate(list(node.links[:3])):
                    href = self.rng.choice((f"{lk.href}?utm_source=news&utm_medium=email", f"{lk.href}#more",
                                            f"site:{lk.href}", f"site:{lk.href}?utm_campaign=spring#top"))
                    # some copies come before the plain link, so the page is admitted through them
                    node.links.insert(0 if k % 2 else len(node.links), Link(href, lk.text, ("duplicate",)))
            self.nav.insert(0, Link("/?utm_source=logo#top", "Logo", ("duplicate",)))
        elif feature == "broken_link":
            node = self.pick(1, max_depth=1)[0]
            node.links.append(Link(f"/{_PREFIXES[self.layout][1]}/missing-{self.uid()}", "Old page",
                                   ("broken_link",)))
        # page_budget is applied after the structure is frozen

    # list features: drawn from their own generator, so the sites' structure does not change
    def list_items(self, n: int) -> tuple[tuple[str, str], ...]:
        return tuple((" ".join(slug_word(self.lists).capitalize() for _ in range(2)), sentence(self.lists))
                     for _ in range(n))

    def apply_list_feature(self, feature: str) -> None:
        n = self.lists.randint(20, 30) if feature == "long_table" else self.lists.randint(5, 10)
        items = self.list_items(n)
        pool = [p for p, node in self.nodes.items() if not node.quirks]
        node = self.nodes[self.lists.choice(pool)]
        mechanism = self.lists.choice(("static", "static", "script"))
        node.blocks.append(Block(mechanism, (), (), (), tuple(s for _, s in items), feature, items))

    # page parts: their own generator too (the sites' structure and lists do not change)
    def apply_page_part(self, part: str) -> None:
        fewest, most = PAGE_PARTS[part]
        items = []
        for _ in range(self.parts.randint(fewest, most)):
            label, text = " ".join(slug_word(self.parts).capitalize() for _ in range(2)), sentence(self.parts)
            if part in SHORT_PARTS:
                text = " ".join(text.split()[:5]) + "."
            items.append((label, text))
        pool = [p for p, node in self.nodes.items() if not node.quirks]
        node = self.nodes[self.parts.choice(pool)]
        mechanism = self.parts.choice(("static", "static", "script"))
        node.blocks.append(Block(mechanism, (), (), (), tuple(s for _, s in items), part, tuple(items)))

    def boilerplate(self, path: str) -> tuple[tuple[str, str], ...]:
        rng = random.Random(f"{self.site_id}/boilerplate/{path}")
        per_page = tuple((kind, sentence(rng)) for kind in BOILERPLATE)
        return (*per_page, (TEMPLATE_WIDGET, sentence(random.Random(f"{self.site_id}/{TEMPLATE_WIDGET}"))))

    # media features
    def apply_media_feature(self, feature: str) -> None:
        for node in self.pick(self.rng.randint(1, 2), max_depth=2):
            node.media.extend(self.feature_media(feature))

    def feature_media(self, feature: str) -> list[MediaRef]:
        sid, name, n = self.site_id, slug_word(self.rng), self.uid()
        if feature in ("lazy_native", "lazy_io", "css_bg"):
            return [self.image(feature) for _ in range(self.rng.randint(1, 2))]
        if feature == "srcset":
            base = self.media_url("img", "jpg")[:-4]
            return [MediaRef("image", feature, f"{base}-480.jpg", (f"{base}-960.jpg", f"{base}-1440.jpg"))]
        if feature == "picture":
            base = self.media_url("img", "jpg")[:-4]
            return [MediaRef("image", feature, f"{base}.jpg", (f"{base}.webp",))]
        if feature == "poster":
            return [MediaRef("video", "video_src", self.media_url("video", "mp4"),
                             poster=self.media_url("img", "jpg"))]
        if feature in ("video_src", "video_script", "blob_fetch"):
            return [MediaRef("video", feature, self.media_url("video", self.rng.choice(("mp4", "webm"))))]
        if feature == "video_source":
            base = self.media_url("video", "webm")[:-5]
            return [MediaRef("video", feature, f"{base}.webm", (f"{base}.mp4",))]
        if feature in ("hls", "blob_mse"):
            base = self.media_url("hls", "x")[:-2]
            return [MediaRef("video", feature, f"{base}/index.m3u8", (f"{base}/seg-0.ts", f"{base}/seg-1.ts"))]
        if feature == "dash_mse":
            base = self.media_url("dash", "x")[:-2]
            return [MediaRef("video", feature, f"{base}/manifest.mpd", (f"{base}/video.mp4",))]
        if feature == "iframe_thirdparty":
            return [MediaRef("embed", feature, f"tp:/embed/{sid}-{n}")]
        if feature == "iframe_offsite":
            return [MediaRef("embed", feature, f"https://player.video.invalid/embed/{sid}-{n}")]
        if feature == "redirect_cdn":
            return [MediaRef("image", feature, f"/r/{name}-{n}.jpg", (f"cdn:/{sid}/img/{name}-{n}.jpg",))]
        bad = BAD_QUIRKS[feature]
        if self.rng.random() < 0.5:
            return [MediaRef("image", feature, f"/media/{bad}-{name}-{n}.jpg", bad=bad)]
        return [MediaRef("video", feature, f"/media/{bad}-{name}-{n}.mp4", bad=bad)]

    # freeze
    def page_spec(self, node: _Node) -> PageSpec:
        text = tuple(paragraph(self.rng, self.rng.randint(3, 4)) for _ in range(self.rng.randint(2, 3)))
        key = tuple(p.split(". ")[i] + "." for p, i in zip(text, (0, 1), strict=False))
        static = Block("static", text, tuple(node.links), tuple(node.media), key)
        top = tuple(b for b in node.blocks if b.layout in TOP_PARTS)
        rest = tuple(b for b in node.blocks if b.layout not in TOP_PARTS)
        return PageSpec(node.path, node.title, (*top, static, *rest), tuple(node.quirks),
                        self.boilerplate(node.path))

    def build(self) -> SiteSpec:
        self.tree()
        for feature in self.features:
            if feature in LINK_FEATURES:
                self.apply_link_feature(feature)
            else:
                self.apply_media_feature(feature)
        for feature in self.list_features:
            self.apply_list_feature(feature)
        for part in self.page_parts:
            self.apply_page_part(part)
        name = f"{slug_word(self.rng).capitalize()} {self.layout.title()}"
        spec = SiteSpec(
            site_id=self.site_id, name=name, layout=self.layout,
            pages=tuple(self.page_spec(n) for n in self.nodes.values()),
            nav=tuple(self.nav), footer=tuple(self.footer), redirects=tuple(self.redirects),
            robots_disallow=tuple(self.robots), calendar=self.calendar,
            features=self.features + self.list_features + self.page_parts,
        )
        if "wide_hub" in self.features:  # the hub's own budget: W binds on a small site
            spec = SiteSpec(**{**_fields(spec), "budget": Budget(max_width=WIDE_HUB_WIDTH)})
        return spec  # a "page_budget" site gets its P from its truth: `generate.generate_site`


def _fields(spec: SiteSpec) -> dict[str, Any]:
    return {k: getattr(spec, k) for k in spec.__dataclass_fields__ if not k.startswith("_")}


def build_site(index: int, seed: int = 0) -> SiteSpec:
    """The site as generated, before a "page_budget" site gets its P (`generate.generate_site`)."""
    return _Builder(index, seed).build()
