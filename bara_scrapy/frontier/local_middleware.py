"""PageBudgetMiddleware: admit pages in exact sequential-BFS order, at most P."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider
from scrapy.http import Response

from ..config import BaraConfig
from ..items import PageItem
from ..page import first_request, page_state
from ..urls import canonicalize
from .local import Admission, Frontier

logger = logging.getLogger(__name__)

CLOSE_REASON = "bara_page_budget"
STATE_KEY = "bara_frontier"
JOB_KEY = "bara_job"
MISMATCH_REASON = "bara_resume_mismatch"


class PageBudgetMiddleware:
    """Spider middleware owning the frontier (see `bara_scrapy.frontier`).

    The seed from `start()` is admitted as page 0. A page's selected child
    links are held until every page admitted before it has finished, then
    admitted in (parent `bfs_index`, DOM position) order against the remaining
    budget; the excess is dropped (`bara/budget/dropped`). When the budget
    was reached, the crawl closes with reason `bara_page_budget` once idle.
    The frontier lives in `spider.state`, so `JOBDIR` resumes keep it.
    Any other output, a reflection retry of a page included, passes through.
    """

    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.frontier = Frontier(max_depth=config.max_depth, max_pages=config.max_pages)
        self.resumed = False
        self.mismatch: str | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageBudgetMiddleware:
        return cls(crawler, BaraConfig.from_crawler(crawler))

    def spider_opened(self, spider: Any) -> None:
        state = getattr(spider, "state", None)
        if not isinstance(state, dict):  # no JOBDIR
            return
        job = self._job_signature(spider)
        saved = state.get(STATE_KEY)
        if isinstance(saved, Frontier):
            if state.get(JOB_KEY) != job:
                self.mismatch = (
                    f"JOBDIR holds a crawl of {state.get(JOB_KEY)}, not {job}: "
                    "resume with the same seed and limits, or use a new JOBDIR"
                )
                logger.error("Refusing to resume: %s", self.mismatch)
                return
            self.frontier = saved
            self.resumed = True
            logger.info("Resuming BFS frontier: %d pages admitted, %d unfinished",
                        len(saved.admitted), len(saved.unfinished()))
        state[STATE_KEY] = self.frontier
        state[JOB_KEY] = job

    def _job_signature(self, spider: Any) -> dict[str, Any]:
        c = self.config
        return {"seed": canonicalize(getattr(spider, "seed", "")), "scope": c.scope, "max_depth": c.max_depth,
                "max_width": c.max_width, "max_pages": c.max_pages}

    def spider_idle(self, spider: Any) -> None:
        if self.mismatch:
            raise CloseSpider(MISMATCH_REASON)
        if self.frontier.budget_exhausted and self.frontier.finished:
            raise CloseSpider(CLOSE_REASON)

    def _request(self, adm: Admission) -> Request:
        return first_request(adm, self.frontier.admitted[0].url, self.config)  # the seed is admitted first

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        if self.resumed:
            # Pages in flight when the earlier run stopped were dequeued and lost:
            # visit every unfinished page again (a second result is dropped below).
            for adm in self.frontier.unfinished():
                yield self._request(adm)
        async for obj in start:
            if isinstance(obj, Request) and page_state(obj) is not None:
                if self.frontier.admitted or self.mismatch:  # resumed, or refused
                    continue
                adm = self.frontier.admit_seed(canonicalize(obj.url))
                self.crawler.stats.set_value("bara/pages/admitted", 1)
                yield self._request(adm)
            else:
                yield obj

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        children: list[Request] = []
        finished: PageItem | None = None
        async for obj in result:
            if isinstance(obj, Request) and obj.meta.get("bara_link"):
                children.append(obj)
                continue
            if isinstance(obj, PageItem):
                finished = obj
                continue
            yield obj
        if finished is None:
            return
        if self.frontier.is_completed(finished.bfs_index):
            # a resumed crawl may visit a page twice: one item per admitted page
            self.crawler.stats.inc_value("bara/pages/duplicate_dropped")
            return
        reached = [finished.final_url or finished.url, *response.meta.get("redirect_urls", [])]
        seen = [canonicalize(u) for u in reached]
        released = self.frontier.complete(
            finished.bfs_index, [canonicalize(r.url) for r in children], also_seen=seen
        )
        yield finished
        stats = self.crawler.stats
        stats.set_value("bara/pages/admitted", len(self.frontier.admitted))
        stats.set_value("bara/budget/dropped", self.frontier.dropped_by_budget)
        for adm in released:
            yield self._request(adm)
