"""LinkWidthMiddleware and FrontierMiddleware (over LocalFrontier) as components: outputs and stats."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, TypeVar, cast

import pytest
import pytest_twisted
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import CloseSpider
from scrapy.http import HtmlResponse, Response
from scrapy.robotstxt import ProtegoRobotParser, RobotParser
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from bara_scrapy.frontier import Admission, Frontier
from bara_scrapy.frontier.in_process import JOB_KEY, STATE_KEY, LocalFrontier
from bara_scrapy.frontier.middleware import FrontierMiddleware
from bara_scrapy.frontier.protocol import CLOSE_REASON
from bara_scrapy.instructions import Instructions
from bara_scrapy.items import PageItem
from bara_scrapy.links import PageLinks
from bara_scrapy.middlewares.width import LinkWidthMiddleware
from bara_scrapy.page import META_KEY, PageState, page_request
from bara_scrapy.spiders.bara import BaraSpider

_F = TypeVar("_F", bound=Callable[..., Any])
SEED = "https://site.test/"


def ensure_deferred(test: _F) -> _F:
    """pytest_twisted.ensureDeferred, typed."""
    return cast(_F, pytest_twisted.ensureDeferred(test))


def make_crawler(**settings: object) -> Crawler:
    """A crawler with the bara spider attached (as the engine would have it), no engine."""
    base: dict[str, object] = {"BARA_SEED": SEED, "DEPTH_LIMIT": 3, "BARA_MAX_WIDTH": 20, "BARA_MAX_PAGES": 100}
    crawler = get_crawler(BaraSpider, {**base, **settings})
    spider = BaraSpider(seed=SEED)
    spider._set_crawler(crawler)
    crawler.spider = spider
    return crawler


def page_state(url: str = SEED, *, bfs_index: int = 0, depth: int = 0, parent: str | None = None) -> PageState:
    return PageState(Admission(url, depth, bfs_index, parent), Instructions())


def page_response(url: str = SEED, *, bfs_index: int = 0, depth: int = 0, **meta: object) -> Response:
    request = page_request(page_state(url, bfs_index=bfs_index, depth=depth))
    request.meta.update(meta)
    return HtmlResponse(url, body=b"<html></html>", request=request)


def link(url: str, depth: int = 1) -> PageLinks:
    """One link of the spider's output (the spider yields a page's links together; each part adds to them)."""
    return PageLinks((url,))


async def aiter(objs: Iterable[Any]) -> AsyncIterator[Any]:
    for obj in objs:
        yield obj


async def collect(gen: AsyncIterator[Any]) -> list[Any]:
    return [obj async for obj in gen]


class FakeRobots(RobotsTxtMiddleware):
    """The robots.txt middleware, answering from a fixed robots.txt (no engine, no download)."""

    def __init__(self, body: bytes) -> None:
        self.parser = ProtegoRobotParser(body, None)
        self.asked: list[str] = []

    async def robot_parser(self, request: Request) -> RobotParser | None:
        self.asked.append(request.url)
        return self.parser


def with_robots(crawler: Crawler, body: bytes) -> FakeRobots:
    robots = FakeRobots(body)
    crawler.get_downloader_middleware = lambda cls: robots  # type: ignore[method-assign,assignment,return-value]
    return robots


# --------------------------------------------------------------------------- LinkWidthMiddleware


@ensure_deferred
async def test_width_keeps_the_first_w_distinct_allowed_links_and_passes_the_rest() -> None:
    crawler = make_crawler(BARA_MAX_WIDTH=3, ROBOTSTXT_OBEY=False)
    mw = build_from_crawler(LinkWidthMiddleware, crawler)
    item = PageItem(url=SEED, depth=0, parent_url=None, bfs_index=0)
    other = Request("https://site.test/not-a-link")
    outputs = [
        link("https://site.test/a#x"), item, link("https://site.test/a?utm_source=n"), link("ftp://site.test/f"),
        link("https://other.test/"), link("https://site.test/login"), other, link("https://SITE.test:443/b"),
        link("https://www.site.test/c?z=1&y=2"), link("https://site.test/d"), link("https://site.test/e"),
    ]
    out = await collect(mw.process_spider_output(page_response(), aiter(outputs)))
    assert out[:2] == [item, other]  # everything else passes at once, in order
    assert out[2:] == [PageLinks(("https://site.test/a", "https://site.test/b", "https://www.site.test/c?y=2&z=1"))]
    stats = crawler.stats.get_stats()
    assert stats["bara/links/kept"] == 3
    assert {k: v for k, v in stats.items() if k.startswith("bara/links/dropped/")} == {
        "bara/links/dropped/duplicate": 1, "bara/links/dropped/scheme": 1, "bara/links/dropped/offsite": 1,
        "bara/links/dropped/denied": 1, "bara/links/dropped/width": 2,
    }


@ensure_deferred
async def test_width_robots_forbidden_links_do_not_count() -> None:
    crawler = make_crawler(BARA_MAX_WIDTH=2, ROBOTSTXT_OBEY=True)
    robots = with_robots(crawler, b"User-agent: *\nDisallow: /private/\n")
    mw = build_from_crawler(LinkWidthMiddleware, crawler)
    outputs = [link("https://site.test/private/1"), link("https://site.test/a"), link("https://site.test/private/2"),
               link("https://other.test/private/3"), link("https://site.test/b"), link("https://site.test/c")]
    out = await collect(mw.process_spider_output(page_response(), aiter(outputs)))
    assert out == [PageLinks(("https://site.test/a", "https://site.test/b"))]
    assert crawler.stats.get_value("bara/links/dropped/robots") == 2
    assert crawler.stats.get_value("bara/links/dropped/width") == 1
    assert "https://other.test/private/3" not in robots.asked  # off-scope links never reach robots.txt


@ensure_deferred
async def test_width_without_robots_obey_never_asks_robots() -> None:
    crawler = make_crawler(BARA_MAX_WIDTH=5, ROBOTSTXT_OBEY=False)
    robots = with_robots(crawler, b"User-agent: *\nDisallow: /\n")
    mw = build_from_crawler(LinkWidthMiddleware, crawler)
    out = await collect(mw.process_spider_output(page_response(), aiter([link("https://site.test/a")])))
    assert out == [PageLinks(("https://site.test/a",))] and robots.asked == []


@ensure_deferred
async def test_width_zero_and_no_links() -> None:
    crawler = make_crawler(BARA_MAX_WIDTH=0, ROBOTSTXT_OBEY=False)
    mw = build_from_crawler(LinkWidthMiddleware, crawler)
    assert await collect(mw.process_spider_output(page_response(), aiter([link("https://site.test/a")]))) == [
        PageLinks(())]
    assert crawler.stats.get_value("bara/links/dropped/width") == 1
    item = PageItem(url=SEED, depth=0, parent_url=None, bfs_index=0)
    assert await collect(mw.process_spider_output(page_response(), aiter([item]))) == [item]


# --------------------------------------------------------------------------- FrontierMiddleware, local


def local_budget(crawler: Crawler, *, opened: bool = True) -> FrontierMiddleware:
    """The frontier middleware over a local frontier, opened (as `spider_opened` does) unless told."""
    mw = build_from_crawler(FrontierMiddleware, crawler)
    assert isinstance(mw.frontier, LocalFrontier)
    if opened:
        mw.spider_opened(crawler.spider)
    return mw


def local(mw: FrontierMiddleware) -> LocalFrontier:
    assert isinstance(mw.frontier, LocalFrontier)
    return mw.frontier


def finished(url: str, bfs_index: int, depth: int, final_url: str | None = None) -> PageItem:
    return PageItem(url=url, depth=depth, parent_url=None, bfs_index=bfs_index, final_url=final_url or url)


async def complete(
    mw: FrontierMiddleware, url: str, bfs_index: int, depth: int, children: list[str], **meta: Any
) -> tuple[list[Any], list[Request]]:
    """Feed one page's output (item + child links); return (passed objects, new page requests)."""
    final_url = meta.pop("final_url", None)
    item = finished(url, bfs_index, depth, final_url)
    response = page_response(url, bfs_index=bfs_index, depth=depth, **meta)
    out = await collect(mw.process_spider_output(response, aiter([item, *(link(c, depth + 1) for c in children)])))
    assert out[0] is item
    return out[1:], [r for r in out[1:] if isinstance(r, Request)]


