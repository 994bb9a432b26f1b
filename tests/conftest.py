"""Shared fixtures. pytest-twisted installs the asyncio reactor (see pyproject addopts)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fake_openai import FakeOpenAI


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    """A local server speaking the OpenAI chat-completions protocol with scripted replies."""
    with FakeOpenAI() as server:
        yield server
