"""Plain Scrapy over HTTP: a CrawlSpider with a LinkExtractor, no browser (link discovery only).

    python -m bara_scrapy.bench.perf.http_spider SEED FEED CONCURRENCY MAX_DEPTH MAX_WIDTH MAX_PAGES

MAX_WIDTH and MAX_PAGES are accepted for a uniform command line; the generated site has no
page with more links than the width, so DEPTH_LIMIT alone bounds this crawl to the same pages.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request, Spider
from scrapy.crawler import CrawlerProcess
from scrapy.http import Response
from scrapy.linkextractors import LinkExtractor
from scrapy.settings import Settings
from scrapy.spiders import CrawlSpider, Rule


def crawl_settings(feed: str, concurrency: int, max_depth: int) -> dict[str, Any]:
    """Breadth-first Scrapy at this concurrency, writing JSON lines to `feed`."""
    return {
        "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
        "DEPTH_LIMIT": max_depth,
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "FEEDS": {feed: {"format": "jsonlines", "overwrite": True}},
    }


def page_record(response: Response) -> dict[str, Any]:
    """The fields every bench spider collects from a page's HTML: text size, media, links."""
    def urls(query: str) -> list[str]:
        return [response.urljoin(u) for u in response.css(query).getall() if not u.startswith("data:")]

    text = " ".join(t.strip() for t in response.css("body *:not(script)::text").getall()).strip()
    return {"url": response.url, "text_chars": len(text), "images": urls("img::attr(src)"),
            "videos": urls("video::attr(src), video source::attr(src)"), "links": urls("a::attr(href)")}


def run(spider: type[Spider], settings: dict[str, Any], **kwargs: Any) -> None:
    process = CrawlerProcess(Settings(settings))
    process.crawl(spider, **kwargs)
    process.start()


class LinkSpider(CrawlSpider):
    name = "perf_http"
    rules = (Rule(LinkExtractor(), callback="parse_page", follow=True),)

    def __init__(self, seed: str, **kwargs: Any) -> None:
        self.start_urls = [seed]
        self.allowed_domains = [urlsplit(seed).hostname or ""]
        super().__init__(**kwargs)

    async def start(self) -> AsyncIterator[Request]:
        # CrawlSpider's start sets dont_filter, and the home link would be fetched twice
        yield Request(self.start_urls[0], callback=self._parse)

    def parse_start_url(self, response: Response, **kwargs: Any) -> Iterator[dict[str, Any]]:
        yield from self.parse_page(response)

    def parse_page(self, response: Response) -> Iterator[dict[str, Any]]:
        yield page_record(response)


def main(argv: list[str] | None = None) -> None:
    seed, feed, concurrency, max_depth = (argv if argv is not None else sys.argv[1:])[:4]
    run(LinkSpider, crawl_settings(feed, int(concurrency), int(max_depth)), seed=seed)


if __name__ == "__main__":
    main()