def pages(requests: list[Request]) -> list[tuple[str, int, int, str | None]]:
    adms = [r.meta["bara"].admission for r in requests]
    return [(r.url, a.bfs_index, a.depth, a.parent_url) for r, a in zip(requests, adms, strict=True)]


async def started(mw: FrontierMiddleware, *extra: Any) -> list[Any]:
    """The seed's request (from `BaraConfig.seed`), then the spider's own start requests."""
    return await collect(mw.process_start(aiter(extra)))


@ensure_deferred
async def test_budget_admits_the_seed_as_page_zero() -> None:
    crawler = make_crawler(BARA_SEED="https://Site.test/?utm_source=x")
    mw = local_budget(crawler)
    other = Request("https://site.test/other")
    out = await started(mw, other)
    assert pages(out[:1]) == [(SEED, 0, 0, None)] and out[1] is other
    assert out[0].callback is None and out[0].meta["depth"] == 0  # Scrapy calls the spider's parse
    assert out[0].meta["bara"].instructions.scroll_steps == 12
    assert crawler.stats.get_value("bara/pages/admitted") == 1


@ensure_deferred
async def test_budget_releases_children_in_admission_order() -> None:
    crawler = make_crawler()
    mw = local_budget(crawler)
    await started(mw)
    _, level1 = await complete(mw, SEED, 0, 0, ["https://site.test/a", "https://site.test/b#x", SEED])
    assert pages(level1) == [("https://site.test/a", 1, 1, SEED), ("https://site.test/b", 2, 1, SEED)]
    # b finishes first: nothing until a has finished too
    passed, none = await complete(mw, "https://site.test/b", 2, 1, ["https://site.test/b1", "https://site.test/x"])
    assert passed == [] and none == []
    _, level2 = await complete(mw, "https://site.test/a", 1, 1, ["https://site.test/x", "https://site.test/a1"])
    assert pages(level2) == [
        ("https://site.test/x", 3, 2, "https://site.test/a"),
        ("https://site.test/a1", 4, 2, "https://site.test/a"),
        ("https://site.test/b1", 5, 2, "https://site.test/b"),
    ]
    assert crawler.stats.get_value("bara/pages/admitted") == 6
    assert crawler.stats.get_value("bara/budget/dropped") == 0


