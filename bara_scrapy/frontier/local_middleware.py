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
from ..extensions.journal import CrawlJournalExtension, journal_of
from ..items import PageItem
from ..journal import completion_record, replay
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
    The frontier lives in `spider.state`, so `JOBDIR` resumes keep it; with the crawl journal
    (`CrawlJournalExtension`, on with `JOBDIR`) it is rebuilt from the journal instead, so a crawl
    killed hard resumes too: the seed and each completion are journaled before the pages they admit
    are requested.
    Any other output, a reflection retry of a page included, passes through.
    """

    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.frontier = Frontier(max_depth=config.max_depth, max_pages=config.max_pages)
        self.resumed = False
        self.mismatch: str | None = None
        self.journal: CrawlJournalExtension | None = None
        self.yielded: set[int] = set()  # bfs_index of the items this run passed on
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
        self.journal = journal_of(self.crawler)
        journaled = self.journal.state if self.journal is not None and self.journal.state.started else None
        saved = state.get(STATE_KEY)
        if journaled is not None or isinstance(saved, Frontier):
            saved_job = journaled.job if journaled is not None else state.get(JOB_KEY)
            if saved_job != job:
                self.mismatch = (
                    f"JOBDIR holds a crawl of {saved_job}, not {job}: "
                    "resume with the same seed and limits, or use a new JOBDIR"
                )
                logger.error("Refusing to resume: %s", self.mismatch)
                return
            if journaled is not None:
                self.frontier = replay(journaled, self.config.max_depth, self.config.max_pages)
            elif isinstance(saved, Frontier):  # a JOBDIR saved before the journal: its state, not journaled
                self.frontier, self.journal = saved, None
            self.resumed = True
            logger.info("Resuming BFS frontier: %d pages admitted, %d to visit again",
                        len(self.frontier.admitted), len(self._unwritten()))
        state[STATE_KEY] = self.frontier
        state[JOB_KEY] = job
        if self.journal is not None and journaled is None:
            self.journal.record({"job": job})

    def _job_signature(self, spider: Any) -> dict[str, Any]:
        c = self.config
        return {"seed": canonicalize(getattr(spider, "seed", "")), "scope": c.scope, "max_depth": c.max_depth,
                "max_width": c.max_width, "max_pages": c.max_pages}

    def spider_idle(self, spider: Any) -> None:
        if self.mismatch:
            raise CloseSpider(MISMATCH_REASON)
        if self.frontier.budget_exhausted and self.frontier.finished:
            raise CloseSpider(CLOSE_REASON)

    def _unwritten(self) -> list[Admission]:
        """The admitted pages a resumed crawl visits: those whose item no earlier run wrote."""
        if self.journal is None or not self.journal.state.started:
            return self.frontier.unfinished()
        written = self.journal.state.written
        return [a for a in self.frontier.admitted if a.bfs_index not in written]

    def _done(self, index: int) -> bool:
        """Whether page `index`'s item was already passed on (this run) or written (an earlier one)."""
        if self.journal is None:
            return self.frontier.is_completed(index)
        return index in self.yielded or index in self.journal.state.written

    def _request(self, adm: Admission) -> Request:
        return first_request(adm, self.frontier.admitted[0].url, self.config)  # the seed is admitted first

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        if self.resumed:
            # Pages in flight when the earlier run stopped were dequeued and lost:
            # visit every unfinished page again (a second result is dropped below).
            for adm in self._unwritten():
                yield self._request(adm)
        async for obj in start:
            if isinstance(obj, Request) and page_state(obj) is not None:
                if self.frontier.admitted or self.mismatch:  # resumed, or refused
                    continue
                adm = self.frontier.admit_seed(canonicalize(obj.url))
                if self.journal is not None:
                    self.journal.record({"seed": adm.url})
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
        index = finished.bfs_index
        if self._done(index):
            # a resumed crawl may visit a page twice: one item per admitted page
            self.crawler.stats.inc_value("bara/pages/duplicate_dropped")
            return
        reached = [finished.final_url or finished.url, *response.meta.get("redirect_urls", [])]
        seen = [canonicalize(u) for u in reached]
        links = [canonicalize(r.url) for r in children]
        first = not self.frontier.is_completed(index)  # a resumed page may have completed before its kill
        released = self.frontier.complete(index, links, also_seen=seen)
        if first and self.journal is not None:  # journaled before the pages it admits are requested
            self.journal.record(completion_record(index, self.frontier.admitted[index].url, links, seen))
        self.yielded.add(index)
        yield finished
        stats = self.crawler.stats
        stats.set_value("bara/pages/admitted", len(self.frontier.admitted))
        stats.set_value("bara/budget/dropped", self.frontier.dropped_by_budget)
        for adm in released:
            yield self._request(adm)
