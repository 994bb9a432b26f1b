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
from ..frontier import Admission
from ..instructions import Instructions
from ..items import PageItem
from ..llm.extractor import build_extractor
from ..reflection import AttemptOutcome
from ..snapshot import PageSnapshot
from ..urls import canonicalize

# Error pages reach the callback (and become items); redirects are still followed.
ERROR_STATUSES = list(range(400, 600))
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
        self.extractor = build_extractor(self.config)
        self.crawler.signals.connect(self._close_extractor, signal=signals.spider_closed)
        url = canonicalize(self.seed)
        yield Request(url, meta={"bara_page": self._page_meta(url)}, dont_filter=True)

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

    def _page_meta(self, url: str, depth: int = 0, bfs_index: int = 0, parent: str | None = None) -> dict[str, Any]:
        return {"url": url, "seed": canonicalize(self.seed), "scope": self.config.scope,
                "depth": depth, "bfs_index": bfs_index, "parent_url": parent}

    def page_request(
        self,
        adm: Admission,
        instructions: Instructions | None = None,
        outcomes: list[AttemptOutcome] | None = None,
        attempts: list[dict[str, Any]] | None = None,
        priority: int = 0,
    ) -> Request:
        """The request for one attempt at an admitted page (plain, picklable meta)."""
        ins = instructions or self.config.first_instructions()
        return Request(
            adm.url,
            callback=self.parse_page,
            dont_filter=True,
            priority=priority - adm.depth,
            meta={
                "bara_page": self._page_meta(adm.url, adm.depth, adm.bfs_index, adm.parent_url),
                "bara_instructions": ins.model_dump(),
                "bara_outcomes": list(outcomes or []),
                "bara_attempts": list(attempts or []),
                "depth": adm.depth,
                "handle_httpstatus_list": ERROR_STATUSES,
            },
        )

    async def parse_page(self, response: Response) -> AsyncIterator[Any]:
        meta = response.meta
        page = meta["bara_page"]
        ins = Instructions.model_validate(meta.get("bara_instructions") or {})
        snapshot: PageSnapshot = meta.get("bara_snapshot") or PageSnapshot(url=page["url"], final_url=response.url)
        failure = meta.get("bara_failure")
        item = PageItem(
            url=page["url"], depth=page["depth"], parent_url=page["parent_url"], bfs_index=page["bfs_index"],
            final_url=None if failure else (snapshot.final_url or response.url),
            http_status=None if failure else response.status,
        )
        not_html = any(e.startswith("not_html") for e in snapshot.errors)
        usable = not failure and not snapshot.offsite_navigation and not not_html and 200 <= response.status < 300
        extraction = Extraction()
        if usable and (snapshot.html or snapshot.body_text):
            extraction = await self.extractor.extract(snapshot, ins)
            self._count_llm(extraction)
            if extraction.unresolved:  # blob: players with no manifest/file in the network log
                self.crawler.stats.inc_value("bara/verify/rejected/unresolvable_blob", len(extraction.unresolved))
        item.title = extraction.title or snapshot.title
        item.text = extraction.text
        item.markdown = extraction.markdown if usable else None
        item.images, item.videos, item.embeds = extraction.images, extraction.videos, extraction.embeds
        item.extractor = extraction.extractor
        meta["bara_outcome"] = AttemptOutcome(
            instructions=ins,
            error_type=failure["type"] if failure else None,
            error_message=failure["message"] if failure else "",
            http_status=item.http_status,
            content_type=snapshot.content_type,
            offsite_navigation=snapshot.offsite_navigation or (failure or {}).get("offsite"),
            navigation_block=snapshot.navigation_block,
            text_chars=len(item.text),
            images=len(item.images),
            videos=len(item.videos),
            markers=snapshot.markers,
            unresolved_media=len(extraction.unresolved),
            scroll_truncated=snapshot.scroll_truncated,
            scroll_steps=snapshot.scroll_steps,
        )
        meta["bara_seconds"] = round(time.time() - float(meta.get("bara_attempt_started") or time.time()), 3)
        yield item
        if not usable:
            return
        for link in snapshot.links:
            try:
                yield Request(link, meta={"bara_link": True}, dont_filter=True)
            except ValueError:
                continue
