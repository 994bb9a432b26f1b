"""The page state's components: reflection (both halves), browser, scope guard, and retries through the BFS."""

from __future__ import annotations

import pickle
from collections.abc import AsyncIterator, Iterable
from typing import Any

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.spidermiddlewares.depth import DepthMiddleware
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.request import request_from_dict
from scrapy_playwright.page import PageMethod

from bara_scrapy.frontier import Admission
from bara_scrapy.frontier.in_process import LocalFrontier
from bara_scrapy.frontier.middleware import FrontierMiddleware
from bara_scrapy.instructions import Instructions
from bara_scrapy.items import PageItem
from bara_scrapy.links import PageLinks
from bara_scrapy.middlewares.browser import BrowserMiddleware
from bara_scrapy.middlewares.reflection import (
    ReflectionDownloaderMiddleware,
    ReflectionMiddleware,
    reflection_retry_request,
)
from bara_scrapy.middlewares.scope import OffsiteRedirect, ScopeGuardMiddleware
from bara_scrapy.middlewares.width import LinkWidthMiddleware
from bara_scrapy.page import RETRY_PRIORITY, DownloadFailure, PageState, Tried, page_request, retry_request
from bara_scrapy.reflection import AttemptOutcome
from bara_scrapy.snapshot import Control, Markers
from tests.fake_openai import FakeOpenAI, Reply

from ..aio import aio
from ..llm_support import make_client
from .test_middlewares import SEED, ensure_deferred, link, local_budget, make_crawler, started

PAGE = "https://site.test/a"
LAZY = AttemptOutcome(instructions=Instructions(), text_chars=900, images=1, markers=Markers(lazy_placeholders=3))
GOOD = AttemptOutcome(instructions=Instructions(), text_chars=900, images=1)


def state(url: str = PAGE, depth: int = 1, bfs_index: int = 1, history: Iterable[AttemptOutcome] = ()) -> PageState:
    return PageState(Admission(url, depth, bfs_index, SEED), Instructions(),
                     [Tried(o, 1.5) for o in history])


async def spider_output(st: PageState, outcome: AttemptOutcome, *links: str) -> AsyncIterator[Any]:
    """What the spider yields for one attempt: it reports the attempt's outcome, then the item and the links."""
    st.outcome = outcome
    adm = st.admission
    yield PageItem(url=adm.url, depth=adm.depth, parent_url=adm.parent_url, bfs_index=adm.bfs_index,
                   text="x" * outcome.text_chars)
    for url in links:
        yield link(url, adm.depth + 1)


def response_for(st: PageState) -> Response:
    return HtmlResponse(st.url, body=b"<html></html>", request=page_request(st))


async def collect(gen: AsyncIterator[Any]) -> list[Any]:
    return [obj async for obj in gen]


# --------------------------------------------------------------------------- the page state


def test_page_request_pickles_with_its_state() -> None:
    st = state(history=[LAZY])
    st.failure = DownloadFailure("TimeoutError", "Timeout 30000ms exceeded.")
    request = page_request(st)
    again = request_from_dict(pickle.loads(pickle.dumps(request.to_dict())))
    assert again.meta["bara"] == st and again.callback is None and again.dont_filter
    assert again.priority == -1 and again.meta["depth"] == 1 and 404 in again.meta["handle_httpstatus_list"]


def test_reflection_records_a_reported_attempt_diagnosed_once() -> None:
    st = state(history=[GOOD])
    st.started = 100.0
    tried = st.record(LAZY, now=102.5)
    assert st.history[-1] is tried and tried.seconds == 2.5 and tried.diagnosis == ("missing_media",)
    assert st.attempts()[-1].diagnosis == ["missing_media"] and st.attempts()[0].diagnosis == []


def test_attempt_records_derive_from_the_history() -> None:
    attempts = state(history=[LAZY, GOOD]).attempts()
    assert [(a.n, a.diagnosis, a.seconds, a.images) for a in attempts] == [
        (1, ["missing_media"], 1.5, 1), (2, [], 1.5, 1),
    ]
    assert attempts[0].instructions == Instructions().describe()


def test_retry_request_is_the_same_page_with_new_instructions() -> None:
    st = state(history=[LAZY])
    st.snapshot, st.started = None, 12.0
    ins = Instructions(scroll_steps=36)
    retry = retry_request(st, ins)
    new = retry.meta["bara"]
    assert new is not st and new.admission == st.admission and new.instructions == ins
    assert new.history == st.history and new.history is not st.history and new.started is None
    assert retry.priority == RETRY_PRIORITY - 1 and retry.dont_filter
    assert retry.meta["depth_reset"] and retry.meta["referrer_policy"] == "no-referrer"


# --------------------------------------------------------------------------- ReflectionDownloaderMiddleware


