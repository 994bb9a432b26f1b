"""Live progress: one log line every `BARA_PROGRESS_INTERVAL` seconds, the same numbers in the stats at the end.

    bara progress: admitted 120 / done 98 / budget 300 | ok 90, incomplete 5, failed 3 | 45.2 pages/min |
    verified 310 images, 12 videos | eta 29s (budget 4m 26s)

`eta` is the time to finish the pages admitted so far at the current rate; `budget` the time to reach
the page budget P (the crawl may end earlier, when the site runs out of pages).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import AsyncioLoopingCall, create_looping_call

from ..config import BaraConfig

logger = logging.getLogger(__name__)

STATUSES = ("ok", "incomplete", "failed")


@dataclass(frozen=True)
class Progress:
    admitted: int
    done: int
    budget: int
    elapsed: float  # seconds since the crawl opened
    by_status: dict[str, int] = field(default_factory=dict)
    images: int = 0
    videos: int = 0

    @property
    def pages_per_min(self) -> float:
        return 60.0 * self.done / self.elapsed if self.elapsed > 0 else 0.0

    def _eta(self, pages_left: int) -> float | None:
        rate = self.pages_per_min / 60.0
        return max(pages_left, 0) / rate if rate > 0 else None

    @property
    def eta_seconds(self) -> float | None:
        """Time to finish the admitted pages at the current rate (None before the first page)."""
        return self._eta(self.admitted - self.done)

    @property
    def budget_eta_seconds(self) -> float | None:
        return self._eta(self.budget - self.done)


def progress_from_stats(stats: Mapping[str, Any], budget: int, elapsed: float) -> Progress:
    """Read a progress snapshot from Scrapy stats.

    >>> p = progress_from_stats({"bara/pages/admitted": 12, "bara/items/ok": 5, "bara/items/failed": 1,
    ...                          "bara/media/images": 7}, budget=20, elapsed=30.0)
    >>> p.done, p.pages_per_min, p.eta_seconds, p.budget_eta_seconds, p.by_status
    (6, 12.0, 30.0, 70.0, {'ok': 5, 'incomplete': 0, 'failed': 1})
    """
    by_status = {s: int(stats.get(f"bara/items/{s}", 0)) for s in STATUSES}
    return Progress(
        admitted=int(stats.get("bara/pages/admitted", 0)), done=sum(by_status.values()), budget=budget,
        elapsed=elapsed, by_status=by_status,
        images=int(stats.get("bara/media/images", 0)), videos=int(stats.get("bara/media/videos", 0)),
    )


def duration(seconds: float | None) -> str:
    """
    >>> duration(None), duration(42.4), duration(266), duration(7322)
    ('?', '42s', '4m 26s', '2h 2m')
    """
    if seconds is None:
        return "?"
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60}s"
    return f"{s // 3600}h {s % 3600 // 60}m"


def format_progress(p: Progress) -> str:
    statuses = ", ".join(f"{s} {n}" for s, n in p.by_status.items())
    return (
        f"bara progress: admitted {p.admitted} / done {p.done} / budget {p.budget} | {statuses} | "
        f"{p.pages_per_min:.1f} pages/min | verified {p.images} images, {p.videos} videos | "
        f"eta {duration(p.eta_seconds)} (budget {duration(p.budget_eta_seconds)})"
    )


def progress_stats(p: Progress) -> dict[str, float | int]:
    """The final snapshot as `bara/progress/...` stats."""
    values: dict[str, float | int] = {
        "bara/progress/admitted": p.admitted, "bara/progress/done": p.done, "bara/progress/budget": p.budget,
        "bara/progress/pages_per_min": round(p.pages_per_min, 2),
        "bara/progress/elapsed_seconds": round(p.elapsed, 1),
        "bara/progress/verified_images": p.images, "bara/progress/verified_videos": p.videos,
    }
    values.update({f"bara/progress/status/{s}": n for s, n in p.by_status.items()})
    return values


class ProgressExtension:
    """Log `format_progress` every interval (Scrapy's LogStats shape); `tick()` is one step."""

    clock: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(self, crawler: Crawler, interval: float) -> None:
        self.crawler = crawler
        self.interval = interval
        self.started: float | None = None
        self.lines = 0
        self.task: AsyncioLoopingCall | Any | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProgressExtension:
        interval = BaraConfig.from_crawler(crawler).reporting.progress_interval
        if interval <= 0:
            logger.debug("no progress lines: BARA_PROGRESS_INTERVAL is 0")
            raise NotConfigured
        ext = cls(crawler, interval)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.started = self.clock()
        self.task = create_looping_call(self.tick)
        self.task.start(self.interval, now=False)

    def snapshot(self) -> Progress:
        budget = BaraConfig.from_crawler(self.crawler).max_pages
        elapsed = self.clock() - self.started if self.started is not None else 0.0
        return progress_from_stats(self.crawler.stats.get_stats(), budget, elapsed)

    def tick(self) -> Progress:
        progress = self.snapshot()
        self.lines += 1
        logger.info(format_progress(progress))
        return progress

    def spider_closed(self) -> None:
        if self.task is not None and self.task.running:
            self.task.stop()
        progress = self.tick()
        for name, value in progress_stats(progress).items():
            self.crawler.stats.set_value(name, value)
        self.crawler.stats.set_value("bara/progress/lines", self.lines)
