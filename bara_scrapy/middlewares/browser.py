"""BrowserMiddleware: render page requests in Chromium and attach the snapshot.

Page requests (meta `bara`, a `PageState`) get their scrapy-playwright meta
here, at download time, so what sits in the scheduler (and in `JOBDIR`) stays
plain, picklable data. What the browser takes from the crawl's config
(`RenderOptions`: seed, scope, deadline, guard switches) is built once, here,
and bound to the init callback: it never travels in a page's state.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Coroutine
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response, TextResponse
from scrapy_playwright.page import PageMethod

from ..browser.render import explore, init_page
from ..browser.session import RenderOptions
from ..config import BaraConfig
from ..extraction.static import snapshot_from_html
from ..http_utils import header_pairs
from ..page import DOCUMENT_ERROR_KEY, SERVED_DOCUMENT_KEY, PageState, ServedDocument, page_state
from ..render.compare import child_links
from ..render.served import Served
from ..render.signals import signals
from ..snapshot import HTML_TYPES, Fetched, PageSnapshot

logger = logging.getLogger(__name__)

PLAYWRIGHT_KEYS = (
    "playwright", "playwright_context", "playwright_page_init_callback", "playwright_page_goto_kwargs",
    "playwright_page_methods",
)


def fetched(request: Request, response: Response) -> Fetched:
    """The plain-HTTP exchange for the archive: the body as Scrapy decoded it."""
    return Fetched(url=response.url, status=response.status, headers=header_pairs(response.headers),
                   body=response.body, request_headers=header_pairs(request.headers), fetched_at=time.time())


class BrowserMiddleware:
    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.options = RenderOptions(
            seed=config.seed_url,
            scope=config.scope,
            page_timeout=config.page_timeout,
            allow_private=config.allow_private_networks,
            block_offsite=config.block_offsite_subresources,
            pass_on=config.playwright_request_hooks,
            archive=config.archive.enabled,
        )
        self.init_page = functools.partial(init_page, options=self.options)
        # a page's document over HTTP arrives within the navigation timeout, as in the browser (whose navigation
        # waits for the whole document), or within Scrapy's `DOWNLOAD_TIMEOUT` when that is shorter
        download_timeout = crawler.settings.getfloat("DOWNLOAD_TIMEOUT")
        self.document_timeout = min(config.navigation_timeout, download_timeout or config.navigation_timeout)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BrowserMiddleware:
        return cls(crawler, BaraConfig.from_crawler(crawler))

    def process_request(self, request: Request) -> Coroutine[Any, Any, None] | None:
        state = page_state(request)
        if state is None:
            return None
        if state.started is None:
            state.started = time.time()
        request.meta["depth"] = state.admission.depth  # a retry passed DepthMiddleware as depth 0
        request.meta.pop(DOCUMENT_ERROR_KEY, None)  # a Scrapy retry copies the last download's meta
        if state.served is None:
            state.served = self._first_path(state)
            if state.plan is not None and state.plan.compare:  # a probe or an audit: the HTTP side first
                return self._probe(request, state)
        if state.served.path == "browser":
            self._render(request, state.instructions.model_dump())
        else:
            request.meta["download_timeout"] = self.document_timeout
        return None  # http: Scrapy's own download; `process_response` may still escalate it

    async def _probe(self, request: Request, state: PageState) -> None:
        state.http_snapshot = await self._http_side(request)
        self._render(request, state.instructions.model_dump())

    def _first_path(self, state: PageState) -> Served:
        """The path the plan (or the crawl's render mode) gives a page's first download."""
        plan, mode = state.plan, self.config.render
        if mode == "never":
            return Served("http", "never")
        if plan is None:
            return Served("browser", "retry" if mode == "auto" and state.history else "always")
        return Served(*plan.serve())

    def _render(self, request: Request, instructions: dict[str, object]) -> None:
        request.meta.update(
            playwright=True,
            playwright_context="bara",
            playwright_page_init_callback=self.init_page,
            playwright_page_goto_kwargs={
                "wait_until": "domcontentloaded",
                "timeout": self.config.navigation_timeout * 1000,
            },
            playwright_page_methods=[PageMethod(explore, instructions)],
        )

    async def _http_side(self, request: Request) -> PageSnapshot | None:
        """A plain download of a probed or audited page, as HTTP mode would serve it (None: it failed,
        was no 2xx HTML page or redirected: the comparison is inconclusive, the page is rendered)."""
        # not retried by Scrapy (the render follows), but a 429/503's Retry-After is honoured before it
        side = Request(request.url, dont_filter=True, priority=request.priority, headers=request.headers.copy(),
                       meta={"dont_redirect": True, "max_retry_times": 0, "handle_httpstatus_all": True,
                             "download_timeout": self.document_timeout})
        try:
            response = await self.crawler.engine.download_async(side)
        except Exception as exc:  # any failure is inconclusive, never a label
            logger.debug("HTTP side of %s failed: %r", request.url, exc)
            self.crawler.stats.inc_value("bara/render/http_side_failed")
            return None
        snapshot = self._snapshot(request, response, rendered=None)
        if not 200 <= response.status < 300 or not snapshot.html or snapshot.errors:
            self.crawler.stats.inc_value("bara/render/http_side_failed")
            if response.status >= 400:  # the browser gets the same error page, without asking the server again
                self._hand(request, response, snapshot)
            return None
        state = page_state(request)
        if state is not None:
            state.signals = self._signals(snapshot, state)
        self._hand(request, response, snapshot)  # both sides read the same document
        return snapshot

    def _hand(self, request: Request, response: Response, snapshot: PageSnapshot) -> None:
        """Have the browser served the document Scrapy downloaded (a 200 or an error status, not redirected)
        instead of downloading it a second time (`browser/route.py`)."""
        if (response.status == 200 or response.status >= 400) and response.url == request.url:
            request.meta[SERVED_DOCUMENT_KEY] = ServedDocument(
                request.url, snapshot.content_type, response.body, snapshot.fetched[0] if snapshot.fetched else None,
                response.status)
            self.crawler.stats.inc_value("bara/render/handed")

    def _signals(self, snapshot: PageSnapshot, state: PageState) -> tuple[str, ...]:
        """What the served document shows that only a browser gives (`render.signals`)."""
        links = child_links(snapshot.links, seed=self.config.seed_url, scope=self.config.scope,
                            policy=self.config.deny_policy)
        reference = state.plan.reference if state.plan is not None else None
        return signals(snapshot.html, snapshot, text_chars=len(snapshot.body_text), links=len(links),
                       reference=reference)

    def process_response(self, request: Request, response: Response) -> Request | Response:
        meta = request.meta
        state = page_state(request)
        if state is None:
            return response
        methods = meta.get("playwright_page_methods") or []
        for key in PLAYWRIGHT_KEYS:
            meta.pop(key, None)
        if state.failure:
            state.snapshot = PageSnapshot(url=request.url, final_url=response.url)
            return response
        result = methods[0].result if methods and isinstance(methods[0], PageMethod) else None
        snapshot = self._snapshot(request, response, rendered=result if isinstance(result, dict) else None)
        if state.plan is not None and state.served is not None and state.served.path == "http":
            state.signals = self._signals(snapshot, state)
            if state.signals:  # only a browser gives this page's result: render it instead
                state.served = Served(*state.plan.serve(state.signals))
                self.crawler.stats.inc_value(f"bara/render/escalated/{state.signals[0]}")
                escalated = request.replace(dont_filter=True)
                self._hand(escalated, response, snapshot)
                return escalated
        state.snapshot = snapshot
        return response

    def _snapshot(self, request: Request, response: Response, rendered: dict[str, object] | None) -> PageSnapshot:
        """The page as the browser left it (`rendered`: the `explore` result), or as the HTML was served."""
        ctype = (response.headers.get(b"Content-Type") or b"").decode("latin-1").lower()
        is_html = isinstance(response, TextResponse) and (not ctype or any(t in ctype for t in HTML_TYPES))
        html = response.text if is_html and isinstance(response, TextResponse) else ""
        if rendered is not None:
            snapshot = PageSnapshot.model_validate(rendered)
            snapshot.html = html
            if snapshot.read_as_served:
                self.crawler.stats.inc_value("bara/browser/read_as_served")
                logger.info("%s left while loading (%s): read from its document as served",
                            request.url, snapshot.read_as_served)
        else:
            snapshot = snapshot_from_html(request.url, response.url, response.status, html)
            if self.config.archive.enabled:
                snapshot.fetched = [fetched(request, response)]
        snapshot.status = response.status
        snapshot.content_type = ctype
        if not is_html and response.body:
            snapshot.errors.append(f"not_html: {ctype or 'unknown content type'}")
        return snapshot
