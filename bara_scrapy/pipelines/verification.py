"""Item pipeline: return only media that really downloads (ranged GET + magic bytes).

Every candidate in `PageItem.images`/`videos` is fetched through Scrapy's
engine with `Range: bytes=0-4095`, following up to 5 redirects by hand so the
SSRF guard runs on every hop; a host name is resolved once per crawl and the
download is pinned to the checked address (`verify.pinned`). The first bytes decide (`verify.sniff`), not the
Content-Type. A server that ignores Range is cut off by `StopDownload` after
the first 4 KiB. With an archive on (`BARA_WARC`/`BARA_WACZ`) the whole file is downloaded instead (up
to `BARA_WARC_MEDIA_MAX_BYTES`), once: the archive writes the responses verification received
(`archive.media_fetched`). Each canonical URL is checked once per crawl. Candidates that
are not http(s) URLs are counted (`blocked_scheme`) and dropped: the item
contract only holds http(s) media.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urljoin, urlsplit

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadTimeoutError,
    IgnoreRequest,
    NotConfigured,
    StopDownload,
)
from scrapy.http import Response
from scrapy.http.request import NO_CALLBACK
from twisted.internet.error import TimeoutError as TwistedTimeoutError
from w3lib.url import safe_url_string

from ..archive import media_fetched
from ..config import BaraConfig
from ..items import PageItem
from ..reflection.status import after_verification
from ..tls import TLS_ERROR, is_certificate_error
from ..urls import canonicalize, is_http_url
from ..verify import SNIFF_BYTES, host_key, sniff
from ..verify.outcome import Outcome, judge, total_bytes
from ..verify.pinned import PinnedChecker, can_pin
from ..verify.ssrf import Resolver, default_resolve

logger = logging.getLogger(__name__)

MAX_REDIRECTS = 5
VERIFY_KEY = "bara_verify"  # meta of a verification request: bytes received so far
LIMIT_KEY = "bara_verify_limit"  # ... and the bytes after which the download stops
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# the candidate could not be checked at all: the page is incomplete (`after_verification`), not the media bad
UNCHECKED_REASONS = frozenset({"timeout", "download_error", "dns_error"})
_ACCEPT = {"image": "image/avif,image/webp,image/apng,image/*,*/*;q=0.8", "video": "*/*"}


def error_reason(exc: BaseException) -> str:
    """Machine-readable reason for a failed download.

    >>> error_reason(DownloadTimeoutError()), error_reason(IgnoreRequest("Forbidden by robots.txt"))
    ('timeout', 'robots_forbidden')
    >>> error_reason(ConnectionError("[('SSL routines', '', 'certificate verify failed')]"))
    'tls_error'
    """
    if is_certificate_error(f"{type(exc).__name__} {exc}"):  # BARA_TLS_VERIFY refused its certificate
        return TLS_ERROR
    if isinstance(exc, DownloadTimeoutError | TwistedTimeoutError | TimeoutError):
        return "timeout"
    if isinstance(exc, CannotResolveHostError):
        return "dns_error"
    if isinstance(exc, IgnoreRequest) and "robots" in str(exc).lower():
        return "robots_forbidden"
    return "download_error"


def _header(response: Response, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value is not None else None


class MediaVerificationPipeline:
    """Move media that does not download from `images`/`videos` to `rejected_media`."""

    resolve: Resolver = staticmethod(default_resolve)

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        config = BaraConfig.from_crawler(crawler)
        self.allow_private = config.allow_private_networks
        self.timeout = config.verify.timeout
        self.archive = config.archive.enabled  # download whole files, for the archive
        self.limit = config.archive.media_max_bytes if self.archive else SNIFF_BYTES  # 0: no limit
        self.semaphore = asyncio.Semaphore(max(1, config.verify.concurrency))
        self.allowed_hosts: frozenset[str] = frozenset()
        resolver = settings.get("TWISTED_DNS_RESOLVER") or settings.get("DNS_RESOLVER")
        self.pin = can_pin(resolver if isinstance(resolver, str) else None, settings.getbool("DNSCACHE_ENABLED"))
        self.checker = PinnedChecker(self.resolve, allow_private=self.allow_private, pin=self.pin)
        self._results: dict[str, asyncio.Task[Outcome]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MediaVerificationPipeline:
        if not BaraConfig.from_crawler(crawler).verify.enabled:
            logger.debug("media not verified: BARA_VERIFY_MEDIA is False")
            raise NotConfigured
        pipeline = cls(crawler)
        crawler.signals.connect(pipeline._bytes_received, signal=signals.bytes_received)
        return pipeline

    def open_spider(self) -> None:
        seed = BaraConfig.from_crawler(self.crawler).seed
        self.allowed_hosts = frozenset({host_key(seed)} if seed else ())
        self.checker = PinnedChecker(self.resolve, allowed_hosts=self.allowed_hosts, allow_private=self.allow_private,
                                     pin=self.pin)
        if not self.pin:
            logger.warning("media verification: DNS answers not pinned (resolver is not CachingThreadedResolver)")

    def _bytes_received(self, data: bytes, request: Request) -> None:
        """Enough bytes to sniff: stop, whether or not the server honoured Range."""
        received = request.meta.get(VERIFY_KEY)
        if received is not None:  # a verification request: meta holds the bytes received so far
            received = request.meta[VERIFY_KEY] = received + len(data)
            if received >= request.meta[LIMIT_KEY]:
                raise StopDownload(fail=False)

    async def process_item(self, item: Any) -> Any:
        if not isinstance(item, PageItem) or not (item.images or item.videos):
            return item
        referer = item.final_url or item.url
        candidates = [(m, "image") for m in item.images] + [(m, "video") for m in item.videos]
        outcomes = await asyncio.gather(*(self._outcome(m.url, kind, referer) for m, kind in candidates))
        item.images, item.videos = [], []
        unchecked = 0
        for (media, kind), outcome in zip(candidates, outcomes, strict=True):
            checked = outcome.apply(media)
            if not is_http_url(
                media.url
            ):  # data:, blob:, ftp: are never returned as media, not even rejected
                continue
            if outcome.verified:
                (item.images if kind == "image" else item.videos).append(checked)
            else:
                item.rejected_media.append(checked)
                unchecked += outcome.reason in UNCHECKED_REASONS
        item.status, item.error = after_verification(item.status, item.error, unchecked)
        return item

    async def _outcome(self, url: str, kind: str, referer: str) -> Outcome:
        try:
            key = f"{kind} {canonicalize(url)}"
        except ValueError:
            key = f"{kind} {url}"
        task = self._results.get(key)
        if task is None:
            task = asyncio.ensure_future(self._verify(url, kind, referer))
            self._results[key] = task
        else:
            self.crawler.stats.inc_value("bara/verify/cache_hit")
        return await asyncio.shield(task)

    async def _verify(self, url: str, kind: str, referer: str) -> Outcome:
        async with self.semaphore:
            try:
                outcome = await self._follow(url, kind, referer)
            except Exception as exc:  # a bug here must not cost the page its item
                logger.warning("media check of %s raised %r", url, exc)
                outcome = Outcome("download_error", final_url=url)
        stats = self.crawler.stats
        if outcome.verified:
            stats.inc_value("bara/verify/ok")
        else:
            stats.inc_value(f"bara/verify/rejected/{outcome.reason}")
            logger.debug("media rejected (%s): %s", outcome.reason, url)
        return outcome

    async def _follow(self, url: str, kind: str, referer: str) -> Outcome:
        current = url
        hops: list[Response] = []
        for hop in range(MAX_REDIRECTS + 1):
            blocked = await asyncio.to_thread(self.checker.check, current)  # resolved once, then pinned
            if blocked is not None:
                return Outcome(blocked, final_url=current)
            self.crawler.stats.inc_value("bara/verify/requests")
            try:
                response = await self.crawler.engine.download_async(self._request(current, kind, referer))
            except Exception as exc:  # any transport failure is a recorded reason, never a crash
                logger.debug("media check of %s failed: %r", current, exc)
                return Outcome(error_reason(exc), final_url=current)
            hops.append(response)
            location = _header(response, "Location")
            if response.status in REDIRECT_STATUSES and location:
                if hop == MAX_REDIRECTS:
                    return Outcome("too_many_redirects", http_status=response.status, final_url=current)
                current = safe_url_string(urljoin(current, location))
                continue
            outcome = self._record(response, kind)
            if self.archive:
                self.crawler.signals.send_catch_log(media_fetched, responses=hops, verified=outcome.verified)
            return outcome
        raise AssertionError("unreachable")  # pragma: no cover

    def _request(self, url: str, kind: str, referer: str) -> Request:
        meta: dict[str, Any] = {
            "dont_redirect": True,
            "handle_httpstatus_all": True,
            "allow_offsite": True,
            "dont_cache": True,
            "download_timeout": self.timeout,
            "max_retry_times": 1,  # a dead media host costs at most two timeouts
            "download_maxsize": 0,  # StopDownload bounds the body; a huge Content-Length is no error
            "download_warnsize": 0,
            "download_slot": f"bara-verify:{urlsplit(url).hostname}",  # never starves page slots
        }
        if self.limit:
            meta.update({VERIFY_KEY: 0, LIMIT_KEY: self.limit})
        headers = {"Referer": referer, "Accept": _ACCEPT[kind], "Accept-Encoding": "identity"}
        if not self.archive:
            headers["Range"] = f"bytes=0-{SNIFF_BYTES - 1}"
        return Request(url, headers=headers, meta=meta, callback=NO_CALLBACK, dont_filter=True)

    @staticmethod
    def _record(response: Response, kind: str) -> Outcome:
        body = response.body[:SNIFF_BYTES]
        content_type = _header(response, "Content-Type")
        return Outcome(
            judge(response.status, body, kind, content_type),
            http_status=response.status,
            content_type=content_type,
            sniffed_type=sniff(body) if body else None,
            bytes=total_bytes(
                response.status, _header(response, "Content-Range"), _header(response, "Content-Length")
            ),
            final_url=response.url,
        )
