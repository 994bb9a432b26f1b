"""Per-page state shared by the route guard (`route.py`) and the browser step (`render.py`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..snapshot import Fetched, NetworkEntry


@dataclass(frozen=True)
class RenderOptions:
    """What the browser step needs from the crawl's `BaraConfig`: the same for every page.

    `BrowserMiddleware` builds it once per crawl and binds it to the init callback (`render.init_page`).
    """

    seed: str  # canonical (`BaraConfig.seed_url`)
    scope: str
    page_timeout: float
    allow_private: bool
    block_offsite: bool
    pass_on: bool = False  # sub-requests the guard lets through go on to scrapy-playwright's request handler
    archive: bool = False  # keep the document's exchanges for the WARC (`PageSnapshot.fetched`)


@dataclass
class PageSession:
    """Per-page state gathered by event handlers while the page lives."""

    seed: str
    scope: str
    page_url: str
    allow_private: bool
    deadline: float
    block_offsite: bool = False
    pass_on: bool = False  # RenderOptions.pass_on
    archive: bool = False  # RenderOptions.archive: the route handler keeps the document's exchanges
    fetched: list[Fetched] = field(default_factory=list)
    network: list[NetworkEntry] = field(default_factory=list)
    pending: set[Any] = field(default_factory=set)  # this page's requests started and not finished
    requests_total: int = 0
    network_at: float = 0.0  # monotonic time a request last started or ended
    offsite_navigation: str | None = None  # the document left the scope (redirect, meta refresh, script)
    navigation_block: str | None = None  # why: offsite_redirect, ssrf_blocked, redirect_loop, navigation_error
    redirected_to: str | None = None  # the in-scope URL a document redirect chain ended at
    blocked_navigation: str | None = None  # the loaded page tried to navigate off scope (cancelled)
    dom_ready: bool = False
    # this page's document has committed: until then a reused tab still shows the previous page, and only the
    # navigation's own requests are this page's (`events.PageEvents`)
    committed: bool = False
    navigating: bool = False  # the navigation's own request was seen
    source_html: str = ""  # this page's document as served (the route handler's read, or `PageEvents`')
    source_url: str = ""  # the URL `source_html` was fetched from
    source_routed: bool = False  # the route handler served a document of this page (and read its source)
    source_task: Any = None
    blocked: int = 0
    errors: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # the page request's meta (page.DOCUMENT_ERROR_KEY)

    @property
    def inflight(self) -> int:
        return len(self.pending)

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def network_quiet_ms(self) -> float:
        return (time.monotonic() - self.network_at) * 1000

    def leave(self, url: str, reason: str | None) -> None:
        """Record the first navigation that left the scope (or was refused) before the page loaded."""
        if self.offsite_navigation is None:
            self.offsite_navigation, self.navigation_block = url, reason
