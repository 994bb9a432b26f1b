"""Shared pieces of the LLM tests: a client for the local FakeOpenAI server."""

from __future__ import annotations

from typing import Any

from bara_scrapy.llm.client import LlmClient, LlmSettings
from tests.fake_openai import FakeOpenAI


def make_client(fake: FakeOpenAI, key: str, **overrides: Any) -> LlmClient:
    """A client of `fake` with a short timeout and near-zero backoff; `overrides` are LlmSettings fields."""
    settings = LlmSettings(
        model=overrides.pop("model", "test-model"),
        base_url=fake.base_url,
        timeout=overrides.pop("timeout", 5.0),
        backoff=overrides.pop("backoff", 0.01),
        **overrides,
    )
    return LlmClient(settings, key)
