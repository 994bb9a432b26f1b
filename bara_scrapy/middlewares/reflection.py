"""Reflection: diagnose each attempt from its history and retry with rewritten instructions.

Two halves, as in Scrapy's own retry design:

* `ReflectionDownloaderMiddleware` turns a page request's download exception
  (after Scrapy's RetryMiddleware gave up) into a response whose page state
  records the failure, so every attempt reaches the spider and every admitted
  page yields exactly one item.
* `ReflectionMiddleware` (spider) records the attempt the spider reported in
  the page state (`PageState.outcome`, set before the item is yielded) in the
  attempt history, diagnosing it once, and either yields the next attempt's request
  (`reflection_retry_request`: rewritten instructions, own counter, same
  `bfs_index`, scope re-checked by `ScopeGuardMiddleware`) in place of this
  attempt's output, or finalises the item's status, error and attempt
  history and lets it through.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response

from ..config import BaraConfig
from ..items import PageItem
from ..llm.reflect import llm_rewrite_result
from ..llm.shared import llm_client_for
from ..page import DOCUMENT_ERROR_KEY, DownloadFailure, PageState, page_state, retry_request
from ..reflection import explain, final_status, next_instructions
from .scope import OffsiteRedirect

logger = logging.getLogger(__name__)


class ReflectionDownloaderMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReflectionDownloaderMiddleware:
        return cls(crawler)

    def process_exception(self, request: Request, exception: Exception) -> Response | None:
        state = page_state(request)
        if state is None:
            return None
        # every IgnoreRequest (robots, scope) is reported under the base name
        kind = "IgnoreRequest" if isinstance(exception, IgnoreRequest) else type(exception).__name__
        message = str(exception).splitlines()[0][:300] if str(exception) else ""
        document_error = request.meta.pop(DOCUMENT_ERROR_KEY, None)
        if document_error:  # what the route handler met fetching the document (Chromium says only ERR_FAILED)
            kind, message = document_error
        offsite = request.url if isinstance(exception, OffsiteRedirect) else None
        state.failure = DownloadFailure(kind, message, offsite)
        self.crawler.stats.inc_value(f"bara/reflection/exception/{kind}")
        return Response(url=request.url, status=200, request=request, flags=["bara_failure"])


async def reflection_retry_request(
    state: PageState, max_attempts: int, client: Any = None, stats: Any = None
) -> Request | None:
    """The next attempt at the page whose last attempt ends `state.history`, or None to stop.

    Whether to retry is rule-based (`next_instructions`); an available LLM
    client may rewrite the plan. Like Scrapy's `get_retry_request`, the caller
    yields what this returns.
    """
    history = state.outcomes()
    following = next_instructions(history, max_attempts, diagnoses=[t.diagnosis for t in state.history])
    if following is not None and client is not None and client.available:
        rewritten = await llm_rewrite_result(client, history, following)
        if stats is not None:
            stats.inc_value(f"bara/llm/reflection/{rewritten.source}/{rewritten.reason}")
        following = rewritten.instructions
    return None if following is None else retry_request(state, following)


class ReflectionMiddleware:
    def __init__(self, crawler: Crawler, config: BaraConfig) -> None:
        self.crawler = crawler
        self.config = config

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReflectionMiddleware:
        return cls(crawler, BaraConfig.from_crawler(crawler))

    async def process_spider_output(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        state = page_state(response)
        if state is None:
            async for obj in result:
                yield obj
            return
        retried = False
        async for obj in result:
            if retried:
                continue  # the retried attempt's item and links are dropped
            if isinstance(obj, PageItem) and state.outcome is not None:
                retry = await self._reflect(state, obj)
                if retry is not None:
                    retried = True
                    yield retry
                    continue
            yield obj

    async def _reflect(self, state: PageState, item: PageItem) -> Request | None:
        """Record the reported attempt; the retry to yield in place of the output, or None (item finalised)."""
        outcome, state.outcome = state.outcome, None
        assert outcome is not None
        kinds = state.record(outcome, time.time()).diagnosis
        stats = self.crawler.stats
        for kind in kinds:
            stats.inc_value(f"bara/reflection/{kind}")
        retry = await reflection_retry_request(state, self.config.max_attempts, llm_client_for(self.crawler), stats)
        if retry is not None:
            stats.inc_value("bara/reflection/retries")
            logger.info("Reflection: retrying %s (attempt %d, %s)", state.url, len(state.history) + 1,
                        ", ".join(kinds))
            return retry
        found = outcome.images + outcome.videos
        status, error = final_status(list(kinds), outcome.text_chars, found, outcome.error,
                                     attempts=len(state.history), detail=explain(outcome))
        item.attempts = state.attempts()
        item.status, item.error = status, error
        if status != "ok":
            logger.warning("Page %s ended %s: %s", item.url, status, error)
        return None
