"""PagePool: tabs lent one request at a time, reset between pages, closed after failures or `max_uses`.

Driven with fake tabs (the pool only needs `evaluate`, `close`, `is_closed`, `on`, `context`); the real
browser path is covered by tests/crawl/test_page_reuse.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bara_scrapy.browser.pool import _QUIESCE_JS, PagePool

from ..aio import aio


class FakeBrowser:
    def __init__(self) -> None:
        self.connected = True

    def is_connected(self) -> bool:
        return self.connected


class FakeContext:
    def __init__(self, browser: FakeBrowser) -> None:
        self.browser = browser
        self.pages: list[FakeTab] = []
        self.closed = False

    async def close(self) -> None:
        self.closed = True


class FakeTab:
    def __init__(self, context: FakeContext, n: int, reset_fails: bool = False) -> None:
        self.context = context  # the crawl's context, shared by its tabs (each in a window of its own)
        self.context.pages.append(self)
        self.n = n
        self.scripts: list[str] = []  # what the pool ran in the tab's page
        self.closed = False
        self.reset_fails = reset_fails
        self.listeners: dict[str, list[Callable[[Any], None]]] = {}

    def on(self, event: str, callback: Callable[[Any], None]) -> None:
        self.listeners.setdefault(event, []).append(callback)

    def emit(self, event: str) -> None:
        for callback in self.listeners.get(event, []):
            callback(self)

    def is_closed(self) -> bool:
        return self.closed

    async def evaluate(self, script: str) -> bool:
        if self.reset_fails:
            raise TimeoutError("reset did not answer")
        self.scripts.append(script)
        return True

    async def close(self) -> None:
        self.closed = True
        self.context.pages.remove(self)


class Factory:
    def __init__(self) -> None:
        self.browser = FakeBrowser()
        self.context = FakeContext(self.browser)
        self.tabs: list[FakeTab] = []
        self.fail_next = False

    async def __call__(self) -> FakeTab:
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("browser gone")
        tab = FakeTab(self.context, len(self.tabs))
        self.tabs.append(tab)
        return tab


@aio
async def test_a_released_tab_is_reset_and_lent_again() -> None:
    pool, make = PagePool(limit=2, max_uses=5), Factory()
    first = await pool.acquire(make)
    await pool.release(first, reusable=True)
    again = await pool.acquire(make)
    assert again is first and first.scripts == [_QUIESCE_JS]
    assert (pool.stats.created, pool.stats.reused) == (1, 1)


@aio
async def test_no_more_tabs_than_the_limit_and_a_waiter_gets_the_returned_one() -> None:
    pool, make = PagePool(limit=2, max_uses=5), Factory()
    a, b = await pool.acquire(make), await pool.acquire(make)
    waiter = asyncio.ensure_future(pool.acquire(make))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not waiter.done() and len(make.tabs) == 2
    await pool.release(b, reusable=True)
    assert await waiter is b
    await pool.release(a, reusable=True)


@aio
async def test_a_tab_is_retired_after_max_uses_and_the_context_stays() -> None:
    pool, make = PagePool(limit=1, max_uses=2), Factory()
    for _ in range(4):
        await pool.release(await pool.acquire(make), reusable=True)
    assert len(make.tabs) == 2 and pool.stats.retired == 2
    assert all(t.closed for t in make.tabs) and not make.context.closed and make.context.pages == []


@aio
async def test_a_failed_page_closes_its_tab_and_every_idle_one() -> None:
    pool, make = PagePool(limit=3, max_uses=50), Factory()
    a, b, c = await pool.acquire(make), await pool.acquire(make), await pool.acquire(make)
    await pool.release(a, reusable=True)
    await pool.release(b, reusable=False)  # a crash may have hit the idle tabs too
    for _ in range(3):
        await asyncio.sleep(0)
    assert a.closed and b.closed and not c.closed
    assert await pool.acquire(make) is make.tabs[3]
    await pool.release(c, reusable=True)


@pytest.mark.parametrize("fault", ["crash", "closed", "disconnected", "reset fails"])
@aio
async def test_an_unusable_tab_is_never_lent_again(fault: str) -> None:
    pool, make = PagePool(limit=2, max_uses=50), Factory()
    tab = await pool.acquire(make)
    if fault == "reset fails":
        tab.reset_fails = True
    await pool.release(tab, reusable=True)
    if fault == "crash":
        tab.emit("crash")
    elif fault == "closed":
        tab.closed = True
    elif fault == "disconnected":
        make.browser.connected = False
    other = await pool.acquire(make)
    assert other is not tab and len(make.tabs) == 2


@aio
async def test_a_failed_creation_frees_its_slot() -> None:
    pool, make = PagePool(limit=1, max_uses=50), Factory()
    make.fail_next = True
    with pytest.raises(RuntimeError):
        await pool.acquire(make)
    assert pool.live() == 0
    tab = await pool.acquire(make)
    assert pool.live() == 1
    await pool.release(tab, reusable=True)


@aio
async def test_a_tab_made_elsewhere_is_lent_and_retired_like_its_own() -> None:
    pool, make = PagePool(limit=1, max_uses=1), Factory()
    shared = FakeTab(make.context, 0)  # a tab scrapy-playwright made (a persistent profile's)
    pool_tab = await pool.acquire(lambda: asyncio.sleep(0, shared))
    assert pool_tab is shared
    await pool.release(shared, reusable=True)  # retired after max_uses
    assert shared.closed and not shared.context.closed


@aio
async def test_close_closes_idle_tabs_not_the_context() -> None:
    pool, make = PagePool(limit=2, max_uses=50), Factory()
    a, b = await pool.acquire(make), await pool.acquire(make)
    await pool.release(a, reusable=True)
    await pool.release(b, reusable=True)
    await pool.close()
    assert a.closed and b.closed and not make.context.closed