@ensure_deferred
async def test_budget_is_never_exceeded_and_closes_the_spider_once_idle() -> None:
    crawler = make_crawler(BARA_MAX_PAGES=3)
    mw = local_budget(crawler)
    await started(mw)
    mw.spider_idle(crawler.spider)  # not exhausted: no close
    _, admitted = await complete(mw, SEED, 0, 0, [f"https://site.test/{n}" for n in "abcd"])
    assert [r.url for r in admitted] == ["https://site.test/a", "https://site.test/b"]
    assert crawler.stats.get_value("bara/budget/dropped") == 2
    assert crawler.stats.get_value("bara/pages/admitted") == 3
    mw.spider_idle(crawler.spider)  # exhausted, but pages are still running
    await complete(mw, "https://site.test/a", 1, 1, ["https://site.test/e"])
    await complete(mw, "https://site.test/b", 2, 1, [])
    assert crawler.stats.get_value("bara/budget/dropped") == 3
    with pytest.raises(CloseSpider) as exc:
        mw.spider_idle(crawler.spider)
    assert exc.value.reason == CLOSE_REASON == "bara_page_budget"


@ensure_deferred
async def test_budget_depth_limit() -> None:
    crawler = make_crawler(DEPTH_LIMIT=1)
    mw = local_budget(crawler)
    await started(mw)
    _, admitted = await complete(mw, SEED, 0, 0, ["https://site.test/a"])
    assert len(admitted) == 1
    assert (await complete(mw, "https://site.test/a", 1, 1, ["https://site.test/deep"]))[1] == []


