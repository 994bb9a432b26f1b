"""The download handler's tabs (browser/handler.py) when the browser fails under them.

Bounded creation: seen in CI, after a renderer was killed, the page that scrapy-playwright retried
on a new tab never ended and the crawl hung at 8 of 9 pages (the whole crawl is covered by
tests/crawl/test_faults_process.py, with a stopped browser). The creation is driven here by a
future that the test resolves itself, so the order of events is fixed, not timed.

Listener errors: scrapy-playwright's response listener failed with TargetClosedError when the
browser was killed; Playwright logged it with a traceback and would raise it from the next call
of any page. Driven with Playwright's own event emitter.
"""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest
from playwright._impl._errors import TargetClosedError
from playwright._impl.event_emitter import EventEmitter

from bara_scrapy.browser.handler import (
    BaraPlaywrightDownloadHandler,
    BrowserNotAnswering,
    _catch_listener_errors,
    _within,
)
from bara_scrapy.reflection.diagnosis import AttemptOutcome, diagnose, is_retryable

from ..aio import aio


class LateTab:
    """What closing a tab reads (pool.close_tab): its context's browser (None: connected), is_closed, close."""

    context = SimpleNamespace(browser=None)

    def __init__(self) -> None:
        self.closed = asyncio.Event()

    def is_closed(self) -> bool:
        return self.closed.is_set()

    async def close(self) -> None:
        self.closed.set()


def _bounded(creation: asyncio.Future[LateTab]) -> object:
    handler = SimpleNamespace(create_bound=0.01)  # only the bound is read
    return BaraPlaywrightDownloadHandler._bounded_tab(handler, creation)


@aio
async def test_a_tab_that_does_not_come_raises_and_is_closed_when_it_comes_late() -> None:
    creation: asyncio.Future[LateTab] = asyncio.get_running_loop().create_future()
    with pytest.raises(BrowserNotAnswering, match="no new tab within"):
        await _bounded(creation)
    assert not creation.cancelled()  # a cancelled new_page would keep its slot of the context's semaphore
    tab = LateTab()
    creation.set_result(tab)
    await asyncio.wait_for(tab.closed.wait(), timeout=10)  # a failure bound, not a synchronisation


@aio
async def test_a_tab_that_comes_in_time_is_returned_open() -> None:
    prompt: asyncio.Future[LateTab] = asyncio.get_running_loop().create_future()
    tab = LateTab()
    prompt.set_result(tab)
    assert await _bounded(prompt) is tab
    assert not tab.closed.is_set()


@aio
async def test_a_download_past_its_bound_is_a_browser_not_answering_and_its_own_timeouts_pass_through() -> None:
    never: asyncio.Future[object] = asyncio.get_running_loop().create_future()
    with pytest.raises(BrowserNotAnswering, match="page download exceeded"):
        await _within(never, 0.01)  # type: ignore[arg-type]
    assert never.cancelled()

    async def inner_timeout() -> object:
        raise TimeoutError("Timeout 30000ms exceeded.")  # e.g. a wait inside scrapy-playwright

    with pytest.raises(TimeoutError, match="30000ms") as caught:
        await _within(inner_timeout(), 60)  # type: ignore[arg-type]
    assert not isinstance(caught.value, BrowserNotAnswering)


def test_a_browser_not_answering_reads_as_a_crash_and_is_retried() -> None:
    outcome = AttemptOutcome(error_type="BrowserNotAnswering",
                             error_message="browser not answering: no new tab within 30s")
    assert diagnose(outcome) == ["browser_crash"]
    assert is_retryable(diagnose(outcome), outcome)


async def _emit_failing(error: BaseException) -> EventEmitter:
    page = SimpleNamespace(_impl_obj=EventEmitter())
    _catch_listener_errors(page)  # type: ignore[arg-type]
    ran = asyncio.Event()

    async def listener(_: object) -> None:
        ran.set()
        raise error

    page._impl_obj.on("response", listener)
    page._impl_obj.emit("response", object())
    await asyncio.wait_for(ran.wait(), timeout=10)  # a failure bound, not a synchronisation
    for _ in range(3):  # the listener task ends, then its done callback runs
        await asyncio.sleep(0)
    return page._impl_obj


@aio
async def test_a_closed_target_under_a_listener_is_one_debug_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    await _emit_failing(TargetClosedError("Response.header_value: Target page, context or browser has been closed"))
    records = [r for r in caplog.records if "listener" in r.getMessage()]
    assert [(r.levelno, r.exc_info) for r in records] == [(logging.DEBUG, None)], records
    assert "Traceback" not in caplog.text


@aio
async def test_any_other_listener_error_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    await _emit_failing(KeyError("a real defect"))
    records = [r for r in caplog.records if "listener" in r.getMessage()]
    assert len(records) == 1 and records[0].levelno == logging.ERROR and records[0].exc_info is not None
