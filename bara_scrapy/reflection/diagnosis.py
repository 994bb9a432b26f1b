"""Diagnosis: what went wrong in one attempt, and whether another attempt could fix it.

The browser step fills an `AttemptOutcome` per attempt; `diagnose` names its
failure kinds, `is_retryable` says whether a retry could help, `explain` and
`summarise` put it in a few words (no page text).

Kinds and what they mean for a retry (`FINAL_KINDS`, `RECOVERABLE_KINDS`):

================  ============  ==============================================
kind              policy        evidence
================  ============  ==============================================
robots_forbidden  final         IgnoreRequest "Forbidden by robots.txt"
blocked           final         other IgnoreRequest / unsupported scheme (guard)
offsite_redirect  final         the scope guard blocked an off-scope navigation
ssrf_blocked      final         a document redirect to a private address was refused
redirect_loop     final         more than 20 document redirects
tls_error         final         the document's certificate was refused
                                (BARA_TLS_VERIFY, `tls.py`)
not_html          final         non-HTML Content-Type, or navigation became a download
browser_crash     recoverable   "Target crashed", page/browser closed or not
                                answering
timeout           recoverable   Playwright/Scrapy timeouts, net::ERR_TIMED_OUT
navigation_error  recoverable*  other net::ERR_* / connection errors
http_error        recoverable*  status >= 400; only 408, 429 and 5xx are retried
empty_text        recoverable   no visible main text
missing_media     recoverable   lazy placeholders, empty/blob videos, feed
                                sentinel, truncated scroll, unclicked controls
================  ============  ==============================================

Media that could not be checked at all is the verification pipeline's
finding, after reflection: it makes an ok page incomplete (`status.after_verification`).

``*`` `is_retryable` looks at the outcome: 4xx other than 408/429 and
permanent net errors (too many redirects, bad scheme/URL) are final.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..instructions import Instructions
from ..snapshot import HTML_TYPES, Markers
from ..tls import is_certificate_error

KINDS = (
    "robots_forbidden",
    "blocked",
    "offsite_redirect",
    "ssrf_blocked",
    "redirect_loop",
    "tls_error",
    "not_html",
    "browser_crash",
    "timeout",
    "navigation_error",
    "http_error",
    "empty_text",
    "missing_media",
)
FINAL_KINDS = frozenset(
    {"robots_forbidden", "blocked", "offsite_redirect", "ssrf_blocked", "redirect_loop", "tls_error", "not_html"}
)
NAVIGATION_BLOCKS = frozenset({"offsite_redirect", "ssrf_blocked", "redirect_loop"})
RECOVERABLE_KINDS = frozenset(
    {"browser_crash", "timeout", "navigation_error", "http_error", "empty_text", "missing_media"}
)
TRANSIENT_KINDS = frozenset({"browser_crash", "timeout", "navigation_error", "http_error"})
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
    "browser not answering",  # a bounded Playwright call on a dead browser (browser/handler.py)
)


@dataclass(frozen=True)
class AttemptOutcome:
    """What one attempt produced, as far as reflection needs it (filled by the browser step)."""

    instructions: Instructions = field(default_factory=Instructions)
    error_type: str | None = None  # exception class name, e.g. "TimeoutError", "IgnoreRequest"
    error_message: str = ""
    http_status: int | None = None
    content_type: str = ""
    offsite_navigation: str | None = None
    # offsite_redirect (default), ssrf_blocked, redirect_loop; navigation_error: a later navigation failed
    navigation_block: str | None = None
    text_chars: int = 0
    images: int = 0  # image candidates found
    videos: int = 0  # video candidates found
    markers: Markers = field(default_factory=Markers)
    unresolved_media: int = 0  # e.g. blob: videos with no network URL (Extraction.unresolved)
    links: int = 0  # links found on the page
    video_hints: int = 0  # video URLs named by the page's scripts but not found (extraction.hints)
    scroll_truncated: bool = False
    scroll_steps: int = 0

    @property
    def error(self) -> str | None:
        if self.error_type is None:
            return None
        return f"{self.error_type}: {self.error_message}" if self.error_message else self.error_type


def _error_kind(outcome: AttemptOutcome) -> str | None:
    if outcome.error_type is None:
        return None
    name, msg = outcome.error_type, outcome.error_message
    low = msg.lower()
    if name == "IgnoreRequest":
        return "robots_forbidden" if "robots" in low else "blocked"
    if name == "UnsupportedURLSchemeError":
        return "blocked"
    if is_certificate_error(f"{name} {msg}"):
        return "tls_error"
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
    """Controls still hiding content: any visible load-more or overlay close button (an overlay that
    stayed, e.g. a click that timed out on a busy CPU); tabs/accordions only if nothing was clicked.

    Once an attempt has clicked the controls a rewrite named, the tabs still
    unselected are the ones whose panels an earlier attempt already saw (the
    default tab), so they are no longer evidence of hidden media.
    """
    clicked = outcome.instructions.click_handles
    return sum(
        1
        for c in outcome.markers.controls
        if c.role in ("load_more", "overlay_close") or (c.role in ("tab", "accordion") and not clicked)
    )


def _recoverable_videos(outcome: AttemptOutcome) -> int:
    """Sourceless videos a retry could fill: only when a script names a video URL the attempt did not find.

    A `<video>` with no source in the DOM, the network log or the page's scripts
    is not recoverable by scrolling or waiting, so it is no reason to retry.
    """
    return outcome.markers.empty_videos if outcome.video_hints > 0 else 0


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
    >>> diagnose(AttemptOutcome(text_chars=50, markers=Markers(empty_videos=1)))  # no source anywhere
    []
    >>> diagnose(AttemptOutcome(text_chars=50, markers=Markers(empty_videos=1), video_hints=1))
    ['missing_media']
    """
    kinds: set[str] = set()
    err = _error_kind(outcome)
    if outcome.offsite_navigation:
        block = outcome.navigation_block
        kinds.add(block if block in NAVIGATION_BLOCKS or block == "navigation_error" else "offsite_redirect")
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
            or _recoverable_videos(outcome) > 0
            or outcome.unresolved_media > 0
            or m.feed_sentinel
            or outcome.scroll_truncated
            or _hidden_controls(outcome) > 0
        ):
            kinds.add("missing_media")
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
        (_recoverable_videos(outcome), "videos without a source"),
        (outcome.unresolved_media, "unresolved blob/media URLs"),
        (_hidden_controls(outcome), "controls still hiding content"),
    ):
        if count:
            parts.append(f"{count} {what}")
    if m.feed_sentinel:
        parts.append("feed sentinel still present")
    if outcome.scroll_truncated:
        parts.append(f"scroll truncated after {outcome.scroll_steps} steps")
    return ", ".join(parts)
