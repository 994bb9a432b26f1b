"""The straightforward scrapy-playwright spider: what a user writes in twenty lines.

    python -m bara_scrapy.bench.perf.spider SEED FEED CONCURRENCY MAX_DEPTH MAX_WIDTH MAX_PAGES

A new page per request; wait 1 s, scroll to the bottom once, wait 1 s; read text, images,
videos and links from the rendered HTML; follow the first MAX_WIDTH links breadth-first.
Plain Scrapy settings, not the project's (the bara add-on stays out of it).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

from scrapy import Request, Spider
from scrapy.http import Response
from scrapy_playwright.page import PageMethod

from ...addon import CHROMIUM_ARGS, find_chromium
from .http_spider import crawl_settings, page_record, run

PAGE_METHODS = [
    PageMethod("wait_for_timeout", 1000),
    PageMethod("evaluate", "window.scrollTo(0, document.body.scrollHeight)"),
    PageMethod("wait_for_timeout", 1000),
]


class PlaywrightSpider(Spider):
    name = "perf_playwright"

    def __init__(self, seed: str, max_width: int, max_pages: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed, self.max_width, self.max_pages = seed, int(max_width), int(max_pages)
        self.seen = {seed}

    def request(self, url: str) -> Request:
        return Request(url, meta={"playwright": True, "playwright_page_methods": PAGE_METHODS})

    async def start(self) -> AsyncIterator[Request]:
        yield self.request(self.seed)

    def parse(self, response: Response) -> Iterator[Any]:
        record = page_record(response)
        yield record
        links: list[str] = record["links"]
        for url in links[: self.max_width]:
            if url not in self.seen and len(self.seen) < self.max_pages:
                self.seen.add(url)
                yield self.request(url)


def main(argv: list[str] | None = None) -> None:
    seed, feed, concurrency, max_depth, max_width, max_pages = (argv if argv is not None else sys.argv[1:])[:6]
    settings = crawl_settings(feed, int(concurrency), int(max_depth))
    settings.update({
        "DOWNLOAD_HANDLERS": {
            "http": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
            "https": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
        },
        "PLAYWRIGHT_BROWSER_TYPE": "chromium",
        "PLAYWRIGHT_LAUNCH_OPTIONS": {"executable_path": find_chromium(), "args": CHROMIUM_ARGS, "headless": True},
        "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": int(concurrency),
    })
    run(PlaywrightSpider, settings, seed=seed, max_width=max_width, max_pages=max_pages)


if __name__ == "__main__":
    main()
