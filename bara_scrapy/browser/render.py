"""The browser step of one attempt: guard the page, reveal lazy content, collect.

scrapy-playwright navigates; `init_page` runs before navigation (network log,
navigation/SSRF guard, dialogs, pop-ups) and `explore` runs after it as a
`PageMethod`, under the page's hard deadline. `explore` returns a
`PageSnapshot` as a plain dict; if the deadline fires, the snapshot holds what
the last collection before it found (`deadline_hit` says so: the attempt is a
`timeout` with partial output), or, with nothing collected yet, it raises
`PageTimeoutError` and scrapy-playwright closes the page.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from scrapy import Request

from ..extraction.static import snapshot_from_html
from ..instructions import Instructions
from ..snapshot import Markers, PageSnapshot
from ..urls import in_scope
from .events import PageEvents
from .guard import GuardPolicy
from .reveal import Accumulator, reveal
from .route import make_route_handler
from .session import PageSession, RenderOptions
from .timers_js import TIMERS_JS

CONTENT_GRACE = 5.0  # the final DOM read (page.content) may take what is left of the deadline plus this
# what `page.content()` returns (Playwright's `documentContent`), read in the page's own world: there
# Playwright's utility script is already loaded, while `page.content()` loads its 345 KB injected
# script into a second world of every new document (measured: about +3-5 % pages/min)
_CONTENT_JS = ("() => (document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '')"
               " + (document.documentElement ? document.documentElement.outerHTML : '')")
REDIRECT_STUB_CHARS = 200  # a page that navigates off scope with less text than this is a redirect


class PageTimeoutError(Exception):
    """The per-page hard deadline (BARA_PAGE_TIMEOUT) fired."""


_SESSIONS: weakref.WeakKeyDictionary[Page, PageSession] = weakref.WeakKeyDictionary()
_EVENTS: weakref.WeakKeyDictionary[Page, PageEvents] = weakref.WeakKeyDictionary()


def page_session(request: Request, options: RenderOptions) -> PageSession:
    """The page's session: the crawl's render options, this request's URL, a deadline from now."""
    return PageSession(
        seed=options.seed,
        scope=options.scope,
        page_url=request.url,
        allow_private=options.allow_private,
        deadline=time.monotonic() + options.page_timeout,
        block_offsite=options.block_offsite,
        pass_on=options.pass_on,
        archive=options.archive,
        meta=request.meta,
    )


async def init_page(page: Page, request: Request, options: RenderOptions) -> None:
    """scrapy-playwright page init callback: runs before each navigation, on a new or a reused tab.

    `BrowserMiddleware` binds `options` (`functools.partial`), built once from the crawl's config.

    A new tab gets the init script and the listeners once; every request gets a new
    session, and the guard is routed again so that it stays the newest route: Playwright
    tries the newest first, and scrapy-playwright routes `**` again on every request of
    a reused tab (its handler continues a request without passing it on).
    """
    session = page_session(request, options)
    _SESSIONS[page] = session
    page.__dict__.pop("content", None)  # the previous attempt's frozen `content` (see _freeze_content)
    events = _EVENTS.get(page)
    if events is None:
        await page.add_init_script(TIMERS_JS)
        events = _EVENTS[page] = PageEvents(session)
        events.attach(page)
    else:
        events.session = session
        await page.unroute("**/*")
    policy = GuardPolicy(session.seed, session.scope, session.allow_private, session.block_offsite)
    await page.route("**/*", make_route_handler(session, policy))


async def explore(page: Page, instructions: dict[str, Any]) -> dict[str, Any]:
    """PageMethod: carry out the attempt's instructions and return a snapshot dict."""
    session = _SESSIONS.get(page)
    if session is None:
        raise RuntimeError("bara page session missing: init_page did not run")
    snapshot, as_served = await _explore(page, session, Instructions.model_validate(instructions))
    html = session.source_html if as_served else await _read_dom(page, session)
    if html is not None:
        _freeze_content(page, html)
    return snapshot.model_dump()


def _as_served(session: PageSession) -> PageSnapshot | None:
    """The page read from its document as served, when it left after that document came (a script or meta
    refresh took it off scope while it loaded, answered with a blank page by `route`; a later navigation
    failed) and the document holds text of its own (≥ REDIRECT_STUB_CHARS): its DOM is gone. A redirect
    stub ("Moved: you are being redirected…") has less, and fails with the navigation's reason as before."""
    if not session.source_html:
        return None
    url = session.source_url or session.page_url
    snapshot = snapshot_from_html(session.page_url, url, 200, session.source_html)
    if len(snapshot.body_text.strip()) < REDIRECT_STUB_CHARS:
        return None
    snapshot.html = ""  # the middleware sets it from `page.content()`, frozen to the source (`explore`)
    snapshot.source_html = session.source_html
    snapshot.read_as_served = f"{session.navigation_block}: {(session.offsite_navigation or '')[:200]}"
    snapshot.errors = list(session.errors)
    snapshot.fetched = list(session.fetched)
    return snapshot


def _after_leaving(session: PageSession, left: PageSnapshot) -> tuple[PageSnapshot, bool]:
    """The page read as served when it can be (`_as_served`), else the snapshot saying where it went."""
    served = _as_served(session)
    return (served, True) if served is not None else (left, False)


