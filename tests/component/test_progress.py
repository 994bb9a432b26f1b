"""Live progress: the pure snapshot and line, and ProgressExtension driven tick by tick (no sleeps)."""

from __future__ import annotations

import logging

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from bara_scrapy.addon import Addon
from bara_scrapy.extensions.progress import Progress, ProgressExtension, format_progress, progress_from_stats


@pytest.mark.parametrize(
    ("stats", "elapsed", "expected"),
    [
        ({}, 0.0, (0, 0.0, None, None)),  # nothing done yet: no rate, no ETA
        ({"bara/pages/admitted": 1}, 30.0, (0, 0.0, None, None)),
        ({"bara/pages/admitted": 10, "bara/items/ok": 10}, 60.0, (10, 10.0, 0.0, 60.0)),
        ({"bara/pages/admitted": 15, "bara/items/ok": 8, "bara/items/incomplete": 1, "bara/items/failed": 1},
         120.0, (10, 5.0, 60.0, 120.0)),
    ],
)
def test_progress_numbers(stats: dict[str, int], elapsed: float, expected: tuple[object, ...]) -> None:
    p = progress_from_stats(stats, budget=20, elapsed=elapsed)
    assert (p.done, p.pages_per_min, p.eta_seconds, p.budget_eta_seconds) == expected


def test_progress_line() -> None:
    p = Progress(admitted=30, done=20, budget=50, elapsed=60.0, by_status={"ok": 15, "incomplete": 3, "failed": 2},
                 images=40, videos=2)
    assert format_progress(p) == (
        "bara progress: admitted 30 / done 20 / budget 50 | ok 15, incomplete 3, failed 2 | 20.0 pages/min | "
        "verified 40 images, 2 videos | eta 30s (budget 1m 30s)"
    )


def test_extension_ticks_and_final_stats(caplog: pytest.LogCaptureFixture) -> None:
    crawler = get_crawler(settings_dict={"BARA_PROGRESS_INTERVAL": 5, "BARA_MAX_PAGES": 50})
    ext = ProgressExtension.from_crawler(crawler)
    now = [100.0]
    ext.clock = lambda: now[0]  # type: ignore[method-assign]
    ext.started = 100.0  # what spider_opened records (it also starts the looping call)
    stats = crawler.stats
    stats.set_value("bara/pages/admitted", 12)
    stats.set_value("bara/items/ok", 4)
    now[0] = 130.0
    with caplog.at_level(logging.INFO, logger="bara_scrapy.extensions.progress"):
        first = ext.tick()
        stats.set_value("bara/pages/admitted", 30)
        stats.set_value("bara/items/ok", 27)
        stats.set_value("bara/items/failed", 3)
        stats.set_value("bara/media/images", 61)
        stats.set_value("bara/media/videos", 5)
        now[0] = 190.0
        ext.spider_closed()
    assert (first.admitted, first.done, first.pages_per_min, first.eta_seconds) == (12, 4, 8.0, 60.0)
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("bara progress: admitted 12 / done 4 / budget 50 | ok 4, incomplete 0, failed 0")
    assert lines[1] == ("bara progress: admitted 30 / done 30 / budget 50 | ok 27, incomplete 0, failed 3 | "
                        "20.0 pages/min | verified 61 images, 5 videos | eta 0s (budget 1m 0s)")
    final = {k: v for k, v in stats.get_stats().items() if k.startswith("bara/progress/")}
    assert final == {
        "bara/progress/admitted": 30, "bara/progress/done": 30, "bara/progress/budget": 50,
        "bara/progress/pages_per_min": 20.0, "bara/progress/elapsed_seconds": 90.0,
        "bara/progress/verified_images": 61, "bara/progress/verified_videos": 5,
        "bara/progress/status/ok": 27, "bara/progress/status/incomplete": 0, "bara/progress/status/failed": 3,
        "bara/progress/lines": 2,
    }


def test_interval_zero_turns_progress_off() -> None:
    with pytest.raises(NotConfigured):
        ProgressExtension.from_crawler(get_crawler(settings_dict={"BARA_PROGRESS_INTERVAL": 0}))


def test_addon_wires_reporting_and_respects_user_exporters() -> None:
    settings = Settings({"FEED_EXPORTERS": {"xml": "myproject.exporters.MyXml"}})
    Addon().update_settings(settings)
    exporters = settings.getdict("FEED_EXPORTERS")
    assert exporters == {"xml": "myproject.exporters.MyXml", "csv": "bara_scrapy.exporters.BaraCsvItemExporter"}
    extensions = {getattr(k, "__name__", k): v for k, v in settings.getdict("EXTENSIONS").items()}
    assert extensions["ProgressExtension"] == 500 and extensions["ReportExtension"] == 510
    pipelines = {getattr(k, "__name__", k): v for k, v in settings.getdict("ITEM_PIPELINES").items()}
    assert pipelines["MediaStorePipeline"] == 400
    assert settings.getfloat("BARA_PROGRESS_INTERVAL") == 10.0 and not settings.getbool("BARA_STORE_MEDIA")
