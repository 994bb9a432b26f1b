"""A page is scrolled only where a scroll could reveal something (`reveal.needs_scroll`).

Every page below is far taller than the viewport and has one image at the bottom. Two of them name
that image's URL in the DOM (native `loading=lazy`, and an IntersectionObserver over `img[data-src]`):
read without a scroll, so Chromium never asks for the image, and the item still has it (media
verification fetched it). Three set off loading only on a scroll (an observer whose callback builds the
URL, a `scroll` listener, `window.onscroll`): scrolled, one attempt each, the image found.
`BARA_SCROLL_ALL` scrolls all five.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer

from ..crawl_utils import run_crawl

SPACER = '<div style="height:9000px">Spacer.</div>'
APPEND = "document.querySelector('main').insertAdjacentHTML('beforeend', '<img src=\"/img/{name}.png\" alt=\"x\">')"
NEAR_END = "innerHeight + scrollY > document.body.scrollHeight - 600"
PAGES = {
    # the URL is in the DOM: no scroll
    "native": '<img loading="lazy" src="/img/native.png" alt="native">',
    "named": ('<img data-src="/img/named.png" alt="named"><script>const io = new IntersectionObserver((es) =>'
              ' es.forEach((e) => { if (e.isIntersecting) { e.target.src = e.target.dataset.src;'
              ' io.unobserve(e.target); } })); document.querySelectorAll("img[data-src]").forEach((i) => io.observe(i))'
              ';</script>'),
    # only a scroll sets it off
    "built": ('<img class="pic" data-key="built" alt="built"><script>const io = new IntersectionObserver((es) =>'
              ' es.forEach((e) => { if (e.isIntersecting) { e.target.src = "/img/" + e.target.dataset.key + ".png";'
              ' io.unobserve(e.target); } })); io.observe(document.querySelector(".pic"));</script>'),
    "listener": (f"<script>let done = false; addEventListener('scroll', () => {{ if (!done && {NEAR_END}) "
                 f"{{ done = true; {APPEND.format(name='listener')}; }} }});</script>"),
    "onscroll": (f"<script>window.onscroll = () => {{ if ({NEAR_END}) {{ window.onscroll = null; "
                 f"{APPEND.format(name='onscroll')}; }} }};</script>"),
}
UNSCROLLED = ("native", "named")


class Recorder:
    """Which images Chromium itself asked for (`Sec-Fetch-Dest: image`; media verification sends none)."""

    def __init__(self) -> None:
        self.browser_fetched: set[str] = set()
        self._lock = threading.Lock()

    def image(self, info: RequestInfo) -> Route:
        if info.headers.get("sec-fetch-dest") == "image":
            with self._lock:
                self.browser_fetched.add(info.path)
        return Route(image_bytes("png", info.path), content_type="image/png")


@pytest.fixture
def site() -> Iterator[tuple[SiteServer, Recorder]]:
    recorder = Recorder()
    s = Site()
    links = "".join(f'<a href="/{name}">{name}</a> ' for name in PAGES)
    s.add("/", f"<html><head><title>Home</title></head><body><main><h1>Pages</h1>{links}</main></body></html>")
    for name, tail in PAGES.items():
        s.add(f"/{name}", f"<html><head><title>{name}</title></head><body><main><h1>The {name} page</h1>"
                          f"<p>Text of the {name} page, long enough to read.</p>{SPACER}{tail}</main></body></html>")
        s.add(f"/img/{name}.png", handler=recorder.image)
    with SiteServer(s) as server:
        yield server, recorder


def _crawl(tmp_path: Path, server: SiteServer, **settings: object) -> tuple[dict[str, dict], dict]:
    out = run_crawl(server.url("/"), tmp_path=tmp_path, settings={
        "BARA_ALLOW_PRIVATE_NETWORKS": True, "BARA_MAX_ATTEMPTS": 1, "BARA_SCROLL_MAX_STEPS": 30, **settings})
    return {item["url"]: item for item in out}, out.stats


def _images(item: dict) -> list[str]:
    return sorted(m["url"] for m in item["images"])


def test_only_pages_where_a_scroll_sets_something_off_are_scrolled(
        tmp_path: Path, site: tuple[SiteServer, Recorder]) -> None:
    server, recorder = site
    items, stats = _crawl(tmp_path, server)
    for name in PAGES:
        item = items[server.url(f"/{name}")]
        assert item["status"] == "ok", (name, item["attempts"])
        assert _images(item) == [server.url(f"/img/{name}.png")], (name, item["attempts"])
    # the two pages that name their image were read without a scroll: Chromium never loaded it
    assert recorder.browser_fetched == {f"/img/{name}.png" for name in PAGES if name not in UNSCROLLED}
    assert stats["bara/scroll/attempts"] == len(PAGES) - len(UNSCROLLED)


def test_scroll_all_scrolls_every_tall_page(tmp_path: Path, site: tuple[SiteServer, Recorder]) -> None:
    server, recorder = site
    items, stats = _crawl(tmp_path, server, BARA_SCROLL_ALL=True)
    for name in PAGES:
        assert _images(items[server.url(f"/{name}")]) == [server.url(f"/img/{name}.png")], name
    assert stats["bara/scroll/attempts"] == len(PAGES)
    assert recorder.browser_fetched == {f"/img/{name}.png" for name in PAGES}
