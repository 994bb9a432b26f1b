"""The speed bench, end to end: serve one site, run every variant at every concurrency, report.

Every run is its own subprocess, measured by `measure.run_measured`; runs go concurrency by
concurrency, all variants at one concurrency before the next, so a drift in machine load hits
every variant alike. Results are rewritten to `--out` after every run.
"""

from __future__ import annotations

import itertools
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...addon import find_chromium
from ..runner import read_items
from ..server import SiteServer
from .figures import (
    milestones,
    page_attempts,
    pss_at_pages,
    quality,
    steady_pages_per_min,
    targets,
    wasted_attempts,
)
from .measure import become_subreaper, run_measured
from .report import write_outputs
from .site import PerfSite, bfs_paths, build_site, page_path, truth_images
from .variants import BARA_SETTINGS, LADDER, VARIANTS

VARIANT_NOTES = {
    "floor": "bare Playwright, one reused tab per worker, goto(load) + read the DOM, no scrolling",
    "spider": "plain scrapy-playwright spider: new page per request, wait 1 s, scroll once, wait 1 s",
    "bara": "scrapy crawl bara -s BARA_RENDER=always (every page rendered: scrolling, reflection, media "
            "verification; c pooled tabs, a window each)",
    "bara_noverify": "scrapy crawl bara -s BARA_VERIFY_MEDIA=False",
    "bara_newtab": "scrapy crawl bara -s BARA_PAGE_REUSE=0 (a new tab per page, no pooling)",
    "bara_scrollall": "scrapy crawl bara -s BARA_SCROLL_ALL=True (scroll every page taller than the viewport)",
    "bara_warc": "scrapy crawl bara -s BARA_WARC=... (the crawl's WARC written as it goes; media downloaded whole)",
    "bara_never": "scrapy crawl bara -s BARA_RENDER=never (every page over plain HTTP, bara's extraction)",
    "bara_auto": "scrapy crawl bara -s BARA_RENDER=auto (render only where evidence says it changes the result)",
    "bara_auto_wide": "bara_auto with 4c requests at once, c of them browser tabs (BARA_BROWSER_TABS=c)",
    "bara_auto_2c": "bara_auto with 2c requests at once, c of them browser tabs (BARA_BROWSER_TABS=c): at c=4, "
                    "the defaults",
    "http": "plain Scrapy CrawlSpider + LinkExtractor over HTTP, no browser",
    "floor_route": "the floor + a route handler continuing every request",
    "floor_guard": "floor_route + the document fetched through the route, as the scope/SSRF guard does",
    "floor_quiet": "floor_guard + bara's init script and its quiet wait after load",
    "floor_scroll": "floor_quiet + bara's scroll steps to the bottom and a DOM collection (tabs share a window)",
    "floor_window": "floor_scroll with each worker's tab in a window of its own (as bara's pooled tabs)",
}
ROOT = Path(__file__).resolve().parents[3]  # the checkout whose bara_scrapy this is
Printer = Callable[[str], None]


@dataclass(frozen=True)
class PerfOptions:
    pages: int = 300
    concurrency: tuple[int, ...] = (1, 2, 4, 8, 16)
    variants: tuple[str, ...] = VARIANTS
    out: Path = Path("bench-out/perf")
    matrix: bool = True  # False: only the long crawl
    long_pages: int = 0  # 0: no long crawl
    long_concurrency: int = 4
    long_variant: str = "bara"  # or a `bara_*` settings variant (e.g. bara_warc: the archive's memory)
    repeat: int = 1  # runs of the whole matrix, interleaved (the figures are medians over them)
    timeout: float = 7200.0  # per run


@dataclass
class Context:
    perf: PerfSite
    base: str  # http://127.0.0.1:PORT
    out: Path
    truth: dict[str, set[str]] = field(default_factory=dict)


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["SCRAPY_SETTINGS_MODULE"] = "bara_scrapy.settings"
    return env


