"""RetryAfterMiddleware as a component: which responses it retries, and how often."""

from __future__ import annotations

from scrapy import Request
from scrapy.http import Response
from scrapy.utils.misc import build_from_crawler

from bara_scrapy.middlewares.retry_after import MAX_TIMES, RetryAfterMiddleware

from .test_middlewares import ensure_deferred, make_crawler

URL = "https://site.test/a"


def answer(status: int, retry_after: str | None, request: Request) -> Response:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Response(URL, status=status, headers=headers, request=request)


@ensure_deferred
async def test_retry_after_asks_again_within_its_bounds() -> None:
    crawler = make_crawler(BARA_RETRY_AFTER_MAX=5.0)
    mw = build_from_crawler(RetryAfterMiddleware, crawler)
    request = Request(URL)
    retry = await mw.process_response(request, answer(503, "0", request))
    assert isinstance(retry, Request) and retry.url == URL and retry.dont_filter
    assert retry.meta["bara_retry_after_times"] == 1 and crawler.stats.get_value("bara/retry_after/waits") == 1
    again = await mw.process_response(retry, answer(429, "0", retry))
    assert isinstance(again, Request) and again.meta["bara_retry_after_times"] == MAX_TIMES
    last = answer(429, "0", again)
    assert await mw.process_response(again, last) is last  # the rest is RetryMiddleware's


@ensure_deferred
async def test_retry_after_leaves_other_responses_alone() -> None:
    mw = build_from_crawler(RetryAfterMiddleware, make_crawler(BARA_RETRY_AFTER_MAX=5.0))
    request = Request(URL)
    for status, header in ((200, "0"), (503, None), (503, "soon"), (503, "60"), (404, "0")):
        response = answer(status, header, request)
        assert await mw.process_response(request, response) is response, (status, header)
    quiet = Request(URL, meta={"dont_retry": True})
    response = answer(503, "0", quiet)
    assert await mw.process_response(quiet, response) is response
