"""A slow Redis holds the shared frontier's calls, never the reactor: pages go on being processed."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.misc import build_from_crawler
from twisted.internet import reactor
from twisted.web.client import Agent, readBody

from bara_scrapy.frontier.middleware import FrontierMiddleware
from bara_scrapy.frontier.shared import SharedFrontier
from bara_scrapy.page import page_state

from ..aio import aio
from ..crawl_utils import one_page_site
from ..redis_hold import RedisProxy
from ..service_utils import RedisServer
from .test_middlewares import make_crawler, started


class HoldingProxy(RedisProxy):
    """A proxy to Redis that holds Redis's answers while `flowing` is clear (a slow Redis, on demand)."""

    def __init__(self, target_port: int) -> None:
        self.flowing = threading.Event()
        self.flowing.set()
        self.answers_held = threading.Event()  # an answer arrived while held
        super().__init__(target_port)

    def passes(self, data: bytes, to_redis: bool) -> bool:
        if not to_redis and not self.flowing.is_set():
            self.answers_held.set()
            self.flowing.wait()
        return True

    def close(self) -> None:
        self.flowing.set()
        super().close()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


async def fetch(url: str) -> bytes:
    """A page over HTTP through the reactor, as the crawl's downloads go."""
    response = await maybe_deferred_to_future(Agent(reactor).request(b"GET", url.encode()))
    return await maybe_deferred_to_future(readBody(response))  # type: ignore[no-any-return]


@aio
async def test_a_worker_goes_on_fetching_pages_while_redis_holds_its_answer(redis_server: RedisServer) -> None:
    proxy = HoldingProxy(redis_server.port)
    crawler = make_crawler(BARA_FRONTIER_URL=f"redis://127.0.0.1:{proxy.port}/0", BARA_FRONTIER_KEY="bara:{slow}")
    crawled: list[Request] = []
    crawler.engine = SimpleNamespace(crawl=crawled.append)  # type: ignore[assignment]
    mw = build_from_crawler(FrontierMiddleware, crawler)
    shared = mw.frontier
    assert isinstance(shared, SharedFrontier)
    mw.spider_opened(crawler.spider)
    shared.loop.stop()  # the test takes the loop's steps itself
    try:
        await started(mw)  # the seed, admitted into Redis
        proxy.flowing.clear()  # from now on Redis's answers wait in the proxy
        step = shared.tick()  # renew and lease: returns at once, its Redis calls wait off the reactor
        assert step is not None and not step.called
        with one_page_site("<html><body><p>A page fetched while Redis is slow.</p></body></html>") as site:
            assert b"while Redis is slow" in await fetch(site.url("/"))
        await asyncio.get_running_loop().run_in_executor(None, proxy.answers_held.wait)
        assert not step.called and crawled == []  # the step was waiting for Redis all along
        proxy.flowing.set()
        await maybe_deferred_to_future(step)
        assert [page_state(r).admission.bfs_index for r in crawled] == [0]  # type: ignore[union-attr]
    finally:
        await mw.spider_closed(crawler.spider)
        proxy.close()
