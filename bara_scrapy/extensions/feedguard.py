"""FeedGuardExtension: a JSON-lines feed that cannot be written stops the crawl, and keeps every whole item.

Scrapy's feed exporter logs a failed write (a full disk) with a traceback and goes on crawling, so
every later item is lost, and a cut last line stays in the file. Here each local JSON-lines feed is
written unbuffered, one item per write; the first write that fails (`ENOSPC`, `EIO`, ...) truncates
the feed to its last whole item, logs one error line and closes the crawl with reason
`bara_output_failed` (`scrapy crawl` exits 6). Later writes to that feed are dropped.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exporters import JsonLinesItemExporter
from scrapy.extensions.feedexport import FeedExporter, FileFeedStorage
from scrapy.utils.defer import deferred_from_coro

logger = logging.getLogger(__name__)

CLOSE_REASON = "bara_output_failed"


class GuardedFeedFile:
    """The file object a JSON-lines exporter writes to: unbuffered, whole writes, stops at the first failure."""

    def __init__(self, path: str, mode: str, on_failure: Any) -> None:
        self.path = path
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "ab" else os.O_TRUNC), 0o666)
        self.good = os.fstat(self.fd).st_size  # size after the last whole item
        self.failed: OSError | None = None
        self.on_failure = on_failure
        self.closed = False

    def write(self, data: bytes) -> int:
        if self.failed is not None:
            return len(data)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as exc:
            self.failed = exc
            os.ftruncate(self.fd, self.good)  # the cut item goes; every whole item stays
            self.on_failure(self, exc)
            return len(data)
        self.good += len(data)
        return len(data)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self.fd

    def tell(self) -> int:
        return self.good

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            os.close(self.fd)


def feed_problem(uri: str) -> str | None:
    """Why a local feed cannot be written (its directory cannot be made, the file cannot be opened), or None.
    Opening it for append creates it empty, as Scrapy would at the end of a crawl; remote feeds are not checked.

    >>> feed_problem("/proc/no/such/dir/items.jsonl").startswith("cannot write the feed /proc/no/such/dir/items.jsonl")
    True
    >>> feed_problem("s3://bucket/items.jsonl") is None
    True
    """
    if "://" in uri and not uri.startswith("file://"):
        return None
    path = uri.removeprefix("file://")
    parent = os.path.dirname(path)
    if parent and os.path.exists(parent) and not os.path.isdir(parent):
        return f"cannot write the feed {path}: {parent} is not a directory"
    try:
        if parent:
            os.makedirs(parent, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666))
    except OSError as exc:
        return f"cannot write the feed {path}: {exc.strerror or exc}"
    return None


class FeedGuardExtension:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.closing = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FeedGuardExtension:
        return cls(crawler)

    def spider_opened(self, spider: Any) -> None:
        exporter = self.crawler.get_extension(FeedExporter)
        if exporter is None:
            return
        for slot in exporter.slots:
            if (isinstance(slot.storage, FileFeedStorage) and "postprocessing" not in slot.feed_options
                    and issubclass(exporter.exporters[slot.format], JsonLinesItemExporter)):
                self._guard(slot.storage)

    def _guard(self, storage: FileFeedStorage) -> None:
        def open_guarded(spider: Any) -> GuardedFeedFile:
            parent = os.path.dirname(storage.path)
            if parent:
                os.makedirs(parent, exist_ok=True)
            return GuardedFeedFile(storage.path, storage.write_mode, self._failed)

        storage.open = open_guarded  # type: ignore[method-assign,assignment]

    def _failed(self, feed: GuardedFeedFile, exc: OSError) -> None:
        logger.error("Cannot write the feed %s (%s): stopping; its %d bytes of whole items are kept",
                     feed.path, exc.strerror or exc, feed.good)
        self.crawler.stats.set_value("bara/feed/write_failed", feed.path)
        if not self.closing:
            self.closing = True
            deferred_from_coro(self.crawler.engine.close_spider_async(reason=CLOSE_REASON))
