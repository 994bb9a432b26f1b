"""The deterministic extractor: main text and Markdown (`content.py`), media from candidates."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from ..snapshot import PageSnapshot
from .base import Extraction
from .content import Content, page_content
from .media import build_media
from .template import decode

# Offload text extraction of pages larger than this to a thread.
THREAD_ABOVE_CHARS = 200_000


# A rendered main text this short is compared with the served document's: when a
# script replaced the article after load (error notices, anti-adblock walls,
# failed hydration), the served HTML still holds it.
SHORT_TEXT_CHARS = 1000
SOURCE_FACTOR = 3


def page_text(snapshot: PageSnapshot) -> Content:
    """Title, text and Markdown: the rendered DOM's, or the served HTML's when scripts removed it."""
    parent = decode(snapshot.parent_template)
    content = page_content(snapshot.html, snapshot.final_url, snapshot.body_text, parent)
    if len(content.text) < SHORT_TEXT_CHARS and snapshot.source_html:
        source = page_content(snapshot.source_html, snapshot.final_url, parent=parent)
        if len(source.text) >= max(SOURCE_FACTOR * len(content.text), SHORT_TEXT_CHARS // 2):
            return replace(source, title=content.title or source.title,
                           document_title=content.document_title or source.document_title)
    return content


def extract_dom(snapshot: PageSnapshot) -> Extraction:
    """Pure: the page's title, main text and media candidates."""
    content = page_text(snapshot)
    media = build_media(snapshot.candidates, snapshot.network)
    return Extraction(
        title=content.title or snapshot.title,
        text=content.text,
        markdown=content.markdown,
        blocks=list(content.blocks),
        comments=list(content.comments),
        document_title=content.document_title or snapshot.title,
        images=media.images,
        videos=media.videos,
        embeds=media.embeds,
        unresolved=media.unresolved,
        extractor="dom",
        fingerprint=content.fingerprint,
        template_lines=content.template_lines,
    )


class DomExtractor:
    name = "dom"

    async def extract(self, snapshot: PageSnapshot) -> Extraction:
        if len(snapshot.html) > THREAD_ABOVE_CHARS:
            return await asyncio.to_thread(extract_dom, snapshot)
        return extract_dom(snapshot)