def command(variant: str, ctx: Context, feed: Path, concurrency: int, run: int = 1) -> list[str]:
    seed = ctx.base + "/"
    limits = ctx.perf.limits()
    dwp = [str(limits["max_depth"]), str(limits["max_width"]), str(limits["max_pages"])]
    py = [sys.executable, "-m"]
    if variant == "floor" or variant in LADDER:
        steps = [LADDER[variant]] if variant in LADDER else []
        return [*py, "bara_scrapy.bench.perf.floor", str(ctx.out / "urls.txt"), str(feed), str(concurrency), *steps]
    if variant == "spider":
        return [*py, "bara_scrapy.bench.perf.spider", seed, str(feed), str(concurrency), *dwp]
    if variant == "http":
        return [*py, "bara_scrapy.bench.perf.http_spider", seed, str(feed), str(concurrency), *dwp]
    cmd = [*py, "scrapy", "crawl", "bara", "-a", f"seed={seed}", "-O", str(feed),
           *(token for k, v in limits.items() for token in ("-a", f"{k}={v}")),
           "-s", f"CONCURRENT_REQUESTS={concurrency}", "-s", f"CONCURRENT_REQUESTS_PER_DOMAIN={concurrency}",
           "-s", f"BARA_BROWSER_TABS={concurrency}", "-s", "BARA_RENDER=always",  # c pages rendered at once
           "-s", "LOG_LEVEL=WARNING", "-s", "BARA_ALLOW_PRIVATE_NETWORKS=True"]
    if variant in BARA_SETTINGS:
        values = {"out": ctx.out, "c": concurrency, "c2": 2 * concurrency, "c4": 4 * concurrency, "run": run}
        for one in BARA_SETTINGS[variant].format(**values).split():
            cmd += ["-s", one]
    return cmd


def row_figures(records: list[dict[str, Any]], truth: Mapping[str, set[str]]) -> dict[str, Any]:
    """Pages, attempts and quality of one run's feed records."""
    pages = len({r.get("url") for r in records})
    attempts = [page_attempts(r) for r in records]
    wasted = sum(wasted_attempts(a) for a in attempts)
    total = sum(len(a) for a in attempts)
    return {"pages": pages, "records": len(records),
            "attempts_per_page": round(total / pages, 3) if pages else None,
            "wasted_attempts": wasted, "wasted_per_page": round(wasted / pages, 3) if pages else None,
            **quality(records, truth)}


def run_one(variant: str, concurrency: int, ctx: Context, run: int = 1) -> dict[str, Any]:
    feed = ctx.out / "feeds" / f"{variant}-c{concurrency}.jsonl"
    feed.parent.mkdir(parents=True, exist_ok=True)
    (ctx.out / "logs").mkdir(exist_ok=True)
    measured = run_measured(command(variant, ctx, feed, concurrency, run), env=child_env(), cwd=ROOT, feed=feed,
                            log=ctx.out / "logs" / f"{variant}-c{concurrency}.log")
    row: dict[str, Any] = {"variant": variant, "concurrency": concurrency, "run": run,
                           "returncode": measured.returncode, **row_figures(read_items(feed), ctx.truth)}
    archive = ctx.out / "warc"
    if variant == "bara_warc" and archive.is_dir():  # what the archive holds against what was fetched
        row["archive_bytes"] = sum(p.stat().st_size for p in archive.glob(f"bara-c{concurrency}-r{run}*.warc.gz"))
    pages = row["pages"] or 0
    row.update({
        "wall_s": round(measured.wall_s, 2),
        "pages_per_min": round(60 * pages / measured.wall_s, 2) if measured.wall_s else None,
        "pages_per_min_steady": steady_pages_per_min([(s.t, s.lines) for s in measured.samples]),
        "wall_s_per_page": round(measured.wall_s / pages, 3) if pages else None,
        "cpu_s": round(measured.cpu_s, 2),
        "cpu_s_per_page": round(measured.cpu_s / pages, 3) if pages else None,
        "peak_pss_mb": round(measured.peak_pss_kb / 1024, 1),
        # feed growth (seconds, lines) at each change: the data behind "steady"
        "progress": [[a.t, a.lines] for a, b in zip(measured.samples, [None, *measured.samples], strict=False)
                     if b is None or a.lines != b.lines],
    })
    if measured.returncode:
        row["error_tail"] = measured.stderr_tail[-800:]
    return row


