"""The bench's ablations: depth-first expansion and no scrolling, as components."""

from __future__ import annotations

from scrapy import Request
from scrapy.utils.misc import build_from_crawler
from scrapy_playwright.page import PageMethod

from bara_scrapy.bench.ablations import DepthFirstFrontier, DepthFirstFrontierMiddleware, NoScrollMiddleware
from bara_scrapy.bench.runner import VARIANTS
from bara_scrapy.browser.render import explore
from bara_scrapy.frontier import Frontier
from bara_scrapy.frontier.in_process import LocalFrontier
from bara_scrapy.instructions import Instructions
from bara_scrapy.middlewares.browser import BrowserMiddleware
from bara_scrapy.page import page_request

from .test_middlewares import make_crawler
from .test_page_flow import state

SITE = "https://site.test/"


def test_depth_first_frontier_expands_a_page_as_soon_as_it_finishes() -> None:
    bfs, dfs = Frontier(max_depth=3, max_pages=10), DepthFirstFrontier(max_depth=3, max_pages=10)
    for frontier in (bfs, dfs):
        frontier.admit_seed(SITE)
        frontier.complete(0, [SITE + "a", SITE + "b"])
    assert [a.url for a in dfs.complete(2, [SITE + "b1"])] == [SITE + "b1"]  # b before a: released at once
    assert bfs.complete(2, [SITE + "b1"]) == []  # BFS waits for a
    assert dfs.is_completed(2) and not dfs.is_completed(1)
    assert [a.url for a in dfs.unfinished()] == [SITE + "a", SITE + "b1"]
    assert dfs.complete(2, [SITE + "c"]) == []  # a page completed twice keeps its first result
    assert [a.url for a in dfs.complete(1, [SITE + "a1"])] == [SITE + "a1"] and dfs.next_to_expand == 3


def test_depth_first_frontier_middleware_holds_a_depth_first_frontier() -> None:
    mw = build_from_crawler(DepthFirstFrontierMiddleware, make_crawler(BARA_MAX_PAGES=7))
    assert isinstance(mw.frontier, LocalFrontier)
    assert isinstance(mw.frontier.bfs, DepthFirstFrontier) and mw.frontier.bfs.max_pages == 7


def test_no_scroll_zeroes_the_browser_plan_only() -> None:
    crawler = make_crawler()
    browser, no_scroll = build_from_crawler(BrowserMiddleware, crawler), NoScrollMiddleware()
    request = page_request(state())
    request.meta["bara"].instructions = Instructions(scroll_steps=36, settle_ms=2000)
    browser.process_request(request)
    no_scroll.process_request(request)
    (method,) = request.meta["playwright_page_methods"]
    assert isinstance(method, PageMethod) and method.method is explore
    assert method.args[0]["scroll_steps"] == 0 and method.args[0]["settle_ms"] == 2000
    assert request.meta["bara"].instructions.scroll_steps == 36
    other = Request(SITE)
    no_scroll.process_request(other)
    assert "playwright_page_methods" not in other.meta


def test_bench_variants_wire_the_ablations() -> None:
    assert VARIANTS["no_scroll"]["DOWNLOADER_MIDDLEWARES"] == {"bara_scrapy.bench.ablations.NoScrollMiddleware": 545}
    assert VARIANTS["dfs"]["SPIDER_MIDDLEWARES"] == {
        "bara_scrapy.frontier.middleware.FrontierMiddleware": None,
        "bara_scrapy.bench.ablations.DepthFirstFrontierMiddleware": 820,
    }
