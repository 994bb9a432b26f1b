"""The speed bench (`scrapy bara-bench --perf`): its figures, its site, its measurement, one tiny run."""

from __future__ import annotations

import itertools
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.perf.figures import (
    milestones,
    page_attempts,
    pss_at_pages,
    quality,
    steady_pages_per_min,
    targets,
    wasted_attempts,
)
from bara_scrapy.bench.perf.floor import STEPS, parse_steps
from bara_scrapy.bench.perf.main import Context, command, row_figures
from bara_scrapy.bench.perf.measure import pss_kb, run_measured
from bara_scrapy.bench.perf.report import markdown, table
from bara_scrapy.bench.perf.site import bfs_paths, build_site, children, depth, page_kind, render, truth_images
from bara_scrapy.bench.perf.variants import LADDER
from bara_scrapy.procs import descendants, parent_of


@pytest.mark.parametrize(("attempts", "wasted"), [
    ([], 0),
    ([{"text_chars": 100}], 0),
    ([{"text_chars": 0}], 1),  # found nothing at all
    ([{"error": "TimeoutError"}, {"text_chars": 100, "images": 1}], 1),
    ([{"text_chars": 100, "images": 1}, {"text_chars": 100, "images": 2}], 0),  # the retry found an image
    ([{"text_chars": 100, "images": 2}, {"text_chars": 120, "images": 1}], 0),  # ... or more text
    ([{"text_chars": 100, "images": 2}, {"text_chars": 100, "images": 2}], 1),  # same again
    ([{"text_chars": 100, "images": 2}, {"text_chars": 50, "images": 1}], 1),  # less than before
    ([{"text_chars": 100}, {"text_chars": 90, "videos": 1}, {"text_chars": 100, "videos": 1}], 1),
    ([{"text_chars": 100}, {"text_chars": 100, "links": 3}], 0),  # links count where recorded
])
def test_wasted_attempts(attempts: list[dict[str, Any]], wasted: int) -> None:
    assert wasted_attempts(attempts) == wasted


def test_page_attempts_reads_bara_items_and_plain_records() -> None:
    bara = {"url": "u", "attempts": [{"n": 1, "text_chars": 10, "images": 0, "videos": 0},
                                     {"n": 2, "text_chars": 10, "images": 0, "videos": 0}]}
    assert [a["text_chars"] for a in page_attempts(bara)] == [10, 10]
    assert wasted_attempts(page_attempts(bara)) == 1
    assert page_attempts({"url": "u", "text": "abc", "images": [{"url": "i"}]}) == [
        {"text_chars": 3, "images": 1, "videos": 0, "links": 0}]


def test_row_figures_count_distinct_pages_attempts_and_recall() -> None:
    truth = {"/": set(), "/p/1": {"/img/a", "/img/b"}}
    records = [
        {"url": "/", "text_chars": 5, "links": ["/p/1"]},
        {"url": "/p/1", "attempts": [{"text_chars": 5, "images": 1}, {"text_chars": 5, "images": 1}],
         "images": [{"url": "/img/a", "kind": "image"}]},
        {"url": "/elsewhere", "text_chars": 5},
    ]
    row = row_figures(records, truth)
    assert row["pages"] == 3 and row["pages_found"] == 2
    assert row["attempts_per_page"] == round(4 / 3, 3) and row["wasted_attempts"] == 1
    assert row["image_recall"] == 0.5


def test_quality_counts_a_page_once_and_ignores_foreign_images() -> None:
    truth = {"/a": {"x"}}
    q = quality([{"url": "/a", "images": ["x", "y"]}, {"url": "/a", "images": ["x"]}], truth)
    assert (q["pages_found"], q["images_found"], q["image_recall"]) == (1, 1, 1.0)
    assert quality([], {"/a": set()})["image_recall"] == 1.0


