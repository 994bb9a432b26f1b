"""The `bara` spider: one item per admitted page, links handed to the BFS middlewares."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.http import Response

from .. import logs
from ..config import SPIDER_ARG_SETTINGS, BaraConfig, validate_limit, validate_seed
from ..extraction.base import Extraction, Extractor
from ..extraction.dom import DomExtractor
from ..extraction.hints import unseen_video_urls
from ..instructions import Instructions
from ..items import PageItem
from ..llm.shared import extractor_for
from ..page import ERROR_STATUSES, DownloadFailure, Tried, page_state
from ..reflection import AttemptOutcome
from ..snapshot import PageSnapshot

__all__ = ["ERROR_STATUSES", "BaraSpider"]
# Spider arguments beat settings from any source, `-s` included.
SPIDER_ARG_PRIORITY = 45


class BaraSpider(Spider):
    """Collect a site: `scrapy crawl bara -a seed=https://example.org/`.

    Arguments `max_depth`, `max_width`, `max_pages`, `max_attempts` override
    `DEPTH_LIMIT`, `BARA_MAX_WIDTH`, `BARA_MAX_PAGES`, `BARA_MAX_ATTEMPTS`.
    """

    name = "bara"

    def __init__(self, seed: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed = validate_seed(seed)
        self.extractor: Extractor = DomExtractor()

    @staticmethod
    def check_arguments(kwargs: dict[str, Any]) -> dict[str, int]:
        """Validate spider arguments; return the limit settings they set."""
        validate_seed(kwargs.get("seed"))
        return {
            setting: validate_limit(arg, kwargs[arg])
            for arg, setting in SPIDER_ARG_SETTINGS.items()
            if kwargs.get(arg) is not None
        }

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> BaraSpider:
        for setting, value in cls.check_arguments(kwargs).items():
            crawler.settings.set(setting, value, priority=SPIDER_ARG_PRIORITY)
        crawler.settings.set("BARA_SEED", validate_seed(kwargs.get("seed")), priority=SPIDER_ARG_PRIORITY)
        spider: BaraSpider = super().from_crawler(crawler, *args, **kwargs)
        logs.install()
        return spider

    @property
    def config(self) -> BaraConfig:
        if self._config is None:  # settings are complete (add-ons applied) once the crawl runs
            self._config = BaraConfig.from_crawler(self.crawler)
        return self._config

    _config: BaraConfig | None = None

    async def start(self) -> AsyncIterator[Any]:
        # settings are complete here (add-ons applied): the LLM extractor, if configured
        self.extractor = extractor_for(self.crawler)
        self.crawler.signals.connect(self._close_extractor, signal=signals.spider_closed)
        return  # the frontier middleware admits the seed (`BaraConfig.seed`) and builds its request
        yield

    def _count_llm(self, extraction: Extraction) -> None:
        stats = self.crawler.stats
        if reason := getattr(extraction, "llm_failure", None):
            stats.inc_value(f"bara/llm/fallback/{reason}")
        elif extraction.extractor.startswith("llm:"):
            stats.inc_value("bara/llm/pages")
        if dropped := getattr(extraction, "grounding_dropped", 0):
            stats.inc_value("bara/llm/grounding_dropped", dropped)
        if getattr(extraction, "prompt_truncated", False):
            stats.inc_value("bara/llm/prompt_truncated")

    async def _close_extractor(self) -> None:
        client = getattr(self.extractor, "client", None)
        if client is not None:
            for key, value in client.counters.items():
                self.crawler.stats.set_value(f"bara/llm/client/{key}", value)
        close = getattr(self.extractor, "aclose", None)
        if close is not None:
            await close()

    async def parse(self, response: Response, **kwargs: Any) -> AsyncIterator[Any]:
        """One attempt at a page: its item (reflection decides its fate) and its links."""
        state = page_state(response)
        if state is None:
            return
        page, ins, failure = state.admission, state.instructions, state.failure
        snapshot = state.snapshot or PageSnapshot(url=page.url, final_url=response.url)
        item = PageItem(
            url=page.url, depth=page.depth, parent_url=page.parent_url, bfs_index=page.bfs_index,
            final_url=None if failure else (snapshot.final_url or response.url),
            http_status=None if failure else response.status,
        )
        not_html = any(e.startswith("not_html") for e in snapshot.errors)
        usable = not failure and not snapshot.offsite_navigation and not not_html and 200 <= response.status < 300
        extraction = Extraction()
        if usable and (snapshot.html or snapshot.body_text):
            extraction = await self.extractor.extract(snapshot)
            self._count_llm(extraction)
            if extraction.unresolved:  # blob: players with no manifest/file in the network log
                self.crawler.stats.inc_value("bara/verify/rejected/unresolvable_blob", len(extraction.unresolved))
        item.title = extraction.title or snapshot.title
        item.document_title = (extraction.document_title or snapshot.title) if usable else None
        item.text = extraction.text
        item.comments = extraction.comments
        item.markdown = extraction.markdown if usable else None
        item.images, item.videos, item.embeds = extraction.images, extraction.videos, extraction.embeds
        item.extractor = extraction.extractor
        if snapshot.scroll_steps:
            self.crawler.stats.inc_value("bara/scroll/attempts")
            self.crawler.stats.inc_value("bara/scroll/steps", snapshot.scroll_steps)
        outcome = attempt_outcome(ins, failure, item, snapshot, extraction, usable)
        seconds = round(time.time() - (state.started or time.time()), 3)
        state.history.append(Tried(outcome, seconds))  # ReflectionMiddleware reads it
        yield item
        if not usable:
            return
        for link in snapshot.links:
            try:
                yield Request(link, meta={"bara_link": True}, dont_filter=True)
            except ValueError:
                continue


def attempt_outcome(
    ins: Instructions,
    failure: DownloadFailure | None,
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
        video_hints=_video_hints(snapshot) if usable else 0,
        scroll_truncated=snapshot.scroll_truncated,
        scroll_steps=snapshot.scroll_steps,
    )


def _video_hints(snapshot: PageSnapshot) -> int:
    """Video URLs the page's scripts name but the attempt did not find (only asked when a video has no source)."""
    if not snapshot.markers.empty_videos:
        return 0
    seen = [c.url for c in snapshot.candidates] + [n.url for n in snapshot.network]
    html = snapshot.html or snapshot.source_html
    return unseen_video_urls(html, snapshot.final_url or snapshot.url, seen)
