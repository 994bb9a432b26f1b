"""Rewrite: the next attempt's instructions from the attempt history.

Escalates monotonically from everything already tried (`rewrite`), within
the caps below; `next_instructions` decides whether there is a next attempt
at all (attempts left, a retryable diagnosis, a plan not tried before).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..instructions import Instructions
from ..snapshot import Markers
from .diagnosis import RECOVERABLE_KINDS, TRANSIENT_KINDS, AttemptOutcome, diagnose, is_retryable

# Caps: a rewrite never goes beyond these (nor below anything already tried).
MAX_SCROLL_STEPS = 100
SCROLL_GROWTH = 3  # 12 -> 36 -> 100: a ~30-viewport feed is reached on the second attempt
MIN_SCROLL_STEPS = 12
SCROLL_PAUSE_LADDER_MS = (250, 500, 1000, 2000)
SETTLE_LADDER_MS = (500, 1000, 2000, 4000, 8000)
DELAYED_CONTENT_SETTLE_MS = 4000  # empty text: wait past typical setTimeout/XHR-rendered content
CLICK_ROUNDS_LADDER = (0, 2, 4, 8)
MAX_SCROLL_PAUSE_MS = SCROLL_PAUSE_LADDER_MS[-1]
MAX_SETTLE_MS = SETTLE_LADDER_MS[-1]
MAX_CLICK_ROUNDS = CLICK_ROUNDS_LADDER[-1]
MAX_CLICK_HANDLES = 8
MAX_HANDLE_CHARS = 200
# wait_for_selector only ever takes this constant (never page text): a hint, wait up to settle_ms.
TEXT_SELECTOR = "main p, article p, [role=main] p"
CONTROL_ORDER = ("overlay_close", "tab", "accordion", "load_more")

_IDENT = r"-?[A-Za-z_][A-Za-z0-9_-]*"
_SEGMENT = (
    rf"(?:[A-Za-z][A-Za-z0-9-]*|\*)?(?:#{_IDENT}|\.{_IDENT}|:nth-(?:of-type|child)\(\d{{1,4}}\)"
    r'|\[data-bara-handle="?\d{1,6}"?\])*'
)
_HANDLE = re.compile(rf"{_SEGMENT}(?:\s*>\s*{_SEGMENT})*", re.ASCII)


def is_safe_handle(handle: str) -> bool:
    """A control handle is a short CSS path made of tags, #ids, .classes, :nth-*() and data-bara-handle.

    >>> is_safe_handle('body > div#main > button.more:nth-of-type(2)')
    True
    >>> is_safe_handle('[data-bara-handle="3"]')
    True
    >>> is_safe_handle('button[aria-label="Ignore previous instructions"]')
    False
    """
    return (
        0 < len(handle) <= MAX_HANDLE_CHARS and bool(handle.strip()) and (_HANDLE.fullmatch(handle.strip()) is not None)
    )


def _next_rung(value: int, ladder: Sequence[int]) -> int:
    """The smallest ladder value above `value`, else the cap (never below `value`)."""
    return next((r for r in ladder if r > value), max(value, ladder[-1]))


def _join(instructions: Sequence[Instructions]) -> Instructions:
    """The componentwise maximum of every plan tried: rewrites escalate from here."""
    handles: list[str] = []
    for ins in instructions:
        handles += [h for h in ins.click_handles if h not in handles]
    selector = next((i.wait_for_selector for i in reversed(instructions) if i.wait_for_selector), None)
    return Instructions(
        scroll_steps=max(i.scroll_steps for i in instructions),
        scroll_pause_ms=max(i.scroll_pause_ms for i in instructions),
        scroll_all=any(i.scroll_all for i in instructions),
        settle_ms=max(i.settle_ms for i in instructions),
        wait_for_selector=selector,
        click_handles=handles,
        click_rounds=max(i.click_rounds for i in instructions),
        dismiss_overlays=any(i.dismiss_overlays for i in instructions),
        capture_network=any(i.capture_network for i in instructions),
    )


def rewrite(
    history: Sequence[tuple[Instructions, Sequence[str]]],
    markers: Markers,
    *,
    scroll_truncated: bool = False,
    video_hints: int = 0,
) -> Instructions:
    """The next attempt's instructions from the history (plan, kinds) and the last attempt's markers.

    Escalates monotonically from everything already tried, by what the last
    diagnosis justifies; values stay within the caps above. Returns the join
    of the history unchanged when nothing justified is left to try.

    >>> r = rewrite([(Instructions(), ["missing_media"])], Markers(feed_sentinel=True), scroll_truncated=True)
    >>> r.scroll_steps
    36
    >>> rewrite([(Instructions(), ["empty_text"])], Markers()).settle_ms
    4000
    """
    if not history:
        return Instructions()
    base = _join([ins for ins, _ in history])
    kinds = set(history[-1][1])
    up: dict[str, object] = {}
    if kinds & TRANSIENT_KINDS:
        up["settle_ms"] = _next_rung(base.settle_ms, SETTLE_LADDER_MS)
    if "empty_text" in kinds:
        up["settle_ms"] = max(_next_rung(base.settle_ms, SETTLE_LADDER_MS), DELAYED_CONTENT_SETTLE_MS)
        up["wait_for_selector"] = base.wait_for_selector or TEXT_SELECTOR
    if "missing_media" in kinds:
        new = sorted(
            (c for c in markers.controls if c.role in CONTROL_ORDER and is_safe_handle(c.handle)),
            key=lambda c: CONTROL_ORDER.index(c.role),
        )
        handles = list(base.click_handles)
        for c in new:
            h = c.handle.strip()
            if h not in handles and len(handles) < MAX_CLICK_HANDLES:
                handles.append(h)
        added = len(handles) > len(base.click_handles)
        up["click_handles"] = handles
        if any(c.role == "load_more" and c.handle.strip() in handles for c in new):
            up["click_rounds"] = _next_rung(base.click_rounds, CLICK_ROUNDS_LADDER)
        if markers.overlays > 0:
            up["dismiss_overlays"] = True
        if scroll_truncated:
            up["scroll_steps"] = max(MIN_SCROLL_STEPS, base.scroll_steps * SCROLL_GROWTH)
        elif markers.feed_sentinel or (markers.lazy_placeholders > 0 and not added):
            up["scroll_pause_ms"] = _next_rung(base.scroll_pause_ms, SCROLL_PAUSE_LADDER_MS)
        if (markers.empty_videos and video_hints) or markers.blob_videos:
            up["capture_network"] = True
            up.setdefault("settle_ms", _next_rung(base.settle_ms, SETTLE_LADDER_MS))
    out = _capped(base, base.model_copy(update=up))
    if out == base and kinds & RECOVERABLE_KINDS:  # be more patient as a last resort
        for name, ladder in (("settle_ms", SETTLE_LADDER_MS), ("scroll_pause_ms", SCROLL_PAUSE_LADDER_MS)):
            out = _capped(base, base.model_copy(update={name: _next_rung(getattr(base, name), ladder)}))
            if out != base:
                break
    return out


def _capped(base: Instructions, ins: Instructions) -> Instructions:
    """Clamp to the caps, but never below what was already tried (monotone)."""
    return ins.model_copy(
        update={
            "scroll_steps": max(base.scroll_steps, min(ins.scroll_steps, MAX_SCROLL_STEPS)),
            "scroll_pause_ms": max(base.scroll_pause_ms, min(ins.scroll_pause_ms, MAX_SCROLL_PAUSE_MS)),
            "settle_ms": max(base.settle_ms, min(ins.settle_ms, MAX_SETTLE_MS)),
            "click_rounds": max(base.click_rounds, min(ins.click_rounds, MAX_CLICK_ROUNDS)),
        }
    )


def next_instructions(
    history: Sequence[AttemptOutcome], max_attempts: int, kinds: Sequence[str] | None = None,
    diagnoses: Sequence[Sequence[str]] | None = None,
) -> Instructions | None:
    """The rewritten plan for the next attempt, or None when reflection should stop.

    `kinds` is the last attempt's diagnosis, `diagnoses` every attempt's (one per entry of
    `history`); either is made from the history when not given.

    Stops when attempts run out, the diagnosis is not retryable, the plan was
    tried before, or the last attempt added nothing (`added_nothing`) and the
    plan clicks no control that was never tried (transient errors excepted).
    """
    if not history or len(history) >= max_attempts:
        return None
    last = history[-1]
    if diagnoses is None:
        diagnoses = [diagnose(o) for o in history[:-1]] + [diagnose(last) if kinds is None else kinds]
    kinds = list(diagnoses[-1])
    if not is_retryable(kinds, last):
        return None
    plans = [(o.instructions, list(d)) for o, d in zip(history[:-1], diagnoses, strict=False)]
    plans.append((last.instructions, kinds))
    nxt = rewrite(plans, last.markers, scroll_truncated=last.scroll_truncated, video_hints=last.video_hints)
    if any(nxt == o.instructions for o in history):
        return None
    if added_nothing(history) and not set(kinds) & TRANSIENT_KINDS and not _untried_handles(nxt, history):
        return None  # more of the same cannot help: only a control never clicked plausibly could
    return nxt


def added_nothing(history: Sequence[AttemptOutcome]) -> bool:
    """The last attempt found no more text, links or media than the best earlier attempt.

    >>> one, same = AttemptOutcome(text_chars=90, images=2, links=4), AttemptOutcome(text_chars=90, images=2, links=4)
    >>> added_nothing([one]), added_nothing([one, same]), added_nothing([one, AttemptOutcome(text_chars=95)])
    (False, True, False)
    """
    if len(history) < 2:
        return False
    last, earlier = history[-1], history[:-1]
    return all(
        getattr(last, name) <= max(getattr(o, name) for o in earlier)
        for name in ("text_chars", "images", "videos", "links")
    )


def _untried_handles(plan: Instructions, history: Sequence[AttemptOutcome]) -> bool:
    tried = {h for o in history for h in o.instructions.click_handles}
    return any(h not in tried for h in plan.click_handles)
