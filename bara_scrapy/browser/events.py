"""Page event listeners: in-flight counter, media network log, the document as served.

One `PageEvents` per page, attached before navigation by `render.init_page`;
it writes into the page's `PageSession` and nothing else.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page
from playwright.async_api import Request as PWRequest
from playwright.async_api import Response as PWResponse

from ..snapshot import NetworkEntry
from ..urls import in_scope
from .session import PageSession

MEDIA_SUFFIXES = (".m3u8", ".mpd", ".mp4", ".m4v", ".webm", ".mov", ".ogv", ".ts")
MAX_NETWORK_ENTRIES = 3000
MAX_SOURCE_BYTES = 3_000_000


def is_main_frame(req: PWRequest) -> bool:
    try:
        return req.frame.parent_frame is None
    except PlaywrightError:
        return False


def media_like(url: str, resource_type: str, content_type: str) -> bool:
    """Whether a response looks like media (kept in the network log).

    >>> media_like("https://a/v.m3u8?x=1", "xhr", ""), media_like("https://a/x.js", "script", "text/javascript")
    (True, False)
    """
    if resource_type in ("image", "media"):
        return True
    ctype = content_type.lower()
    if ctype.startswith(("image/", "video/")) or "mpegurl" in ctype or "dash+xml" in ctype:
        return True
    return urlsplit(url).path.lower().endswith(MEDIA_SUFFIXES)


async def quietly(coro: Any) -> None:
    try:
        await coro
    except PlaywrightError:
        pass


class PageEvents:
    """The listeners of one page."""

    def __init__(self, session: PageSession) -> None:
        self.session = session

    def attach(self, page: Page) -> None:
        page.on("framenavigated", self.on_navigated)
        page.on("request", self.on_request)
        page.on("requestfinished", self.on_done)
        page.on("requestfailed", self.on_done)
        page.on("response", self.on_response)
        page.on("domcontentloaded", self.on_dom_ready)
        page.on("dialog", lambda dialog: asyncio.ensure_future(quietly(dialog.dismiss())))
        page.on("popup", lambda popup: asyncio.ensure_future(quietly(popup.close())))

    def on_navigated(self, frame: Frame) -> None:
        if self.session.navigating and frame.parent_frame is None:
            self.session.committed = True

    def mine(self, req: PWRequest) -> bool:
        """A request of this page's document: a pooled tab is not reset between pages, so until the new
        document commits, any request but the navigation's own comes from the previous page."""
        session = self.session
        if session.committed:
            return True
        if req.is_navigation_request() and is_main_frame(req):
            session.navigating = True
            return True
        return False

    def on_request(self, req: PWRequest) -> None:
        if not self.mine(req):
            return
        session = self.session
        session.pending.add(req)
        session.requests_total += 1
        session.network_at = time.monotonic()
        # A redirect off scope is not routed: notice it here so the off-scope
        # document's sub-resources are aborted by `guard`.
        if req.redirected_from is None or not req.is_navigation_request() or not is_main_frame(req):
            return
        if not in_scope(req.url, session.seed, session.scope):
            session.offsite_navigation = session.offsite_navigation or req.url

    def on_done(self, req: PWRequest) -> None:
        if req in self.session.pending:  # not a request of the tab's previous page
            self.session.pending.discard(req)
            self.session.network_at = time.monotonic()

    def on_dom_ready(self, _: Page) -> None:
        self.session.dom_ready = True

    def on_response(self, response: PWResponse) -> None:
        req = response.request
        if not self.session.committed and req not in self.session.pending:
            return  # the previous page's
        if req.resource_type == "document" and response.status == 200 and is_main_frame(req) \
                and not self.session.source_routed:  # else the route handler read it
            # the document as served, for text a script removed after load (see DomExtractor)
            self.session.source_task = asyncio.ensure_future(self.keep_source(response))
        if len(self.session.network) >= MAX_NETWORK_ENTRIES:
            return
        ctype = response.headers.get("content-type", "")
        if media_like(response.url, req.resource_type, ctype):
            entry = NetworkEntry(url=response.url, resource_type=req.resource_type, status=response.status,
                                 content_type=ctype)
            self.session.network.append(entry)

    async def keep_source(self, response: PWResponse) -> None:
        session = self.session  # the tab may serve the next page by the time the body is here
        try:
            body = await response.body()
        except PlaywrightError:
            return
        if len(body) <= MAX_SOURCE_BYTES:
            session.source_html, session.source_url = body.decode("utf-8", errors="replace"), response.url
