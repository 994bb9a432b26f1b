"""Run `bara` crawls in-process for the bench: several at once, one feed file each.

Crawls share one Twisted reactor (asyncio) and run through
`AsyncCrawlerRunner`; each crawl has its own browser. A semaphore bounds how
many run at once, which on 2 cores is what keeps the whole bench fast.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy.crawler import AsyncCrawlerRunner
from scrapy.settings import Settings
from scrapy.utils.project import get_project_settings

from ..spiders.bara import BaraSpider

NO_SCROLL = "bara_scrapy.bench.ablations.NoScrollMiddleware"
BUDGET = "bara_scrapy.frontier.middleware.FrontierMiddleware"
DEPTH_FIRST_BUDGET = "bara_scrapy.bench.ablations.DepthFirstFrontierMiddleware"
# name -> setting overrides; "what each component buys" is read off these rows.
VARIANTS: dict[str, dict[str, Any]] = {
    "full": {"BARA_RENDER": "always"},
    "no_reflection": {"BARA_MAX_ATTEMPTS": 1},
    "no_verification": {"BARA_VERIFY_MEDIA": False},
    "no_scroll": {"DOWNLOADER_MIDDLEWARES": {NO_SCROLL: 545}},  # after BrowserMiddleware (540)
    "dfs": {
        "SPIDER_MIDDLEWARES": {BUDGET: None, DEPTH_FIRST_BUDGET: 820},
        "DEPTH_PRIORITY": -1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleLifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.LifoMemoryQueue",
        "CONCURRENT_REQUESTS": 2,
    },
    "http": {"BARA_BROWSER_ENABLED": False},
    "auto": {"BARA_RENDER": "auto"},
}
VARIANT_NOTES = {
    "full": "BaRA: BFS + browser + scrolling + reflection + verification",
    "no_reflection": "A=1: no second attempt",
    "no_verification": "media returned without download verification",
    "no_scroll": "no scrolling in any attempt",
    "dfs": "depth-first expansion with the same page budget",
    "http": "plain HTTP, no browser (no JavaScript)",
    "auto": "BARA_RENDER=auto: rendered only where evidence says it changes the result",
}
BENCH_SETTINGS: dict[str, Any] = {
    "LOG_LEVEL": "ERROR",
    "CONCURRENT_REQUESTS": 8,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "BARA_PAGE_TIMEOUT": 20.0,
    "BARA_SCROLL_PAUSE": 0.1,  # every bench server is on loopback
    "TELNETCONSOLE_ENABLED": False,
}


@dataclass(frozen=True)
class CrawlJob:
    key: str  # unique name: output file stem
    seed: str
    args: dict[str, Any] = field(default_factory=dict)  # spider arguments (max_depth, ...)
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class CrawlResult:
    job: CrawlJob
    items: list[dict[str, Any]]
    seconds: float
    stats: dict[str, Any]
    error: str | None = None


def read_items(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def job_settings(job: CrawlJob, feed: Path, base: Settings | None = None) -> Settings:
    settings = (base or get_project_settings()).copy()
    settings.setdict({**BENCH_SETTINGS, **job.settings}, priority="cmdline")
    settings.set("FEEDS", {str(feed): {"format": "jsonlines", "overwrite": True}}, priority="cmdline")
    return settings


async def run_jobs(
    jobs: list[CrawlJob],
    out_dir: Path,
    *,
    parallel: int = 3,
    progress: Callable[[CrawlResult, int, int], None] | None = None,
) -> list[CrawlResult]:
    """Run every job (at most `parallel` at once); results in job order."""
    out_dir.mkdir(parents=True, exist_ok=True)
    gate = asyncio.Semaphore(max(1, parallel))
    done = 0
    base = get_project_settings()

    async def one(job: CrawlJob) -> CrawlResult:
        nonlocal done
        async with gate:
            feed = out_dir / f"{job.key}.jsonl"
            runner = AsyncCrawlerRunner(job_settings(job, feed, base))
            crawler = runner.create_crawler(BaraSpider)
            started = time.monotonic()
            error = None
            try:
                await runner.crawl(crawler, seed=job.seed, **job.args)
            except Exception as exc:  # a crawl that cannot start is a result, not a crash
                error = f"{type(exc).__name__}: {exc}"
                logging.getLogger(__name__).error("crawl %s failed: %s", job.key, error)
            stats = dict(crawler.stats.get_stats()) if crawler.stats else {}
            result = CrawlResult(job, read_items(feed), time.monotonic() - started, stats, error)
        done += 1
        if progress is not None:
            progress(result, done, len(jobs))
        return result

    return list(await asyncio.gather(*(one(job) for job in jobs)))


def run_in_reactor(main: Callable[[], Awaitable[Any]]) -> Any:
    """Install the asyncio reactor, run `main()` to completion, return its result."""
    from scrapy.utils.defer import deferred_from_coro
    from scrapy.utils.log import configure_logging
    from scrapy.utils.reactor import install_reactor

    install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    from twisted.internet import reactor as _reactor

    reactor: Any = _reactor

    configure_logging({"LOG_LEVEL": "ERROR", "LOG_INSTALL_ROOT_HANDLER": True})
    box: dict[str, Any] = {}

    def finish(result: Any) -> None:
        box["result"] = result
        reactor.stop()

    deferred = deferred_from_coro(main())
    deferred.addBoth(finish)
    reactor.run()
    result: Any = box.get("result")
    if hasattr(result, "raiseException"):  # a twisted Failure
        result.raiseException()
    return result