def test_targets_ratios() -> None:
    rows = [{"variant": v, "concurrency": c, "pages_per_min": r} for v, c, r in [
        ("floor", 1, 60.0), ("floor", 4, 120.0), ("bara", 1, 30.0), ("bara", 4, 90.0), ("spider", 4, 45.0),
        ("bara", 8, 100.0), ("floor", 8, None)]]
    t = targets(rows)
    assert t["bara_over_floor"] == {1: 0.5, 4: 0.75, 8: None}
    assert t["bara_over_floor_best"] == round(100 / 120, 3)
    assert t["bara_over_spider_c4"] == 2.0
    assert targets([])["bara_over_spider_c4"] is None


def test_pss_kb_sums_nothing_but_the_pss_line() -> None:
    rollup = textwrap.dedent("""\
        5583f6a52000-7ffd3a1f7000 ---p 00000000 00:00 0                          [rollup]
        Rss:              123456 kB
        Pss:               65432 kB
        Pss_Dirty:         40000 kB
        Pss_Anon:          30000 kB
        Shared_Clean:      50000 kB
        """)
    assert pss_kb(rollup) == 65432
    assert pss_kb("Rss: 5 kB\n") == 0


def test_process_tree_helpers() -> None:
    assert parent_of("77 (chromium (renderer)) S 12 77 77 0 -1") == 12
    assert descendants(10, {11: 10, 12: 11, 13: 12, 20: 1}) == [11, 12, 13]
    assert descendants(10, {}) == []


def test_pss_milestones_and_steady_rate() -> None:
    assert milestones(2000) == [500, 1000, 1500, 2000] and milestones(2100) == [500, 1000, 1500, 2000]
    samples = [(0, 10), (499, 20), (500, 15), (700, 0), (1000, 12), (1001, 40)]
    assert pss_at_pages(samples, [500, 1000, 1500]) == {500: 20, 1000: 12, 1500: 40}
    assert pss_at_pages(samples, [500, 1000, 2000]) == {500: 20, 1000: 12, 2000: 40}
    assert pss_at_pages([(0, 5)], [10]) == {10: 5} and pss_at_pages([], [10]) == {10: None}
    assert steady_pages_per_min([(0.0, 0), (1.0, 1), (31.0, 31), (40.0, 31)]) == 60.0


def test_site_is_a_bfs_tree_with_the_promised_kinds() -> None:
    perf = build_site(300)
    kinds = {page_kind(i) for i in range(300)}
    assert kinds == {"plain", "lazy", "tall", "feed"}
    seen = [0]
    for i in range(300):  # BFS over the child links is index order
        seen += children(i, 300)
    assert seen == list(range(300))
    assert perf.limits() == {"max_depth": max(depth(i) for i in range(300)), "max_width": 5, "max_pages": 300}
    assert bfs_paths(3) == ["/", "/p/1", "/p/2"]
    for i in range(60):
        html = render(i, 300)
        for image in truth_images(i):  # every truth image is in the page or in its feed script
            name = image.rsplit("/", 1)[1]
            assert name in html or (page_kind(i) == "feed" and f"/img/{i}-f" in html), (i, image)
    assert 'loading="lazy"' in render(1, 300) and "data-src" in render(3, 300)
    assert "IntersectionObserver" in render(5, 300)


