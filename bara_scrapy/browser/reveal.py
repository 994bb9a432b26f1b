"""Reveal lazy content: wait for load, dismiss overlays, click controls, scroll."""

from __future__ import annotations

import time
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ..instructions import Instructions
from ..snapshot import RawCandidate
from .collect_js import COLLECT_JS
from .session import PageSession
from .waits import PageProgress, page_progress, progress_of, settle, unchanged_since

MAX_CLICKS = 30
# a click waits for its target to be actionable; a busy CPU makes that slow (2 s was not enough under load)
CLICK_TIMEOUT_S = 5.0
MAX_OVERLAY_PASSES = 3

SCROLL_RESERVE_S = 3.0  # deadline kept for scrolling when the waits before it run long (a busy CPU)
MIN_STEP_S = 0.3  # a scroll step is started only with at least this (or 1.5 x the last step) left
# steps at a quiet bottom after which a feed sentinel that nothing answers (no request, no growth, no new
# candidate) is left-over markup of a finished feed, not a feed still loading
FEED_IDLE_STEPS = 3

# the end of a step: two animation frames and a task so that IntersectionObservers (lazy images, feed
# sentinels; their callbacks are tasks queued by a frame) have run; returns the page's reading then and the
# step's duration (ms, from `t0`)
_STEP_END = (
    " await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));"
    " return [window.__baraState ? window.__baraState() : null, performance.now() - t0]; }"
)
# one viewport step (90%)
SCROLL_STEP_JS = (
    "async () => { const t0 = performance.now(); window.scrollBy(0, Math.round(window.innerHeight * 0.9));"
    + _STEP_END
)

# at the bottom where a feed sentinel stays: out of view (two viewports up, beyond an observer's usual
# root margin) for two frames, then back, then as a step. An IntersectionObserver calls back only when an
# element crosses into or out of view: a sentinel that a batch pushed down and a step brought back within
# one frame never left it for the observer, and a feed that ignored a callback while busy waits for the next
# crossing. A reader scrolling up and down again gives it one.
REVISIT_STEP_JS = (
    "async () => { const t0 = performance.now(), y = window.scrollY;"
    " window.scrollTo(0, Math.max(0, y - 2 * window.innerHeight));"
    " await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); window.scrollTo(0, y);"
    + _STEP_END
)


class Accumulator:
    """Union of DOM candidates over every collection, in first-seen order."""

    def __init__(self) -> None:
        self.candidates: dict[tuple[str, str], RawCandidate] = {}
        self.last: dict[str, Any] = {}
        self.taken_at = 0.0  # monotonic time the last collection was asked for
        self.touched_at = 0.0  # ... and the page was last scrolled or clicked
        self.feed_done = False  # the sentinel stayed, but FEED_IDLE_STEPS steps brought nothing (`scroll`)
        self.steps = 0  # scroll steps taken, for a reveal the hard deadline cut short
        self.deadline_hit: str | None = None  # set when it did (`render._reveal_and_collect`)

    async def collect(self, page: Page) -> dict[str, Any]:
        started = time.monotonic()
        collected: dict[str, Any] = await page.evaluate(COLLECT_JS)
        self.add(collected)
        self.taken_at = started
        return collected

    def touched(self) -> None:
        self.touched_at = time.monotonic()

    def untouched(self) -> bool:
        """There is a collection, taken after the page was last scrolled or clicked."""
        return bool(self.last) and self.taken_at > self.touched_at

    def current(self, state: PageProgress) -> bool:
        """The last collection is the page as it is now: untouched since, and the DOM has not changed since it
        was asked for (`state`, read after it: quiet for longer than the collection's age)."""
        age_ms = (time.monotonic() - self.taken_at) * 1000
        return self.untouched() and still_current(state, age_ms)

    def add(self, collected: dict[str, Any]) -> None:
        self.last = collected
        for raw in collected.get("candidates", []):
            cand = RawCandidate.model_validate(raw)
            kept = self.candidates.setdefault((cand.url, cand.found_in), cand)
            if kept.furniture and not cand.furniture:  # also shown outside the furniture: the page's own
                self.candidates[(cand.url, cand.found_in)] = kept.model_copy(update={"furniture": False})

    @property
    def sentinel(self) -> bool:
        """An infinite-scroll sentinel still on the page: the feed may not be done (unless `feed_done`)."""
        return bool(self.last.get("markers", {}).get("feed_sentinel")) and not self.feed_done


