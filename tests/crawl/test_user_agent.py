"""The browser names the crawl's `USER_AGENT` on every request: the documents the guard fetches, the
sub-requests it continues (on fresh and pooled tabs), as Scrapy's own verification downloads do; and a
user's PLAYWRIGHT_ABORT_REQUEST still sees every sub-request the guard lets through."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer

from ..crawl_utils import run_crawl

AGENT = "bara-ua-check/1.0 (+http://example.invalid/bot)"
PAGES = ["/", "/p1", "/p2", "/p3"]


def abort_fetches(request: Any) -> bool:
    """PLAYWRIGHT_ABORT_REQUEST of the second test (imported by the crawl): no fetch() leaves the browser."""
    return bool(request.resource_type == "fetch")


class Recorder:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []  # (path, user-agent)
        self.lock = threading.Lock()

    def __call__(self, make: Any) -> Any:
        def handler(info: RequestInfo) -> Route:
            with self.lock:
                self.seen.append((info.path, info.headers.get("user-agent", "")))
            return make(info)
        return handler


def _page(path: str) -> str:
    key = path.strip("/") or "home"
    links = "".join(f'<a href="{p}">{p}</a> ' for p in PAGES if p != path)
    return (f"<html><body><h1>Page {key}</h1><p>Some text of page {key} for the extractor to keep.</p>"
            f'<img src="/img/{key}.png" alt="{key}"><p>{links}</p>'
            f"<script>fetch('/api/{key}').then((r) => r.text());</script></body></html>")


@pytest.fixture()
def site() -> Iterator[tuple[SiteServer, Recorder]]:
    rec = Recorder()
    s = Site()
    for path in PAGES:
        s.add(path, handler=rec(lambda info, p=path: Route(_page(p))))
    s.not_found = Route(handler=rec(lambda info: Route(image_bytes("png", info.path), content_type="image/png")
                                    if info.path.startswith("/img/") else Route('{"ok": 1}',
                                                                                content_type="application/json")))
    with SiteServer(s) as server:
        yield server, rec


@pytest.mark.browser
def test_every_request_of_the_crawl_names_the_user_agent(site: tuple[SiteServer, Recorder], tmp_path: Path) -> None:
    server, rec = site
    result = run_crawl(server.url("/"), tmp_path=tmp_path, args={"max_pages": 4, "max_depth": 1},
                       settings={"USER_AGENT": AGENT, "BARA_ALLOW_PRIVATE_NETWORKS": True,
                                 "BARA_PAGE_REUSE_AFTER": 1, "CONCURRENT_REQUESTS": 1, "ROBOTSTXT_OBEY": False})
    assert sorted(item["status"] for item in result) == ["ok"] * 4
    paths = {path for path, _ in rec.seen}
    assert set(PAGES) <= paths  # documents: the first on scrapy-playwright's own tab, the rest pooled
    assert {f"/api/{p.strip('/') or 'home'}" for p in PAGES} <= paths  # the pages' own fetch() calls
    assert {f"/img/{p.strip('/') or 'home'}.png" for p in PAGES} <= paths
    assert {agent for _, agent in rec.seen} == {AGENT}, sorted(set(rec.seen))


@pytest.mark.browser
def test_a_users_abort_hook_still_sees_the_sub_requests(site: tuple[SiteServer, Recorder], tmp_path: Path) -> None:
    server, rec = site
    result = run_crawl(server.url("/"), tmp_path=tmp_path, args={"max_pages": 4, "max_depth": 1},
                       settings={"USER_AGENT": AGENT, "BARA_ALLOW_PRIVATE_NETWORKS": True,
                                 "BARA_PAGE_REUSE_AFTER": 1, "CONCURRENT_REQUESTS": 1, "ROBOTSTXT_OBEY": False,
                                 "PLAYWRIGHT_ABORT_REQUEST": f"{__name__}.abort_fetches"})
    assert len(result) == 4
    paths = {path for path, _ in rec.seen}
    assert set(PAGES) <= paths and not any(p.startswith("/api/") for p in paths), sorted(paths)
    assert {f"/img/{p.strip('/') or 'home'}.png" for p in PAGES} <= paths
