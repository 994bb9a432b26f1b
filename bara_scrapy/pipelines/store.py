"""MediaStorePipeline: keep a copy of every verified image and video (`BARA_STORE_MEDIA`, `FILES_STORE`).

Scrapy's FilesPipeline does the storing (a local directory or any store it supports: s3://, gs://,
ftp://), its cache across runs included; each stored medium gets `path` (relative to FILES_STORE) and
`checksum` (MD5 of the stored bytes). Only verified media are stored, from the URL verification ended
on (`final_url`); the SSRF guard of verification runs on that URL and redirects are not followed, so
no stored download reaches an address verification would have refused. An HLS/DASH video is its
manifest: the manifest file is stored, not its segments. Files larger than `BARA_STORE_MAX_BYTES` are
skipped (known size) or cut off (`download_maxsize`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http.request import NO_CALLBACK
from scrapy.pipelines.files import FilesPipeline
from scrapy.pipelines.media import _MediaRequestFiltered
from twisted.python.failure import Failure

from ..config import BaraConfig
from ..items import Media, PageItem
from ..verify import check_url, host_key
from ..verify.ssrf import Resolver, default_resolve

logger = logging.getLogger(__name__)


def store_url(media: Media) -> str:
    """The URL to store from: where verification ended (after its guarded redirects)."""
    return media.final_url or media.url


def skip_reason(media: Media, max_bytes: int) -> str | None:
    """Why a medium is not stored, or None.

    >>> m = Media(url="http://a/i.png", kind="image", found_in=["img@src"], verified=True, bytes=10)
    >>> skip_reason(m, 100), skip_reason(m, 5), skip_reason(m.model_copy(update={"verified": False}), 100)
    (None, 'too_large', 'unverified')
    """
    if not media.verified:
        return "unverified"
    if max_bytes and media.bytes is not None and media.bytes > max_bytes:
        return "too_large"
    return None


_SUFFIX = re.compile(r"\.[a-z0-9]{1,5}")


def with_url_suffix(path: str, url: str) -> str:
    """Keep the URL's extension when Python's mimetypes table does not know it (`.webp`, `.mpd` on some systems).

    >>> with_url_suffix("full/ab12", "http://a/x/pic.WEBP?v=2"), with_url_suffix("full/ab12.png", "http://a/p.png")
    ('full/ab12.webp', 'full/ab12.png')
    >>> with_url_suffix("full/ab12", "http://a/stream"), with_url_suffix("full/ab12", "http://a/f.tar.gz.backup")
    ('full/ab12', 'full/ab12')
    """
    if PurePosixPath(path).suffix:
        return path
    suffix = PurePosixPath(urlsplit(url).path).suffix.lower()
    return path + suffix if _SUFFIX.fullmatch(suffix) else path


class MediaStorePipeline(FilesPipeline):
    resolve: Resolver = staticmethod(default_resolve)

    def __init__(self, store_uri: str, *, crawler: Crawler) -> None:
        super().__init__(store_uri, crawler=crawler)
        config = BaraConfig.from_crawler(crawler)
        self.max_bytes = config.reporting.store_max_bytes
        self.allow_private = config.allow_private_networks
        self.allowed_hosts: frozenset[str] = frozenset()
        self.blocked: dict[str, str | None] = {}  # URL -> why the SSRF guard refused it (None: allowed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MediaStorePipeline:
        settings = crawler.settings
        if not BaraConfig.from_crawler(crawler).reporting.store_media:
            logger.debug("media not stored: BARA_STORE_MEDIA is False")
            raise NotConfigured  # off by default: nothing to warn about
        if not settings.get("FILES_STORE"):
            raise NotConfigured("BARA_STORE_MEDIA needs FILES_STORE (a directory or a store URI)")
        cls._update_stores(settings)
        return cls(settings["FILES_STORE"], crawler=crawler)

    def open_spider(self, spider: Any = None) -> None:
        super().open_spider()
        seed = BaraConfig.from_crawler(self.crawler).seed
        self.allowed_hosts = frozenset({host_key(seed)} if seed else ())

    def _targets(self, item: PageItem) -> list[Media]:
        stats = self.crawler.stats
        targets = []
        for media in item.images + item.videos:
            reason = skip_reason(media, self.max_bytes) or self.blocked.get(store_url(media))
            if reason:
                stats.inc_value(f"bara/store/skipped/{reason}")
            else:
                targets.append(media)
        return targets

    async def process_item(self, item: Any, spider: Any = None) -> Any:
        if not isinstance(item, PageItem) or not (item.images or item.videos):
            return item
        for url in {store_url(m) for m in item.images + item.videos} - self.blocked.keys():
            self.blocked[url] = await asyncio.to_thread(
                check_url, url, allowed_hosts=self.allowed_hosts, allow_private=self.allow_private,
                resolve=self.resolve,
            )
        return await super().process_item(item)

    def get_media_requests(self, item: Any, info: Any) -> list[Request]:
        if not isinstance(item, PageItem):
            return []
        requests, seen = [], set()
        for media in self._targets(item):
            url = store_url(media)
            if url in seen:
                continue
            seen.add(url)
            meta = {
                "dont_redirect": True,  # a redirect now would be an unchecked hop: fail instead
                "allow_offsite": True,
                "download_maxsize": self.max_bytes,
                "max_retry_times": 1,
                "download_slot": f"bara-store:{urlsplit(url).hostname}",
            }
            requests.append(Request(url, headers={"Referer": item.final_url or item.url}, meta=meta,
                                    callback=NO_CALLBACK, dont_filter=True))
        return requests

    def file_path(self, request: Request, response: Any = None, info: Any = None, *, item: Any = None) -> str:
        return with_url_suffix(super().file_path(request, response, info, item=item), request.url)

    def media_failed(self, failure: Failure, request: Request, info: Any) -> Any:
        """One warning line, no traceback: the medium stays verified, only without a stored copy."""
        reason = str(failure.value).splitlines()[0][:300] if str(failure.value) else type(failure.value).__name__
        logger.warning("media store: %s not stored (%s)", request.url, reason)
        raise _MediaRequestFiltered(reason)  # Scrapy's quiet path (no second log line with a traceback)

    def item_completed(self, results: list[Any], item: Any, info: Any) -> Any:
        stored = {res["url"]: res for ok, res in results if ok}
        stats = self.crawler.stats
        stats.inc_value("bara/store/failed", sum(1 for ok, _ in results if not ok))
        for name in ("images", "videos"):
            updated = []
            for media in getattr(item, name):
                res = stored.get(store_url(media))
                if res is not None:
                    media = media.model_copy(update={"path": res["path"], "checksum": res["checksum"]})
                    stats.inc_value("bara/store/stored")
                updated.append(media)
            setattr(item, name, updated)
        return item