async def click(page: Page, session: PageSession, handle: str) -> bool:
    if session.remaining() < 1:
        return False
    try:
        loc = page.locator(handle).first
        if await loc.count() == 0:
            return False
        await loc.click(timeout=min(CLICK_TIMEOUT_S, max(session.remaining() - 0.5, 0.1)) * 1000, no_wait_after=True)
        return True
    except PlaywrightError as exc:
        session.errors.append(f"click failed: {type(exc).__name__}")
        return False


def still_current(state: PageProgress, age_ms: float) -> bool:
    """A collection `age_ms` old still holds: no DOM change since (the reading came after it) and no image
    near the viewport loading; not when the reading is empty (no init script).

    >>> quiet, busy = PageProgress(dom_quiet_ms=350.0, viewport=720), PageProgress(dom_quiet_ms=80.0, viewport=720)
    >>> still_current(quiet, 120.0), still_current(busy, 120.0)
    (True, False)
    >>> still_current(PageProgress(dom_quiet_ms=350.0, loading_images=1, viewport=720), 120.0)
    False
    >>> still_current(PageProgress(), 0.0)
    False
    """
    return state.viewport > 0 and state.dom_quiet_ms >= age_ms and state.loading_images == 0


def needs_scroll(state: PageProgress, markers: dict[str, Any], scroll_all: bool = False) -> bool:
    """Whether a scroll could reveal anything: lazy placeholders with no URL, a feed sentinel, or a
    document taller than the viewport where a scroll sets something off (`scroll_hooks`: observed
    elements out of view whose URL is not in the DOM yet, scroll listeners; -1 when unknown).
    With `scroll_all`, every tall document is scrolled.

    >>> fits = PageProgress(height=700, bottom=720.0, viewport=720)
    >>> tall = PageProgress(height=2000, bottom=720.0, viewport=720)
    >>> needs_scroll(fits, {"scroll_hooks": 2}), needs_scroll(fits, {"lazy_placeholders": 1})
    (False, True)
    >>> needs_scroll(tall, {"scroll_hooks": 0}), needs_scroll(tall, {"scroll_hooks": 1}), needs_scroll(tall, {})
    (False, True, True)
    >>> needs_scroll(tall, {"scroll_hooks": 0}, scroll_all=True)
    True
    >>> needs_scroll(tall, {"feed_sentinel": True, "scroll_hooks": 0})
    True
    """
    if markers.get("lazy_placeholders") or markers.get("feed_sentinel"):
        return True
    return not state.at_bottom and (scroll_all or markers.get("scroll_hooks", -1) != 0)


def feed_finished(sentinel: bool, idle_steps: int) -> bool:
    """A feed whose sentinel stays but that answered `idle_steps` steps at a quiet bottom with nothing
    (no request, no growth, no new candidate) is finished.

    >>> feed_finished(True, FEED_IDLE_STEPS), feed_finished(True, FEED_IDLE_STEPS - 1), feed_finished(False, 9)
    (True, False, False)
    """
    return sentinel and idle_steps >= FEED_IDLE_STEPS


def _step_done(session: PageSession, state: PageProgress, grew: bool, acc: Accumulator, stable: int,
               waited: bool) -> bool:
    """At the bottom, the page did not grow, nothing in flight, no feed sentinel; twice if timers are
    pending or the step did not wait (an observer that a frame queued may not have run yet)."""
    if not state.at_bottom or grew or session.inflight or state.loading_images or acc.sentinel:
        return False
    return stable >= (2 if state.timers or not waited else 1)


def _idle(session: PageSession, state: PageProgress, grew: bool, before: tuple[int, int, int],
          acc: Accumulator) -> bool:
    """The step left the page as it was: at the bottom, no growth, no request, no new candidate, nothing busy."""
    height, requests, candidates = before
    return (state.at_bottom and not grew and state.height == height and session.requests_total == requests
            and len(acc.candidates) == candidates and not session.inflight and not state.loading_images)