@ensure_deferred
async def test_budget_redirect_urls_count_as_seen() -> None:
    crawler = make_crawler()
    mw = local_budget(crawler)
    await started(mw)
    await complete(mw, SEED, 0, 0, ["https://site.test/old", "https://site.test/b"])
    await complete(mw, "https://site.test/old", 1, 1, [], final_url="https://site.test/new",
                   redirect_urls=["https://site.test/old", "https://site.test/mid"])
    _, admitted = await complete(mw, "https://site.test/b", 2, 1,
                                 ["https://site.test/new", "https://site.test/mid", "https://site.test/c"])
    assert [r.url for r in admitted] == ["https://site.test/c"]


@ensure_deferred
async def test_budget_swallows_links_of_an_attempt_without_item() -> None:
    crawler = make_crawler()
    mw = local_budget(crawler)
    await started(mw)
    out = await collect(mw.process_spider_output(page_response(), aiter([link("https://site.test/a")])))
    assert out == [] and local(mw).bfs.next_to_expand == 0


@ensure_deferred
async def test_budget_resumes_its_frontier_from_spider_state() -> None:
    crawler = make_crawler()
    saved = Frontier(max_depth=3, max_pages=100)
    saved.admit_seed(SEED)
    saved.complete(0, ["https://site.test/a"])
    spider: Any = crawler.spider
    mw = local_budget(crawler, opened=False)
    spider.state = {STATE_KEY: saved, JOB_KEY: local(mw)._job_signature()}
    mw.spider_opened(spider)
    assert local(mw).bfs is saved
    # the seed was admitted in the earlier run; the page in flight when it stopped is visited again
    again = await started(mw)
    assert [r.url for r in again] == ["https://site.test/a"]
    # no journal, so no render ledger: under the default `auto` the resumed run renders every page
    assert local(mw).config.render == "auto" and again[0].meta[META_KEY].plan is None
    assert crawler.stats.get_value("bara/render/ledger_unknown") == 1
    _, admitted = await complete(mw, "https://site.test/a", 1, 1, [SEED, "https://site.test/b"])
    assert pages(admitted) == [("https://site.test/b", 2, 2, "https://site.test/a")]
    fresh = make_crawler()
    fresh_spider: Any = fresh.spider
    fresh_spider.state = {}
    mw2 = local_budget(fresh, opened=False)
    mw2.spider_opened(fresh_spider)
    assert fresh_spider.state[STATE_KEY] is local(mw2).bfs


@ensure_deferred
async def test_budget_drops_a_second_result_for_a_finished_page() -> None:
    crawler = make_crawler()
    mw = local_budget(crawler)
    await started(mw)
    _, admitted = await complete(mw, SEED, 0, 0, ["https://site.test/a"])
    assert pages(admitted) == [("https://site.test/a", 1, 1, SEED)]
    again = await collect(mw.process_spider_output(
        page_response(SEED, bfs_index=0, depth=0), aiter([finished(SEED, 0, 0, None), link("https://site.test/b", 1)])
    ))
    assert again == []
    assert crawler.stats.get_value("bara/pages/duplicate_dropped") == 1


def test_budget_refuses_a_jobdir_of_another_crawl() -> None:
    crawler = make_crawler(BARA_MAX_PAGES=5)
    saved = Frontier(max_depth=3, max_pages=100)
    saved.admit_seed(SEED)
    spider: Any = crawler.spider
    other = {"seed": SEED, "scope": "host", "max_depth": 3, "max_width": 20, "max_pages": 100}
    spider.state = {STATE_KEY: saved, JOB_KEY: other}
    mw = local_budget(crawler, opened=False)
    mw.spider_opened(spider)
    mismatch = local(mw).mismatch
    assert local(mw).bfs is not saved and mismatch and "max_pages" in mismatch
    with pytest.raises(CloseSpider) as info:
        mw.spider_idle(spider)
    assert info.value.reason == "bara_resume_mismatch"
