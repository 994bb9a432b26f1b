"""The output contract: one `PageItem` per admitted page (docs/design.md, "The item").

`SCHEMA_PATH` is the same contract as JSON Schema, for feed consumers; the tests keep the two equal.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MediaKind = Literal["image", "video", "embed"]
PageStatus = Literal["ok", "incomplete", "failed"]
SCHEMA_PATH = Path(__file__).with_name("item.schema.json")


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class Media(BaseModel):
    """A media candidate and, once checked, its verification record."""

    model_config = ConfigDict(extra="forbid")

    url: str
    kind: MediaKind
    found_in: list[str] = Field(min_length=1)
    variants: list[str] = Field(default_factory=list)
    alt: str | None = None
    context: str | None = None
    furniture: bool = False  # seen only in the site's furniture (a logo in the page header, a menu icon)
    verified: bool = False
    http_status: int | None = None
    content_type: str | None = None
    sniffed_type: str | None = None
    bytes: int | None = None
    final_url: str | None = None
    checked_at: str | None = None
    reason: str | None = None
    path: str | None = None  # stored copy, relative to FILES_STORE (BARA_STORE_MEDIA)
    checksum: str | None = None  # MD5 of the stored copy


class Comment(BaseModel):
    """A reader's comment or reply on the page: its author where the page names one, and its text."""

    model_config = ConfigDict(extra="forbid")

    author: str | None = None
    text: str


class Render(BaseModel):
    """How the page's item was produced: rendered in the browser or served over plain HTTP, and why."""

    model_config = ConfigDict(extra="forbid")

    path: Literal["browser", "http"]
    reason: str  # always | never | probe | audit | pinned | http | site | escalated:<signal> | retry
    compared: Literal["equal", "different", "inconclusive"] | None = None  # probes and audits
    differences: list[str] = Field(default_factory=list)  # links, text, media: where the two differed


class Attempt(BaseModel):
    """One extraction attempt of the reflection history."""

    model_config = ConfigDict(extra="forbid")

    n: int = Field(ge=1)
    instructions: str
    actions: dict[str, Any]
    diagnosis: list[str] = Field(default_factory=list)
    text_chars: int = 0
    images: int = 0
    videos: int = 0
    links: int = 0
    error: str | None = None
    seconds: float = 0.0


class PageItem(BaseModel):
    """One admitted page, whatever happened to it."""

    model_config = ConfigDict(extra="forbid")

    url: str
    final_url: str | None = None
    depth: int = Field(ge=0)
    parent_url: str | None = None
    bfs_index: int = Field(ge=0)
    status: PageStatus = "failed"
    http_status: int | None = None
    title: str = ""  # the page's own headline where the document title is only the site's name
    document_title: str | None = None  # the document's <title>, as served
    text: str = ""
    markdown: str | None = None  # `text` with headings, lists, tables and links; set on every ok page
    comments: list[Comment] = Field(default_factory=list)  # readers' comments and replies, also in `text`
    images: list[Media] = Field(default_factory=list)
    videos: list[Media] = Field(default_factory=list)
    embeds: list[Media] = Field(default_factory=list)
    rejected_media: list[Media] = Field(default_factory=list)
    attempts: list[Attempt] = Field(default_factory=list)
    error: str | None = None
    extractor: str = "dom"
    render: Render | None = None  # set on every page the crawl downloaded
    fetched_at: str = Field(default_factory=utc_now)
