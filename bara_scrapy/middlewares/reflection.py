"""Reflection: diagnose each attempt from its history and retry with rewritten instructions.

Two halves, as in Scrapy's own retry design:

* `ReflectionDownloaderMiddleware` turns a page request's download exception
  (after Scrapy's RetryMiddleware gave up) into a response flagged
  `bara_failure`, so every attempt reaches the spider and every admitted page
  yields exactly one item.
* `ReflectionMiddleware` (spider) reads the attempt's outcome, diagnoses it
  (`bara_scrapy.reflection`), and either schedules the next attempt with
  rewritten instructions (own counter, same `bfs_index`, scope re-checked by
  `BrowserMiddleware`) and swallows this attempt's output, or finalises the
  item's status, error and attempt history and lets it through.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response

from ..config import BaraConfig
from ..frontier import Admission
from ..instructions import Instructions
from ..items import Attempt, PageItem
from ..llm.reflect import llm_rewrite_result
from ..reflection import AttemptOutcome, diagnose, final_status_of, next_instructions
from .scope import OffsiteRedirect

logger = logging.getLogger(__name__)


class ReflectionDownloaderMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReflectionDownloaderMiddleware:
        return cls(crawler)

    def process_exception(self, request: Request, exception: Exception) -> Response | None:
        if not request.meta.get("bara_page"):
            return None
        # every IgnoreRequest (robots, scope) is reported under the base name
        kind = "IgnoreRequest" if isinstance(exception, IgnoreRequest) else type(exception).__name__
        message = str(exception).splitlines()[0][:300] if str(exception) else ""
        request.meta["bara_failure"] = {
            "type": kind,
            "message": message,
            "offsite": request.url if isinstance(exception, OffsiteRedirect) else None,
        }
        self.crawler.stats.inc_value(f"bara/reflection/exception/{kind}")
        return Response(url=request.url, status=200, request=request, flags=["bara_failure"])


class ReflectionMiddleware:
    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.config = config

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReflectionMiddleware:
        return cls(crawler, BaraConfig.from_crawler(crawler))

    async def process_spider_output(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        if not response.meta.get("bara_page"):
            async for obj in result:
                yield obj
            return
        held = [obj async for obj in result]  # the spider fills bara_outcome while yielding
        outcome = response.meta.get("bara_outcome")
        item = next((o for o in held if isinstance(o, PageItem)), None)
        if item is None or not isinstance(outcome, AttemptOutcome):
            for obj in held:
                yield obj
            return
        meta = response.meta
        history: list[AttemptOutcome] = [*meta.get("bara_outcomes", []), outcome]
        kinds = diagnose(outcome)
        stats = self.crawler.stats
        for kind in kinds:
            stats.inc_value(f"bara/reflection/{kind}")
        ins = outcome.instructions
        attempt = Attempt(
            n=len(history), instructions=ins.describe(), actions=ins.actions(), diagnosis=kinds,
            text_chars=outcome.text_chars, images=outcome.images, videos=outcome.videos,
            error=outcome.error, seconds=float(meta.get("bara_seconds", 0.0)),
        )
        attempts = [*meta.get("bara_attempts", []), attempt.model_dump()]
        following = next_instructions(history, self.config.max_attempts, kinds)
        client = getattr(getattr(self.crawler.spider, "extractor", None), "client", None)
        if following is not None and client is not None and client.available:
            # the LLM may rewrite the plan; whether to retry stays rule-based
            rewritten = await llm_rewrite_result(client, history, following)
            stats.inc_value(f"bara/llm/reflection/{rewritten.source}/{rewritten.reason}")
            following = rewritten.instructions
        if following is not None:
            self._retry(meta["bara_page"], following, history, attempts, kinds)
            return
        status, error = final_status_of(history)
        item.attempts = [Attempt.model_validate(a) for a in attempts]
        item.status, item.error = status, error
        if status != "ok":
            logger.warning("Page %s ended %s: %s", item.url, status, error)
        for obj in held:
            yield obj

    def _retry(
        self,
        page: dict[str, Any],
        instructions: Instructions,
        history: list[AttemptOutcome],
        attempts: list[dict[str, Any]],
        kinds: list[str],
    ) -> None:
        adm = Admission(url=page["url"], depth=page["depth"], bfs_index=page["bfs_index"],
                        parent_url=page["parent_url"])
        spider: Any = self.crawler.spider
        request: Request = spider.page_request(adm, instructions, history, attempts, priority=1)
        self.crawler.stats.inc_value("bara/reflection/retries")
        logger.info("Reflection: retrying %s (attempt %d, %s)", adm.url, len(history) + 1, ", ".join(kinds))
        assert self.crawler.engine is not None
        self.crawler.engine.crawl(request)
