"""The browser step of one attempt: guard the page, reveal lazy content, collect.

scrapy-playwright navigates; `init_page` runs before navigation (network log,
navigation/SSRF guard, dialogs, pop-ups) and `explore` runs after it as a
`PageMethod`, under the page's hard deadline. `explore` returns a
`PageSnapshot` as a plain dict; if the deadline fires it raises
`PageTimeoutError` and scrapy-playwright closes the page.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import Request as PWRequest
from playwright.async_api import Response as PWResponse
from scrapy import Request

from ..instructions import Instructions
from ..snapshot import Markers, NetworkEntry, PageSnapshot, RawCandidate
from ..urls import in_scope
from .collect_js import COLLECT_JS
from .guard import GuardPolicy
from .route import make_route_handler
from .session import PageSession
from .timers_js import TIMERS_JS

logger = logging.getLogger(__name__)

TIMER_WAIT_MS = 4000  # longest wait for pending short timers (see timers_js.py)
MEDIA_SUFFIXES = (".m3u8", ".mpd", ".mp4", ".m4v", ".webm", ".mov", ".ogv", ".ts")
MAX_NETWORK_ENTRIES = 3000
MAX_CLICKS = 30
MAX_OVERLAY_PASSES = 3
MAX_SOURCE_BYTES = 3_000_000
CONTENT_GRACE = 5.0  # the final DOM read (page.content) may take what is left of the deadline plus this
REDIRECT_STUB_CHARS = 200  # a page that navigates off scope with less text than this is a redirect


class PageTimeoutError(Exception):
    """The per-page hard deadline (BARA_PAGE_TIMEOUT) fired."""


_SESSIONS: weakref.WeakKeyDictionary[Page, PageSession] = weakref.WeakKeyDictionary()


def _is_main_frame(req: PWRequest) -> bool:
    try:
        return req.frame.parent_frame is None
    except PlaywrightError:
        return False


def _media_like(url: str, resource_type: str, content_type: str) -> bool:
    if resource_type in ("image", "media"):
        return True
    ctype = content_type.lower()
    if ctype.startswith(("image/", "video/")) or "mpegurl" in ctype or "dash+xml" in ctype:
        return True
    return urlsplit(url).path.lower().endswith(MEDIA_SUFFIXES)


async def init_page(page: Page, request: Request) -> None:
    """scrapy-playwright page init callback: runs before navigation."""
    state = request.meta["bara"]  # bara_scrapy.page.PageState
    options = state.render or {}
    session = PageSession(
        seed=state.seed,
        scope=state.scope,
        page_url=request.url,
        allow_private=bool(options.get("allow_private", False)),
        deadline=time.monotonic() + float(options.get("page_timeout", 30.0)),
        block_offsite=bool(options.get("block_offsite", False)),
    )
    _SESSIONS[page] = session

    def on_request(req: PWRequest) -> None:
        session.inflight += 1
        session.requests_total += 1
        # A redirect off scope is not routed: notice it here so the off-scope
        # document's sub-resources are aborted by `guard`.
        main = _is_main_frame(req)
        redirected = req.redirected_from is not None
        if req.is_navigation_request() and main and redirected and not in_scope(req.url, session.seed, session.scope):
            session.offsite_navigation = session.offsite_navigation or req.url

    def on_done(_: PWRequest) -> None:
        session.inflight = max(0, session.inflight - 1)

    async def keep_source(response: PWResponse) -> None:
        try:
            body = await response.body()
        except PlaywrightError:
            return
        if len(body) <= MAX_SOURCE_BYTES:
            session.source_html = body.decode("utf-8", errors="replace")

    def on_response(response: PWResponse) -> None:
        req = response.request
        if req.resource_type == "document" and response.status == 200 and _is_main_frame(req):
            # the document as served, for text a script removed after load (see DomExtractor)
            session.source_task = asyncio.ensure_future(keep_source(response))
        if len(session.network) >= MAX_NETWORK_ENTRIES:
            return
        ctype = response.headers.get("content-type", "")
        if _media_like(response.url, req.resource_type, ctype):
            session.network.append(
                NetworkEntry(
                    url=response.url, resource_type=req.resource_type, status=response.status, content_type=ctype
                )
            )

    await page.add_init_script(TIMERS_JS)
    policy = GuardPolicy(session.seed, session.scope, session.allow_private, session.block_offsite)
    await page.route("**/*", make_route_handler(session, policy))
    page.on("request", on_request)
    page.on("requestfinished", on_done)
    page.on("requestfailed", on_done)
    page.on("response", on_response)
    page.on("domcontentloaded", lambda _: setattr(session, "dom_ready", True))
    page.on("dialog", lambda dialog: asyncio.ensure_future(_quietly(dialog.dismiss())))
    page.on("popup", lambda popup: asyncio.ensure_future(_quietly(popup.close())))


async def _quietly(coro: Any) -> None:
    try:
        await coro
    except PlaywrightError:
        pass


def _remaining(session: PageSession) -> float:
    return session.remaining()


async def _pause(page: Page, session: PageSession, ms: int) -> None:
    ms = int(min(ms, max(_remaining(session), 0) * 1000))
    if ms > 0:
        await page.wait_for_timeout(ms)


async def _pending_timers(page: Page) -> int:
    try:
        count = await page.evaluate("() => (window.__baraPendingTimers ? window.__baraPendingTimers() : 0)")
    except PlaywrightError:
        return 0
    return int(count or 0)


async def _settle(page: Page, session: PageSession, ms: int, timers: bool = False) -> None:
    """Wait until no request is in flight for a short quiet period, at most `ms`.

    With `timers`, a page that still has short timers pending (content due
    in a moment: `setTimeout(render, 1500)`) is waited for up to TIMER_WAIT_MS.
    """
    started = time.monotonic()
    end = started + ms / 1000
    hard_end = started + max(ms, TIMER_WAIT_MS if timers else 0) / 1000
    quiet = 0
    while time.monotonic() < hard_end and _remaining(session) > 0.5:
        if session.inflight == 0:
            quiet += 1
            if quiet >= 3 and (not timers or await _pending_timers(page) == 0):
                return
        else:
            quiet = 0
        if time.monotonic() >= end and not timers:
            return
        await page.wait_for_timeout(50)


async def _collect(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(COLLECT_JS)
    return result


class _Accumulator:
    """Union of DOM candidates over every collection, in first-seen order."""

    def __init__(self) -> None:
        self.candidates: dict[tuple[str, str], RawCandidate] = {}
        self.last: dict[str, Any] = {}

    def add(self, collected: dict[str, Any]) -> None:
        self.last = collected
        for raw in collected.get("candidates", []):
            cand = RawCandidate.model_validate(raw)
            self.candidates.setdefault((cand.url, cand.found_in), cand)


async def _click(page: Page, session: PageSession, handle: str) -> bool:
    if _remaining(session) < 1:
        return False
    try:
        loc = page.locator(handle).first
        if await loc.count() == 0:
            return False
        await loc.click(timeout=min(2000, max(_remaining(session) - 0.5, 0.1) * 1000), no_wait_after=True)
        return True
    except PlaywrightError as exc:
        session.errors.append(f"click failed: {type(exc).__name__}")
        return False


# [page height, bottom edge of the viewport]; the step scrolls one viewport (90%) first
_POSITION_JS = (
    "() => { const d = document.scrollingElement || document.documentElement;"
    " return [d.scrollHeight, window.scrollY + window.innerHeight]; }"
)
_SCROLL_STEP_JS = (
    "() => { window.scrollBy(0, Math.round(window.innerHeight * 0.9));"
    " const d = document.scrollingElement || document.documentElement;"
    " return [d.scrollHeight, window.scrollY + window.innerHeight]; }"
)


async def _scroll(page: Page, session: PageSession, ins: Instructions, acc: _Accumulator) -> tuple[int, bool]:
    """Incremental viewport steps; stop when height and network are stable at the bottom."""
    steps = 0
    stable = 0
    last_height = -1
    requests_seen = -1
    if ins.scroll_steps == 0:  # not scrolling is a choice, not evidence of a truncated page
        return 0, False
    for _ in range(ins.scroll_steps):
        if _remaining(session) < 1.5:
            return steps, True
        state = await page.evaluate(_SCROLL_STEP_JS)
        steps += 1
        await _pause(page, session, ins.scroll_pause_ms)
        height, bottom = int(state[0]), float(state[1])
        # collect again only when the page grew or fetched something (lazy media, feeds)
        if height != last_height or session.requests_total != requests_seen or not acc.last:
            requests_seen = session.requests_total
            acc.add(await _collect(page))
        at_bottom = bottom >= height - 2
        # an infinite-scroll sentinel still on the page means the feed may not be done
        sentinel = bool(acc.last.get("markers", {}).get("feed_sentinel"))
        if at_bottom and height == last_height and session.inflight == 0 and not sentinel:
            stable += 1
            if stable >= 2:
                return steps, False
        else:
            stable = 0
        last_height = height
    height_now, bottom_now = await page.evaluate(_POSITION_JS)
    at_end = float(bottom_now) >= int(height_now) - 2
    sentinel = bool(acc.last.get("markers", {}).get("feed_sentinel"))
    return steps, sentinel or not (at_end and int(height_now) == last_height)


def _controls(collected: dict[str, Any], role: str) -> list[str]:
    return [c["handle"] for c in collected.get("markers", {}).get("controls", []) if c.get("role") == role]


async def _dismiss_overlays(page: Page, session: PageSession, acc: _Accumulator) -> None:
    """Close overlays until none offers a close control (stacked banners), at most 3 passes."""
    tried: set[str] = set()
    for _ in range(MAX_OVERLAY_PASSES):
        collected = await _collect(page)
        acc.add(collected)
        handles = [h for h in _controls(collected, "overlay_close") if h not in tried]
        if not handles:
            return
        for handle in handles:
            tried.add(handle)
            await _click(page, session, handle)
        await _settle(page, session, 300)


async def _click_controls(page: Page, session: PageSession, ins: Instructions, acc: _Accumulator) -> None:
    """Click each named control once; repeat only those that still read as load-more."""
    clicks = 0
    handles = list(ins.click_handles)
    for round_no in range(max(1, ins.click_rounds)):
        for handle in handles:
            if clicks >= MAX_CLICKS or not await _click(page, session, handle):
                continue
            clicks += 1
            await _settle(page, session, max(ins.scroll_pause_ms, 300))
        collected = await _collect(page)
        acc.add(collected)
        if round_no == 0:
            load_more = set(_controls(collected, "load_more"))
            handles = [h for h in handles if h in load_more]  # tabs/accordions: once
        if not handles:
            return


async def _reveal(page: Page, session: PageSession, ins: Instructions, acc: _Accumulator) -> tuple[int, bool]:
    try:  # `load` may never fire (long-polling, endless resources): wait a bounded time only
        await page.wait_for_load_state("load", timeout=max(min(5.0, _remaining(session) - 2), 0.1) * 1000)
    except PlaywrightError:
        session.errors.append("load event not reached")
    if ins.wait_for_selector and _remaining(session) > 1:
        try:
            wait_ms = min(max(5000, 2 * ins.settle_ms), (_remaining(session) - 1) * 1000)
            await page.wait_for_selector(ins.wait_for_selector, timeout=wait_ms)
        except PlaywrightError:
            session.errors.append("wait_for_selector timed out")
    await _settle(page, session, ins.settle_ms, timers=True)
    if ins.dismiss_overlays:
        await _dismiss_overlays(page, session, acc)
    if ins.click_handles:
        await _click_controls(page, session, ins, acc)
    steps, truncated = await _scroll(page, session, ins, acc)
    await _settle(page, session, ins.settle_ms)
    return steps, truncated


async def explore(page: Page, instructions: dict[str, Any]) -> dict[str, Any]:
    """PageMethod: carry out the attempt's instructions and return a snapshot dict."""
    session = _SESSIONS.get(page)
    if session is None:
        raise RuntimeError("bara page session missing: init_page did not run")
    snapshot = await _explore(page, session, Instructions.model_validate(instructions))
    await _freeze_content(page, session)
    return snapshot.model_dump()


