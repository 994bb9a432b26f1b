"""CrawlJournalExtension: a `JOBDIR` crawl killed at any moment resumes where it was (`bara_scrapy.journal`).

On with `JOBDIR`. At start it reads `JOBDIR/bara.journal`. When the last run did not close cleanly
(killed), it drops the journal's cut last line, truncates each local JSON-lines feed to its size after
the last journaled item (`bara/journal/feed_bytes_dropped`; other feeds are
written as Scrapy writes them), and removes Scrapy's scheduler queue
(`requests.queue`), which a killed run leaves unreadable: the frontier visits again every admitted page
whose item was not written. A resumed feed given with `-O` is appended to, not overwritten.

While crawling, `LocalFrontier` journals the seed and each completion (`record`); this
extension journals each item once the feed exporters wrote it (`item_scraped`, after Scrapy's
`FeedExporter`): it flushes and fsyncs the feeds, then writes and fsyncs `{"w": bfs_index, "feeds": ...}`.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path
from typing import IO, Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.exporters import JsonLinesItemExporter
from scrapy.extensions.feedexport import FeedExporter, FileFeedStorage

from ..items import PageItem
from ..journal import JOURNAL_NAME, JournalState, encode, read_journal

logger = logging.getLogger(__name__)

SCRAPY_QUEUE = "requests.queue"


class CrawlJournalExtension:
    def __init__(self, crawler: Crawler, jobdir: Path) -> None:
        self.crawler = crawler
        self.path = jobdir / JOURNAL_NAME
        data = self.path.read_bytes() if self.path.exists() else b""
        self.state: JournalState = read_journal(data)  # JournalCorrupt: the crawl does not start
        self.killed = self.path.exists() and not (data and self.state.closed)
        if self.killed:
            self._recover(jobdir, len(data))
        jobdir.mkdir(parents=True, exist_ok=True)
        self.file: IO[bytes] = self.path.open("ab")
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlJournalExtension:
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            raise NotConfigured  # off without JOBDIR: not a warning
        return cls(crawler, Path(jobdir))

    def _recover(self, jobdir: Path, size: int) -> None:
        stats = self.crawler.stats
        if self.state.cut_bytes:
            os.truncate(self.path, self.state.valid_bytes)
        dropped = 0
        for feed, journaled in self.state.feeds.items():
            on_disk = os.path.getsize(feed) if os.path.exists(feed) else 0
            if on_disk > journaled:
                os.truncate(feed, journaled)
                dropped += on_disk - journaled
                logger.warning("Repaired %s after a kill: dropped %d bytes written after its last journaled item",
                               feed, on_disk - journaled)
        stats.set_value("bara/journal/feed_bytes_dropped", dropped)
        queue = jobdir / SCRAPY_QUEUE
        if queue.exists():
            shutil.rmtree(queue)
        logger.warning("Resuming a crawl that was killed: %d pages written, %d completed; the journal decides "
                       "what is visited again (%s removed)", len(self.state.written), len(self.state.completions),
                       SCRAPY_QUEUE)
        stats.set_value("bara/journal/resumed_after_kill", 1)

    # ------------------------------------------------------------------ hooks for LocalFrontier

    def record(self, record: dict[str, Any], *, sync: bool = False) -> None:
        """Append one record; `sync` makes it (and every record before it) durable."""
        self.file.write(encode(record))
        self.file.flush()
        if sync:
            os.fsync(self.file.fileno())

    # ------------------------------------------------------------------ signals

    def _feed_slots(self) -> list[Any]:
        exporter = self.crawler.get_extension(FeedExporter)
        if exporter is None:
            return []
        return [s for s in exporter.slots if isinstance(s.storage, FileFeedStorage)
                and issubclass(exporter.exporters[s.format], JsonLinesItemExporter)
                and "postprocessing" not in s.feed_options]

    def spider_opened(self, spider: Any) -> None:
        for slot in self._feed_slots():
            path = os.path.abspath(slot.storage.path)
            if path in self.state.feeds and slot.storage.write_mode == "wb":
                slot.storage.write_mode = "ab"
                logger.info("Resuming: appending to %s, which holds the items of the earlier runs", path)

    def item_scraped(self, item: Any) -> None:
        if not isinstance(item, PageItem):
            return
        feeds = {}
        for slot in self._feed_slots():
            if slot.file is None or getattr(slot.file, "failed", None):
                continue  # a feed that could not be written (FeedGuardExtension): this item is not in it
            slot.file.flush()
            os.fsync(slot.file.fileno())
            feeds[os.path.abspath(slot.storage.path)] = os.fstat(slot.file.fileno()).st_size
        if self.crawler.stats.get_value("bara/feed/write_failed"):
            return  # not journaled: a resumed crawl visits the page again
        self.record({"w": item.bfs_index, "feeds": feeds}, sync=True)

    def spider_closed(self, spider: Any, reason: str) -> None:
        self.record({"closed": reason}, sync=True)
        self.file.close()


def journal_of(crawler: Crawler) -> CrawlJournalExtension | None:
    """The crawl's journal, when it has one (`JOBDIR`)."""
    return crawler.get_extension(CrawlJournalExtension)
