"""WarcExtension: write the crawl's WARC as it goes (`BARA_WARC`, `BARA_WACZ`).

Nothing is fetched for the archive. A page's document exchanges come with its snapshot (the browser's
route handler keeps what it fetched, the plain-HTTP path keeps Scrapy's response) and are written
with the rendered DOM and the item's provenance once the item has passed the pipelines
(`item_scraped`, so the verification records are final). A medium's response is written when the
verification pipeline has downloaded and verified it (`archive.media_fetched`); rejected media are
never written.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from ..config import BaraConfig
from ..http_utils import header_pairs
from ..items import PageItem
from ..page import page_state
from . import media_fetched
from .files import RotatingWarcWriter, warc_path
from .records import page_records, response_record, warcinfo_record

logger = logging.getLogger(__name__)

WARCINFO_SETTINGS = ("DEPTH_LIMIT", "BARA_MAX_WIDTH", "BARA_MAX_PAGES", "BARA_MAX_ATTEMPTS", "BARA_SCOPE",
                     "BARA_BROWSER_ENABLED", "BARA_VERIFY_MEDIA", "ROBOTSTXT_OBEY", "USER_AGENT")
PROVENANCE_EXCLUDE = frozenset({"text", "markdown", "comments"})  # content, not provenance (it is in the DOM)


def provenance(item: PageItem) -> dict[str, Any]:
    """What the page's `metadata` record holds: the item less its extracted content."""
    return item.model_dump(mode="json", exclude=set(PROVENANCE_EXCLUDE))


def worker_name(config: BaraConfig) -> str:
    """The worker part of the file names: BARA_WARC_WORKER, else host-pid with a shared frontier."""
    if config.archive.worker:
        return config.archive.worker
    return f"{socket.gethostname()}-{os.getpid()}" if config.frontier.url else ""


def warc_base(config: BaraConfig) -> str:
    """BARA_WARC, else a WARC beside BARA_WACZ (`x.wacz` -> `x.warc.gz`)."""
    if config.archive.warc:
        return config.archive.warc
    stem = config.archive.wacz[:-5] if config.archive.wacz.endswith(".wacz") else config.archive.wacz
    return f"{stem}.warc.gz"


class WarcExtension:
    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.writer = RotatingWarcWriter(warc_base(config), worker=worker_name(config),
                                         max_bytes=config.archive.max_bytes, warcinfo=self._warcinfo)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcExtension:
        config = BaraConfig.from_crawler(crawler)
        if not config.archive.enabled:
            raise NotConfigured  # off: neither BARA_WARC nor BARA_WACZ is set (not a warning)
        ext = cls(crawler, config)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.media_fetched, signal=media_fetched)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def _warcinfo(self, filename: str) -> Any:
        settings = self.crawler.settings
        info = {name: settings.get(name) for name in WARCINFO_SETTINGS}
        info["seed"] = self.config.seed or None
        return warcinfo_record(filename, info, time.time())

    def _write(self, record: Any) -> None:
        self.writer.write(record)
        self.crawler.stats.inc_value(f"bara/warc/records/{record.rec_type}")

    def item_scraped(self, item: Any, response: Response) -> None:
        if not isinstance(item, PageItem):
            return
        state = page_state(response)
        snapshot = state.snapshot if state is not None else None
        exchanges = snapshot.fetched if snapshot is not None else []
        html = snapshot.html if snapshot is not None else ""
        if exchanges and html.encode("utf-8") == exchanges[-1].body:
            html = ""  # not rendered (plain HTTP): the DOM is the document itself
        for record in page_records(item.url, exchanges, html, provenance(item), time.time()):
            self._write(record)

    def media_fetched(self, responses: list[Response], verified: bool) -> None:
        if not verified:
            return
        if any("download_stopped" in r.flags for r in responses):
            self.crawler.stats.inc_value("bara/warc/media_too_large")
            return
        now = time.time()
        for response in responses:
            self._write(response_record(response.url, response.status, header_pairs(response.headers), response.body,
                                        now))

    def spider_closed(self) -> None:
        self.writer.close()
        self.crawler.stats.set_value("bara/warc/files", len(self.writer.paths))
        logger.info("WARC written: %s (%s)", ", ".join(self.writer.paths) or "nothing",
                    ", ".join(f"{n} {k}" for k, n in sorted(self.writer.counts.items())))
        if self.config.archive.wacz:
            self._pack()

    def _pack(self) -> None:
        from .wacz import pack_wacz, pages_from_warcs, wacz_path  # cdxj-indexer only when a WACZ is asked for

        writer = self.writer
        series = [warc_path(writer.base, n, writer.worker) for n in range(writer.serial + 1)]
        warcs = [path for path in series if os.path.exists(path)]  # a resumed crawl's earlier files too
        out = wacz_path(self.config.archive.wacz, writer.worker)
        seed = self.config.seed or None
        package = pack_wacz(out, warcs, pages_from_warcs(warcs), title=f"bara crawl of {seed}", main_page=seed)
        self.crawler.stats.set_value("bara/wacz/bytes", os.path.getsize(out))
        logger.info("WACZ written: %s (%d files)", out, len(package["resources"]))