def run_long(ctx: Context, concurrency: int, variant: str = "bara") -> dict[str, Any]:
    feed = ctx.out / "feeds" / f"long-{variant}-c{concurrency}.jsonl"
    feed.parent.mkdir(parents=True, exist_ok=True)
    (ctx.out / "logs").mkdir(exist_ok=True)
    measured = run_measured(command(variant, ctx, feed, concurrency), env=child_env(), cwd=ROOT, feed=feed,
                            log=ctx.out / "logs" / f"long-{variant}.log")
    figures = row_figures(read_items(feed), ctx.truth)
    series = [(s.lines, s.pss_kb) for s in measured.samples]
    at = pss_at_pages(series, milestones(ctx.perf.pages))
    return {"variant": variant, "concurrency": concurrency, "returncode": measured.returncode, **figures,
            "wall_s": round(measured.wall_s, 1), "cpu_s": round(measured.cpu_s, 1),
            "peak_pss_mb": round(measured.peak_pss_kb / 1024, 1),
            "pss_mb_at_pages": {str(k): (round(v / 1024, 1) if v else None) for k, v in at.items()},
            "series": [[s.t, s.lines, round(s.pss_kb / 1024, 1)] for s in measured.samples if s.pss_kb]}


def machine() -> dict[str, Any]:
    chromium = find_chromium()
    version = ""
    if chromium:
        proc = subprocess.run([chromium, "--version"], capture_output=True, text=True, timeout=60)
        version = proc.stdout.strip()
    return {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
            "chromium": version, "chromium_path": chromium}


def _context(perf: PerfSite, base: str, out: Path) -> Context:
    ctx = Context(perf, base, out, {base + page_path(i): {base + p for p in truth_images(i)}
                                    for i in range(perf.pages)})
    out.mkdir(parents=True, exist_ok=True)
    (out / "urls.txt").write_text("\n".join(base + p for p in bfs_paths(perf.pages)) + "\n", encoding="utf-8")
    return ctx


def _line(row: Mapping[str, Any]) -> str:
    return (f"[perf] {row['variant']:<13} c={row['concurrency']:<2} pages={row['pages']:<4} "
            f"{row.get('pages_per_min')} pages/min  cpu {row.get('cpu_s_per_page')} s/page  "
            f"PSS {row['peak_pss_mb']} MB  attempts {row.get('attempts_per_page')} "
            f"(wasted {row['wasted_attempts']})  image recall {row['image_recall']}"
            + (f"  EXIT {row['returncode']}" if row["returncode"] else ""))


def _print(line: str) -> None:
    print(line, flush=True)  # progress of an hour-long run, also when stdout is a file


def run_perf(opts: PerfOptions, print_line: Printer = _print) -> dict[str, Any]:
    opts.out.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {
        "machine": {**machine(), "loadavg_start": [round(x, 2) for x in os.getloadavg()],
                    "subreaper": become_subreaper()},
        "site": {"pages": opts.pages, "long_pages": opts.long_pages},
        "notes": dict(VARIANT_NOTES), "rows": [], "long": None,
    }
    started = time.monotonic()
    if opts.matrix:
        perf = build_site(opts.pages)
        with SiteServer(perf.site()) as server:
            ctx = _context(perf, server.base, opts.out)
            data["site"]["limits"] = perf.limits()
            for run, concurrency, variant in itertools.product(range(1, opts.repeat + 1), opts.concurrency,
                                                               opts.variants):
                print_line(f"[perf] {variant} c={concurrency} on {opts.pages} pages (run {run}/{opts.repeat}) ...")
                row = run_one(variant, concurrency, ctx, run)
                data["rows"].append(row)
                print_line(_line(row) + f"  (elapsed {time.monotonic() - started:.0f}s)")
                data["targets"] = targets(data["rows"])
                write_outputs(data, opts.out, chart=False)
    if opts.long_pages:
        perf = build_site(opts.long_pages)
        with SiteServer(perf.site()) as server:
            ctx = _context(perf, server.base, opts.out / "long")
            print_line(f"[perf] long crawl: {opts.long_variant} c={opts.long_concurrency} "
                       f"on {opts.long_pages} pages ...")
            data["long"] = run_long(ctx, opts.long_concurrency, opts.long_variant)
            long = data["long"]
            print_line(f"[perf] long crawl: {long['pages']} pages in {long['wall_s']}s, peak PSS (MB) per stretch "
                       f"up to pages {long['pss_mb_at_pages']}, overall {long['peak_pss_mb']} MB")
    data["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    data["elapsed_s"] = round(time.monotonic() - started, 1)
    data["targets"] = targets(data["rows"])
    for line in write_outputs(data, opts.out, chart=True):
        print_line(line)
    return data
