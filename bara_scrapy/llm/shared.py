"""The crawl's one extractor (and its LLM client): built, shared and closed here, and only here.

Built from the crawler's settings on first use, once settings are complete
(add-ons applied), and kept per crawler: the spider extracts with it and
`ReflectionMiddleware` rewrites plans with its client, without either
reaching into the other. When the spider closes, this module records the
client's counters (`bara/llm/client/...`) and closes it.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.crawler import Crawler

from ..config import BaraConfig
from ..extraction.base import Extractor
from .extractor import build_extractor

_EXTRACTORS: WeakKeyDictionary[Crawler, Extractor] = WeakKeyDictionary()


def extractor_for(crawler: Crawler) -> Extractor:
    """The crawl's extractor: `DomExtractor`, or `LlmExtractor` when BARA_LLM_MODEL and a key are set."""
    extractor = _EXTRACTORS.get(crawler)
    if extractor is None:
        extractor = build_extractor(BaraConfig.from_crawler(crawler))
        _EXTRACTORS[crawler] = extractor

        async def close() -> None:
            await close_extractor(crawler, extractor)

        crawler.signals.connect(close, signal=signals.spider_closed, weak=False)
    return extractor


def llm_client_for(crawler: Crawler) -> Any:
    """The crawl's LLM client, or None when extraction is DOM only."""
    return getattr(extractor_for(crawler), "client", None)


async def close_extractor(crawler: Crawler, extractor: Extractor) -> None:
    """Record the LLM client's counters in the stats and close it (nothing to do for the DOM extractor)."""
    client = getattr(extractor, "client", None)
    if client is not None:
        for key, value in client.counters.items():
            crawler.stats.set_value(f"bara/llm/client/{key}", value)
    aclose = getattr(extractor, "aclose", None)
    if aclose is not None:
        await aclose()
