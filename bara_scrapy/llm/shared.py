"""The crawl's one extractor (and its LLM client), shared by the spider and reflection.

Built from the crawler's settings on first use, once settings are complete
(add-ons applied), and kept per crawler: the spider extracts with it and
`ReflectionMiddleware` rewrites plans with its client, without either
reaching into the other.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

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
    return extractor


def llm_client_for(crawler: Crawler) -> Any:
    """The crawl's LLM client, or None when extraction is DOM only."""
    return getattr(extractor_for(crawler), "client", None)
