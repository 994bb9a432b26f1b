"""SharedFrontier: `LocalFrontier`'s job, with the frontier in Redis.

With `BARA_FRONTIER_URL=redis://...` the frontier middleware drives this frontier in place of
`LocalFrontier`. Every worker running `scrapy crawl bara` with the same seed and
limits joins the same frontier: the first admits the seed, each takes pages from the shared
queue under a lease (renewed while the page is in flight), reports each finished page's links
(admitted by Redis in exact BFS order) and acknowledges the page once its item is written to
its own feed. A worker that dies stops renewing: its pages are leased again after
`BARA_FRONTIER_LEASE` seconds. If Redis fails or loses the crawl, the worker stops at once with
reason `bara_frontier_lost` (exit code 4). Every Redis call is awaited off the reactor
(`ThreadedRedisFrontier`): a slow Redis delays admissions, never the pages in flight.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Sequence
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.exporters import JsonLinesItemExporter
from scrapy.extensions.feedexport import FeedExporter
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.misc import load_object
from twisted.internet import task
from twisted.internet.defer import Deferred

from ..config import BaraConfig
from ..items import PageItem
from ..render.policy import Observation, Plan
from . import claims
from .local import Admission
from .protocol import CLOSE_REASON, Completion, Schedule
from .redis_frontier import FrontierLost, RedisFrontier, ThreadedRedisFrontier, job_key

logger = logging.getLogger(__name__)

LOST_REASON = "bara_frontier_lost"


class SharedFrontier:
    """`CrawlFrontier` in Redis: leased pages go to `schedule`, completions admit nothing here."""

    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.config = config
        self.url, self.key = config.frontier.url, config.frontier.key
        self.lease, self.poll = config.frontier.lease, config.frontier.poll
        self.capacity = max(1, settings.getint("CONCURRENT_REQUESTS", 8))
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.frontier: ThreadedRedisFrontier | None = None
        self.in_flight: set[int] = set()
        self.urls: dict[int, str] = {}  # bfs_index -> url of the pages in flight (their fingerprints are stored by url)
        self.claim = ""  # who writes this worker's items, where (`claims.writer_claim`)
        self.seeded = False
        self.lost: str | None = None
        self.closing = False
        self.schedule: Schedule = lambda adm: None
        self.loop = task.LoopingCall(self.tick)
        for handler, signal in ((self.acknowledge, signals.item_scraped), (self.acknowledge, signals.item_dropped),
                                (self.acknowledge, signals.item_error)):
            crawler.signals.connect(handler, signal=signal)

    def open(self, spider: Any, schedule: Schedule) -> None:
        c = self.config
        job = job_key(c.seed_url, c.scope, c.max_depth, c.max_width, c.max_pages)
        self.frontier = ThreadedRedisFrontier(RedisFrontier(self.url, self.key or job, self.worker, self.lease))
        self.job, self.schedule = job, schedule
        settings = self.crawler.settings
        jsonl = [fmt for fmt, path in settings.getwithbase("FEED_EXPORTERS").items()
                 if isinstance(cls := load_object(path), type) and issubclass(cls, JsonLinesItemExporter)]
        paths, others = claims.local_jsonl_feeds(settings.getdict("FEEDS"), jsonl)
        self.claim = claims.writer_claim(socket.gethostname(), paths, others)
        logger.info("Shared frontier %s key %s, worker %s", self.url, self.key or job, self.worker)
        if c.render == "auto":
            logger.warning("BARA_RENDER=auto keeps its render ledger in one process: with the shared frontier "
                           "every page is rendered, as with BARA_RENDER=always")
        self.loop.start(self.poll, now=False)

    def _lose(self, exc: Exception) -> None:
        if self.lost is None:
            self.lost = str(exc)
            logger.error("Stopping: %s", exc)
            self._close(LOST_REASON)

    def _close(self, reason: str) -> None:
        if not self.closing:
            self.closing = True
            deferred_from_coro(self.crawler.engine.close_spider_async(reason=reason))

    def tick(self) -> Deferred[None] | None:
        """One step of the loop, off the reactor: the loop waits for it before the next one."""
        if self.frontier is None or not self.seeded or self.lost or self.closing:
            return None
        step: Deferred[None] = deferred_from_coro(self.step())
        return step.addErrback(lambda failure: logger.error("Shared frontier step failed: %s", failure.getTraceback()))

    async def step(self) -> None:
        """Renew this worker's leases, lease pages for free slots, close when the crawl is done."""
        assert self.frontier is not None
        stats = self.crawler.stats
        try:
            await self.frontier.renew(self.in_flight)
            free = self.capacity - len(self.in_flight)
            if free > 0 and not (self.lost or self.closing):
                requeued, admissions = await self.frontier.lease(free)
                if requeued:
                    stats.inc_value("bara/frontier/requeued", requeued)
                for adm in admissions:
                    self.in_flight.add(adm.bfs_index)
                    self.urls[adm.bfs_index] = adm.url
                    stats.inc_value("bara/frontier/leased")
                    self.schedule(adm)
            if self.frontier.unconfirmed_waiting:
                await self.settle_unconfirmed()
            if not self.in_flight and not self.closing:
                status = await self.frontier.status()
                if status.finished:
                    self._close(CLOSE_REASON if status.budget_exhausted else "finished")
        except FrontierLost as exc:
            self._lose(exc)

    async def settle_unconfirmed(self) -> None:
        """Pages whose writer died between writing (maybe) and acknowledging their item: delivered when
        the writer's feed holds it, queued again when not (`claims.verdict`)."""
        assert self.frontier is not None
        for page in await self.frontier.unconfirmed():
            decided = await asyncio.to_thread(claims.verdict, page.claim, page.bfs_index, page.url,
                                              host=socket.gethostname(), seconds=page.seconds, lease=self.lease)
            if decided == claims.WAIT:
                continue
            if await self.frontier.resolve(page.bfs_index, decided == claims.WRITTEN):
                stats = self.crawler.stats
                stats.inc_value(f"bara/frontier/unconfirmed_{'delivered' if decided == claims.WRITTEN else 'requeued'}")
                logger.info("Page %d of a worker that died before acknowledging it: %s", page.bfs_index,
                            "its item is in the feed" if decided == claims.WRITTEN else "not written, queued again")

    def idle(self) -> None:
        if self.lost:
            raise CloseSpider(LOST_REASON)
        if self.in_flight:
            # nothing runs here, yet these pages gave no item: stop renewing, their leases expire
            logger.error("Pages %s ended without an item; their leases will expire", sorted(self.in_flight))
            self.crawler.stats.inc_value("bara/frontier/abandoned", len(self.in_flight))
            self.in_flight.clear()
            self.urls.clear()
        if not self.closing:
            raise DontCloseSpider  # other workers may still admit pages: the loop decides

    async def seed(self, url: str) -> list[Admission]:
        """Admit the seed into Redis (unless a worker did); the loop leases it like any page."""
        assert self.frontier is not None
        c = self.config
        try:
            if await self.frontier.seed(url, c.max_depth, c.max_pages, self.job):
                logger.info("Admitted the seed into the shared frontier")
            self.seeded = True
        except FrontierLost as exc:
            self._lose(exc)
        return []

    def plan(self, adm: Admission) -> Plan | None:
        return None  # no shared render ledger: workers render every page

    async def complete(self, index: int, children: Sequence[str], also_seen: Sequence[str],
                       observation: Observation | None = None, template: str = "") -> Completion:
        if self.frontier is None or self.lost:
            return Completion(deliver=False)
        try:
            deliver = await self.frontier.complete(index, children, also_seen, self.claim,
                                                   self.urls.get(index, ""), template)
        except FrontierLost as exc:
            self._lose(exc)
            return Completion(deliver=False)
        if deliver:
            return Completion(deliver=True)  # acknowledged once written (item_scraped)
        # another worker holds or delivered this page (our lease ran out)
        self.in_flight.discard(index)
        self.urls.pop(index, None)
        self.crawler.stats.inc_value("bara/frontier/duplicate_dropped")
        return Completion(deliver=False)

    def _flush_feeds(self) -> None:
        """Push this item to the feed file before Redis hears it is written (a kill may follow)."""
        for ext in self.crawler.extensions.middlewares:
            if isinstance(ext, FeedExporter):
                for slot in ext.slots:
                    file = getattr(slot, "file", None)
                    if file is not None and hasattr(file, "flush"):
                        file.flush()

    async def acknowledge(self, item: Any) -> None:
        if not isinstance(item, PageItem) or item.bfs_index not in self.in_flight or self.frontier is None:
            return
        self._flush_feeds()
        try:
            await self.frontier.deliver(item.bfs_index)
        except FrontierLost as exc:
            self._lose(exc)
            return
        self.in_flight.discard(item.bfs_index)
        self.urls.pop(item.bfs_index, None)
        self.crawler.stats.inc_value("bara/frontier/delivered")

    async def close(self) -> None:
        if self.loop.running:
            self.loop.stop()
        if self.frontier is None:
            return
        stats = self.crawler.stats
        if not self.lost:
            try:
                status = await self.frontier.status()
                stats.set_value("bara/pages/admitted", status.admitted)
                stats.set_value("bara/budget/dropped", status.dropped)
            except FrontierLost as exc:
                logger.error("%s", exc)
        stats.set_value("bara/frontier/redis_calls", self.frontier.calls)
        await self.frontier.close()
