"""The extraction seam: a snapshot in, page text and media candidates out.

The deterministic DOM extractor and the optional LLM extractor implement the
same protocol over the same `PageSnapshot`, so reflection and verification
never care which one ran.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, Field

from ..items import Comment, Media
from ..snapshot import PageSnapshot
from .blocks import Block


class Extraction(BaseModel):
    title: str = ""  # the page's own headline when the document title is only the site's name
    document_title: str = ""
    text: str = ""
    markdown: str = ""  # the same content as `text`, with headings, lists, tables and links
    blocks: list[Block] = Field(default_factory=list, exclude=True)  # what both were written from
    comments: list[Comment] = Field(default_factory=list)  # readers' comments, also in `text`
    images: list[Media] = Field(default_factory=list)
    videos: list[Media] = Field(default_factory=list)
    embeds: list[Media] = Field(default_factory=list)
    # candidates that could not become media (e.g. blob: video with no network URL)
    unresolved: list[str] = Field(default_factory=list)
    extractor: str = "dom"
    fingerprint: str = ""  # the page's blocks by place and words, for its children (`template.py`)
    template_lines: int = 0  # lines left out as the site's template (the parent shows them at the same place)


class Extractor(Protocol):
    name: str

    async def extract(self, snapshot: PageSnapshot) -> Extraction: ...
