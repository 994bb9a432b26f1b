"""HTML pages and media bytes derived from a `SiteSpec` (pure functions, no server).

Every quirk of the spec becomes markup plus a little page script:
`script` / `delayed` / `overlay` blocks are inserted by the script (at load,
after `DELAY_MS`, after the cookie banner is dismissed), `feed` batches are
fetched from `/api/feed/...` as the sentinel scrolls into view, `load_more`
batches from `/api/more/...` on each click. Lazy media sit below a tall
spacer, so only incremental scrolling reveals them. The final DOM keeps the
spec's link order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html import escape
from typing import TypeVar

from .media import dash_manifest, hls_manifest, media_bytes
from .sites import Block, Hosts, MediaRef, PageSpec, SiteSpec

DELAY_MS = 1500
LAZY = ("lazy_native", "lazy_io")
_DRIVEN = {"video_script": "setsrc", "blob_mse": "mse", "dash_mse": "mse", "blob_fetch": "blob"}
_T = TypeVar("_T")
_PIXEL = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
_EXT_FMT = {"jpg": "jpeg", "jpeg": "jpeg", "png": "png", "gif": "gif", "webp": "webp", "mp4": "mp4",
            "webm": "webm", "ts": "ts"}
PDF_BYTES = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"


@dataclass(frozen=True)
class Resource:
    """What a server answers for one path."""

    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    status: int = 200
    location: str | None = None  # redirect target (absolute)
    flaky: bool = False  # 503 on the first hit
    headers: tuple[tuple[str, str], ...] = field(default=())


# --- markup ---------------------------------------------------------------------------------------

_LINK_MARKUP = {
    "blog": ('<ul class="links">', '<li><a href="{h}">{t}</a></li>', "</ul>"),
    "shop": ('<div class="grid">', '<article class="card"><a href="{h}"><h3>{t}</h3></a></article>', "</div>"),
    "gallery": ('<div class="tiles">', '<a class="tile" href="{h}">{t}</a>', "</div>"),
    "news": ('<ol class="headlines">', '<li><a href="{h}">{t}</a></li>', "</ol>"),
    "docs": ('<ul class="toc">', '<li><a href="{h}">{t}</a></li>', "</ul>"),
}


def _a(value: str) -> str:
    return escape(value, quote=True)


def media_html(ref: MediaRef, hosts: Hosts, uid: str) -> str:
    """Markup for one media reference; `uid` names elements that the page script drives."""
    u, alt = _a(hosts.href(ref.url)), _a(ref.alt or "image")
    var = [_a(hosts.href(v)) for v in ref.variants]
    q = ref.quirk
    if ref.kind == "embed":
        return f'<iframe src="{u}" width="560" height="315" title="Video player" allowfullscreen></iframe>'
    if ref.kind == "image":
        if q == "lazy_native":
            return f'<img loading="lazy" src="{u}" alt="{alt}" width="320" height="240">'
        if q == "lazy_io":
            return f'<img class="lazy" src="{_PIXEL}" data-src="{u}" alt="{alt}" width="320" height="240">'
        if q == "srcset":
            cands = ", ".join(f"{x} {w}w" for x, w in zip([u, *var], (480, 960, 1440, 1920), strict=False))
            return f'<img src="{u}" srcset="{cands}" sizes="(max-width: 600px) 480px, 960px" alt="{alt}">'
        if q == "picture":
            sources = "".join(f'<source type="image/webp" srcset="{v}">' for v in var)
            return f'<picture>{sources}<img src="{u}" alt="{alt}"></picture>'
        if q == "css_bg":
            if sum(map(ord, ref.url)) % 2:
                return f'<div class="hero" role="img" aria-label="{alt}" style="background-image: url(\'{u}\')"></div>'
            return (f"<style>.bg-{uid} {{ background-image: url(\"{u}\"); }}</style>"
                    f'<div class="hero bg-{uid}" role="img" aria-label="{alt}"></div>')
        return f'<img src="{u}" alt="{alt}" width="320" height="240">'
    poster = f' poster="{_a(hosts.href(ref.poster))}"' if ref.poster else ""
    if q in ("video_script", "blob_fetch", "blob_mse", "dash_mse"):
        return f'<video id="v-{uid}" class="player" controls muted playsinline{poster}></video>'
    if q == "video_source":
        types = {"webm": "video/webm", "mp4": "video/mp4"}
        srcs = "".join(f'<source src="{x}" type="{types[x.rsplit(".", 1)[-1]]}">' for x in [u, *var])
        return f'<video controls preload="none"{poster}>{srcs}</video>'
    if q == "hls":
        return f'<video controls preload="none"{poster}><source src="{u}" type="application/x-mpegURL"></video>'
    return f'<video controls preload="metadata"{poster} src="{u}"></video>'


_ITEM_MARKUP = {  # (start, item, end): each item has a label {l} and a key sentence {s}
    "entries": ("", '<article class="entry"><h3>{l}</h3><p>{s}</p></article>', ""),
    "card_grid": ('<div class="cards">', '<div class="card"><h3 class="card-title">{l}</h3>'
                  '<div class="card-body">{s}</div><div class="card-footer">Item {n}</div></div>', "</div>"),
    "quotes": ('<ul class="comments">', '<li class="comment"><span class="author">{l}</span> wrote:'
               "<blockquote>{s}</blockquote></li>", "</ul>"),
    "long_table": ('<table class="data"><thead><tr><th>#</th><th>Name</th><th>Note</th></tr></thead><tbody>',
                   "<tr><td>{n}</td><td>{l}</td><td>{s}</td></tr>", "</tbody></table>"),
    "accordion": ('<div class="faq">', '<details class="faq-item"><summary>{l}?</summary><div>{s}</div></details>',
                  "</div>"),
    "forum_thread": ('<div class="thread">', '<div class="post" id="post-{n}"><div class="post-meta">{l} · '
                     'reply #{n}</div><div class="post-body">{s}</div></div>', "</div>"),
    "search_results": ('<ol class="results">', '<li class="result"><h3>{l}</h3><cite>www.{k}.invalid/{n}</cite>'
                       '<span class="snippet">{s}</span></li>', "</ol>"),
    # page parts (`sites.PAGE_PARTS`) as real CMSs and apps mark them up; {h}: a link the page already has
    # (the site's first menu entry), so that no part changes the crawl
    "hero_headline": ('<div class="banner"><div class="container">', "<h1>{s}</h1>", "</div></div>"),
    "article_header": ('<article class="post type-post hentry"><header class="entry-header page-header">',
                       '<h2 class="entry-title">{l}</h2><p class="entry-summary lead">{s}</p>'
                       '<div class="entry-meta">Posted on <time>June {n}</time> by <a href="{h}">{k}</a></div>',
                       '</header><div class="entry-content"></div></article>'),
    "figure_captions": ("", '<figure class="wp-block-image size-large"><div class="wp-image-placeholder" role="img" '
                        'aria-label="{l}"></div><figcaption class="wp-element-caption">{s}</figcaption></figure>', ""),
    "card_links": ('<div class="col-md-9"><div class="feed-toggle"><ul class="nav nav-pills outline-active">'
                   '<li class="nav-item"><span class="nav-link active">Global Feed</span></li></ul></div>',
                   '<div class="article-preview"><div class="article-meta"><span class="author">{l}</span>'
                   '<span class="date">June {n}</span></div><a href="{h}" class="preview-link"><h1>{s}</h1>'
                   "<p>Notes by {l}.</p><span>Read more...</span></a></div>", "</div>"),
    "profile_bio": ('<div class="profile-page"><div class="user-info"><div class="container"><div class="row">',
                    '<h4>{l}</h4><p>{s}</p><button class="btn btn-sm btn-outline-secondary action-btn">'
                    "Follow {l}</button>", "</div></div></div></div>"),
    "comment_cards": ('<div class="row"><div class="col-xs-12 col-md-8 offset-md-2">',
                      '<div class="card"><div class="card-block"><p class="card-text">{s}</p></div>'
                      '<div class="card-footer"><span class="comment-author">{l}</span>'
                      '<span class="date-posted">June {n}</span></div></div>', "</div></div>"),
    "faq_links": ('<div class="accordion" id="faq">', '<div class="accordion-item"><h2 class="accordion-header">'
                  '<button class="accordion-button collapsed" type="button">{l}?</button></h2>'
                  '<div class="accordion-collapse collapse"><div class="accordion-body">{s} See '
                  '<a href="{h}">the help pages</a>.</div></div></div>', "</div>"),
    "list_intro": ('<div class="view view-news view-display-id-page">',
                   '<div class="views-row"><div class="views-field views-field-title"><span class="field-content">'
                   '<a href="{h}">{l}</a></span></div><div class="views-field-body">{s}</div></div>',
                   "</div></div>", '<div class="view-header"><p>{s}</p></div><div class="view-content">'),
    "carousel": ('<div id="slides" class="carousel slide" data-bs-ride="carousel"><div class="carousel-inner">',
                 '<div class="carousel-item"><div class="carousel-caption d-none d-md-block"><h5>{l}</h5>'
                 "<p>{s}</p></div></div>", "</div></div>"),
    "tag_items": ('<div class="col-md-8">', '<div class="quote"><span class="text">{s}</span><span>by '
                  '<small class="author">{l}</small> <a href="{h}">(about)</a></span><div class="tags">Tags: '
                  '<a class="tag" href="{h}">{k}</a> <a class="tag" href="{h}">life</a> '
                  '<a class="tag" href="{h}">love</a> <a class="tag" href="{h}">truth</a></div></div>', "</div>"),
    "utility_hidden": ('<section class="hidden md:block lg:grid lg:grid-cols-3 gap-4">',
                       '<div class="p-4 text-sm text-gray-500"><h3 class="font-bold truncate">{l}</h3>'
                       '<p class="line-clamp-2">{s}</p></div>', "</section>"),
}


def items_html(block: Block, href: str = "/") -> str:
    """The list items of a block in its layout's markup (a 4th markup, if any, is the first item's, e.g. a
    list's intro; `href`: a link the page already has).

    >>> items_html(Block("static", layout="quotes", items=(("Ann", "Hi there."),)))[21:]
    '<li class="comment"><span class="author">Ann</span> wrote:<blockquote>Hi there.</blockquote></li></ul>'
    >>> items_html(Block("static", layout="list_intro", items=(("A b", "Intro."), ("C d", "x."))))[49:119]
    '<div class="view-header"><p>Intro.</p></div><div class="view-content">'
    """
    if not block.items:
        return ""
    start, item, end, *first = _ITEM_MARKUP[block.layout]
    body = "".join((first[0] if first and n == 0 else item).format(
        l=escape(label), s=escape(text), n=n + 1, k=escape(label.split()[0].lower()), h=_a(href))
        for n, (label, text) in enumerate(block.items))
    return start + body + end


def block_html(spec: SiteSpec, block: Block, hosts: Hosts, uid: str) -> str:
    """The content of a block as it stands in the final DOM."""
    start, item, end = _LINK_MARKUP[spec.layout]
    parts = [f"<p>{escape(p)}</p>" for p in block.paragraphs]
    if block.items:
        parts.append(items_html(block, hosts.href(spec.nav[0].href) if spec.nav else "/"))
    if block.links:
        items = "".join(item.format(h=_a(hosts.href(lk.href)), t=escape(lk.text)) for lk in block.links)
        parts.append(start + items + end)
    eager = [m for m in block.media if m.quirk not in LAZY]
    lazy = [m for m in block.media if m.quirk in LAZY]
    parts += [f'<div class="media">{media_html(m, hosts, f"{uid}-{i}")}</div>' for i, m in enumerate(eager)]
    if lazy:
        parts.append('<div class="spacer"></div>')
        parts += [f'<div class="media">{media_html(m, hosts, f"{uid}-l{i}")}</div>' for i, m in enumerate(lazy)]
    return "\n".join(parts)


def batches(block: Block) -> list[Block]:
    """A feed / load-more block cut into contiguous batches (links keep their order).

    >>> from .sites import Link
    >>> [len(b.links) for b in batches(Block("feed", links=tuple(Link(f"/{i}", "x") for i in range(5))))]
    [2, 2, 1]
    """
    n = 3 if len(block.links) >= 5 else 2

    def cut(seq: tuple[_T, ...], k: int) -> tuple[_T, ...]:
        size = max(1, -(-len(seq) // n))
        return seq[k * size:(k + 1) * size]

    return [
        Block(block.mechanism, block.paragraphs if k == 0 else (), cut(block.links, k), cut(block.media, k),
              block.key if k == 0 else (), block.layout, cut(block.items, k))
        for k in range(n)
    ]


def _api_base(mechanism: str, page_index: int, block_index: int) -> str:
    return f"/api/{'feed' if mechanism == 'feed' else 'more'}/{page_index}/{block_index}/"


def _drive(conf: dict[str, dict[str, str]], block: Block, uid: str, hosts: Hosts) -> None:
    """Register the videos of a block whose src the page script sets."""
    eager = [m for m in block.media if m.quirk not in LAZY]
    for i, m in enumerate(eager):
        if m.quirk in _DRIVEN:
            conf[_DRIVEN[m.quirk]][f"v-{uid}-{i}"] = hosts.href(m.url)


def _script_config(spec: SiteSpec, page: PageSpec, page_index: int, hosts: Hosts) -> dict[str, object]:
    conf: dict[str, dict[str, str]] = {k: {} for k in ("script", "delayed", "overlay", "feed", "more",
                                                        "setsrc", "mse", "blob")}
    for b, block in enumerate(page.blocks):
        uid = f"{page_index}-{b}"
        if block.mechanism in ("feed", "load_more"):
            conf["feed" if block.mechanism == "feed" else "more"][f"b-{uid}"] = _api_base(
                block.mechanism, page_index, b)
            for k, part in enumerate(batches(block)):
                _drive(conf, part, f"{uid}-{k}", hosts)
            continue
        if block.mechanism in ("script", "delayed", "overlay"):
            conf[block.mechanism][f"b-{uid}"] = block_html(spec, block, hosts, uid)
        _drive(conf, block, uid, hosts)
    return {**conf, "delay": DELAY_MS}


def render_page(spec: SiteSpec, page: PageSpec, hosts: Hosts, page_index: int = 0) -> str:
    """The HTML document of a page."""
    nav = "".join(f'<li><a href="{_a(hosts.href(lk.href))}">{escape(lk.text)}</a></li>' for lk in spec.nav)
    furniture = dict(page.boilerplate)
    if "menu" in furniture:  # a promotional menu entry, not a link (it must not change the crawl)
        nav += f'<li><span class="menu-label">{escape(furniture["menu"])}</span></li>'
    nav_html = f'<nav aria-label="Main"><ul>{nav}</ul></nav>'
    header = f'<header class="site-header"><span class="brand">{escape(spec.name)}</span>'
    header += ("</header>\n<aside class=\"sidebar\">" + nav_html + "</aside>") if spec.layout == "docs" \
        else nav_html + "</header>"
    blocks: list[str] = []
    for b, block in enumerate(page.blocks):
        uid = f"{page_index}-{b}"
        if block.mechanism == "static":
            blocks.append(f'<section class="block">{block_html(spec, block, hosts, uid)}</section>')
        elif block.mechanism == "feed":
            blocks.append(f'<div class="spacer"></div><section class="block feed" id="b-{uid}">'
                          '<div class="feed-items"></div><div class="feed-sentinel">Loading…</div></section>')
        elif block.mechanism == "load_more":
            blocks.append(f'<section class="block more" id="b-{uid}"><div class="more-items"></div>'
                          '<button type="button" class="load-more">Load more</button></section>')
        else:
            blocks.append(f'<section class="block js-block" id="b-{uid}"></section>')
    footer = "".join(f'<li><a href="{_a(hosts.href(lk.href))}">{escape(lk.text)}</a></li>' for lk in spec.footer)
    footer += f'</ul><p class="footer-note">{escape(furniture["footer"])}</p><ul>' if "footer" in furniture else ""
    overlay = ""
    if "cookie_banner" in page.quirks or any(b.mechanism == "overlay" for b in page.blocks):
        overlay = ('<div id="cookie-banner" class="overlay" role="dialog" aria-modal="true"><div class="box">'
                   "<p>We use cookies to improve your experience. Accept to see all content.</p>"
                   '<button type="button" class="accept">Accept all</button> '
                   '<button type="button" class="reject">Reject</button></div></div>')
    config = json.dumps(_script_config(spec, page, page_index, hosts), sort_keys=True).replace("</", "<\\/")
    body_class = f"layout-{spec.layout}" + (" locked" if overlay else "")
    related = _related_box(furniture, page_index, hosts.href(spec.nav[0].href) if spec.nav else "/")
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(page.title)} | {escape(spec.name)}</title><style>{_CSS}</style></head>\n"
        f'<body class="{body_class}">\n{header}\n<main id="content">\n<h1>{escape(page.title)}</h1>\n'
        + _share_bar(furniture, page_index) + "\n".join(blocks) + _widget(furniture, spec.name) + related
        + f'\n</main>\n<footer class="site-footer"><ul>{footer}</ul>'
        f"<p>&copy; {escape(spec.name)}. All rights reserved.</p></footer>\n{overlay}{_cookie_notice(furniture)}\n"
        f"<script>const BENCH = {config};\n{_RUNTIME}</script>\n</body></html>\n"
    )


# Planted furniture, in markup that varies with the page as it does across real sites.
_SHARE = ('<div class="share-bar">{s} <span>Share on X</span> <span>Share on Facebook</span></div>',
          '<ul class="social-share"><li>{s}</li><li>Email</li><li>Copy link</li></ul>')
# A rail of other pages is their teasers, each a link to its page; the link goes to a page the menu already
# links to (a duplicate of the page's own links, so it cannot change the crawl).
_RELATED = ('<aside class="related"><h2>Related articles</h2><ul><li><a href="{href}">{s}</a></li></ul></aside>',
            '<section class="related-posts"><h2>You may also like</h2><article class="teaser">'
            '<p><a href="{href}">{s}</a></p></article></section>',
            '<div id="recommended" class="recommendations"><h3>Recommended for you</h3>'
            '<p><a href="{href}">{s}</a></p></div>')


# The site's widget, the same on each of its pages, named as real sites name theirs (nothing says furniture).
_WIDGET = ('<div class="stat-block"><h3>Who is online</h3><p>{s}</p></div>',
           '<section class="box"><h2>About this site</h2><p>{s}</p></section>',
           '<div class="notice"><p>{s}</p></div>')


def _widget(furniture: dict[str, str], site: str) -> str:
    text = furniture.get("widget")
    return "\n" + _WIDGET[sum(map(ord, site)) % len(_WIDGET)].format(s=escape(text)) if text else ""


def _share_bar(furniture: dict[str, str], index: int) -> str:
    text = furniture.get("share")
    return _SHARE[index % len(_SHARE)].format(s=escape(text)) + "\n" if text else ""


def _related_box(furniture: dict[str, str], index: int, href: str) -> str:
    text = furniture.get("related")
    return "\n" + _RELATED[index % len(_RELATED)].format(s=escape(text), href=_a(href)) if text else ""


def _cookie_notice(furniture: dict[str, str]) -> str:
    text = furniture.get("cookie")
    return f'<div class="cookie-consent" role="region" aria-label="Cookies"><p>{escape(text)}</p></div>' if text else ""


def batch_json(spec: SiteSpec, page_index: int, block_index: int, batch: int, hosts: Hosts) -> bytes:
    """The JSON answer of a feed / load-more API call."""
    block = spec.pages[page_index].blocks[block_index]
    parts = batches(block)
    uid = f"{page_index}-{block_index}-{batch}"
    cls = "feed-item" if block.mechanism == "feed" else "more-item"
    html = f'<div class="{cls}">{block_html(spec, parts[batch], hosts, uid)}</div>'
    return json.dumps({"html": html, "more": batch + 1 < len(parts)}).encode()


# --- resources ------------------------------------------------------------------------------------

_HTML_ERROR = b"<!doctype html><html><body><h1>Oops</h1><p>This file is gone.</p></body></html>"


def _fmt(token: str) -> str:
    return _EXT_FMT[token.rsplit(".", 1)[-1].lower()]


def _bytes_resource(token: str) -> Resource:
    body, ctype = media_bytes(_fmt(token), token)
    return Resource(body, ctype)


def media_resources(ref: MediaRef, hosts: Hosts) -> list[tuple[str, Resource]]:
    """(token, resource) pairs that serve one media reference as the spec intends."""
    out: list[tuple[str, Resource]] = []
    if ref.poster:
        out.append((ref.poster, _bytes_resource(ref.poster)))
    if ref.kind == "embed" or ref.bad == "404":
        return out  # embeds live on the third-party host; a 404 is the default answer
    if ref.bad == "html200":
        return [*out, (ref.url, Resource(_HTML_ERROR, "text/html; charset=utf-8"))]
    if ref.bad == "wrong_kind":  # bytes of the other kind, under a plausible content type
        other = "png" if ref.kind == "video" else "mp4"
        body, _ = media_bytes(other, ref.url)
        ctype = "video/mp4" if ref.kind == "video" else "image/jpeg"
        return [*out, (ref.url, Resource(body, ctype))]
    if ref.quirk == "redirect_cdn":
        target = ref.variants[0]
        return [*out, (ref.url, Resource(status=302, location=hosts.resolve(target), content_type="")),
                (target, _bytes_resource(target))]
    if ref.url.endswith(".m3u8"):
        names = [v.rsplit("/", 1)[-1] for v in ref.variants]
        out.append((ref.url, Resource(hls_manifest(names), "application/vnd.apple.mpegurl")))
        return out + [(v, _bytes_resource(v)) for v in ref.variants]
    if ref.url.endswith(".mpd"):
        out.append((ref.url, Resource(dash_manifest(ref.variants[0].rsplit("/", 1)[-1]), "application/dash+xml")))
        return out + [(v, _bytes_resource(v)) for v in ref.variants]
    return out + [(t, _bytes_resource(t)) for t in (ref.url, *ref.variants)]


def robots_txt(spec: SiteSpec) -> str:
    lines = ["User-agent: *", *(f"Disallow: {p}" for p in spec.robots_disallow)]
    if not spec.robots_disallow:
        lines.append("Disallow:")
    return "\n".join(lines) + "\n"


def site_resources(spec: SiteSpec, hosts: Hosts) -> tuple[dict[str, Resource], dict[str, Resource]]:
    """Everything the site host and the CDN serve for this site (calendar pages excepted: dynamic)."""
    site: dict[str, Resource] = {"/robots.txt": Resource(robots_txt(spec).encode(), "text/plain")}
    cdn: dict[str, Resource] = {}

    def put(token: str, res: Resource) -> None:
        if token.startswith("cdn:"):
            cdn[token[4:]] = res
        elif token.startswith(("/", "site:")):
            site[token.removeprefix("site:")] = res

    for index, page in enumerate(spec.pages):
        html = render_page(spec, page, hosts, index).encode()
        site[page.path] = Resource(html, flaky="flaky_503" in page.quirks)
        for b, block in enumerate(page.blocks):
            for ref in block.media:
                for token, res in media_resources(ref, hosts):
                    put(token, res)
            if block.mechanism in ("feed", "load_more"):
                for k in range(len(batches(block))):
                    put(_api_base(block.mechanism, index, b) + str(k),
                        Resource(batch_json(spec, index, b, k, hosts), "application/json"))
    for old, new in spec.redirects:
        site[old] = Resource(status=301, location=hosts.resolve(new), content_type="")
    for link in (*spec.footer, *spec.nav):  # linked files answer properly too
        if link.href.endswith(".pdf"):
            put(link.href, Resource(PDF_BYTES, "application/pdf"))
        elif link.href.rsplit(".", 1)[-1] in _EXT_FMT:
            put(link.href, _bytes_resource(link.href))
    return site, cdn


def embed_page(path: str) -> Resource:
    """The third-party player page behind every ``tp:/embed/<id>``: no media of its own."""
    name = escape(path.rsplit("/", 1)[-1])
    html = (f"<!doctype html><html><head><title>Player {name}</title></head>"
            f'<body><div class="player">&#9654; {name}</div></body></html>')
    return Resource(html.encode())


_CSS = (
    "body{font-family:sans-serif;margin:0}main{max-width:960px;margin:auto;padding:1em}"
    ".spacer{height:3000px}.feed-item{min-height:900px}.hero{width:320px;height:240px;background-size:cover}"
    ".grid,.tiles{display:flex;flex-wrap:wrap;gap:8px}.card,.tile{border:1px solid #ccc;padding:8px}"
    ".sidebar{float:left;width:200px}.overlay{position:fixed;inset:0;background:rgba(0,0,0,.7);z-index:99}"
    ".overlay .box{background:#fff;margin:20vh auto;padding:2em;max-width:400px}body.locked{overflow:hidden}"
)

_RUNTIME = r"""
(function () {
  const wired = new WeakSet();
  const lazy = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (e.isIntersecting) { e.target.src = e.target.dataset.src; lazy.unobserve(e.target); }
    });
  });
  function mse(video, manifest) {
    if (window.MediaSource) { video.src = URL.createObjectURL(new MediaSource()); }
    fetch(manifest).then(function (r) { return r.text(); }).then(function (text) {
      const urls = text.split("\n").map(function (s) { return s.trim(); })
        .filter(function (s) { return s && s[0] !== "#" && s[0] !== "<"; });
      const base = text.match(/<BaseURL>([^<]+)<\/BaseURL>/);
      if (base) { urls.push(base[1]); }
      urls.slice(0, 2).forEach(function (u) {
        fetch(new URL(u, new URL(manifest, location.href))).then(function (r) { return r.arrayBuffer(); })
          .catch(function () {});
      });
    }).catch(function () {});
  }
  function blob(video, url) {
    fetch(url).then(function (r) { return r.blob(); })
      .then(function (b) { video.src = URL.createObjectURL(b); }).catch(function () {});
  }
  function wire(root) {
    root.querySelectorAll("img[data-src]").forEach(function (img) {
      if (!wired.has(img)) { wired.add(img); lazy.observe(img); }
    });
    root.querySelectorAll("video[id]").forEach(function (v) {
      if (wired.has(v)) { return; }
      wired.add(v);
      if (BENCH.setsrc[v.id]) { v.src = BENCH.setsrc[v.id]; }
      if (BENCH.mse[v.id]) { mse(v, BENCH.mse[v.id]); }
      if (BENCH.blob[v.id]) { blob(v, BENCH.blob[v.id]); }
    });
  }
  function fill(id, html) {
    const el = document.getElementById(id);
    el.insertAdjacentHTML("beforeend", html);
    wire(el);
  }
  Object.keys(BENCH.script).forEach(function (id) { fill(id, BENCH.script[id]); });
  Object.keys(BENCH.delayed).forEach(function (id) {
    setTimeout(function () { fill(id, BENCH.delayed[id]); }, BENCH.delay);
  });
  const banner = document.getElementById("cookie-banner");
  if (banner) {
    banner.querySelectorAll("button").forEach(function (button) {
      button.addEventListener("click", function () {
        banner.remove();
        document.body.classList.remove("locked");
        Object.keys(BENCH.overlay).forEach(function (id) { fill(id, BENCH.overlay[id]); });
      });
    });
  }
  Object.keys(BENCH.feed).forEach(function (id) {
    const section = document.getElementById(id);
    const items = section.querySelector(".feed-items");
    const sentinel = section.querySelector(".feed-sentinel");
    let n = 0, busy = false;
    const watch = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { next(); }
    });
    function next() {
      if (busy || !sentinel.isConnected) { return; }
      busy = true;
      fetch(BENCH.feed[id] + n).then(function (r) { return r.json(); }).then(function (d) {
        items.insertAdjacentHTML("beforeend", d.html);
        wire(items);
        n += 1;
        busy = false;
        if (!d.more) { watch.disconnect(); sentinel.remove(); return; }
        if (sentinel.getBoundingClientRect().top < window.innerHeight) { next(); }
      }).catch(function () { busy = false; });
    }
    watch.observe(sentinel);
  });
  Object.keys(BENCH.more).forEach(function (id) {
    const section = document.getElementById(id);
    const items = section.querySelector(".more-items");
    const button = section.querySelector(".load-more");
    let n = 0, busy = false;
    button.addEventListener("click", function () {
      if (busy) { return; }
      busy = true;
      fetch(BENCH.more[id] + n).then(function (r) { return r.json(); }).then(function (d) {
        items.insertAdjacentHTML("beforeend", d.html);
        wire(items);
        n += 1;
        busy = false;
        if (!d.more) { button.remove(); }
      }).catch(function () { busy = false; });
    });
  });
  wire(document);
})();
"""
