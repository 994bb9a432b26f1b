"""The deterministic extractor: main text via trafilatura, media from candidates."""

from __future__ import annotations

import asyncio

from ..instructions import Instructions
from ..snapshot import PageSnapshot
from .base import Extraction
from .media import build_media
from .text import main_text

# Offload text extraction of pages larger than this to a thread.
THREAD_ABOVE_CHARS = 200_000


def extract_dom(snapshot: PageSnapshot) -> Extraction:
    """Pure: the page's title, main text and media candidates."""
    title, text = main_text(snapshot.html, snapshot.final_url, snapshot.body_text)
    media = build_media(snapshot.candidates, snapshot.network)
    return Extraction(
        title=title or snapshot.title,
        text=text,
        images=media.images,
        videos=media.videos,
        embeds=media.embeds,
        unresolved=media.unresolved,
        extractor="dom",
    )


class DomExtractor:
    name = "dom"

    async def extract(self, snapshot: PageSnapshot, instructions: Instructions) -> Extraction:
        if len(snapshot.html) > THREAD_ABOVE_CHARS:
            return await asyncio.to_thread(extract_dom, snapshot)
        return extract_dom(snapshot)