async def _freeze_content(page: Page, session: PageSession) -> None:
    """Read the DOM under the deadline, and serve that copy to scrapy-playwright's own `page.content()`,
    which has no timeout (a page whose script never yields would hold it forever)."""
    timeout = max(session.remaining(), 0.0) + CONTENT_GRACE
    try:
        html = await asyncio.wait_for(page.content(), timeout=timeout)
    except TimeoutError:
        raise PageTimeoutError(f"page.content() did not answer within {timeout:.1f}s") from None
    except PlaywrightError:
        return  # navigating: scrapy-playwright retries on its side

    async def frozen(**_: object) -> str:
        return html

    page.content = frozen  # type: ignore[method-assign]


def _left(page: Page, session: PageSession, snapshot: PageSnapshot) -> bool:
    if session.offsite_navigation or not in_scope(page.url, session.seed, session.scope):
        snapshot.offsite_navigation = session.offsite_navigation or page.url
        snapshot.navigation_block = session.navigation_block or "offsite_redirect"
        return True
    return False


async def _explore(page: Page, session: PageSession, ins: Instructions) -> PageSnapshot:
    started = time.monotonic()
    snapshot = PageSnapshot(url=session.page_url, final_url=page.url)
    if _left(page, session, snapshot):
        return snapshot
    acc = _Accumulator()
    try:
        steps, truncated = await asyncio.wait_for(
            _reveal(page, session, ins, acc), timeout=max(_remaining(session), 0.1)
        )
        final = await asyncio.wait_for(_collect(page), timeout=max(_remaining(session), 2.0))
    except TimeoutError:
        raise PageTimeoutError(
            f"page timeout exceeded: hard deadline hit after {time.monotonic() - started:.1f}s"
        ) from None
    acc.add(final)
    if _left(page, session, snapshot):
        return snapshot
    if session.blocked_navigation:
        if len(final.get("body_text", "").strip()) < REDIRECT_STUB_CHARS:
            # nothing of its own to read: the page is a script/meta redirect off scope
            snapshot.offsite_navigation = session.blocked_navigation
            snapshot.navigation_block = "offsite_redirect"
            return snapshot
        session.errors.append(f"blocked off-scope navigation to {session.blocked_navigation[:200]}")
    # a redirect chain followed in the route handler ends at `redirected_to` (page.url follows it when same-origin)
    snapshot.final_url = session.redirected_to if page.url == session.page_url and session.redirected_to else page.url
    snapshot.title = final.get("title", "")
    snapshot.body_text = final.get("body_text", "")
    snapshot.links = list(final.get("links", []))
    snapshot.candidates = list(acc.candidates.values())
    snapshot.network = list(session.network) if ins.capture_network else []
    snapshot.markers = Markers.model_validate(final.get("markers", {}))
    snapshot.scroll_steps = steps
    snapshot.scroll_truncated = truncated
    snapshot.blocked_requests = session.blocked
    snapshot.errors = list(session.errors)
    if session.source_task is not None:
        try:
            await asyncio.wait_for(asyncio.shield(session.source_task), timeout=max(min(_remaining(session), 2.0), 0.1))
        except TimeoutError:
            pass
    snapshot.source_html = session.source_html
    snapshot.seconds = round(time.monotonic() - started, 3)
    return snapshot
