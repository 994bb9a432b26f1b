"""History-based reflection: diagnose an attempt, decide on a retry, rewrite its instructions.

Pure functions over plain data (DESIGN.md "Reflection"). The browser step
fills an `AttemptOutcome` per attempt; the reflection middleware calls
`diagnose`, then `next_instructions` (or `should_retry` + `rewrite`), and at the
end `final_status`. Nothing here touches Scrapy or a browser.

Kinds and what they mean for a retry (`KIND_POLICY`):

================  ============  ==============================================
kind              policy        evidence
================  ============  ==============================================
robots_forbidden  final         IgnoreRequest "Forbidden by robots.txt"
blocked           final         other IgnoreRequest / unsupported scheme (guard)
offsite_redirect  final         the scope guard blocked an off-scope navigation
ssrf_blocked      final         a document redirect to a private address was refused
redirect_loop     final         more than 20 document redirects
not_html          final         non-HTML Content-Type, or navigation became a download
browser_crash     recoverable   "Target crashed", page/browser closed
timeout           recoverable   Playwright/Scrapy timeouts, net::ERR_TIMED_OUT
navigation_error  recoverable*  other net::ERR_* / connection errors
http_error        recoverable*  status >= 400; only 408, 429 and 5xx are retried
empty_text        recoverable   no visible main text
missing_media     recoverable   lazy placeholders, empty/blob videos, feed
                                sentinel, truncated scroll, unclicked controls
unverified_media  neutral       candidates left unverified; never retried alone
================  ============  ==============================================

``*`` `is_retryable` looks at the outcome: 4xx other than 408/429 and
permanent net errors (too many redirects, bad scheme/URL) are final.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .instructions import Instructions
from .items import PageStatus
from .snapshot import HTML_TYPES, Markers

KINDS = (
    "robots_forbidden",
    "blocked",
    "offsite_redirect",
    "ssrf_blocked",
    "redirect_loop",
    "not_html",
    "browser_crash",
    "timeout",
    "navigation_error",
    "http_error",
    "empty_text",
    "missing_media",
    "unverified_media",
)
FINAL_KINDS = frozenset(
    {"robots_forbidden", "blocked", "offsite_redirect", "ssrf_blocked", "redirect_loop", "not_html"}
)
NAVIGATION_BLOCKS = frozenset({"offsite_redirect", "ssrf_blocked", "redirect_loop"})
RECOVERABLE_KINDS = frozenset(
    {"browser_crash", "timeout", "navigation_error", "http_error", "empty_text", "missing_media"}
)
TRANSIENT_KINDS = frozenset({"browser_crash", "timeout", "navigation_error", "http_error"})
KIND_POLICY = {
    k: "final" if k in FINAL_KINDS else "recoverable" if k in RECOVERABLE_KINDS else "neutral" for k in KINDS
}
RETRYABLE_HTTP = frozenset({408, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524})
PERMANENT_NET_ERRORS = (
    "ERR_TOO_MANY_REDIRECTS",
    "ERR_UNSAFE_REDIRECT",
    "ERR_INVALID_URL",
    "ERR_UNKNOWN_URL_SCHEME",
    "ERR_DISALLOWED_URL_SCHEME",
    "ERR_INVALID_REDIRECT",
)
_CRASH_PHRASES = (
    "target crashed",
    "page crashed",
    "has been closed",
    "browser has disconnected",
    "browser closed",
)

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


@dataclass(frozen=True)
class AttemptOutcome:
    """What one attempt produced, as far as reflection needs it (filled by the browser step)."""

    instructions: Instructions = field(default_factory=Instructions)
    error_type: str | None = None  # exception class name, e.g. "TimeoutError", "IgnoreRequest"
    error_message: str = ""
    http_status: int | None = None
    content_type: str = ""
    offsite_navigation: str | None = None
    navigation_block: str | None = None  # offsite_redirect (default), ssrf_blocked, redirect_loop
    text_chars: int = 0
    images: int = 0  # image candidates found
    videos: int = 0  # video candidates found
    markers: Markers = field(default_factory=Markers)
    unresolved_media: int = 0  # e.g. blob: videos with no network URL (Extraction.unresolved)
    unverified_media: int = 0  # candidates left unverified (0 if verification runs later)
    scroll_truncated: bool = False
    scroll_steps: int = 0

    @property
    def error(self) -> str | None:
        if self.error_type is None:
            return None
        return f"{self.error_type}: {self.error_message}" if self.error_message else self.error_type

    @classmethod
    def from_exception(cls, instructions: Instructions, exc: BaseException, **kw: object) -> AttemptOutcome:
        """An outcome for an attempt that raised (message truncated to 300 chars)."""
        return cls(instructions, type(exc).__name__, str(exc)[:300], **kw)  # type: ignore[arg-type]


def _error_kind(outcome: AttemptOutcome) -> str | None:
    if outcome.error_type is None:
        return None
    name, msg = outcome.error_type, outcome.error_message
    low = msg.lower()
    if name == "IgnoreRequest":
        return "robots_forbidden" if "robots" in low else "blocked"
    if name == "UnsupportedURLSchemeError":
        return "blocked"
    if "download is starting" in low:
        return "not_html"
    if name == "TargetClosedError" or any(p in low for p in _CRASH_PHRASES):
        return "browser_crash"
    if (
        any(w in name.lower() for w in ("timeout", "timedout", "deadline"))
        or "TIMED_OUT" in msg
        or ("timeout" in low and "exceeded" in low)
        or "deadline exceeded" in low
    ):
        return "timeout"
    return "navigation_error"


def _hidden_controls(outcome: AttemptOutcome) -> int:
    """Controls still hiding content: any visible load-more; tabs/accordions only if nothing was clicked.

    Once an attempt has clicked the controls a rewrite named, the tabs still
    unselected are the ones whose panels an earlier attempt already saw (the
    default tab), so they are no longer evidence of hidden media.
    """
    clicked = outcome.instructions.click_handles
    return sum(
        1 for c in outcome.markers.controls if c.role == "load_more" or (c.role in ("tab", "accordion") and not clicked)
    )


def diagnose(outcome: AttemptOutcome) -> list[str]:
    """Failure kinds of one attempt, in `KINDS` order; [] means the attempt succeeded.

    >>> diagnose(AttemptOutcome(text_chars=120, images=2))
    []
    >>> diagnose(AttemptOutcome(error_type="TimeoutError", error_message="Timeout 30000ms exceeded."))
    ['timeout']
    >>> diagnose(AttemptOutcome(text_chars=0, markers=Markers(lazy_placeholders=4)))
    ['empty_text', 'missing_media']
    >>> diagnose(AttemptOutcome(error_type="Error", error_message="net::ERR_ABORTED",
    ...                         offsite_navigation="https://other.example/"))
    ['offsite_redirect']
    >>> diagnose(AttemptOutcome(offsite_navigation="http://10.0.0.1/", navigation_block="ssrf_blocked"))
    ['ssrf_blocked']
    """
    kinds: set[str] = set()
    err = _error_kind(outcome)
    if outcome.offsite_navigation:
        block = outcome.navigation_block
        kinds.add(block if block in NAVIGATION_BLOCKS else "offsite_redirect")
    elif err:
        kinds.add(err)
    ctype = outcome.content_type.split(";")[0].strip().lower()
    if ctype and ctype not in HTML_TYPES:
        kinds.add("not_html")
    if outcome.http_status is not None and outcome.http_status >= 400:
        kinds.add("http_error")
    partial = outcome.text_chars > 0 or outcome.images > 0 or outcome.videos > 0
    if not kinds or (kinds == {"timeout"} and partial):
        m = outcome.markers
        if outcome.text_chars <= 0:
            kinds.add("empty_text")
        if (
            m.lazy_placeholders > 0
            or m.empty_videos > 0
            or outcome.unresolved_media > 0
            or m.feed_sentinel
            or outcome.scroll_truncated
            or _hidden_controls(outcome) > 0
        ):
            kinds.add("missing_media")
        if outcome.unverified_media > 0:
            kinds.add("unverified_media")
    return [k for k in KINDS if k in kinds]


def is_retryable(kinds: Sequence[str], outcome: AttemptOutcome) -> bool:
    """True when another attempt could fix this diagnosis (ignoring attempts left).

    >>> is_retryable(["http_error"], AttemptOutcome(http_status=503))
    True
    >>> is_retryable(["http_error"], AttemptOutcome(http_status=404))
    False
    >>> is_retryable(["missing_media", "offsite_redirect"], AttemptOutcome())
    False
    """
    if any(k in FINAL_KINDS for k in kinds):
        return False
    if "http_error" in kinds and outcome.http_status not in RETRYABLE_HTTP:
        return False
    if "navigation_error" in kinds and any(e in outcome.error_message for e in PERMANENT_NET_ERRORS):
        return False
    return any(k in RECOVERABLE_KINDS for k in kinds)


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
        settle_ms=max(i.settle_ms for i in instructions),
        wait_for_selector=selector,
        click_handles=handles,
        click_rounds=max(i.click_rounds for i in instructions),
        dismiss_overlays=any(i.dismiss_overlays for i in instructions),
        capture_network=any(i.capture_network for i in instructions),
        reextract=any(i.reextract for i in instructions),
    )


def rewrite(
    history: Sequence[tuple[Instructions, Sequence[str]]], markers: Markers, *, scroll_truncated: bool = False
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
        up["reextract"] = True
    if "unverified_media" in kinds:
        up.update(capture_network=True, reextract=True)
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
        if markers.empty_videos or markers.blob_videos:
            up.update(capture_network=True, reextract=True)
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
    history: Sequence[AttemptOutcome], max_attempts: int, kinds: Sequence[str] | None = None
) -> Instructions | None:
    """The rewritten plan for the next attempt, or None when reflection should stop."""
    if not history or len(history) >= max_attempts:
        return None
    last = history[-1]
    kinds = diagnose(last) if kinds is None else list(kinds)
    if not is_retryable(kinds, last):
        return None
    plans = [(o.instructions, diagnose(o)) for o in history[:-1]] + [(last.instructions, kinds)]
    nxt = rewrite(plans, last.markers, scroll_truncated=last.scroll_truncated)
    return None if any(nxt == o.instructions for o in history) else nxt


def should_retry(history: Sequence[AttemptOutcome], kinds: Sequence[str], max_attempts: int) -> bool:
    """Attempts remain, the diagnosis is recoverable, and the rewrite differs from every earlier plan."""
    return next_instructions(history, max_attempts, kinds) is not None


def summarise(kinds: Sequence[str]) -> str:
    """Kinds as one short phrase ("ok" for none).

    >>> summarise(["empty_text", "missing_media"])
    'empty_text, missing_media'
    """
    return ", ".join(kinds) if kinds else "ok"


def explain(outcome: AttemptOutcome) -> str:
    """Why the last attempt fell short, in a few words (no page text).

    >>> explain(AttemptOutcome(markers=Markers(lazy_placeholders=4, feed_sentinel=True)))
    '4 lazy placeholders without URL, feed sentinel still present'
    """
    m, parts = outcome.markers, []
    if outcome.offsite_navigation:
        parts.append("navigation left the crawl scope")
    if outcome.error:
        parts.append(outcome.error[:200])
    if outcome.http_status is not None and outcome.http_status >= 400:
        parts.append(f"HTTP {outcome.http_status}")
    ctype = outcome.content_type.split(";")[0].strip().lower()
    if ctype and ctype not in HTML_TYPES:
        parts.append(f"content type {ctype}")
    for count, what in (
        (m.lazy_placeholders, "lazy placeholders without URL"),
        (m.empty_videos, "videos without a source"),
        (outcome.unresolved_media, "unresolved blob/media URLs"),
        (_hidden_controls(outcome), "controls still hiding content"),
        (outcome.unverified_media, "media left unverified"),
    ):
        if count:
            parts.append(f"{count} {what}")
    if m.feed_sentinel:
        parts.append("feed sentinel still present")
    if outcome.scroll_truncated:
        parts.append(f"scroll truncated after {outcome.scroll_steps} steps")
    return ", ".join(parts)


def final_status(
    kinds: Sequence[str],
    text_chars: int,
    media_found: int,
    error: str | None = None,
    *,
    attempts: int = 1,
    detail: str = "",
) -> tuple[PageStatus, str | None]:
    """The item's status and error once reflection stops (DESIGN.md: ok / incomplete / failed).

    >>> final_status([], 500, 3)
    ('ok', None)
    >>> final_status(["missing_media"], 900, 2, attempts=3, detail="4 lazy placeholders without URL")
    ('incomplete', 'missing_media after 3 attempts: 4 lazy placeholders without URL')
    >>> final_status(["http_error"], 0, 0, attempts=1, detail="HTTP 404")
    ('failed', 'http_error after 1 attempt: HTTP 404')
    """
    if not kinds:
        return "ok", None
    why = detail or error or ""
    msg = f"{summarise(kinds)} after {attempts} attempt{'s' if attempts != 1 else ''}"
    msg += f": {why}" if why else ""
    hard = set(kinds) & ((FINAL_KINDS | TRANSIENT_KINDS) - {"timeout"})
    if hard or (text_chars <= 0 and media_found <= 0):
        return "failed", msg
    return "incomplete", msg


def final_status_of(history: Sequence[AttemptOutcome], media_found: int | None = None) -> tuple[PageStatus, str | None]:
    """`final_status` for the last attempt of a history (media_found defaults to its candidates)."""
    last = history[-1]
    found = last.images + last.videos if media_found is None else media_found
    kinds = diagnose(last)
    return final_status(kinds, last.text_chars, found, last.error, attempts=len(history), detail=explain(last))
