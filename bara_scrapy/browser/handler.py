"""scrapy-playwright's download handler with bara's page step: reused tabs, and its own waits.

Tabs: with `BARA_PAGE_REUSE` > 0 (default 50), a bara page request after
the crawl's first `BARA_PAGE_REUSE_AFTER` borrows a tab from the context's
`PagePool` (see `pool.py`) and hands it to scrapy-playwright as `playwright_page`,
which then neither creates nor closes it; the tab goes back
to the pool after the download (closed instead when the download raised). Each
pooled tab has a window of its own in the request's browser context (`windows.py`).
The first pages get scrapy-playwright's own new tab each (a short crawl would pay
for windows it never reuses); the first window opens once no such tab is being
created, so no plain tab can open in a pooled tab's window and make it a
background tab. `BARA_PAGE_REUSE` = 0: a new page per request,
scrapy-playwright's own behaviour.

Waits: after each `PageMethod`, scrapy-playwright waits for the `load` event
for up to the navigation timeout (30 s by default) and fails the page when it
never comes. bara's `explore` already waits for `load` within the page's hard
deadline and then works with what is there (long-polling pages, endless
resources), so for bara page requests the methods run without that extra wait.

Bounds: on a browser or renderer that just died, Playwright calls can wait for
an answer that never comes (seen in CI: after a renderer was killed, the page
that scrapy-playwright retried on a new tab never ended; a stopped browser does
the same to every call). A new tab is
therefore bounded by the navigation timeout (a late tab is closed when it comes,
which frees its slot of the context's semaphore), and a bara page download as a
whole by creation + navigation + the page deadline + a grace; running out raises
`BrowserNotAnswering`, which reflection reads as a browser crash and retries.

Listener errors: scrapy-playwright's response listener reads the headers of a
response whose page or browser may just have died (`TargetClosedError`).
Playwright logs such an error with its traceback and raises it again from the
next call of any page of the crawl. Each tab therefore has an `error` listener
(Playwright's own hook for listener errors): a closed target is one debug line,
anything else is logged with its traceback, and no innocent page gets the error.

One handler: Scrapy makes a download handler per scheme, and scrapy-playwright's starts a Playwright
driver in each at once; `from_crawler` gives http and https the crawl's one handler (one driver, and
one browser and tab pool for pages of both schemes), closed once. The driver starts with a bounded
V8 heap (`driver.py`).

Relies on `_create_page`, `_launch`, `_download_request`, `_apply_page_methods`, `_close`,
`_create_browser_context`, `context_launch_lock`, `context_wrappers` (and their
`semaphore`), `_make_close_page_callback`, `browser`, `_increment_request_stats`,
`_increment_response_stats` and `config` of scrapy-playwright 0.0.48 (pinned).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import weakref
from collections.abc import Awaitable
from typing import Any
from urllib.parse import urlsplit

from playwright._impl._errors import TargetClosedError
from playwright.async_api import Page
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler
from scrapy_playwright.page import PageMethod

from .. import tls
from ..config import BaraConfig
from ..procs import kill_launched
from .driver import driver_environ
from .egress import EgressProxy, allow_in_rules, proxy_args
from .guard import GuardPolicy
from .pool import PagePool, close_tab
from .windows import new_window_tab

DOWNLOAD_GRACE_S = 15.0
CLOSE_BOUND_S = 15.0  # a browser that has not closed by then no longer answers: it is killed
LAUNCH_FLAG = "--remote-debugging-pipe"  # how the driver launches the browsers it drives

logger = logging.getLogger(__name__)
_CLOSING: set[asyncio.Future[None]] = set()  # tabs being closed that nobody waits for
_SHARED: weakref.WeakKeyDictionary[Crawler, BaraPlaywrightDownloadHandler] = weakref.WeakKeyDictionary()


def warming_up(rendered: int, admitted: int, reuse_after: int) -> bool:
    """A crawl's pages get new tabs until it has rendered `reuse_after` pages or admitted more than that.

    >>> warming_up(3, 5, 16), warming_up(16, 5, 16), warming_up(3, 16, 16), warming_up(3, 17, 16)
    (True, False, True, False)
    """
    return rendered < reuse_after and admitted <= reuse_after


class BrowserNotAnswering(Exception):
    """A Playwright call on a browser that stopped answering ran out of its bound. Not a `TimeoutError`:
    Scrapy's RetryMiddleware would retry it at once, on the same browser; reflection retries it."""