async def scroll(page: Page, session: PageSession, ins: Instructions, acc: Accumulator) -> tuple[int, bool]:
    """Incremental viewport steps, each waited for only while the page is busy; stop at a quiet bottom.
    The first decision reads the last collection when nothing was scrolled or clicked after it."""
    if ins.scroll_steps == 0:  # not scrolling is a choice, not evidence of a truncated page
        return 0, False
    if not acc.untouched():
        await acc.collect(page)
    reading = acc.last.get("progress")  # read by the collection itself, after the page's last change
    state = progress_of(reading) if reading else await page_progress(page)
    if not needs_scroll(state, acc.last.get("markers", {}), ins.scroll_all):
        return 0, False
    steps, stable, idle, step_s = 0, 0, 0, MIN_STEP_S
    requests_seen, last_height = session.requests_total, state.height
    while steps < ins.scroll_steps:
        if session.remaining() < max(MIN_STEP_S, 1.5 * step_s):
            return steps, True
        started, requests_before = time.monotonic(), session.requests_total
        before = (state.height, requests_before, len(acc.candidates))
        revisit = acc.sentinel and state.at_bottom  # no step further down: let the sentinel's observer see it anew
        after, elapsed_ms = await page.evaluate(REVISIT_STEP_JS if revisit else SCROLL_STEP_JS)
        acc.touched()
        steps += 1
        acc.steps = steps
        stepped = state = progress_of(after)
        waited = after is None or not unchanged_since(session, stepped, float(elapsed_ms), requests_before)
        if waited:
            state = await settle(page, session, ins.scroll_pause_ms, timers=True)
        grew = state.height != stepped.height
        # collect again only when the page grew or fetched something (lazy media, feeds)
        if state.height != last_height or session.requests_total != requests_seen:
            requests_seen, last_height = session.requests_total, state.height
            await acc.collect(page)
        stable = stable + 1 if state.at_bottom and not grew else 0
        idle = idle + 1 if _idle(session, state, grew, before, acc) else 0
        if feed_finished(acc.sentinel, idle):
            acc.feed_done = True
        if _step_done(session, state, grew, acc, stable, waited):
            return steps, False
        step_s = time.monotonic() - started
    state = await page_progress(page)
    return steps, acc.sentinel or not state.at_bottom or session.inflight > 0


def _controls(collected: dict[str, Any], role: str) -> list[str]:
    return [c["handle"] for c in collected.get("markers", {}).get("controls", []) if c.get("role") == role]


async def dismiss_overlays(page: Page, session: PageSession, acc: Accumulator) -> None:
    """Close overlays until none offers a close control (stacked banners), at most 3 passes."""
    tried: set[str] = set()
    for _ in range(MAX_OVERLAY_PASSES):
        collected = await acc.collect(page)
        handles = [h for h in _controls(collected, "overlay_close") if h not in tried]
        if not handles:
            return
        for handle in handles:
            tried.add(handle)
            await click(page, session, handle)
            acc.touched()
        await settle(page, session, 300)


async def click_controls(page: Page, session: PageSession, ins: Instructions, acc: Accumulator) -> None:
    """Click each named control once; repeat only those that still read as load-more."""
    clicks = 0
    handles = list(ins.click_handles)
    for round_no in range(max(1, ins.click_rounds)):
        for handle in handles:
            if clicks >= MAX_CLICKS or not await click(page, session, handle):
                continue
            acc.touched()
            clicks += 1
            await settle(page, session, max(ins.scroll_pause_ms, 300))
        collected = await acc.collect(page)
        if round_no == 0:
            load_more = set(_controls(collected, "load_more"))
            handles = [h for h in handles if h in load_more]  # tabs/accordions: once
        if not handles:
            return


async def _wait_loaded(page: Page, session: PageSession, ins: Instructions, reserve_s: float) -> None:
    try:  # `load` may never fire (long-polling, endless resources): wait a bounded time only
        timeout_s = max(min(5.0, session.remaining() - 2 - reserve_s), 0.1)
        await page.wait_for_load_state("load", timeout=timeout_s * 1000)
    except PlaywrightError:
        session.errors.append("load event not reached")
    if ins.wait_for_selector and session.remaining() > 1:
        try:
            wait_ms = min(max(5000, 2 * ins.settle_ms), (session.remaining() - 1) * 1000)
            await page.wait_for_selector(ins.wait_for_selector, timeout=wait_ms)
        except PlaywrightError:
            session.errors.append("wait_for_selector timed out")


async def reveal(page: Page, session: PageSession, ins: Instructions, acc: Accumulator) -> tuple[int, bool, bool]:
    """Everything before the final collection; returns (scroll steps, scroll truncated, whether the last
    collection is still the page as it is: then it is the final one)."""
    reserve_s = SCROLL_RESERVE_S if ins.scroll_steps else 0.0
    await _wait_loaded(page, session, ins, reserve_s)
    await settle(page, session, ins.settle_ms, timers=True, reserve_s=reserve_s)
    if ins.dismiss_overlays:
        await dismiss_overlays(page, session, acc)
    if ins.click_handles:
        await click_controls(page, session, ins, acc)
    steps, truncated = await scroll(page, session, ins, acc)
    state = await settle(page, session, ins.settle_ms)
    return steps, truncated, acc.current(state)
