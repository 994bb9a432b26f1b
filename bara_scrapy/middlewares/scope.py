"""ScopeGuardMiddleware: no page request leaves the crawl's scope.

Runs before anything else touches a request (robots.txt included), so an
off-scope host is never contacted. Retries and HTTP redirects carry
`dont_filter`, which bypasses Scrapy's offsite check: they are checked here.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest

from ..page import page_state
from ..urls import in_scope


class OffsiteRedirect(IgnoreRequest):
    """A page request that left the crawl's scope (redirect or retry)."""


class ScopeGuardMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ScopeGuardMiddleware:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        state = page_state(request)
        if state is not None and not in_scope(request.url, state.seed, state.scope):
            self.crawler.stats.inc_value("bara/scope/blocked_request")
            raise OffsiteRedirect(f"offsite_redirect: {request.url}")
