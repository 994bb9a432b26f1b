"""Reveal lazy content: wait for load, dismiss overlays, click controls, scroll."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ..instructions import Instructions
from ..snapshot import RawCandidate
from .collect_js import COLLECT_JS
from .session import PageSession
from .waits import pause, settle

MAX_CLICKS = 30
MAX_OVERLAY_PASSES = 3

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


async def collect(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(COLLECT_JS)
    return result


class Accumulator:
    """Union of DOM candidates over every collection, in first-seen order."""

    def __init__(self) -> None:
        self.candidates: dict[tuple[str, str], RawCandidate] = {}
        self.last: dict[str, Any] = {}

    def add(self, collected: dict[str, Any]) -> None:
        self.last = collected
        for raw in collected.get("candidates", []):
            cand = RawCandidate.model_validate(raw)
            self.candidates.setdefault((cand.url, cand.found_in), cand)

    @property
    def sentinel(self) -> bool:
        """An infinite-scroll sentinel still on the page: the feed may not be done."""
        return bool(self.last.get("markers", {}).get("feed_sentinel"))


async def click(page: Page, session: PageSession, handle: str) -> bool:
    if session.remaining() < 1:
        return False
    try:
        loc = page.locator(handle).first
        if await loc.count() == 0:
            return False
        await loc.click(timeout=min(2000, max(session.remaining() - 0.5, 0.1) * 1000), no_wait_after=True)
        return True
    except PlaywrightError as exc:
        session.errors.append(f"click failed: {type(exc).__name__}")
        return False


async def scroll(page: Page, session: PageSession, ins: Instructions, acc: Accumulator) -> tuple[int, bool]:
    """Incremental viewport steps; stop when height and network are stable at the bottom."""
    steps = 0
    stable = 0
    last_height = -1
    requests_seen = -1
    if ins.scroll_steps == 0:  # not scrolling is a choice, not evidence of a truncated page
        return 0, False
    for _ in range(ins.scroll_steps):
        if session.remaining() < 1.5:
            return steps, True
        state = await page.evaluate(_SCROLL_STEP_JS)
        steps += 1
        await pause(page, session, ins.scroll_pause_ms)
        height, bottom = int(state[0]), float(state[1])
        # collect again only when the page grew or fetched something (lazy media, feeds)
        if height != last_height or session.requests_total != requests_seen or not acc.last:
            requests_seen = session.requests_total
            acc.add(await collect(page))
        at_bottom = bottom >= height - 2
        if at_bottom and height == last_height and session.inflight == 0 and not acc.sentinel:
            stable += 1
            if stable >= 2:
                return steps, False
        else:
            stable = 0
        last_height = height
    height_now, bottom_now = await page.evaluate(_POSITION_JS)
    at_end = float(bottom_now) >= int(height_now) - 2
    return steps, acc.sentinel or not (at_end and int(height_now) == last_height)


def _controls(collected: dict[str, Any], role: str) -> list[str]:
    return [c["handle"] for c in collected.get("markers", {}).get("controls", []) if c.get("role") == role]


async def dismiss_overlays(page: Page, session: PageSession, acc: Accumulator) -> None:
    """Close overlays until none offers a close control (stacked banners), at most 3 passes."""
    tried: set[str] = set()
    for _ in range(MAX_OVERLAY_PASSES):
        collected = await collect(page)
        acc.add(collected)
        handles = [h for h in _controls(collected, "overlay_close") if h not in tried]
        if not handles:
            return
        for handle in handles:
            tried.add(handle)
            await click(page, session, handle)
        await settle(page, session, 300)


async def click_controls(page: Page, session: PageSession, ins: Instructions, acc: Accumulator) -> None:
    """Click each named control once; repeat only those that still read as load-more."""
    clicks = 0
    handles = list(ins.click_handles)
    for round_no in range(max(1, ins.click_rounds)):
        for handle in handles:
            if clicks >= MAX_CLICKS or not await click(page, session, handle):
                continue
            clicks += 1
            await settle(page, session, max(ins.scroll_pause_ms, 300))
        collected = await collect(page)
        acc.add(collected)
        if round_no == 0:
            load_more = set(_controls(collected, "load_more"))
            handles = [h for h in handles if h in load_more]  # tabs/accordions: once
        if not handles:
            return


async def _wait_loaded(page: Page, session: PageSession, ins: Instructions) -> None:
    try:  # `load` may never fire (long-polling, endless resources): wait a bounded time only
        await page.wait_for_load_state("load", timeout=max(min(5.0, session.remaining() - 2), 0.1) * 1000)
    except PlaywrightError:
        session.errors.append("load event not reached")
    if ins.wait_for_selector and session.remaining() > 1:
        try:
            wait_ms = min(max(5000, 2 * ins.settle_ms), (session.remaining() - 1) * 1000)
            await page.wait_for_selector(ins.wait_for_selector, timeout=wait_ms)
        except PlaywrightError:
            session.errors.append("wait_for_selector timed out")


async def reveal(page: Page, session: PageSession, ins: Instructions, acc: Accumulator) -> tuple[int, bool]:
    """Everything before the final collection; returns (scroll steps, scroll truncated)."""
    await _wait_loaded(page, session, ins)
    await settle(page, session, ins.settle_ms, timers=True)
    if ins.dismiss_overlays:
        await dismiss_overlays(page, session, acc)
    if ins.click_handles:
        await click_controls(page, session, ins, acc)
    steps, truncated = await scroll(page, session, ins, acc)
    await settle(page, session, ins.settle_ms)
    return steps, truncated