class BaraPlaywrightDownloadHandler(ScrapyPlaywrightDownloadHandler):  # type: ignore[misc]
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        config = BaraConfig.from_crawler(crawler)
        self.page_reuse = config.page_reuse
        self.reuse_after = config.page_reuse_after
        self.fresh_tabs = 0  # bara pages given a new tab of their own so far (the first `reuse_after`)
        self.plain_creating = 0  # scrapy-playwright tabs being created: no window opens meanwhile
        self._plain_done: asyncio.Condition | None = None
        # a pooled download never outlives this: navigation, the page step's deadline, the final DOM read
        self.download_bound = config.navigation_timeout + config.page_timeout + DOWNLOAD_GRACE_S
        self.create_bound = config.navigation_timeout
        self.pools: dict[str, PagePool] = {}
        self.tabs: dict[Request, Page] = {}  # the tab scrapy-playwright created for a bara request in flight
        self.user_agent: str = crawler.settings.get("USER_AGENT") or ""
        self.driver_heap_mb = config.driver_heap_mb
        self.tls_verify = config.tls_verify
        self.allow_private = config.allow_private_networks
        self.egress: EgressProxy | None = None
        self._closed: asyncio.Future[None] | None = None
        self._launching: asyncio.Future[None] | None = None  # the browser, launched once the engine starts

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BaraPlaywrightDownloadHandler:
        """The crawl's one handler, for http and https alike. Scrapy makes a handler per scheme, and each of
        scrapy-playwright's starts a Playwright driver at once (a Node.js process, idle all crawl long on
        a site of one scheme), and a browser and a tab pool of its own for pages of its scheme."""
        handler = _SHARED.get(crawler)
        if not isinstance(handler, cls):
            handler = _SHARED[crawler] = cls(crawler)
        return handler

    async def close(self) -> None:
        """scrapy-playwright's close, once (Scrapy closes the shared handler once per scheme)."""
        if self._closed is None:
            if self._launching is not None:  # a browser launched after the close would outlive the crawl
                await self._launching
            self._closed = asyncio.ensure_future(super().close())
        await self._closed

    async def _launch(self) -> None:
        """scrapy-playwright's launch, its driver's heap limited (`driver.py`), with the egress proxy
        (`egress.py`) in front of every host name the browser asks for. The browser itself is launched
        now, in the background, rather than by the first render, which would wait for it (robots.txt and
        the seed's HTTP side download meanwhile: 0.2 s less before the first page on the speed bench)."""
        await self._start_egress()
        with driver_environ(self.driver_heap_mb):
            await super()._launch()
        self._launching = asyncio.ensure_future(self._launch_browser_now())

    async def _launch_browser_now(self) -> None:
        try:
            await self._maybe_launch_browser()
        except Exception as exc:  # the first render launches it again, and fails there as it did before
            logger.debug("Browser launch before the first render failed: %r", exc)

    async def _start_egress(self) -> None:
        launch = self.config.launch_options
        args = list(launch.get("args") or [])
        seed = self._crawler.settings.get("BARA_SEED")
        remote = self.config.cdp_url or self.config.connect_url  # a browser elsewhere cannot reach 127.0.0.1 here
        if self.egress is not None or self.allow_private or not seed or remote or launch.get("proxy") or any(
                a.startswith(("--proxy-server", "--proxy-pac-url", "--no-proxy-server")) for a in args):
            return  # private networks allowed, or the user's own proxy: Chromium resolves as it is told
        self.egress = await EgressProxy(GuardPolicy(seed), self.stats).start()
        launch["args"] = [*allow_in_rules(args, f"127.0.0.1:{self.egress.port}"),
                          *proxy_args(self.egress.port, urlsplit(seed).hostname or "")]
        logger.info("Browser egress for host names through 127.0.0.1:%d (checked, pinned)", self.egress.port)

    async def _create_browser_context(self, name: str, context_kwargs: dict[str, Any] | None,
                                      spider: Any = None) -> Any:
        """scrapy-playwright's context, which sends USER_AGENT with every request (see `context_headers`) and
        checks certificates under BARA_TLS_VERIFY (`tls.context_kwargs`), its pages and the route handler's
        document fetches alike."""
        context_kwargs = tls.context_kwargs(self.tls_verify, dict(context_kwargs or {}))
        wrapper = await super()._create_browser_context(name=name, context_kwargs=context_kwargs, spider=spider)
        headers = context_headers(self.user_agent, context_kwargs or {})
        if headers is not None:
            await wrapper.context.set_extra_http_headers(headers)
        return wrapper

    def _warming_up(self) -> bool:
        """Whether this page gets a new tab: one of the crawl's first `reuse_after` rendered pages, while the
        frontier has admitted no more than `reuse_after` pages (a longer crawl reuses tabs: with
        `BARA_RENDER=auto` most of its pages come over HTTP, and it would render its first probes in new
        tabs that share one window)."""
        return warming_up(self.fresh_tabs, int(self.stats.get_value("bara/pages/admitted", 0) or 0),
                          self.reuse_after)

    async def _download_request(self, request: Request, spider: Any = None) -> Response:
        meta = request.meta
        if not meta.get("bara") or meta.get("playwright_page"):
            plain: Response = await super()._download_request(request, spider)
            return plain
        if not self.page_reuse or self._warming_up():  # a short crawl would not reuse tabs
            self.fresh_tabs += 1
            return await self._bounded_download(request, spider)
        pool = self._page_pool(meta.get("playwright_context", "default"))
        page = await pool.acquire(lambda: self._new_tab(request, spider))
        self._pool_stats()  # counted now: the last tab's release may end after the crawl's stats are dumped
        meta["playwright_page"] = page
        meta["playwright_include_page"] = True
        ok = False
        try:
            response = await _within(super()._download_request(request, spider), self.download_bound)
            ok = True
            return response
        finally:
            self.tabs.pop(request, None)
            used = meta.pop("playwright_page", page)
            meta.pop("playwright_include_page", None)
            if used is not page:  # scrapy-playwright replaced a closed tab: that one is not the pool's
                await self._release(pool, page, reusable=False)
                await self._release(pool, used, reusable=False)
            elif ok:  # reset the tab after the response went on: the page's result does not wait for it
                pool.background(self._release(pool, page))
            else:
                await self._release(pool, page, reusable=False)

    async def _bounded_download(self, request: Request, spider: Any) -> Response:
        """scrapy-playwright's download with a new tab, bounded: its tab is closed when the bound runs out."""
        try:
            return await _within(super()._download_request(request, spider), self.create_bound + self.download_bound)
        except BrowserNotAnswering:
            page = self.tabs.get(request)
            if page is not None:  # closing waits for the browser: not this request
                _close_quietly(page)
            raise
        finally:
            self.tabs.pop(request, None)

    async def _release(self, pool: PagePool, page: Page, reusable: bool = True) -> None:
        await pool.release(page, reusable=reusable)
        self._pool_stats()

    def _pool_stats(self) -> None:
        """bara/tabs/{created,reused,retired,discarded}: summed over the pools."""  # windows: counted at creation
        for name in ("created", "reused", "retired", "discarded"):
            self.stats.set_value(f"bara/tabs/{name}", sum(getattr(p.stats, name) for p in self.pools.values()))

    @property
    def plain_done(self) -> asyncio.Condition:
        if self._plain_done is None:
            self._plain_done = asyncio.Condition()
        return self._plain_done

    async def _create_page(self, request: Request, spider: Any) -> Page:
        """scrapy-playwright's new tab, counted: it opens in the context's last active window."""
        self.plain_creating += 1
        try:
            page: Page = await self._bounded_tab(super()._create_page(request, spider))
            _catch_listener_errors(page)
            if request.meta.get("bara"):
                self.tabs[request] = page
            return page
        finally:
            async with self.plain_done:
                self.plain_creating -= 1
                self.plain_done.notify_all()

    async def _bounded_tab(self, create: Awaitable[Page]) -> Page:
        """The tab `create` makes, within `create_bound`. Not cancelled when the bound runs out (a
        cancelled `new_page` would keep its semaphore slot): the late tab is closed when it comes."""
        task = asyncio.ensure_future(create)
        try:
            done, _ = await asyncio.wait({task}, timeout=self.create_bound)
        except BaseException:
            task.add_done_callback(_close_late_tab)
            raise
        if task not in done:
            task.add_done_callback(_close_late_tab)
            raise BrowserNotAnswering(f"browser not answering: no new tab within {self.create_bound:.0f}s")
        return task.result()

    async def _new_tab(self, request: Request, spider: Any) -> Page:
        """A tab of the request's context in a window of its own (`windows.py`): a tab that shares a
        window with newer tabs is a background tab to Chromium, whose frames (so scroll steps and
        IntersectionObservers) run about every 2 s instead of at once. Like scrapy-playwright's own
        tabs it holds a slot of the context's semaphore until it is closed."""
        spider = spider or self._crawler.spider
        meta = request.meta
        kwargs = meta.get("playwright_context_kwargs") or \
            self.config.startup_context_kwargs.get(meta.get("playwright_context", "default")) or {}
        if kwargs.get("user_data_dir"):  # a persistent context is one browser profile: scrapy-playwright's tab
            page: Page = await self._create_page(request, spider)
            return page
        return await self._bounded_tab(self._tab_in_own_window(request, spider))

    async def _tab_in_own_window(self, request: Request, spider: Any) -> Page:
        async with self.plain_done:  # a plain tab created meanwhile could open in the new window
            await self.plain_done.wait_for(lambda: self.plain_creating == 0)
        name = request.meta.setdefault("playwright_context", "default")
        async with self.context_launch_lock:
            wrapper = self.context_wrappers.get(name)
            if wrapper is None:
                wrapper = await self._create_browser_context(
                    name=name, context_kwargs=request.meta.get("playwright_context_kwargs"), spider=spider)
        await wrapper.semaphore.acquire()
        try:
            page = await new_window_tab(self.browser, wrapper.context)
        except BaseException:
            wrapper.semaphore.release()
            raise
        page.on("close", self._make_close_page_callback(name))
        _catch_listener_errors(page)
        if self.config.navigation_timeout_ms is not None:
            page.set_default_navigation_timeout(self.config.navigation_timeout_ms)
        page.on("request", self._increment_request_stats)
        page.on("response", self._increment_response_stats)
        self.stats.inc_value("playwright/page_count")
        self.stats.inc_value("bara/tabs/windows")
        return page

    def _page_pool(self, context: str) -> PagePool:
        pool = self.pools.get(context)
        if pool is None:
            pool = self.pools[context] = PagePool(limit=self.config.max_pages_per_context, max_uses=self.page_reuse)
        return pool

    async def _close(self) -> None:
        """Close the tabs, contexts and browser within `CLOSE_BOUND_S`; a browser that does not answer by then
        (stopped, hung) is killed with its processes and the driver stopped, so the crawl ends."""
        try:
            await asyncio.wait_for(self._close_browser(), CLOSE_BOUND_S)
        except TimeoutError:
            killed = kill_launched(os.getpid(), LAUNCH_FLAG)
            logger.warning("The browser did not close within %.0f s: %d of its processes killed",
                           CLOSE_BOUND_S, len(killed))
            self.stats.inc_value("bara/browser/killed_at_close")
            provider = getattr(self, "browser_provider", None)
            if provider is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(provider.close(), CLOSE_BOUND_S)
        if self.egress is not None:
            await self.egress.close()

    async def _close_browser(self) -> None:
        for pool in self.pools.values():
            await pool.close()
        await super()._close()

    async def _apply_page_methods(self, page: Page, request: Request, spider: Any) -> None:
        if not request.meta.get("bara"):
            await super()._apply_page_methods(page, request, spider)
            return
        for method in request.meta.get("playwright_page_methods") or ():
            if isinstance(method, PageMethod) and callable(method.method):
                method.result = await method.method(page, *method.args, **method.kwargs)


