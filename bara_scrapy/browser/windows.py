"""A new tab in a window of its own, in an existing browser context (Chromium, over CDP).

Tabs that share a window are background tabs to Chromium, all but the newest: their frames, so
`requestAnimationFrame`, scroll steps and the IntersectionObservers that load lazy images, run about
every 2 s instead of at once (measured: 2 rAFs took 2,020–2,030 ms in an older tab, 20–40 ms in the
newest). Playwright's `context.new_page()` opens every tab of a context in one window; a pooled tab
that outlives newer ones would stall. `Target.createTarget(newWindow=true)` gives it a window of its
own in the same context (cookies, cache and routes shared, nothing extra to create or close), and
Playwright adopts the target as a page of that context.
"""

from __future__ import annotations

import asyncio
import itertools
import weakref

from playwright.async_api import Browser, BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

_CONTEXT_IDS: weakref.WeakKeyDictionary[BrowserContext, str] = weakref.WeakKeyDictionary()
_LOCKS: weakref.WeakKeyDictionary[BrowserContext, asyncio.Lock] = weakref.WeakKeyDictionary()
_BROWSER_SESSIONS: weakref.WeakKeyDictionary[Browser, CDPSession] = weakref.WeakKeyDictionary()


async def target_info(context: BrowserContext, page: Page) -> dict[str, str]:
    session = await context.new_cdp_session(page)
    try:
        info: dict[str, str] = (await session.send("Target.getTargetInfo"))["targetInfo"]
    finally:
        try:
            await session.detach()
        except PlaywrightError:  # the tab closed meanwhile: its session went with it
            pass
    return info


async def _context_id(context: BrowserContext) -> str | None:
    """The context's CDP id, read from any of its tabs that is still open (one may be closing)."""
    for page in list(context.pages):
        try:
            return (await target_info(context, page))["browserContextId"]
        except PlaywrightError:
            continue
    return None


class _Adoption:
    """Tabs of one context that Playwright adopts, matched to the windows being opened. A window's tab is
    created at a URL of its own (`about:blank#bara-window-N`), which its adopted page already shows: no
    CDP round trip. A tab adopted under another URL while windows are being opened has its target id read
    (once), in case Chromium reported the navigation late."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.by_url: dict[str, asyncio.Future[Page]] = {}
        self.by_target: dict[str, asyncio.Future[Page]] = {}
        self.early: weakref.WeakValueDictionary[str, Page] = weakref.WeakValueDictionary()
        self.reading: set[asyncio.Task[None]] = set()
        context.on("page", self._adopted)

    def _adopted(self, page: Page) -> None:
        waiter = self.by_url.get(page.url)
        if waiter is not None:
            if not waiter.done():
                waiter.set_result(page)
            return
        if self.by_url:  # windows being opened: this may be one of them, else a pop-up
            task = asyncio.ensure_future(self._read(page))
            self.reading.add(task)
            task.add_done_callback(self.reading.discard)

    async def _read(self, page: Page) -> None:
        try:
            target_id = (await target_info(self.context, page))["targetId"]
        except PlaywrightError:  # closed already: not ours
            return
        waiter = self.by_target.get(target_id)
        if waiter is None:
            self.early[target_id] = page  # read before `createTarget` answered
        elif not waiter.done():
            waiter.set_result(page)

    async def open(self, session: CDPSession, context_id: str) -> Page:
        url = f"about:blank#bara-window-{next(_WINDOW_SEQ)}"
        waiter: asyncio.Future[Page] = asyncio.get_running_loop().create_future()
        self.by_url[url] = waiter
        target_id = ""
        try:
            created = await session.send("Target.createTarget", {
                "url": url, "browserContextId": context_id, "newWindow": True})
            target_id = created["targetId"]
            early = self.early.pop(target_id, None)
            if early is not None and not waiter.done():
                waiter.set_result(early)
            self.by_target[target_id] = waiter
            return await waiter
        finally:
            self.by_url.pop(url, None)
            self.by_target.pop(target_id, None)


_ADOPTIONS: weakref.WeakKeyDictionary[BrowserContext, _Adoption] = weakref.WeakKeyDictionary()
_WINDOW_SEQ = itertools.count(1)


async def new_window_tab(browser: Browser, context: BrowserContext) -> Page:
    """A tab of `context` in a new window. A context without tabs gets an ordinary first tab (alone in
    a new window anyway), which tells the context's CDP id; else any of its tabs tells it."""
    async with _LOCKS.setdefault(context, asyncio.Lock()):
        context_id = _CONTEXT_IDS.get(context) or await _context_id(context)
        if context_id is None:  # no open tab to ask
            page = await context.new_page()
            _CONTEXT_IDS[context] = (await target_info(context, page))["browserContextId"]
            return page
        _CONTEXT_IDS[context] = context_id
        session = _BROWSER_SESSIONS.get(browser)
        if session is None:
            session = _BROWSER_SESSIONS[browser] = await browser.new_browser_cdp_session()
        adoption = _ADOPTIONS.get(context)
        if adoption is None:
            adoption = _ADOPTIONS[context] = _Adoption(context)
    page = await adoption.open(session, context_id)
    await page.wait_for_load_state()  # the initial about:blank: a goto now would interrupt it
    return page
