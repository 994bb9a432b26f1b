"""RetryAfterMiddleware: honour `Retry-After` on 429/503 before retrying, within a bound.

Scrapy's RetryMiddleware retries 429 and 503 at once; a server that says when
to come back is asked again only after that delay (capped by
`BARA_RETRY_AFTER_MAX`, default 30 s; longer waits are left to RetryMiddleware).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response

logger = logging.getLogger(__name__)

STATUSES = (429, 503)
MAX_TIMES = 2


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds a `Retry-After` header asks for (delta-seconds or HTTP date), or None.

    >>> retry_after_seconds("2"), retry_after_seconds("soon"), retry_after_seconds(None)
    (2.0, None, None)
    >>> retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", datetime(2015, 10, 21, 7, 28, tzinfo=UTC))
    10.0
    """
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


class RetryAfterMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.max_wait = crawler.settings.getfloat("BARA_RETRY_AFTER_MAX", 30.0)

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
