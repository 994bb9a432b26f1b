"""BrowserMiddleware: render page requests in Chromium and attach the snapshot.

Page requests (meta `bara`, a `PageState`) get their scrapy-playwright meta
here, at download time, so what sits in the scheduler (and in `JOBDIR`) stays
plain, picklable data. What the browser takes from the crawl's config
(`RenderOptions`: seed, scope, deadline, guard switches) is built once, here,
and bound to the init callback: it never travels in a page's state.
"""

from __future__ import annotations

import functools
import time

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response, TextResponse
from scrapy_playwright.page import PageMethod

from ..browser.render import explore, init_page
from ..browser.session import RenderOptions
from ..config import BaraConfig
from ..extraction.static import snapshot_from_html
from ..http_utils import header_pairs
from ..page import DOCUMENT_ERROR_KEY, page_state
from ..snapshot import HTML_TYPES, Fetched, PageSnapshot

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

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BrowserMiddleware:
        return cls(crawler, BaraConfig.from_crawler(crawler))

    def process_request(self, request: Request) -> None:
        state = page_state(request)
        if state is None:
            return
        if state.started is None:
            state.started = time.time()
        request.meta["depth"] = state.admission.depth  # a retry passed DepthMiddleware as depth 0
        request.meta.pop(DOCUMENT_ERROR_KEY, None)  # a Scrapy retry copies the last download's meta
        if not self.config.browser_enabled:
            return
        request.meta.update(
            playwright=True,
            playwright_context="bara",
            playwright_page_init_callback=self.init_page,
            playwright_page_goto_kwargs={
                "wait_until": "domcontentloaded",
                "timeout": self.config.navigation_timeout * 1000,
            },
            playwright_page_methods=[PageMethod(explore, state.instructions.model_dump())],
        )

    def process_response(self, request: Request, response: Response) -> Response:
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
        ctype = (response.headers.get(b"Content-Type") or b"").decode("latin-1").lower()
        is_html = isinstance(response, TextResponse) and (not ctype or any(t in ctype for t in HTML_TYPES))
        html = response.text if is_html and isinstance(response, TextResponse) else ""
        result = methods[0].result if methods and isinstance(methods[0], PageMethod) else None
        if isinstance(result, dict):
            snapshot = PageSnapshot.model_validate(result)
            snapshot.html = html
        else:
            snapshot = snapshot_from_html(request.url, response.url, response.status, html)
            if self.config.archive.enabled and not self.config.browser_enabled:
                snapshot.fetched = [fetched(request, response)]
        snapshot.status = response.status
        snapshot.content_type = ctype
        if not is_html and response.body:
            snapshot.errors.append(f"not_html: {ctype or 'unknown content type'}")
        state.snapshot = snapshot
        return response
