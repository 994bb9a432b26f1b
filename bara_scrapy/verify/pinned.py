"""Resolve once, check, pin: verification connects to the address the SSRF check approved.

`check_url` alone resolves a name and lets the download resolve it again, a
window for DNS rebinding (public answer at check time, private answer at
connect time). `PinnedChecker` resolves each host name once per crawl, checks
those addresses, and writes the first one into Scrapy's DNS cache
(`scrapy.resolver.dnscache`, read by the default `CachingThreadedResolver`
before any lookup), so the download connects to the checked address.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from urllib.parse import urlsplit

from scrapy.resolver import dnscache

from .ssrf import DNS_ERROR, INVALID_URL, Resolver, check_url, parse_literal

logger = logging.getLogger(__name__)

PINNABLE_RESOLVERS = ("scrapy.resolver.CachingThreadedResolver",)


class PinnedChecker:
    """`check(url)`: the SSRF verdict of `check_url`, with the approved address pinned for the download."""

    def __init__(self, resolve: Resolver, *, allowed_hosts: Collection[str] = (), allow_private: bool = False,
                 pin: bool = True) -> None:
        self.resolve = resolve
        self.allowed_hosts = allowed_hosts
        self.allow_private = allow_private
        self.pin = pin
        self.addresses: dict[str, list[str]] = {}  # host -> the addresses checked, once per crawl

    def check(self, url: str) -> str | None:
        """Why `url` may not be fetched, or None (blocking: run it off the event loop)."""
        try:
            host = (urlsplit(url.strip()).hostname or "").rstrip(".")
        except ValueError:
            return INVALID_URL
        if not host or parse_literal(host) is not None:
            return check_url(url, allowed_hosts=self.allowed_hosts, allow_private=self.allow_private,
                             resolve=self.resolve)
        addresses = self.addresses.get(host)
        if addresses is None:
            try:
                addresses = [str(a) for a in self.resolve(host)]
            except (OSError, UnicodeError):
                return DNS_ERROR
            if not addresses:
                return DNS_ERROR
            self.addresses[host] = addresses
        reason = check_url(url, allowed_hosts=self.allowed_hosts, allow_private=self.allow_private,
                           resolve=lambda _: addresses)
        if reason is None and self.pin:
            dnscache[host] = addresses[0]
        return reason


def can_pin(resolver_path: str | None, cache_enabled: bool) -> bool:
    """Whether Scrapy's configured resolver reads `dnscache` as `{name: address}`.

    >>> can_pin("scrapy.resolver.CachingThreadedResolver", True), can_pin("x.MyResolver", True)
    (True, False)
    """
    return cache_enabled and resolver_path in PINNABLE_RESOLVERS
