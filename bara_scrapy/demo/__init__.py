"""The bundled demo: `python -m bara_scrapy.demo` crawls the "Northbound Notes" site (demo/site.py).

`DemoProgress` is the extension the demo runner adds to its crawl (`-s EXTENSIONS=...`):
one short INFO line per finished page, which the runner shows while the rest of
the log goes to `<out>/crawl.log`.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.crawler import Crawler

from ..items import PageItem

logger = logging.getLogger(__name__)


def progress_line(item: PageItem) -> str:
    """One line per finished page: status, admission order, depth, path and what it yielded.

    >>> progress_line(PageItem(url="http://h/a/", depth=1, bfs_index=3, status="ok", text="x" * 1200)).split()
    ['ok', '#3', 'd1', '/a/', '1200', 'chars', '0', 'img', '0', 'vid', '0', 'rejected', '0.0', 's']
    """
    parts = urlsplit(item.url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    seconds = sum(a.seconds for a in item.attempts)
    retries = f"  ({len(item.attempts)} attempts)" if len(item.attempts) > 1 else ""
    return (
        f"{item.status:<10}  #{item.bfs_index:<3} d{item.depth}  {path[:40]:<40}  {len(item.text):>5} chars"
        f"  {len(item.images):>2} img {len(item.videos):>2} vid {len(item.rejected_media):>2} rejected"
        f"  {seconds:.1f} s{retries}"
    )


class DemoProgress:
    """Log `progress_line` for every page item once the pipelines are done with it."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DemoProgress:
        extension = cls()
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        return extension

    def item_scraped(self, item: object) -> None:
        if isinstance(item, PageItem):
            logger.info("%s", progress_line(item))