async def _read_dom(page: Page, session: PageSession) -> str | None:
    """Read the DOM under the deadline (None while the page navigates: scrapy-playwright retries on its side)."""
    timeout = max(session.remaining(), 0.0) + CONTENT_GRACE
    try:
        return await asyncio.wait_for(_read_html(page), timeout=timeout)
    except TimeoutError:
        raise PageTimeoutError(f"page.content() did not answer within {timeout:.1f}s") from None
    except PlaywrightError:
        return None


def _freeze_content(page: Page, html: str) -> None:
    """Serve `html` to scrapy-playwright's own `page.content()`, which has no timeout (a page whose script
    never yields would hold it forever)."""

    async def frozen(**_: object) -> str:
        return html

    page.content = frozen  # type: ignore[method-assign]


async def _read_html(page: Page) -> str:
    """The document as `page.content()` serialises it; `page.content()` itself (Playwright's isolated
    world) when the page's world does not answer with a string (a page that replaced the serialiser)."""
    try:
        html = await page.evaluate(_CONTENT_JS)
    except PlaywrightError:
        html = None
    return html if isinstance(html, str) else await page.content()


def _left(page: Page, session: PageSession, snapshot: PageSnapshot) -> bool:
    if session.offsite_navigation or not in_scope(page.url, session.seed, session.scope):
        snapshot.offsite_navigation = session.offsite_navigation or page.url
        snapshot.navigation_block = session.navigation_block or "offsite_redirect"
        return True
    return False


async def _reveal_and_collect(page: Page, session: PageSession, ins: Instructions,
                              acc: Accumulator) -> tuple[int, bool, dict[str, Any]]:
    started = time.monotonic()
    try:
        steps, truncated, current = await asyncio.wait_for(reveal(page, session, ins, acc),
                                                           timeout=max(session.remaining(), 0.1))
        if current:
            return steps, truncated, acc.last
        final = await asyncio.wait_for(acc.collect(page), timeout=max(session.remaining(), 2.0))
    except TimeoutError:
        reason = f"page timeout exceeded: hard deadline hit after {time.monotonic() - started:.1f}s"
        if not acc.last:
            raise PageTimeoutError(reason) from None
        acc.deadline_hit = f"{reason}; returned what was collected before it"
        return acc.steps, True, acc.last
    return steps, truncated, final


def _redirect_stub(session: PageSession, snapshot: PageSnapshot, final: dict[str, Any]) -> bool:
    """The page tried to navigate off scope: with nothing of its own to read it is a script/meta redirect."""
    if not session.blocked_navigation:
        return False
    if len(final.get("body_text", "").strip()) < REDIRECT_STUB_CHARS:
        snapshot.offsite_navigation = session.blocked_navigation
        snapshot.navigation_block = "offsite_redirect"
        return True
    session.errors.append(f"blocked off-scope navigation to {session.blocked_navigation[:200]}")
    return False


def _fill(page: Page, session: PageSession, ins: Instructions, snapshot: PageSnapshot,
          acc: Accumulator, final: dict[str, Any]) -> None:
    # a redirect chain followed in the route handler ends at `redirected_to` (page.url follows it when same-origin)
    snapshot.final_url = session.redirected_to if page.url == session.page_url and session.redirected_to else page.url
    snapshot.title = final.get("title", "")
    snapshot.body_text = final.get("body_text", "")
    snapshot.links = list(final.get("links", []))
    snapshot.candidates = list(acc.candidates.values())
    snapshot.network = list(session.network) if ins.capture_network else []
    snapshot.markers = Markers.model_validate(final.get("markers", {}))
    if acc.feed_done:  # the sentinel of a feed that stopped answering is markup left behind, not more to load
        snapshot.markers.feed_sentinel = False
    snapshot.blocked_requests = session.blocked
    snapshot.errors = list(session.errors)
    snapshot.fetched = list(session.fetched)


async def _source_html(session: PageSession) -> str:
    if session.source_task is not None:
        try:
            await asyncio.wait_for(asyncio.shield(session.source_task), timeout=max(min(session.remaining(), 2.0), 0.1))
        except TimeoutError:
            pass
    return session.source_html


async def _explore(page: Page, session: PageSession, ins: Instructions) -> tuple[PageSnapshot, bool]:
    """The attempt's snapshot, and whether it was read from the document as served (`_as_served`)."""
    started = time.monotonic()
    snapshot = PageSnapshot(url=session.page_url, final_url=page.url)
    if _left(page, session, snapshot):
        return _after_leaving(session, snapshot)
    acc = Accumulator()
    steps, truncated, final = await _reveal_and_collect(page, session, ins, acc)
    if _left(page, session, snapshot):
        return _after_leaving(session, snapshot)
    if _redirect_stub(session, snapshot, final):
        return snapshot, False
    _fill(page, session, ins, snapshot, acc, final)
    snapshot.scroll_steps = steps
    snapshot.scroll_truncated = truncated
    snapshot.deadline_hit = acc.deadline_hit
    snapshot.source_html = await _source_html(session)
    snapshot.seconds = round(time.monotonic() - started, 3)
    return snapshot, False
