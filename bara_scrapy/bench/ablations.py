"""Ablations of `scrapy bara-bench`: components the bench swaps in, never used by a real crawl.

* `dfs`: `DepthFirstFrontierMiddleware` (in place of `FrontierMiddleware`)
  expands each page as soon as it finishes (`DepthFirstFrontier`), not in
  admission order; with LIFO queues this is a depth-first crawl under the
  same page budget.
* `no_scroll`: `NoScrollMiddleware` (downloader, after `BrowserMiddleware`)
  sets the browser's scroll steps to 0 in every attempt, so reflection cannot
  scroll either.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy_playwright.page import PageMethod

from ..browser.render import explore
from ..config import BaraConfig
from ..frontier import Admission, Frontier
from ..frontier.in_process import LocalFrontier
from ..frontier.middleware import FrontierMiddleware
from ..page import page_state


@dataclass
class DepthFirstFrontier(Frontier):
    """Expand a page on completion (the depth-first ablation); the budget and depth limit still hold."""

    expanded: set[int] = field(default_factory=set)

    def is_completed(self, bfs_index: int) -> bool:
        return bfs_index in self.expanded

    def complete(self, bfs_index: int, children: Iterable[str], also_seen: Iterable[str] = (),
                 template: str = "") -> list[Admission]:
        if not 0 <= bfs_index < len(self.admitted):
            raise ValueError(f"page {bfs_index} was never admitted")
        if bfs_index in self.expanded:
            return []
        self.expanded.add(bfs_index)
        self.pending[bfs_index] = (list(children), list(also_seen), template)
        released = self._expand(bfs_index)
        while self.next_to_expand in self.expanded:
            self.next_to_expand += 1
        return released


class DepthFirstFrontierMiddleware(FrontierMiddleware):
    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DepthFirstFrontierMiddleware:
        config = BaraConfig.from_crawler(crawler)
        bfs = DepthFirstFrontier(max_depth=config.max_depth, max_pages=config.max_pages)
        return cls(crawler, config, LocalFrontier(crawler, config, bfs))


class NoScrollMiddleware:
    """Downloader middleware after `BrowserMiddleware`: the browser never scrolls, in any attempt.

    Only the browser's copy of the plan changes: the page state (and so the
    attempt history reflection reads) keeps the plan as written.
    """

    def process_request(self, request: Request) -> None:
        if page_state(request) is None:
            return
        methods = request.meta.get("playwright_page_methods") or []
        request.meta["playwright_page_methods"] = [
            PageMethod(explore, {**m.args[0], "scroll_steps": 0}) if m.method is explore else m for m in methods
        ]
