"""scrapy-playwright's download handler, with bara's page step in charge of its own waits.

After each `PageMethod`, scrapy-playwright waits for the `load` event for up to
the navigation timeout (30 s by default) and fails the page when it never
comes. bara's `explore` already waits for `load` within the page's hard
deadline and then works with what is there (long-polling pages, endless
resources), so for bara page requests the methods run without that extra wait.
Relies on `_apply_page_methods` of scrapy-playwright 0.0.48 (pinned).
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page
from scrapy import Request
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler
from scrapy_playwright.page import PageMethod


class BaraPlaywrightDownloadHandler(ScrapyPlaywrightDownloadHandler):  # type: ignore[misc]
    async def _apply_page_methods(self, page: Page, request: Request, spider: Any) -> None:
        if not request.meta.get("bara"):
            await super()._apply_page_methods(page, request, spider)
            return
        for method in request.meta.get("playwright_page_methods") or ():
            if isinstance(method, PageMethod) and callable(method.method):
                method.result = await method.method(page, *method.args, **method.kwargs)
