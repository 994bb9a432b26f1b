"""ScopeGuardMiddleware: no page request leaves the crawl's scope.

Runs before anything else touches a request (robots.txt included), so an
off-scope host is never contacted. Retries and HTTP redirects carry
`dont_filter`, which bypasses Scrapy's offsite check: they are checked here.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest

from ..config import BaraConfig
from ..page import page_state
from ..urls import in_scope


class OffsiteRedirect(IgnoreRequest):
    """A page request that left the crawl's scope (redirect or retry)."""


class ScopeGuardMiddleware:
    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.seed, self.scope = config.seed_url, config.scope

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ScopeGuardMiddleware:
        return cls(crawler, BaraConfig.from_crawler(crawler))

    def process_request(self, request: Request) -> None:
        if page_state(request) is not None and not in_scope(request.url, self.seed, self.scope):
            self.crawler.stats.inc_value("bara/scope/blocked_request")
            raise OffsiteRedirect(f"offsite_redirect: {request.url}")
