"""The `bara` spider: one item per admitted page, links handed to the BFS middlewares."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.http import Response

from .. import logs
from ..config import SPIDER_ARG_SETTINGS, BaraConfig, validate_limit, validate_seed
from ..extraction.base import Extraction, Extractor
from ..extraction.dom import DomExtractor
from ..items import PageItem, Render
from ..links import PageLinks
from ..llm.shared import extractor_for
from ..page import ERROR_STATUSES, PageState, page_state
from ..reflection.outcome import attempt_outcome
from ..render.policy import Observation
from ..render.served import observe, result_of
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
        self.extractor = extractor_for(self.crawler)  # built and closed by `llm.shared`
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

    async def _observe(self, state: PageState, snapshot: PageSnapshot, extraction: Extraction | None) -> Observation:
        """What the page taught its pattern: a probe's or an audit's two results through the same extractor."""
        assert state.plan is not None and state.served is not None
        c = self.config
        result = functools.partial(result_of, seed=c.seed_url, scope=c.scope, policy=c.deny_policy)
        this = result(snapshot.links, extraction) if extraction is not None else None
        rendered = this if state.served.path == "browser" else None
        http = this if state.served.path == "http" else None
        side = state.http_snapshot
        if state.plan.compare and side is not None and rendered is not None:
            side = side.model_copy(update={"parent_template": state.admission.parent_template})
            http = result(side.links, await self.extractor.extract(side))
        observation = observe(state.plan, state.served, rendered, http, bool(state.signals), len(snapshot.body_text))
        if state.served.compared:
            self.crawler.stats.inc_value(f"bara/render/compared/{state.served.compared}")
        return observation

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
            # the parent's lines at the same place are the site's template (`extraction.template`)
            extraction = await self.extractor.extract(
                snapshot.model_copy(update={"parent_template": page.parent_template}))
            state.template = extraction.fingerprint  # for the pages this one admits
            self._count_llm(extraction)
            if extraction.template_lines:
                self.crawler.stats.inc_value("bara/text/template_lines", extraction.template_lines)
            if extraction.unresolved:  # blob: players with no manifest/file in the network log
                self.crawler.stats.inc_value("bara/verify/rejected/unresolvable_blob", len(extraction.unresolved))
        item.title = extraction.title or snapshot.title
        item.document_title = (extraction.document_title or snapshot.title) if usable else None
        item.text = extraction.text
        item.comments = extraction.comments
        item.markdown = extraction.markdown if usable else None
        item.images, item.videos, item.embeds = extraction.images, extraction.videos, extraction.embeds
        item.extractor = extraction.extractor
        if state.served is not None and not failure:
            if state.plan is not None and state.observation is None:  # the first attempt of an `auto` page
                state.observation = await self._observe(state, snapshot, extraction if usable else None)
            item.render = Render.model_validate(state.served.record())
        if snapshot.scroll_steps:
            self.crawler.stats.inc_value("bara/scroll/attempts")
            self.crawler.stats.inc_value("bara/scroll/steps", snapshot.scroll_steps)
        # reported to reflection, which records it in the history (the item comes next)
        state.outcome = attempt_outcome(ins, failure, item, snapshot, extraction, usable)
        yield item
        if not usable:
            return
        yield PageLinks(tuple(snapshot.links))  # selected by LinkWidthMiddleware, admitted by the frontier

