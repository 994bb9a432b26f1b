"""Status: the item's one status rule (docs/design.md, "The item": ok / incomplete / failed).

Reflection decides it from the attempt history when it stops (`final_status_of`);
media verification, which runs after reflection, can only lower an ok page to
incomplete when some candidates could not be checked at all (`after_verification`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..items import PageStatus
from .diagnosis import FINAL_KINDS, TRANSIENT_KINDS, AttemptOutcome, diagnose, explain, summarise


def final_status(
    kinds: Sequence[str],
    text_chars: int,
    media_found: int,
    error: str | None = None,
    *,
    attempts: int = 1,
    detail: str = "",
) -> tuple[PageStatus, str | None]:
    """The item's status and error once reflection stops (docs/design.md: ok / incomplete / failed).

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


def after_verification(status: PageStatus, error: str | None, unchecked: int) -> tuple[PageStatus, str | None]:
    """The status once media verification ran: `unchecked` candidates could not be checked at all.

    An ok page with media left unverified is incomplete (docs/design.md); the
    reason is added to the error either way.

    >>> after_verification("ok", None, 0), after_verification("ok", None, 2)
    (('ok', None), ('incomplete', 'unverified_media: 2'))
    >>> after_verification("incomplete", "missing_media", 1)
    ('incomplete', 'missing_media; unverified_media: 1')
    """
    if not unchecked:
        return status, error
    note = f"unverified_media: {unchecked}"
    return ("incomplete" if status == "ok" else status), (f"{error}; {note}" if error else note)
