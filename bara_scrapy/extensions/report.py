"""ReportExtension: with `BARA_REPORT=path`, write the HTML report when the crawl closes.

Each scraped item is kept in its compact report form (a text excerpt, not the whole text), so
memory stays small on long crawls. The limits, the crawl's clock and the media store come from the
settings and stats, which `scrapy bara-report` on a feed cannot know.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from ..config import BaraConfig, ConfigError
from ..exporters import as_dict
from ..items import PageItem, utc_now
from ..report.command import files_base
from ..report.data import ReportMeta, build_report_data, compact_page
from ..report.html import write_report

logger = logging.getLogger(__name__)


class ReportExtension:
    def __init__(self, crawler: Crawler, path: Path) -> None:
        self.crawler = crawler
        self.path = path
        self.pages: list[dict[str, Any]] = []
        self.opened = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReportExtension:
        path = BaraConfig.from_crawler(crawler).reporting.report
        if not path:
            logger.debug("no HTML report: BARA_REPORT is not set")
            raise NotConfigured  # off by default: nothing to warn about
        ext = cls(crawler, Path(path))
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.opened = time.monotonic()

    def item_scraped(self, item: Any) -> None:
        if isinstance(item, PageItem):
            self.pages.append(compact_page(as_dict(item)))

    def meta(self) -> ReportMeta:
        settings = self.crawler.settings
        try:
            config = BaraConfig.from_crawler(self.crawler)
            limits: dict[str, int | None] = {
                "max_depth": config.max_depth, "max_width": config.max_width,
                "max_pages": config.max_pages, "max_attempts": config.max_attempts,
            }
        except ConfigError:
            limits = {}
        started = self.crawler.stats.get_value("start_time")
        store = settings.get("FILES_STORE") if settings.getbool("BARA_STORE_MEDIA") else None
        return ReportMeta(
            source=f"crawl of {settings.get('BARA_SEED') or '?'}",
            limits=limits,
            started=started.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
            if isinstance(started, datetime) else None,
            finished=utc_now(),
            elapsed=time.monotonic() - self.opened,
            files_base=files_base(store),
        )

    def spider_closed(self) -> None:
        began = time.monotonic()
        data = build_report_data(self.pages, self.meta())
        size = write_report(data, self.path)
        seconds = time.monotonic() - began
        self.crawler.stats.set_value("bara/report/pages", len(self.pages))
        self.crawler.stats.set_value("bara/report/bytes", size)
        self.crawler.stats.set_value("bara/report/build_seconds", round(seconds, 3))
        logger.info("bara report: %s (%d pages, %d bytes, built in %.2f s)", self.path, len(self.pages), size, seconds)
