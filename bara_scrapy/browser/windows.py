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
        await session.detach()
    return info


async def new_window_tab(browser: Browser, context: BrowserContext) -> Page:
    """A tab of `context` in a new window. A context without tabs gets an ordinary first tab (alone in
    a new window anyway), which tells the context's CDP id; else any of its tabs tells it."""
    async with _LOCKS.setdefault(context, asyncio.Lock()):
        context_id = _CONTEXT_IDS.get(context)
        if context_id is None:
            if not context.pages:
                page = await context.new_page()
                _CONTEXT_IDS[context] = (await target_info(context, page))["browserContextId"]
                return page
            context_id = _CONTEXT_IDS[context] = (await target_info(context, context.pages[0]))["browserContextId"]
        session = _BROWSER_SESSIONS.get(browser)
        if session is None:
            session = _BROWSER_SESSIONS[browser] = await browser.new_browser_cdp_session()
    adopted: asyncio.Queue[Page] = asyncio.Queue()
    put = adopted.put_nowait
    context.on("page", put)
    try:
        created = await session.send("Target.createTarget", {
            "url": "about:blank", "browserContextId": context_id, "newWindow": True})
        while True:  # a pop-up of another tab may be adopted meanwhile: match the target id
            page = await adopted.get()
            try:
                target_id = (await target_info(context, page))["targetId"]
            except PlaywrightError:  # closed already: not ours
                continue
            if target_id == created["targetId"]:
                await page.wait_for_load_state()  # the initial about:blank: a goto now would interrupt it
                return page
    finally:
        context.remove_listener("page", put)
