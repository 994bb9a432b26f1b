"""HTTP header decisions shared by the crawl and the LLM client (pure functions, no Scrapy)."""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from datetime import UTC
from email.utils import parsedate_to_datetime

_SECONDS = re.compile(r"\d+(?:\.\d+)?")


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds a `Retry-After` value asks for (delta-seconds or HTTP date, never negative), or None.

    `now` is a Unix time (default: the clock).

    >>> retry_after_seconds("2"), retry_after_seconds("1.5"), retry_after_seconds("soon"), retry_after_seconds(None)
    (2.0, 1.5, None, None)
    >>> retry_after_seconds("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0)
    10.0
    >>> retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0)
    0.0
    """
    if not value:
        return None
    value = value.strip()
    if _SECONDS.fullmatch(value):
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # an HTTP date is always GMT
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms` / `retry-after` (any case), None if absent or unreadable.

    >>> parse_retry_after({"retry-after": "2"})
    2.0
    >>> parse_retry_after({"retry-after-ms": "250"})
    0.25
    >>> parse_retry_after({"Retry-After": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0)
    10.0
    >>> parse_retry_after({}) is None
    True
    """
    lower = {k.lower(): v for k, v in headers.items()}
    millis = lower.get("retry-after-ms")
    if millis is not None and _SECONDS.fullmatch(millis.strip()):
        return float(millis) / 1000.0
    return retry_after_seconds(lower.get("retry-after"), now)


def header_pairs(headers: Mapping[bytes, list[bytes]]) -> list[tuple[str, str]]:
    """Scrapy `Headers` (bytes, several values a name) as (name, value) pairs, in order.

    >>> header_pairs({b"Set-Cookie": [b"a=1", b"b=2"], b"Content-Type": [b"text/html"]})
    [('Set-Cookie', 'a=1'), ('Set-Cookie', 'b=2'), ('Content-Type', 'text/html')]
    """
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, values in headers.items() for v in values]