def test_downloader_half_turns_a_page_exception_into_a_response() -> None:
    crawler = make_crawler()
    mw = build_from_crawler(ReflectionDownloaderMiddleware, crawler)
    request = page_request(state())
    response = mw.process_exception(request, OffsiteRedirect("offsite_redirect: https://other.test/"))
    assert response is not None and response.request is request and "bara_failure" in response.flags
    assert request.meta["bara"].failure == DownloadFailure(
        "IgnoreRequest", "offsite_redirect: https://other.test/", offsite=PAGE
    )
    assert crawler.stats.get_value("bara/reflection/exception/IgnoreRequest") == 1
    assert mw.process_exception(Request(PAGE), TimeoutError("t")) is None  # not a page: Scrapy's business
    assert mw.process_exception(Request(PAGE), IgnoreRequest()) is None


# --------------------------------------------------------------------------- ReflectionMiddleware


@ensure_deferred
async def test_reflection_yields_the_retry_in_place_of_the_attempt() -> None:
    crawler = make_crawler(BARA_MAX_ATTEMPTS=3)
    mw = build_from_crawler(ReflectionMiddleware, crawler)
    st = state()
    out = await collect(mw.process_spider_output(response_for(st), spider_output(st, LAZY, SEED + "b")))
    assert len(out) == 1 and isinstance(out[0], Request)
    retry = out[0]
    assert retry.url == PAGE and retry.priority == RETRY_PRIORITY - 1 and retry.dont_filter
    new = retry.meta["bara"]
    assert [t.outcome for t in new.history] == [LAZY] and new.instructions != Instructions()
    assert crawler.stats.get_value("bara/reflection/retries") == 1
    assert crawler.stats.get_value("bara/reflection/missing_media") == 1


@ensure_deferred
async def test_reflection_finalises_the_item_when_attempts_run_out() -> None:
    crawler = make_crawler(BARA_MAX_ATTEMPTS=2)
    mw = build_from_crawler(ReflectionMiddleware, crawler)
    st = state(history=[LAZY])
    out = await collect(mw.process_spider_output(response_for(st), spider_output(st, LAZY, SEED + "b")))
    item = out[0]
    assert isinstance(item, PageItem) and len(out) == 2 and out[1] == PageLinks((SEED + "b",))
    assert item.status == "incomplete" and item.error is not None and "after 2 attempts" in item.error
    assert [(a.n, a.diagnosis, a.seconds) for a in item.attempts] == [
        (1, ["missing_media"], 1.5), (2, ["missing_media"], 0.0),  # no download start in this test
    ]
    assert crawler.stats.get_value("bara/reflection/retries") is None


@ensure_deferred
async def test_reflection_ok_page_and_other_output_pass() -> None:
    crawler = make_crawler()
    mw = build_from_crawler(ReflectionMiddleware, crawler)
    st = state()
    out = await collect(mw.process_spider_output(response_for(st), spider_output(st, GOOD)))
    assert [(o.status, o.error, len(o.attempts)) for o in out] == [("ok", None, 1)]
    plain = HtmlResponse(PAGE, body=b"", request=Request(PAGE))
    other = Request(SEED + "x")

    async def gen() -> AsyncIterator[Any]:
        yield other

    assert await collect(mw.process_spider_output(plain, gen())) == [other]


@aio
async def test_reflection_retry_request_takes_the_llm_plan(fake: FakeOpenAI) -> None:
    more = "main > button.load-more"
    lazy = AttemptOutcome(instructions=Instructions(), text_chars=900, images=1,
                          markers=Markers(lazy_placeholders=3, controls=[Control(handle=more, role="load_more")]))
    fake.script(Reply.json({"scroll_steps": 30, "click_handles": [more], "settle_ms": 2000}))
    client = make_client(fake, "sk-k", model="m")
    try:
        retry = await reflection_retry_request(state(history=[lazy]), 3, client)
    finally:
        await client.aclose()
    assert retry is not None
    ins = retry.meta["bara"].instructions
    assert (ins.scroll_steps, ins.click_handles, ins.settle_ms) == (30, [more], 2000)
    assert await reflection_retry_request(state(history=[GOOD]), 3, None) is None
    assert await reflection_retry_request(state(history=[LAZY]), 1, None) is None


# --------------------------------------------------------------------------- retries through the BFS middlewares


@ensure_deferred
async def test_width_and_budget_pass_a_retry_through_untouched() -> None:
    crawler = make_crawler(ROBOTSTXT_OBEY=False)
    width = build_from_crawler(LinkWidthMiddleware, crawler)
    budget = local_budget(crawler)
    await started(budget)
    _, admitted = await _complete(budget, state(SEED, 0, 0), [PAGE])
    assert [r.url for r in admitted] == [PAGE]
    st = admitted[0].meta["bara"]
    st.history.append(Tried(LAZY))
    retry = retry_request(st, Instructions(scroll_steps=36))

    async def one() -> AsyncIterator[Any]:
        yield retry

    out = await collect(budget.process_spider_output(response_for(st), width.process_spider_output(
        response_for(st), one())))
    assert out == [retry] and retry.meta["bara"].instructions.scroll_steps == 36
    assert isinstance(budget.frontier, LocalFrontier)
    assert len(budget.frontier.bfs.admitted) == 2 and not budget.frontier.bfs.is_completed(1)


