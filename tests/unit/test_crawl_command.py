"""`scrapy crawl` (bara's command): what it does after the crawl, without running one."""

from __future__ import annotations

import argparse
import contextlib
import gc
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy.settings import Settings

from bara_scrapy.commands.crawl import Command


class _Loader:
    def load(self, name: str) -> Any:
        raise KeyError(name)  # not bara's spider: no argument, feed or Chromium checks


class _Process:
    """A crawler process whose crawl records what it was given and whose `start` may raise."""

    def __init__(self, fail: bool = False) -> None:
        self.spider_loader = _Loader()
        self.bootstrap_failed = False
        self.fail = fail
        self.crawled: list[Any] = []
        self.frozen_during_start: int | None = None

    def create_crawler(self, name: str) -> Any:
        return SimpleNamespace(name=name, stats=None, signals=SimpleNamespace(connect=lambda *a, **k: None))

    def crawl(self, crawler: Any, **kwargs: Any) -> None:
        self.crawled.append(crawler)

    def start(self) -> None:
        self.frozen_during_start = gc.get_freeze_count()
        if self.fail:
            raise RuntimeError("reactor failed")


def _command(process: _Process) -> Command:
    command = Command()
    command.settings = Settings()
    command.crawler_process = process  # type: ignore[assignment]
    return command


@pytest.mark.parametrize("fail", [False, True])
def test_objects_are_frozen_once_the_crawl_is_over(fail: bool) -> None:
    """The interpreter's exit then has nothing to collect: frozen after `start`, not before, also when it raised."""
    gc.unfreeze()
    process = _Process(fail=fail)
    try:
        with pytest.raises(RuntimeError) if fail else contextlib.nullcontext():
            _command(process).run(["other"], argparse.Namespace(spargs={}))
        assert [c.name for c in process.crawled] == ["other"]
        assert process.frozen_during_start == 0
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # the test process goes on collecting
