"""History-based reflection: diagnose an attempt, decide on a retry, rewrite its instructions.

Pure functions over plain data (docs/design.md, "Reflection"), in three modules:
`diagnosis` (what went wrong in one attempt: `AttemptOutcome`, `diagnose`),
`rewrite` (the next attempt's plan: `rewrite`, `next_instructions`) and
`status` (the item's status: `final_status_of`, `after_verification`). The
reflection middleware calls `diagnose`, then `next_instructions`, and at the
end `final_status_of`. Nothing here touches Scrapy or a browser.
"""

from __future__ import annotations

from .diagnosis import (
    FINAL_KINDS,
    KINDS,
    NAVIGATION_BLOCKS,
    PERMANENT_NET_ERRORS,
    RECOVERABLE_KINDS,
    RETRYABLE_HTTP,
    TRANSIENT_KINDS,
    AttemptOutcome,
    diagnose,
    explain,
    is_retryable,
    summarise,
)
from .rewrite import (
    CLICK_ROUNDS_LADDER,
    CONTROL_ORDER,
    DELAYED_CONTENT_SETTLE_MS,
    MAX_CLICK_HANDLES,
    MAX_CLICK_ROUNDS,
    MAX_HANDLE_CHARS,
    MAX_SCROLL_PAUSE_MS,
    MAX_SCROLL_STEPS,
    MAX_SETTLE_MS,
    MIN_SCROLL_STEPS,
    SCROLL_GROWTH,
    SCROLL_PAUSE_LADDER_MS,
    SETTLE_LADDER_MS,
    TEXT_SELECTOR,
    added_nothing,
    is_safe_handle,
    next_instructions,
    rewrite,
)
from .status import after_verification, final_status, final_status_of

__all__ = [
    "CLICK_ROUNDS_LADDER", "CONTROL_ORDER", "DELAYED_CONTENT_SETTLE_MS", "FINAL_KINDS", "KINDS",
    "MAX_CLICK_HANDLES", "MAX_CLICK_ROUNDS", "MAX_HANDLE_CHARS", "MAX_SCROLL_PAUSE_MS", "MAX_SCROLL_STEPS",
    "MAX_SETTLE_MS", "MIN_SCROLL_STEPS", "NAVIGATION_BLOCKS", "PERMANENT_NET_ERRORS", "RECOVERABLE_KINDS",
    "RETRYABLE_HTTP", "SCROLL_GROWTH", "SCROLL_PAUSE_LADDER_MS", "SETTLE_LADDER_MS", "TEXT_SELECTOR",
    "TRANSIENT_KINDS", "AttemptOutcome", "added_nothing", "after_verification", "diagnose", "explain", "final_status",
    "final_status_of", "is_retryable", "is_safe_handle", "next_instructions", "rewrite", "summarise",
]
