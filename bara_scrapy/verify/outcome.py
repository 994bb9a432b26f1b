"""The verdict on one fetched media URL: pure decisions from status, headers and first bytes.

`judge` decides from the HTTP status and the sniffed bytes (never the
Content-Type alone); `Outcome` is the record copied onto every `Media` that
names the URL.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..items import Media, utc_now
from . import kind_of, sniff


@dataclass(frozen=True)
class Outcome:
    """The verification record of one URL, copied onto every Media that names it."""

    reason: str | None
    http_status: int | None = None
    content_type: str | None = None
    sniffed_type: str | None = None
    bytes: int | None = None
    final_url: str | None = None
    checked_at: str = field(default_factory=utc_now)

    @property
    def verified(self) -> bool:
        return self.reason is None

    def apply(self, media: Media) -> Media:
        return media.model_copy(update={**asdict(self), "verified": self.verified})


def total_bytes(status: int, content_range: str | None, content_length: str | None) -> int | None:
    """File size from `Content-Range` (206/416) or `Content-Length` (200), when known.

    >>> total_bytes(206, "bytes 0-4095/70000", "4096"), total_bytes(416, "bytes */0", None)
    (70000, 0)
    >>> total_bytes(200, None, "1234"), total_bytes(206, "bytes 0-9/*", "10"), total_bytes(404, None, "9")
    (1234, None, None)
    """
    if status in (206, 416):
        total = (content_range or "").rpartition("/")[2].strip()
        return int(total) if total.isdigit() else None
    if status == 200 and content_length and content_length.strip().isdigit():
        return int(content_length)
    return None


def judge(status: int, body: bytes, expected_kind: str, content_type: str | None) -> str | None:
    """Why a final (non-redirect) response does not prove a downloadable `expected_kind`, or None.

    >>> judge(206, b"\\x89PNG\\r\\n\\x1a\\n", "image", "application/octet-stream") is None
    True
    >>> judge(200, b"<!doctype html><p>oops", "image", "image/png"), judge(200, b"", "video", None)
    ('html_page', 'empty_body')
    >>> judge(404, b"", "image", None), judge(416, b"", "image", None), judge(200, b"#EXTM3U", "image", None)
    ('http_404', 'empty_body', 'wrong_kind')
    """
    if status == 416:  # bytes=0-N unsatisfiable: the file is empty
        return "empty_body"
    if status not in (200, 206):
        return f"http_{status}"
    if not body:
        return "empty_body"
    sniffed = sniff(body)
    kind = kind_of(sniffed)
    if sniffed == "html" or (sniffed is None and (content_type or "").lower().startswith("text/html")):
        return "html_page"
    if kind is None:
        return "unknown_type"
    return None if kind == expected_kind else "wrong_kind"
