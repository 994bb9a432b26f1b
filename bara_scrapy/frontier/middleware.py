"""FrontierMiddleware: the one spider middleware between the crawl and its BFS frontier.

It admits the seed (`BaraConfig.seed`), splits each page's output once (the item; the child links
`LinkWidthMiddleware` kept), reports the completion to the frontier, passes the item on when the
frontier says so, and builds the request of every page the frontier admits (`page.first_request`):
the only place page requests are built, apart from reflection's retries. Which frontier:
`SharedFrontier` (Redis) when `BARA_FRONTIER_URL` is set, else `LocalFrontier`. Any other output,
a reflection retry included, passes through.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.http import Response

from ..config import BaraConfig
from ..items import PageItem
from ..links import PageLinks
from ..page import first_request, page_state
from ..urls import canonicalize
from .in_process import LocalFrontier
from .local import Admission
from .protocol import CrawlFrontier


def frontier_for(crawler: Crawler, config: BaraConfig) -> CrawlFrontier:
    """The crawl's frontier: in Redis with `BARA_FRONTIER_URL` (imports `redis`, so only then), else local."""
    if config.frontier.url:
        from .shared import SharedFrontier

        return SharedFrontier(crawler, config)
    return LocalFrontier(crawler, config)


class FrontierMiddleware:
    def __init__(self, crawler: Crawler, config: BaraConfig, frontier: CrawlFrontier) -> None:
        self.crawler = crawler
        self.config = config
        self.frontier = frontier
        self.seed = ""
        for handler, signal in ((self.spider_opened, signals.spider_opened), (self.spider_idle, signals.spider_idle),
                                (self.spider_closed, signals.spider_closed)):
            crawler.signals.connect(handler, signal=signal)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FrontierMiddleware:
        config = BaraConfig.from_crawler(crawler)
        return cls(crawler, config, frontier_for(crawler, config))

    def request(self, adm: Admission) -> Request:
        """The first attempt at an admitted page (with its render plan under `BARA_RENDER=auto`)."""
        return first_request(adm, self.config, self.frontier.plan(adm))

    def _schedule(self, adm: Admission) -> None:
        self.crawler.engine.crawl(self.request(adm))

    def spider_opened(self, spider: Any) -> None:
        self.seed = self.config.seed_url
        self.frontier.open(spider, self._schedule)

    def spider_idle(self, spider: Any) -> None:
        self.frontier.idle()

    async def spider_closed(self, spider: Any) -> None:
        await self.frontier.close()

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        if self.seed:
            for adm in await self.frontier.seed(self.seed):
                yield self.request(adm)
        async for obj in start:
            yield obj

    async def process_spider_output(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        children: list[str] = []
        finished: PageItem | None = None
        async for obj in result:
            if isinstance(obj, PageLinks):
                children.extend(canonicalize(u) for u in obj.urls)
            elif isinstance(obj, PageItem):
                finished = obj
            else:
                yield obj
        if finished is None:
            return
        reached = [finished.final_url or finished.url, *response.meta.get("redirect_urls", [])]
        state = page_state(response)
        observation = state.observation if state is not None else None
        template = state.template if state is not None else ""
        done = await self.frontier.complete(finished.bfs_index, children, [canonicalize(u) for u in reached],
                                            observation, template)
        if done.deliver:
            yield finished
        for adm in done.admitted:
            yield self.request(adm)