def context_headers(user_agent: str, context_kwargs: dict[str, Any]) -> dict[str, str] | None:
    """The extra headers a context sends with every request of its pages: its own and `User-Agent: USER_AGENT`,
    so that documents (fetched by the guard with the browser's headers) and sub-requests (continued as sent)
    name the same agent; None when the context names its own user agent, or there is no USER_AGENT.
    Only the header: `navigator.userAgent` stays Chromium's, as with scrapy-playwright's own header handling.

    >>> context_headers("bara/1", {"extra_http_headers": {"Accept-Language": "de"}})
    {'Accept-Language': 'de', 'User-Agent': 'bara/1'}
    >>> context_headers("bara/1", {"user_agent": "Mine/2"}), context_headers("", {})
    (None, None)
    >>> context_headers("bara/1", {"extra_http_headers": {"user-agent": "Mine/2"}}) is None
    True
    """
    extra = dict(context_kwargs.get("extra_http_headers") or {})
    if not user_agent or context_kwargs.get("user_agent") or any(k.lower() == "user-agent" for k in extra):
        return None
    return {**extra, "User-Agent": user_agent}


async def _within(download: Awaitable[Response], bound: float) -> Response:
    """`download` within `bound` seconds, else BrowserNotAnswering (a TimeoutError raised inside it is
    passed on as it is)."""
    timeout = asyncio.timeout(bound)
    try:
        async with timeout:
            return await download
    except TimeoutError:
        if not timeout.expired():
            raise
        raise BrowserNotAnswering(f"browser not answering: page download exceeded {bound:.0f}s") from None


def _close_late_tab(task: asyncio.Future[Page]) -> None:
    """Close a tab that came after its creation's bound ran out (nobody waits for it any more)."""
    if task.cancelled() or task.exception() is not None:
        return
    _close_quietly(task.result())


def _close_quietly(page: Page) -> None:
    """Close `page` without waiting (the pool's bounded `close_tab`, which ignores a dead browser's tab)."""
    closing = asyncio.ensure_future(close_tab(page))
    _CLOSING.add(closing)  # the loop keeps only a weak reference to a task
    closing.add_done_callback(_CLOSING.discard)


def _catch_listener_errors(page: Page) -> None:
    """Route the errors of `page`'s event listeners to `_listener_error` (see the module docstring)."""
    page._impl_obj.on("error", _listener_error)


def _listener_error(error: BaseException) -> None:
    if isinstance(error, TargetClosedError):  # the page or browser closed under a listener: expected
        logger.debug("page event listener: %s", str(error).splitlines()[0] if str(error) else "target closed")
    else:
        logger.error("Error in a page event listener", exc_info=error)