async def _complete(mw: FrontierMiddleware, st: PageState, children: list[str]) -> tuple[list[Any], list[Request]]:
    out = await collect(mw.process_spider_output(response_for(st), spider_output(st, GOOD, *children)))
    return out, [r for r in out if isinstance(r, Request)]


# --------------------------------------------------------------------------- BrowserMiddleware


def test_browser_sets_playwright_meta_and_render_options_at_download_time() -> None:
    crawler = make_crawler(BARA_PAGE_TIMEOUT=12.0)
    mw = build_from_crawler(BrowserMiddleware, crawler)
    st = state()
    request = retry_request(st, Instructions(scroll_steps=7))
    request.meta["depth"] = 0  # what DepthMiddleware made of the retry
    mw.process_request(request)
    new = request.meta["bara"]
    assert request.meta["playwright"] and request.meta["playwright_context"] == "bara"
    assert request.meta["depth"] == 1 and new.started is not None
    method = request.meta["playwright_page_methods"][0]
    assert isinstance(method, PageMethod) and method.args == (Instructions(scroll_steps=7).model_dump(),)
    callback = request.meta["playwright_page_init_callback"]
    assert callback.keywords["options"] is mw.options and mw.options.page_timeout == 12.0
    assert (mw.options.seed, mw.options.scope) == (SEED, "host")
    started_at = new.started
    mw.process_request(request)  # Scrapy's own retry of the same attempt keeps the start time
    assert new.started == started_at
    assert mw.process_request(Request(PAGE)) is None


def test_browser_builds_the_snapshot_from_the_response() -> None:
    mw = build_from_crawler(BrowserMiddleware, make_crawler())
    request = page_request(state())
    mw.process_request(request)
    request.meta["playwright_page_methods"][0].result = {"url": PAGE, "final_url": PAGE, "title": "T",
                                                         "body_text": "hello"}
    html = b"<html><title>T</title><p>hello</p></html>"
    response = HtmlResponse(PAGE, body=html, request=request, headers={"Content-Type": "text/html"})
    assert mw.process_response(request, response) is response
    st = request.meta["bara"]
    assert "playwright" not in request.meta
    assert st.snapshot is not None and st.snapshot.html == html.decode() and st.snapshot.status == 200
    assert st.snapshot.body_text == "hello" and st.snapshot.errors == []


def test_browser_snapshot_of_a_failed_or_non_html_download() -> None:
    mw = build_from_crawler(BrowserMiddleware, make_crawler(BARA_BROWSER_ENABLED=False))
    failed = page_request(state())
    failed.meta["bara"].failure = DownloadFailure("TimeoutError")
    mw.process_request(failed)
    assert "playwright" not in failed.meta
    mw.process_response(failed, Response(PAGE, request=failed))
    assert failed.meta["bara"].snapshot.html == ""
    pdf = page_request(state())
    body = TextResponse(PAGE, body=b"%PDF-1.4", request=pdf, headers={"Content-Type": "application/pdf"})
    mw.process_response(pdf, body)
    assert pdf.meta["bara"].snapshot.errors == ["not_html: application/pdf"]


# --------------------------------------------------------------------------- ScopeGuardMiddleware


def test_scope_guard_blocks_off_scope_page_requests_only() -> None:
    crawler = make_crawler()
    mw = build_from_crawler(ScopeGuardMiddleware, crawler)
    assert mw.process_request(page_request(state())) is None
    off = page_request(state())
    off = off.replace(url="https://other.test/a")
    with pytest.raises(OffsiteRedirect):
        mw.process_request(off)
    assert crawler.stats.get_value("bara/scope/blocked_request") == 1
    assert mw.process_request(Request("https://other.test/media.png")) is None  # not a page request


@ensure_deferred
async def test_a_retry_at_the_depth_limit_passes_depth_middleware_unchanged() -> None:
    crawler = make_crawler(DEPTH_LIMIT=1, DEPTH_PRIORITY=1)
    depth = build_from_crawler(DepthMiddleware, crawler)
    st = state(depth=1, history=[LAZY])
    retry = retry_request(st, Instructions(scroll_steps=36))

    async def one() -> AsyncIterator[Any]:
        yield retry

    out = await collect(depth.process_spider_output_async(response_for(st), one()))
    assert out == [retry] and retry.priority == RETRY_PRIORITY - 1 and "depth_reset" not in retry.meta
    build_from_crawler(BrowserMiddleware, crawler).process_request(retry)
    assert retry.meta["depth"] == 1  # the page's own depth again, for its children
