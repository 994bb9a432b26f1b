"""Run asyncio tests on the reactor's loop (pytest-twisted with the asyncio reactor)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest_twisted
from scrapy.utils.defer import deferred_from_coro

_F = TypeVar("_F", bound=Callable[..., Awaitable[Any]])


def aio(test: _F) -> _F:
    """Decorate an `async def` test so it runs on the reactor's asyncio loop."""

    @functools.wraps(test)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        return await deferred_from_coro(test(*args, **kwargs))

    return pytest_twisted.ensureDeferred(wrapper)  # type: ignore[no-any-return]
