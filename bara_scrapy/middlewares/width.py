"""LinkWidthMiddleware: keep the first W distinct in-scope child links of a page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.http import Response

from ..config import BaraConfig
from ..links import PageLinks, eligible_links, keep_width
from ..page import page_state


class LinkWidthMiddleware:
    """Spider middleware: W selection over a page's child-link requests.

    Child links (meta `bara_link`) are buffered until the page's output ends,
    then the first `BARA_MAX_WIDTH` distinct, canonical, in-scope, non-denied,
    robots-allowed ones are passed on in DOM order. A robots-forbidden link
    is dropped like a denied one and does not count toward W.
    """

    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.policy = config.deny_policy
        settings = crawler.settings
        self.useragent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LinkWidthMiddleware:
        return cls(crawler, BaraConfig.from_crawler(crawler))

    async def _robots(self, urls: list[str]) -> set[str]:
        """The subset of `urls` that robots.txt forbids."""
        if not self.config.robots_obey:
            return set()
        try:
            mw = self.crawler.get_downloader_middleware(RobotsTxtMiddleware)
        except RuntimeError:
            mw = None
        if not isinstance(mw, RobotsTxtMiddleware):
            return set()
        forbidden = set()
        for url in urls:
            parser = await mw.robot_parser(Request(url))
            if parser is not None and not parser.allowed(url, self.useragent):
                forbidden.add(url)
        return forbidden

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        links: list[str] = []
        async for obj in result:
            if isinstance(obj, PageLinks):
                links.extend(obj.urls)
            else:
                yield obj
        if not links or page_state(response) is None:
            return
        seed, scope = self.config.seed_url, self.config.scope
        eligible = eligible_links(links, seed=seed, scope=scope, policy=self.policy)
        forbidden = await self._robots(list(dict.fromkeys(eligible.kept)))
        selection = keep_width(eligible, max_width=self.config.max_width, allowed=lambda u: u not in forbidden)
        stats = self.crawler.stats
        for reason, count in selection.dropped.items():
            stats.inc_value(f"bara/links/dropped/{reason}", count)
        stats.inc_value("bara/links/kept", len(selection.kept))
        yield PageLinks(tuple(selection.kept))
