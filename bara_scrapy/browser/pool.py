"""Reuse browser tabs across page requests (`BARA_PAGE_REUSE` > 0): a new page per request costs CPU.

Measured on the speed bench's site (300 pages, c=4, this 2-core machine, one run): 374.7 pages/min and
0.264 CPU s/page with pooled tabs against 246.7 and 0.326 with a new tab per page: new tabs share one
window, where all but the newest are background tabs whose frames (so scroll steps) stall for about 1 s,
and every new tab starts a renderer. The crawl's first `BARA_PAGE_REUSE_AFTER` rendered pages get new
tabs instead, while the frontier has admitted no more pages than that (`handler.warming_up`). Since
pages are scrolled only where a scroll could reveal something, fewer pages wait for
frames, and pooling gained less: 468.1 against 420.7 pages/min (sixth run); with tabs quiesced rather
than reset (below), 566.2 against 411.7 (seventh run). Each pooled tab keeps a window and its renderer,
so memory grows with concurrency: the project's `CONCURRENT_REQUESTS=4` peaks at about 1.1–1.3 GB (1.4 GB
at c=8); a 2,000-page crawl grew +5.7 to +10.3 % from page 500 in three runs of the seventh run's code and
+17 % in one run of the eighth's, the driver growing most; with the driver's heap limited (`driver.py`)
it stays flat (ninth run: −0.2 %, +3.3 %, +3.8 %; docs/speed.md).

Tabs are retired after 50 pages (`BARA_PAGE_REUSE`) since they are quiesced rather than reset (seventh
run, 300 pages at c=4: 620 pages/min after 50, 570–597 after 25, 660 after 100; 2,000 pages: peak PSS
per 250 pages from page 500 +6.6 % after 50 (1168 → 1245 MB), +5.5 % after 25, +4 % after 100 but at
1.46 GB, the driver's share growing with a tab's pages).

A tab is lent to one request at a time. It goes back to the pool after a download that succeeded,
with its page quiesced: loading stopped, timers and animation frames cleared, media paused. It is not
navigated to `about:blank`: that second navigation per page cost 0.04 CPU s/page (seventh run, 513
against 597 pages/min); the next page's own navigation replaces the document, and until it commits the
old page's requests (its `beforeunload` handlers) are not the new page's (`events.PageEvents.mine`).
After a failure, or after `max_uses` pages, a tab is closed, so a page that misbehaved never serves
another and a long crawl's memory stays bounded (under 1.5 GB at c=4). The number of open tabs never exceeds
`limit` (scrapy-playwright's `PLAYWRIGHT_MAX_PAGES_PER_CONTEXT`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

RESET_TIMEOUT_S = 5.0  # resetting or closing a tab that does not answer in this time: give it up
Create = Callable[[], Awaitable[Page]]


@dataclass
class PoolStats:
    created: int = 0
    reused: int = 0
    retired: int = 0  # closed after max_uses
    discarded: int = 0  # closed after a failure or a failed reset


@dataclass
class PagePool:
    """Idle tabs of one browser context, lent one request at a time."""

    limit: int
    max_uses: int
    idle: list[Page] = field(default_factory=list)
    uses: dict[Page, int] = field(default_factory=dict)
    crashed: set[Page] = field(default_factory=set)
    creating: int = 0
    tasks: set[asyncio.Future[None]] = field(default_factory=set)  # tabs being reset or closed in the background
    stats: PoolStats = field(default_factory=PoolStats)
    _changed: asyncio.Condition | None = None

    @property
    def changed(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    def live(self) -> int:
        return len(self.uses) + self.creating

    async def acquire(self, create: Create) -> Page:
        """An idle tab, else a new one while fewer than `limit` are open, else wait for one to come back."""
        async with self.changed:
            while True:
                page = self._idle_page()
                if page is not None:
                    self.uses[page] += 1
                    self.stats.reused += 1
                    return page
                if self.live() < self.limit:
                    self.creating += 1  # holds the slot while the tab is created
                    break
                await self.changed.wait()
        try:
            page = await create()
        except BaseException:
            async with self.changed:
                self.creating -= 1
                self.changed.notify_all()
            raise
        self.creating -= 1
        self.uses[page] = 1
        self.stats.created += 1
        page.on("crash", lambda _: self.crashed.add(page))
        return page

    def _idle_page(self) -> Page | None:
        """An idle tab still usable; closed or crashed ones leave the pool (and are closed)."""
        while self.idle:
            page = self.idle.pop()
            if self.usable(page):
                return page
            self.uses.pop(page, None)
            self.crashed.discard(page)
            self._close_later(page)
        return None

    def _close_later(self, page: Page) -> None:
        if _connected(page):
            self.background(close_tab(page))

    def background(self, work: Awaitable[None]) -> None:
        """Run `work` (a tab's reset or close) without waiting for it; `close` waits for it."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def usable(self, page: Page) -> bool:
        """Open, not crashed, and its browser still connected (a killed browser's tabs are not marked closed)."""
        return not page.is_closed() and page not in self.crashed and _connected(page)

    async def release(self, page: Page, *, reusable: bool) -> None:
        """Take a tab back: reset and keep it, or close it (failure, used `max_uses` times, reset failed)."""
        keep = reusable and self.usable(page) and self.uses.get(page, 0) < self.max_uses
        if keep:
            keep = await _reset(page)
            if not keep:
                self.stats.discarded += 1
        elif reusable:
            self.stats.retired += 1
        else:
            self.stats.discarded += 1
        async with self.changed:
            if keep:
                self.idle.append(page)
            else:
                self.uses.pop(page, None)
                self.crashed.discard(page)
                if not reusable:
                    self.flush()
            self.changed.notify_all()
        if not keep:
            await close_tab(page)

    def flush(self) -> None:
        """Retire every idle tab (after a failed page: its cause, a renderer or browser crash, may have hit
        them too)."""
        while self.idle:
            page = self.idle.pop()
            self.uses.pop(page, None)
            self.crashed.discard(page)
            self.stats.discarded += 1
            self._close_later(page)

    async def close(self) -> None:
        """Close every idle tab, after the resets still running have brought theirs back."""
        await asyncio.gather(*self.tasks, return_exceptions=True)
        pages, self.idle = list(self.idle), []
        for page in pages:
            self.uses.pop(page, None)
        await asyncio.gather(*(close_tab(page) for page in pages), *self.tasks, return_exceptions=True)


# the previous page stops loading, its timers, intervals and animation frames are cleared and its media
# paused: idle in the pool, it costs nothing, and it cannot start a navigation or a request (the ids of
# timers and frames count up from 1 in Chromium; the last QUIESCE_IDS of each are cleared)
QUIESCE_IDS = 10000
_QUIESCE_JS = f"""() => {{
  try {{ window.stop(); }} catch (e) {{}}
  const t = setTimeout(() => {{}}, 0);
  for (let i = t; i > 0 && i > t - {QUIESCE_IDS}; i--) clearTimeout(i);
  const f = requestAnimationFrame(() => {{}});
  for (let i = f; i > 0 && i > f - {QUIESCE_IDS}; i--) cancelAnimationFrame(i);
  for (const m of document.querySelectorAll("video, audio")) try {{ m.pause(); }} catch (e) {{}}
  return true;
}}"""


async def _reset(page: Page) -> bool:
    """Quiesce the page the tab shows (not a navigation: the next page's own navigation replaces it)."""
    try:
        return await asyncio.wait_for(page.evaluate(_QUIESCE_JS), timeout=RESET_TIMEOUT_S) is True
    except (PlaywrightError, TimeoutError):
        return False


def _connected(page: Page) -> bool:
    try:
        browser = page.context.browser
    except PlaywrightError:
        return False
    return browser is None or browser.is_connected()


async def close_tab(page: Page) -> None:
    try:
        if _connected(page) and not page.is_closed():
            await asyncio.wait_for(page.close(), timeout=RESET_TIMEOUT_S)
    except (PlaywrightError, TimeoutError):
        pass
