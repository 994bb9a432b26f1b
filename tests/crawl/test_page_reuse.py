"""Reused browser tabs (BARA_PAGE_REUSE): nothing carries over from one page to the next, and tabs are
recycled, each in a window of its own.

Every page keeps its lazy images (an IntersectionObserver builds their URLs) below tall spacers, so each page
needs scroll steps whose frames must run, in a tab that served other pages before. Each tab has a window
of its own: tabs sharing a window are background tabs to Chromium, all but the newest, rendered one frame
about every 2 s (seen on the 50-site bench: pages of ~10 steps ran out of time). This fixture does not
always trigger that throttling, so the window per tab is asserted directly (tests/component/test_windows.py
checks the windows in Chromium).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.media import VIDEO_TYPES, hls_manifest, image_bytes, ts_bytes
from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer

from ..crawl_utils import run_crawl

PAGES = ["/", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6", "/p7"]
# the observer builds each URL (none is in the DOM before a scroll), so the pages must be scrolled
LAZY_JS = """<script>
const io = new IntersectionObserver((es) => es.forEach((e) => { if (e.isIntersecting) {
  e.target.src = "/img/" + e.target.dataset.key + ".png"; io.unobserve(e.target); } }));
document.querySelectorAll('img[data-key]').forEach((img) => io.observe(img));
</script>"""


def _name(path: str) -> str:
    return path.strip("/") or "home"


def _page(path: str) -> str:
    name = _name(path)
    links = "".join(f'<a href="{p}">{_name(p)}</a> ' for p in PAGES if path == "/" and p != "/")
    images = "".join(f'<p>figure {k}</p><div style="height:900px"></div><img data-key="{name}-{k}" '
                     f'width="64" height="48" alt="{name} figure {k}">' for k in range(8))
    return (f"<html><head><title>{name}</title></head><body><main><h1>Page {name}</h1>"
            f"<p>The marker of this page is mark-{name}, written once.</p>{links}{images}</main>"
            f"{LAZY_JS}</body></html>")


@pytest.fixture
def site() -> Iterator[SiteServer]:
    s = Site()
    for path in PAGES:
        s.add(path, _page(path))
        for k in range(8):
            s.add(f"/img/{_name(path)}-{k}.png", image_bytes("png", f"{path}{k}"), content_type="image/png")
    with SiteServer(s) as server:
        yield server


def test_reused_tabs_keep_pages_apart_each_in_its_own_window(tmp_path: Path, site: SiteServer) -> None:
    out = run_crawl(site.url("/"), tmp_path=tmp_path, settings={
        "BARA_ALLOW_PRIVATE_NETWORKS": True, "CONCURRENT_REQUESTS": 2, "BARA_PAGE_REUSE": 2,
        "BARA_PAGE_REUSE_AFTER": 2,
        "BARA_PAGE_TIMEOUT": 15, "BARA_MAX_ATTEMPTS": 1})
    by_url = {item["url"]: item for item in out}
    assert sorted(by_url) == sorted(site.url(p) for p in PAGES)
    for path in PAGES:
        item, name = by_url[site.url(path)], _name(path)
        images = sorted(m["url"] for m in item["images"])
        assert images == sorted(site.url(f"/img/{name}-{k}.png") for k in range(8)), (path, item["attempts"])
        assert item["status"] == "ok", (path, json.dumps(item["attempts"])[:3000])
        marks = {word for word in item["text"].replace(",", " ").split() if word.startswith("mark-")}
        assert marks == {f"mark-{name}"}, path
    stats = out.stats
    assert stats["bara/scroll/attempts"] >= len(PAGES)  # every page was scrolled
    assert stats["bara/tabs/reused"] >= 1 and stats["bara/tabs/retired"] >= 1
    # the seed had scrapy-playwright's own new tab; its links took the frontier past BARA_PAGE_REUSE_AFTER
    # admitted pages (a crawl that long reuses tabs), so every later page had a pooled tab
    tabs = {k: v for k, v in stats.items() if k.startswith(("bara/tabs/", "playwright/page_count", "bara/render/"))}
    assert stats["bara/tabs/created"] + stats["bara/tabs/reused"] == len(PAGES) - 1, tabs
    assert stats["playwright/page_count"] == stats["bara/tabs/created"] + 1
    # every pooled tab in a window of its own
    assert stats["bara/tabs/windows"] == stats["bara/tabs/created"]


# a page's `beforeunload` handler runs when the tab's next page starts to navigate (a pooled tab is not reset
# between pages): its requests are the leaving page's, not the next one's
BYE_JS = """<script>addEventListener("beforeunload", () => {
  fetch("/bye/%(name)s.m3u8", {keepalive: true}); new Image().src = "/bye/%(name)s.png"; });</script>"""
BYE_PAGES = ["/", "/a", "/b", "/c"]


def _bye_page(path: str) -> str:
    name = _name(path)
    links = "".join(f'<a href="{p}">{_name(p)}</a> ' for p in BYE_PAGES if path == "/" and p != "/")
    return (f"<html><head><title>{name}</title></head><body><main><h1>Page {name}</h1><p>The marker of this "
            f"page is mark-{name}, and it says goodbye when left.</p>{links}</main>"
            f"{BYE_JS % {'name': name}}</body></html>")


def test_a_reused_tab_gives_the_leaving_pages_requests_to_no_other_page(tmp_path: Path) -> None:
    """Each page after the first is served only once the previous page's goodbye manifest has been answered,
    so that manifest's response reaches the browser while the tab still shows the previous page, in the new
    page's session: it must not become the new page's video."""
    site = Site()
    said: dict[str, threading.Event] = {_name(p): threading.Event() for p in BYE_PAGES}
    for before, path in itertools.pairwise(BYE_PAGES):
        def doc(info: RequestInfo, path: str = path, before: str = _name(before)) -> Route:
            return Route(_bye_page(path), delay_event=said[before] if info.hits == 1 else None)
        site.add(path, handler=doc)
    site.add("/", _bye_page("/"))
    for path in BYE_PAGES:
        name = _name(path)
        manifest = hls_manifest([f"/bye/{name}.ts"])

        def answer(out: Any, body: bytes = manifest, event: threading.Event = said[name]) -> None:
            out.write(body)
            out.flush()
            event.set()
        site.add(f"/bye/{name}.m3u8", content_type=VIDEO_TYPES["m3u8"], writer=answer)
        site.add(f"/bye/{name}.ts", ts_bytes(name), content_type="video/mp2t")
        site.add(f"/bye/{name}.png", image_bytes("png", name), content_type="image/png")
    with SiteServer(site) as server:
        out = run_crawl(server.url("/"), tmp_path=tmp_path, settings={
            "BARA_ALLOW_PRIVATE_NETWORKS": True, "CONCURRENT_REQUESTS": 1, "BARA_PAGE_REUSE": 10,
            "BARA_PAGE_REUSE_AFTER": 0, "BARA_PAGE_TIMEOUT": 15, "BARA_MAX_ATTEMPTS": 1,
            # the first request of each page is the crawl's own fetch over HTTP (`BARA_RENDER` auto), held until
            # the tab leaves the page before: it gives up after this long, and the tab goes on to the page
            "BARA_NAVIGATION_TIMEOUT": 5})
        assert all(server.count(f"/bye/{_name(p)}.m3u8") >= 1 for p in BYE_PAGES[:-1])  # every goodbye was said
    by_url = {item["url"]: item for item in out}
    assert sorted(by_url) == sorted(server.url(p) for p in BYE_PAGES)
    assert out.stats["bara/tabs/reused"] == len(BYE_PAGES) - 1  # one tab served them all
    for path in BYE_PAGES:
        item = by_url[server.url(path)]
        assert item["status"] == "ok" and item["videos"] == [] and item["images"] == [], (path, item)
