"""A `PageSnapshot` from HTML alone: the plain-HTTP path (no JavaScript).

Mirrors what `browser/collect_js.py` reads from a live DOM, as far as static
markup allows, so the extractor and reflection work the same on both paths.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urljoin

import lxml.html
from lxml import etree

from ..snapshot import Markers, PageSnapshot, RawCandidate
from .boilerplate import in_site_furniture
from .responsive import current_src
from .text import approx_inner_text

LAZY_ATTRS = ("data-src", "data-lazy-src", "data-original", "data-lazy", "data-url", "data-img",
              "data-image", "data-hi-res-src", "data-full-src")
LAZY_SET_ATTRS = ("data-srcset", "data-lazy-srcset")
META_KINDS = {
    "og:image": "image", "og:image:url": "image", "og:image:secure_url": "image", "twitter:image": "image",
    "twitter:image:src": "image", "og:video": "video", "og:video:url": "video",
    "og:video:secure_url": "video", "twitter:player:stream": "video",
}
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
MAX_HTML = 5_000_000


def parse_srcset(value: str | None) -> list[str]:
    """URLs of a srcset attribute, in order.

    >>> parse_srcset("a.png 1x, b.png 2x"), parse_srcset(None)
    (['a.png', 'b.png'], [])
    """
    if not value:
        return []
    return [p.strip().split()[0] for p in re.split(r",\s+(?=\S)", value) if p.strip()]


class _Builder:
    def __init__(self, base: str) -> None:
        self.base = base
        self.candidates: list[RawCandidate] = []
        self.group = 0

    def abs(self, url: str | None) -> str | None:
        if not url:
            return None
        url = url.strip()
        if not url or url.startswith(("data:", "javascript:", "about:")):
            return None
        if url.startswith("blob:"):
            return url
        try:
            return urljoin(self.base, url)
        except ValueError:
            return None

    def add(self, url: str | None, kind: str, found_in: str, **extra: Any) -> None:
        absolute = self.abs(url)
        if absolute:
            self.candidates.append(RawCandidate(url=absolute, kind=kind, found_in=found_in, **extra))


def _jsonld_urls(node: Any, depth: int = 0) -> Iterator[tuple[str, str]]:
    if depth > 8:
        return
    if isinstance(node, list):
        for item in node:
            yield from _jsonld_urls(item, depth + 1)
        return
    if not isinstance(node, dict):
        return
    types = node.get("@type", "")
    is_video = "VideoObject" in (types if isinstance(types, str) else " ".join(map(str, types)))
    for key, kind in (("contentUrl", "video" if is_video else "image"), ("image", "image"),
                      ("thumbnailUrl", "image"), ("embedUrl", "embed")):
        for value in node.get(key, []) if isinstance(node.get(key), list) else [node.get(key)]:
            if isinstance(value, str):
                yield value, kind
            elif isinstance(value, dict):
                nested = value.get("url") or value.get("contentUrl")
                if isinstance(nested, str):
                    yield nested, kind
    for key, value in node.items():
        if isinstance(value, (dict, list)) and key not in ("image", "contentUrl", "thumbnailUrl"):
            yield from _jsonld_urls(value, depth + 1)


HEAD_TAGS = frozenset({"title", "meta", "link", "base", "style", "script", "noscript", "template"})


def _body_of_headless(doc: Any) -> Any:
    """A `<body>` for a document without one: the content lxml kept in `<head>`, as a browser reads it.

    >>> doc = lxml.html.document_fromstring("<title>T</title><main><p>Hello</p></main>")
    >>> [el.tag for el in _body_of_headless(doc)]
    ['main']
    """
    body = lxml.html.Element("body")
    head = doc.find("head")
    for el in list(head) if head is not None else []:
        if isinstance(el.tag, str) and el.tag not in HEAD_TAGS:
            body.append(el)  # moves it, with its tail
    doc.append(body)
    return body


def snapshot_from_html(url: str, final_url: str, status: int | None, html: str) -> PageSnapshot:
    """Build a snapshot of a page from its HTML source."""
    snap = PageSnapshot(url=url, final_url=final_url, status=status, html=html[:MAX_HTML])
    if not html.strip():
        return snap
    try:
        doc = lxml.html.document_fromstring(html[:MAX_HTML])
    except (etree.ParserError, ValueError):
        return snap
    base_href = doc.xpath("string(//base/@href)")
    b = _Builder(urljoin(final_url, base_href) if base_href else final_url)
    markers = Markers()
    _images(doc, b, markers)
    _videos(doc, b, markers)
    _other_media(doc, b)
    links = [u for u in (b.abs(a.get("href")) for a in doc.xpath("//a[@href] | //area[@href]")) if u]
    for bad in doc.xpath("//script | //style | //noscript | //template"):
        bad.drop_tree()
    body = doc.find("body")
    snap.title = (doc.findtext(".//title") or "").strip()
    if body is None:  # no <body> tag: lxml leaves what follows <title> in <head>, where a browser would not
        body = _body_of_headless(doc)
    snap.body_text = approx_inner_text(body)
    snap.links = links
    snap.candidates = b.candidates
    snap.markers = markers
    return snap


def _images(doc: Any, b: _Builder, markers: Markers) -> None:
    """`<img>` sources (lazy data-*, src, srcset, `<picture>`), and lazy placeholders with no URL yet."""
    for img in doc.iter("img"):
        b.group += 1
        extra = {"alt": img.get("alt"), "group": f"g{b.group}", "furniture": in_site_furniture(img)}
        lazy = None
        for attr in LAZY_ATTRS:
            if img.get(attr):
                lazy = img.get(attr)
                b.add(lazy, "image", f"img@{attr}", **extra)
        for attr in LAZY_SET_ATTRS:
            for u in parse_srcset(img.get(attr)):
                b.add(u, "image", f"img@{attr}", **extra)
        b.add(img.get("src"), "image", "img@src", **extra)
        picture = _picture_of(img)
        sources = [s.attrib for s in picture.iter("source")] if picture is not None else []
        current = current_src(img.attrib, sources, b.base) if (img.get("srcset") or sources) else None
        if current and current != b.abs(img.get("src")):  # as the browser collector: only when it differs
            b.add(current, "image", "img@currentSrc", **extra)
        for u in parse_srcset(img.get("srcset")):
            b.add(u, "image", "img@srcset", **extra)
        for source in sources:
            for u in parse_srcset(source.get("srcset")):
                b.add(u, "image", "picture>source@srcset", **extra)
        if is_unknown_placeholder(img.attrib, lazy):
            markers.lazy_placeholders += 1


def _picture_of(img: Any) -> Any:
    """The `<picture>` of an `<img>`: libxml2 does not know `<source>` is void, so it nests what follows
    a `<source>` inside it (`<picture><source><img></source></picture>`); the picture is then further up.
    """
    parent = img.getparent()
    while parent is not None and parent.tag == "source":
        parent = parent.getparent()
    return parent if parent is not None and parent.tag == "picture" else None


def _videos(doc: Any, b: _Builder, markers: Markers) -> None:
    """`<video>` sources and posters; blob: players and videos with no source at all are marked."""
    for video in doc.iter("video"):
        b.group += 1
        found = False
        src = video.get("src") or ""
        if src.startswith("blob:"):
            markers.blob_videos += 1
        for attr in ("src", "data-src"):
            if video.get(attr):
                b.add(video.get(attr), "video", f"video@{attr}", group=f"v{b.group}")
                found = True
        for source in video.iter("source"):
            if source.get("src"):
                b.add(source.get("src"), "video", "source@src", group=f"v{b.group}")
                found = True
        b.add(video.get("poster"), "image", "video@poster")
        if not found:
            markers.empty_videos += 1


def _other_media(doc: Any, b: _Builder) -> None:
    """Embeds, og:/twitter: meta, JSON-LD, `<noscript>` images and CSS backgrounds."""
    for el in doc.xpath("//iframe[@src] | //embed[@src] | //object[@data]"):
        b.add(el.get("src") or el.get("data"), "embed", f"{el.tag}@src", context=el.get("title"))
    for meta in doc.xpath("//meta[@property or @name]"):
        key = (meta.get("property") or meta.get("name") or "").lower()
        if key in META_KINDS:
            b.add(meta.get("content"), META_KINDS[key], f"meta@{key}")
    for script in doc.xpath('//script[@type="application/ld+json"]'):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        for u, kind in _jsonld_urls(data):
            b.add(u, kind, "json-ld")
    for ns in doc.iter("noscript"):
        inner = (ns.text or "") + "".join(etree.tostring(c, encoding="unicode") for c in ns)
        for m in re.finditer(r"<img[^>]+src=[\"']([^\"']+)", inner, re.IGNORECASE):
            b.add(m.group(1), "image", "noscript")
    for el in doc.xpath("//*[@style]"):
        for m in _CSS_URL.finditer(el.get("style", "")):
            b.add(m.group(1), "image", "css@background-image", furniture=in_site_furniture(el))
    for style in doc.iter("style"):
        for m in _CSS_URL.finditer(style.text or ""):
            b.add(m.group(1), "image", "css@background-image")


def is_unknown_placeholder(attrs: Mapping[str, str], lazy_url: str | None) -> bool:
    """An `<img>` marked lazy with no URL anywhere yet (src, lazy data-*, srcset): media still missing.

    An image whose lazy `data-*` URL is known is not missing: that URL is a candidate already.

    >>> is_unknown_placeholder({"class": "lazy", "src": "data:image/gif;base64,R0"}, None)
    True
    >>> is_unknown_placeholder({"class": "lazy", "src": "grey.gif"}, None)
    False
    >>> is_unknown_placeholder({"class": "lazy"}, "a.png")
    False
    """
    src = attrs.get("src") or ""
    if lazy_url or (src and not src.startswith(("data:", "about:"))) or attrs.get("srcset"):
        return False
    if any(attrs.get(a) for a in ("data-srcset", "data-lazy-srcset")):
        return False
    return "lazy" in (attrs.get("class") or "").lower() or attrs.get("loading") == "lazy"
