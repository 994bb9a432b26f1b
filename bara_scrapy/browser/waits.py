"""Waits of the browser step: end as soon as the page's evidence says nothing is pending.

Evidence: requests in flight (the page's listeners, `events.py`), the time since
the DOM last changed, images loading near the viewport and pending short timers
(the init script in `timers_js.py`). A wait never sleeps a fixed time: its
length is only a bound, and every wait is bounded by the page's hard deadline.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from .session import PageSession

TIMER_WAIT_MS = 4000  # longest wait for pending short timers or a busy network before the first read
QUIET_MS = 100  # no request finished and no DOM change for this long: the page is quiet
POLL_S = 0.04
_STATE_JS = "() => (window.__baraState ? window.__baraState() : null)"


@dataclass(frozen=True)
class PageProgress:
    """One reading of the page's own evidence (see timers_js.py)."""

    timers: int = 0
    dom_quiet_ms: float = 1e9
    loading_images: int = 0
    height: int = 0
    bottom: float = 0.0
    viewport: int = 0
    calls: int = 0  # the page's fetch/XHR calls not answered yet

    @property
    def at_bottom(self) -> bool:
        return self.bottom >= self.height - 2


def progress_of(raw: Any) -> PageProgress:
    """A reading of `window.__baraState()` (an empty one when the init script did not run).

    >>> progress_of([1, 20.5, 0, 3000, 720, 720, 2]).calls, progress_of(None)
    (2, PageProgress(timers=0, dom_quiet_ms=1000000000.0, loading_images=0, height=0, bottom=0.0, viewport=0, calls=0))
    """
    if not raw:
        return PageProgress()
    calls = int(raw[6]) if len(raw) > 6 else 0
    return PageProgress(int(raw[0]), float(raw[1]), int(raw[2]), int(raw[3]), float(raw[4]), int(raw[5]), calls)


async def page_progress(page: Page) -> PageProgress:
    try:
        return progress_of(await page.evaluate(_STATE_JS))
    except PlaywrightError:
        return PageProgress()


def unchanged_since(session: PageSession, state: PageProgress, elapsed_ms: float, requests_before: int) -> bool:
    """Nothing happened in the last `elapsed_ms` (a scroll step): no request started or in flight, no DOM
    change, no image loading, no fetch/XHR or short timer pending. Then there is nothing to wait for.

    >>> s = PageSession(seed="http://a/", scope="host", page_url="http://a/", allow_private=False, deadline=0)
    >>> unchanged_since(s, PageProgress(dom_quiet_ms=500), 40, 0)
    True
    >>> unchanged_since(s, PageProgress(dom_quiet_ms=10), 40, 0)
    False
    >>> unchanged_since(s, PageProgress(calls=1), 40, 0), unchanged_since(s, PageProgress(), 40, 3)
    (False, False)
    """
    network = session.inflight == 0 and session.requests_total == requests_before
    page = state.dom_quiet_ms >= elapsed_ms and state.loading_images == 0 and state.calls == 0
    return network and page and state.timers == 0


def is_quiet(session: PageSession, state: PageProgress, timers: bool) -> bool:
    """Nothing in flight, nothing changed for QUIET_MS, and (with `timers`) no short timer pending.

    >>> s = PageSession(seed="http://a/", scope="host", page_url="http://a/", allow_private=False, deadline=0)
    >>> is_quiet(s, PageProgress(timers=1), False), is_quiet(s, PageProgress(timers=1), True)
    (True, False)
    >>> is_quiet(s, PageProgress(dom_quiet_ms=20), False), is_quiet(s, PageProgress(loading_images=1), False)
    (False, False)
    """
    network = session.inflight == 0 and session.network_quiet_ms() >= QUIET_MS
    page = state.dom_quiet_ms >= QUIET_MS and state.loading_images == 0
    return network and page and (not timers or state.timers == 0)


async def settle(page: Page, session: PageSession, ms: int, timers: bool = False,
                 reserve_s: float = 0.0) -> PageProgress:
    """Wait until the page is quiet; return at once if it already is.

    Bounded by `ms`; with `timers`, a page that still fetches or has short
    timers pending (content due in a moment: `setTimeout(render, 1500)`) is
    waited for up to TIMER_WAIT_MS. `reserve_s` of the deadline is kept for
    what follows (the scroll).
    """
    started = time.monotonic()
    while True:
        state = await page_progress(page)
        if is_quiet(session, state, timers):
            return state
        busy = session.inflight > 0 or state.timers > 0
        limit_ms = max(ms, TIMER_WAIT_MS) if timers and busy else ms
        if (time.monotonic() - started) * 1000 >= limit_ms or session.remaining() < 0.5 + reserve_s:
            return state
        await asyncio.sleep(POLL_S)
