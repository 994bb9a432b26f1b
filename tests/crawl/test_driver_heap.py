"""The crawl starts one Playwright driver (one download handler serves http and https), with the V8 heap
limit of `BARA_DRIVER_HEAP_MB` (its effect on a long crawl's memory is a benchmark figure,
docs/speed.md), and leaves its own environment as it was."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scrapy import signals

from bara_scrapy.bench.server import SiteServer

from ..crawl_utils import one_page_site, run_crawl


class DriverProbe:
    """Extension of the crawls below: when the spider closes (the browser still up), the NODE_OPTIONS of
    the crawl's Node.js children (Playwright's driver) and of the crawl itself, as stats."""

    def __init__(self, crawler: Any) -> None:
        self.stats = crawler.stats
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> DriverProbe:
        return cls(crawler)

    def spider_closed(self) -> None:
        options = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                exe = os.readlink(f"/proc/{pid}/exe")
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and os.path.basename(exe) == "node":
                found = [e.decode().split("=", 1)[1] for e in environ if e.startswith(b"NODE_OPTIONS=")]
                options.append(found[0] if found else "")
        self.stats.set_value("probe/driver_node_options", options)
        self.stats.set_value("probe/crawl_node_options", os.environ.get("NODE_OPTIONS", "-"))


@pytest.fixture()
def server() -> Iterator[SiteServer]:
    with one_page_site("<html><body><h1>One page</h1><p>Its text, for the extractor to keep.</p></body></html>") as s:
        yield s


@pytest.mark.browser
@pytest.mark.parametrize(("setting", "expected"), [
    (None, "--max-old-space-size=512"), (200, "--max-old-space-size=200"), (0, "")])
def test_one_driver_with_the_heap_limit(server: SiteServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        setting: int | None, expected: str) -> None:
    monkeypatch.delenv("NODE_OPTIONS", raising=False)
    settings: dict[str, object] = {"BARA_ALLOW_PRIVATE_NETWORKS": True, "ROBOTSTXT_OBEY": False,
                                   "EXTENSIONS": f'{{"{__name__}.DriverProbe": 0}}'}
    if setting is not None:
        settings["BARA_DRIVER_HEAP_MB"] = setting
    result = run_crawl(server.url("/"), tmp_path=tmp_path, args={"max_pages": 1}, settings=settings)
    assert [item["status"] for item in result] == ["ok"]
    assert result.stats["probe/driver_node_options"] == [expected]
    assert result.stats["probe/crawl_node_options"] == "-"  # only the driver's environment had it
