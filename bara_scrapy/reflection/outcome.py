"""One attempt's outcome, from what the spider saw of it: what reflection diagnoses.

The spider reports `attempt_outcome(...)` in the page state (`PageState.outcome`);
`ReflectionMiddleware` records it in the attempt history (diagnosed once, `page.Tried`).
"""

from __future__ import annotations

from typing import Protocol

from ..extraction.base import Extraction
from ..extraction.hints import unseen_video_urls
from ..instructions import Instructions
from ..items import PageItem
from ..snapshot import PageSnapshot
from .diagnosis import AttemptOutcome


class Failure(Protocol):
    """Why a download raised (`page.DownloadFailure`)."""

    @property
    def type(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def offsite(self) -> str | None: ...


def attempt_outcome(
    ins: Instructions,
    failure: Failure | None,
    item: PageItem,
    snapshot: PageSnapshot,
    extraction: Extraction,
    usable: bool,
) -> AttemptOutcome:
    """What reflection needs to know of one attempt: how it ended, what it found, what still looks hidden."""
    return AttemptOutcome(
        instructions=ins,
        error_type=failure.type if failure else ("PageTimeoutError" if snapshot.deadline_hit else None),
        error_message=failure.message if failure else (snapshot.deadline_hit or ""),
        http_status=item.http_status,
        content_type=snapshot.content_type,
        offsite_navigation=snapshot.offsite_navigation or (failure.offsite if failure else None),
        navigation_block=snapshot.navigation_block,
        text_chars=len(item.text),
        images=len(item.images),
        videos=len(item.videos),
        markers=snapshot.markers,
        unresolved_media=len(extraction.unresolved),
        links=len(snapshot.links) if usable else 0,
        video_hints=video_hints(snapshot) if usable else 0,
        scroll_truncated=snapshot.scroll_truncated,
        scroll_steps=snapshot.scroll_steps,
    )


def video_hints(snapshot: PageSnapshot) -> int:
    """Video URLs the page's scripts name but the attempt did not find (only asked when a video has no source)."""
    if not snapshot.markers.empty_videos:
        return 0
    seen = [c.url for c in snapshot.candidates] + [n.url for n in snapshot.network]
    html = snapshot.html or snapshot.source_html
    return unseen_video_urls(html, snapshot.final_url or snapshot.url, seen)
