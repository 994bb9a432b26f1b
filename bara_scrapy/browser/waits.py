"""Waits of the browser step, bounded by the page's hard deadline."""

from __future__ import annotations

import time

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from .session import PageSession

TIMER_WAIT_MS = 4000  # longest wait for pending short timers (see timers_js.py)


async def pause(page: Page, session: PageSession, ms: int) -> None:
    ms = int(min(ms, max(session.remaining(), 0) * 1000))
    if ms > 0:
        await page.wait_for_timeout(ms)


async def pending_timers(page: Page) -> int:
    try:
        count = await page.evaluate("() => (window.__baraPendingTimers ? window.__baraPendingTimers() : 0)")
    except PlaywrightError:
        return 0
    return int(count or 0)


async def settle(page: Page, session: PageSession, ms: int, timers: bool = False) -> None:
    """Wait until no request is in flight for a short quiet period, at most `ms`.

    With `timers`, a page that still has short timers pending (content due
    in a moment: `setTimeout(render, 1500)`) is waited for up to TIMER_WAIT_MS.
    """
    started = time.monotonic()
    end = started + ms / 1000
    hard_end = started + max(ms, TIMER_WAIT_MS if timers else 0) / 1000
    quiet = 0
    while time.monotonic() < hard_end and session.remaining() > 0.5:
        if session.inflight == 0:
            quiet += 1
            if quiet >= 3 and (not timers or await pending_timers(page) == 0):
                return
        else:
            quiet = 0
        if time.monotonic() >= end and not timers:
            return
        await page.wait_for_timeout(50)
