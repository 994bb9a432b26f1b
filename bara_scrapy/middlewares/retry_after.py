"""RetryAfterMiddleware: honour `Retry-After` on 429/503 before retrying, within a bound.

Scrapy's RetryMiddleware retries 429 and 503 at once; a server that says when
to come back is asked again only after that delay (capped by
`BARA_RETRY_AFTER_MAX`, default 30 s; longer waits are left to RetryMiddleware).
"""

from __future__ import annotations

import asyncio
import logging

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response

from ..config import BaraConfig
from ..http_utils import retry_after_seconds

__all__ = ["RetryAfterMiddleware", "retry_after_seconds"]

logger = logging.getLogger(__name__)

STATUSES = (429, 503)
MAX_TIMES = 2


class RetryAfterMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.max_wait = BaraConfig.from_crawler(crawler).retry_after_max

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RetryAfterMiddleware:
        return cls(crawler)

    async def process_response(self, request: Request, response: Response) -> Request | Response:
        if response.status not in STATUSES or request.meta.get("dont_retry"):
            return response
        header = response.headers.get(b"Retry-After")
        delay = retry_after_seconds(header.decode("latin-1") if header else None)
        times = int(request.meta.get("bara_retry_after_times", 0))
        if delay is None or delay > self.max_wait or times >= MAX_TIMES:
            return response
        self.crawler.stats.inc_value("bara/retry_after/waits")
        logger.info("Retry-After %.1fs for %s (HTTP %d)", delay, request.url, response.status)
        await asyncio.sleep(delay)
        retry = request.replace(dont_filter=True)
        retry.meta["bara_retry_after_times"] = times + 1
        return retry
