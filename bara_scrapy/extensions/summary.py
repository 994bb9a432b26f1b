"""The crawl's last word: one summary line when it closes.

    bara done: 42 pages (ok 40, incomplete 1, failed 1) | 118 media verified, 3 rejected | 47 attempts |
    61.3 pages/min | items: out/items.jsonl

The numbers come from the stats `ItemStatsPipeline` counts (`bara/items/<status>`, `bara/media/verified`,
`bara/media/rejected`, `bara/attempts`); the feeds from Scrapy's `FEEDS` (what `-o`/`-O` set).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler

from .progress import STATUSES

logger = logging.getLogger(__name__)


def format_summary(stats: Mapping[str, Any], elapsed: float, feeds: Iterable[str]) -> str:
    """One line: pages by status, media verified and rejected, attempts, pages/min, where the items went.

    >>> stats = {"bara/items/ok": 40, "bara/items/incomplete": 1, "bara/items/failed": 1,
    ...          "bara/media/verified": 118, "bara/media/rejected": 3, "bara/attempts": 47}
    >>> for part in format_summary(stats, 41.1, ["out/items.jsonl"]).split(" | "):
    ...     print(part)
    bara done: 42 pages (ok 40, incomplete 1, failed 1)
    118 media verified, 3 rejected
    47 attempts
    61.3 pages/min
    items: out/items.jsonl
    >>> format_summary({}, 0.0, []).endswith("| 0 attempts | 0.0 pages/min | items: no feed")
    True
    """
    by_status = {s: int(stats.get(f"bara/items/{s}", 0)) for s in STATUSES}
    pages = sum(by_status.values())
    rate = 60.0 * pages / elapsed if elapsed > 0 else 0.0
    statuses = ", ".join(f"{s} {n}" for s, n in by_status.items())
    return (
        f"bara done: {pages} pages ({statuses}) | {int(stats.get('bara/media/verified', 0))} media verified, "
        f"{int(stats.get('bara/media/rejected', 0))} rejected | {int(stats.get('bara/attempts', 0))} attempts | "
        f"{rate:.1f} pages/min | items: {', '.join(feeds) or 'no feed'}"
    )


class CrawlSummaryExtension:
    """Log `format_summary` once, when the spider closes."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.opened = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlSummaryExtension:
        ext = cls(crawler)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.opened = time.monotonic()

    def spider_closed(self) -> None:
        feeds = [str(uri) for uri in self.crawler.settings.getdict("FEEDS")]
        logger.info(format_summary(self.crawler.stats.get_stats(), time.monotonic() - self.opened, feeds))