def test_variant_commands(tmp_path: Path) -> None:
    ctx = Context(build_site(12), "http://127.0.0.1:1", tmp_path)
    feed = tmp_path / "f.jsonl"
    assert command("floor", ctx, feed, 2)[-3:] == [str(tmp_path / "urls.txt"), str(feed), "2"]
    bara = command("bara", ctx, feed, 4)
    assert bara[2:5] == ["scrapy", "crawl", "bara"] and "seed=http://127.0.0.1:1/" in bara
    assert "CONCURRENT_REQUESTS=4" in bara and "CONCURRENT_REQUESTS_PER_DOMAIN=4" in bara
    assert "max_pages=12" in bara and "BARA_VERIFY_MEDIA=False" not in bara
    assert "BARA_VERIFY_MEDIA=False" in command("bara_noverify", ctx, feed, 4)
    assert "BARA_PAGE_REUSE=0" in command("bara_newtab", ctx, feed, 4) and "BARA_PAGE_REUSE" not in " ".join(bara)
    assert "BARA_SCROLL_ALL=True" in command("bara_scrollall", ctx, feed, 4) and "BARA_SCROLL_ALL" not in " ".join(bara)
    assert f"BARA_WARC={tmp_path}/warc/bara-c4-r1.warc.gz" in command("bara_warc", ctx, feed, 4)
    assert f"BARA_WARC={tmp_path}/warc/bara-c4-r2.warc.gz" in command("bara_warc", ctx, feed, 4, run=2)
    assert "BARA_WARC" not in " ".join(bara)
    assert command("http", ctx, feed, 1)[2] == "bara_scrapy.bench.perf.http_spider"
    # the ladder: the floor's command with one more of bara's browser steps each rung
    floor = command("floor", ctx, feed, 4)
    rungs = [command(v, ctx, feed, 4) for v in LADDER]
    assert all(r[:-1] == floor for r in rungs)
    steps = [parse_steps(r[-1]) for r in rungs]
    assert all(a < b for a, b in itertools.pairwise(steps)) and steps[-1] == set(STEPS)


def test_markdown_names_the_targets() -> None:
    data = {"machine": {"cores": 2, "chromium": "C", "loadavg_start": [0.1], "loadavg_end": [0.2]},
            "site": {"pages": 3}, "notes": {"floor": "bare"},
            "rows": [{"variant": "floor", "concurrency": 4, "pages": 3, "pages_per_min": 9.0}],
            "targets": targets([]), "long": None}
    text = markdown(data)
    assert "| floor | 4 | 3 | 9.0 |" in text and "bara full / floor" in text
    auto = {"variant": "bara_auto_2c", "concurrency": 4, "pages": 3, "pages_per_min": 18.0}
    text = markdown({**data, "rows": [*data["rows"], auto], "targets": targets([*data["rows"], auto])})
    assert "- `bara_auto_2c` / floor: c=4: 2.0" in text
    assert table([]).count("\n") == 1


# An orphan: the child starts a grandchild that outlives it and burns CPU after the child exited.
_ORPHAN = """
import os, sys, time
if os.fork() == 0:
    time.sleep(0.3)
    data = bytearray(30_000_000)
    spent = time.process_time()
    while time.process_time() - spent < 0.4:
        pass
    sys.stdout.flush()
    os._exit(0)
"""


def test_run_measured_waits_for_orphans_and_counts_their_cpu(tmp_path: Path) -> None:
    feed = tmp_path / "feed.jsonl"
    feed.write_text("a\nb\n")
    measured = run_measured([sys.executable, "-c", _ORPHAN], env=dict(os.environ), cwd=tmp_path, feed=feed,
                            interval=0.05, log=tmp_path / "log")
    assert measured.returncode == 0
    assert measured.cpu_s >= 0.4  # the orphan's busy loop, reaped by the harness as subreaper
    assert measured.peak_pss_kb > 0
    assert measured.samples[-1].lines == 2


def test_bench_command_passes_s_settings_to_every_crawl(monkeypatch: pytest.MonkeyPatch) -> None:
    """`scrapy bara-bench -s NAME=VALUE` reaches the crawls; a variant's own settings still win."""
    import argparse

    from scrapy.settings import Settings

    from bara_scrapy.bench import main as bench_main
    from bara_scrapy.bench.command import Command

    seen = []
    monkeypatch.setattr(bench_main, "main_sync", seen.append)
    command = Command()
    command.settings = Settings()
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    opts = parser.parse_args(["--sites", "1", "-s", "BARA_PAGE_REUSE=8", "-s", "BARA_VERIFY_MEDIA=True"])
    command.run([], opts)
    (options,) = seen
    assert options.settings == {"BARA_PAGE_REUSE": "8", "BARA_VERIFY_MEDIA": "True"}
    full = bench_main.crawl_settings("full", options.settings)
    assert full["BARA_PAGE_REUSE"] == "8" and full["BARA_VERIFY_MEDIA"] == "True"
    assert bench_main.crawl_settings("no_verification", options.settings)["BARA_VERIFY_MEDIA"] is False
