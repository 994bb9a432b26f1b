"""The bench, end to end: generate sites, serve them, crawl each variant, score, report.

Used by `scrapy bara-bench` (bara_scrapy/commands/bench.py); all work
happens in one process with the asyncio reactor.
"""

from __future__ import annotations

import html
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .corpus import CORPORA, corpus_job, corpus_markdown, corpus_site, load, score_corpus, score_offline
from .generate import generate_sites
from .probes import probes_markdown, run_probes
from .report import build_report, write_report
from .runner import VARIANT_NOTES, VARIANTS, CrawlJob, CrawlResult, run_jobs
from .score import HttpChecker, score_site
from .serve import BenchServer

# Bench sites live on 127.0.0.1 (one port per site, the CDN on another): the
# SSRF guard would rightly block the CDN, which stands for a public host here.
BENCH_CRAWL_SETTINGS = {"BARA_ALLOW_PRIVATE_NETWORKS": True}


@dataclass
class BenchOptions:
    sites: int = 50
    seed: int = 0
    out: Path = Path("bench-out")
    variants: list[str] = field(default_factory=lambda: [v for v in VARIANTS if v != "auto"])
    parallel: int = 3
    corpus: str | None = None
    corpus_path: Path | None = None
    generators: list[str] = field(default_factory=list)  # `generators.GENERATORS` names
    probes: bool = False  # also score the pages in real platforms' markup (`probes.py`)
    settings: dict[str, Any] = field(default_factory=dict)  # `-s NAME=VALUE`: every crawl; a variant's own win


Printer = Callable[[str], None]


def crawl_settings(variant: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """A variant's crawl settings: the bench's, then the user's `-s`, then the variant's own.

    >>> crawl_settings("no_verification", {"BARA_VERIFY_MEDIA": True, "BARA_PAGE_REUSE": "8"})
    {'BARA_ALLOW_PRIVATE_NETWORKS': True, 'BARA_VERIFY_MEDIA': False, 'BARA_PAGE_REUSE': '8'}
    """
    return {**BENCH_CRAWL_SETTINGS, **overrides, **VARIANTS[variant]}


def _progress(print_line: Printer, label: str, started: float) -> Callable[[CrawlResult, int, int], None]:
    def report(result: CrawlResult, done: int, total: int) -> None:
        statuses: dict[str, int] = {}
        for item in result.items:
            statuses[item.get("status", "?")] = statuses.get(item.get("status", "?"), 0) + 1
        extra = f" ERROR {result.error}" if result.error else ""
        print_line(f"[{label}] {done}/{total} {result.job.key}: {len(result.items)} pages {statuses} "
                   f"in {result.seconds:.1f}s (elapsed {time.monotonic() - started:.0f}s){extra}")
    return report


async def run_sites(opts: BenchOptions, print_line: Printer) -> dict[str, Any]:
    specs = generate_sites(opts.sites, opts.seed)
    checker = HttpChecker()
    results: dict[str, list[Any]] = {}
    timings: dict[str, float] = {}
    pages: dict[str, int] = {}
    started = time.monotonic()
    if opts.settings:
        print_line(f"settings from -s, for every crawl: {opts.settings}")
    with BenchServer(specs) as bench:
        for variant in opts.variants:
            bench.reset_hits()
            jobs = [
                CrawlJob(spec.site_id, bench.seed_url(spec.site_id), bench.crawl_args(spec.site_id),
                         crawl_settings(variant, opts.settings))
                for spec in specs
            ]
            t0 = time.monotonic()
            # few pages at a time per crawl (dfs): more crawls at once keep the machine busy
            parallel = opts.parallel * (2 if VARIANTS[variant].get("CONCURRENT_REQUESTS", 8) <= 2 else 1)
            crawled = await run_jobs(jobs, opts.out / "items" / variant, parallel=parallel,
                                     progress=_progress(print_line, variant, started))
            timings[variant] = round(time.monotonic() - t0, 1)
            pages[variant] = sum(len(r.items) for r in crawled)
            results[variant] = [
                score_site(spec, bench.truth(spec.site_id), r.items, checker=checker)
                for spec, r in zip(specs, crawled, strict=True)
            ]
            print_line(f"[{variant}] done: {pages[variant]} pages in {timings[variant]}s "
                       f"({timings[variant] / max(pages[variant], 1):.2f} s/page)")
    meta = {
        "sites": opts.sites, "seed": opts.seed, "variants": opts.variants, "parallel": opts.parallel,
        "variant_notes": {v: VARIANT_NOTES[v] for v in opts.variants},
        "seconds": timings, "pages": pages, "total_seconds": round(time.monotonic() - started, 1),
    }
    return build_report(results, meta)


async def run_corpus(opts: BenchOptions, print_line: Printer, name: str) -> dict[str, Any]:
    from .articles import default_corpus
    from .server import SiteServer

    path = opts.corpus_path or default_corpus(name)
    if not (path / "ground-truth.json").exists():
        raise FileNotFoundError(f"corpus {name!r} not found at {path} (set --corpus-path)")
    page_list, truths = load(path)
    print_line(f"[corpus] {len(page_list)} pages of {name}: trafilatura and bara on the raw HTML")
    offline = score_offline(page_list, name)
    site, paths = corpus_site(page_list)
    server = SiteServer(site).start()
    try:
        print_line(f"[corpus] {len(page_list)} pages of {name}: the crawl")
        job = corpus_job(server, len(page_list))
        job = replace(job, settings={**opts.settings, **job.settings})
        (result,) = await run_jobs([job], opts.out / "items" / f"corpus-{name}", parallel=1)
        figures = score_corpus(result, server, truths, paths, name, offline)
    finally:
        server.stop()
    traf, bara = offline["trafilatura"], offline["bara"]
    print_line(f"[corpus] {name}: F1 {figures['f1']:.3f} precision {figures['precision']:.3f} "
               f"recall {figures['recall']:.3f} in {figures['seconds']}s; raw HTML: bara {bara['f1']:.3f} at "
               f"{bara['ms_per_page']:.1f} CPU ms/page, trafilatura {traf['f1']:.3f} at {traf['ms_per_page']:.1f} "
               f"(bara {bara['ms_per_page'] / max(traf['ms_per_page'], 1e-9):.2f}x)")
    return figures


async def run_generators(opts: BenchOptions, print_line: Printer) -> dict[str, Any]:
    """Build each installed generator's site (`generators.py`), one after the other, then crawl them with the
    defaults, `opts.parallel` at once (each served by its own server), and score each site's text as its crawl
    ends."""
    import shutil

    from .generators import GENERATORS, available, printed, score_generator, site_furniture, static_site
    from .server import SiteServer

    installed, missing = available(opts.generators)
    if missing:
        print_line(f"[generators] not installed, skipped: {', '.join(missing)} (pip install -r requirements.txt)")
    servers: dict[str, SiteServer] = {}
    jobs = []
    figures: dict[str, Any] = {}

    def scored(result: CrawlResult, done: int, total: int) -> None:
        name = result.job.key.removeprefix("generator-")
        servers.pop(name).stop()
        generator = GENERATORS[name]
        got = figures[name] = score_generator(generator, result.items,
                                              printed(opts.out / "generators" / name / "site",
                                                      site_furniture(generator)))
        print_line(f"[generators] {name}: {got['pages']}/{got['expected_pages']} content pages, key sentences "
                   f"{got['recall']:.3f} of {got['key_sentences']}, titled {got['titled']}, furniture leaked "
                   f"{len(got['furniture_leaked'])}/{got['furniture_planted']} in {result.seconds:.1f}s "
                   f"({done}/{total})")

    try:
        for name in installed:
            generator, work = GENERATORS[name], opts.out / "generators" / name
            shutil.rmtree(work, ignore_errors=True)
            generator.build(work / "source", work / "site")
            servers[name] = server = SiteServer(static_site(work / "site", generator.bare_index)).start()
            jobs.append(CrawlJob(f"generator-{name}", server.url(generator.seed),
                                 {"max_depth": generator.max_depth, "max_pages": 60},
                                 crawl_settings("full", opts.settings) | {"BARA_RENDER": "auto"}))
        await run_jobs(jobs, opts.out / "items" / "generators", parallel=opts.parallel, progress=scored)
    finally:
        for server in servers.values():
            server.stop()
    return {name: figures[name] for name in installed}


def generators_markdown(figures: dict[str, Any]) -> str:
    rows = ["| site (generator, theme) | content pages | key sentences found | titled by their headline "
            "| furniture leaked | missed |", "| --- | --- | --- | --- | --- | --- |"]
    for name, got in figures.items():
        missed = "; ".join(got["missed"][:6]) + (" …" if len(got["missed"]) > 6 else "")
        leaked = ", ".join(got["furniture_leaked"]) or "none"
        rows.append(f"| {name} | {got['pages']}/{got['expected_pages']} | {got['recall']:.3f} of "
                    f"{got['key_sentences']} | {got['titled']} | {leaked} of {got['furniture_planted']} "
                    f"| {html.escape(missed) or '–'} |")
    return "\n".join(rows)


async def run_bench(opts: BenchOptions, print_line: Printer = print) -> dict[str, Path]:
    report: dict[str, Any] = {"meta": {}, "variants": {}}
    if opts.sites > 0 and opts.variants:
        report = await run_sites(opts, print_line)
    names = list(CORPORA) if opts.corpus == "all" else [opts.corpus] if opts.corpus else []
    if names:
        corpora = [await run_corpus(opts, print_line, name) for name in names]
        report.setdefault("meta", {})["corpus"] = corpora[0] if len(corpora) == 1 else corpora
    generated = await run_generators(opts, print_line) if opts.generators else {}
    if generated:
        report.setdefault("meta", {})["generators"] = generated
    probed = run_probe_pages(print_line) if opts.probes else {}
    if probed:
        report.setdefault("meta", {})["probes"] = probed
    paths = write_report(report, opts.out)
    if names or generated or probed:
        with paths["md"].open("a", encoding="utf-8") as md:
            for figures in corpora if names else []:
                md.write(f"\n## Real pages: {figures['corpus']}\n\n{corpus_markdown(figures)}\n")
            if generated:
                md.write(f"\n## Sites built by real generators\n\n{generators_markdown(generated)}\n")
            if probed:
                md.write(f"\n## Pages in real platforms' markup\n\n{probes_markdown(probed)}\n")
    return paths


def run_probe_pages(print_line: Printer) -> dict[str, Any]:
    """bara and trafilatura on the probe pages (`probes.py`), a line per page and one in all."""
    figures = run_probes()
    for page, got in figures["bara"]["pages"].items():
        other = figures["trafilatura"]["pages"][page]
        print_line(f"[probes] {page}: keys {got['found']}/{got['keys']}, furniture leaked {got['leaked']}/"
                   f"{got['furniture']} (trafilatura {other['found']}/{other['keys']}, {other['leaked']})")
    for name, got in figures.items():
        share = 100 * got["leaked"] / max(1, got["furniture"])
        print_line(f"[probes] {name}: keys found {got['found']}/{got['keys']} ({got['recall']:.3f}), furniture "
                   f"leaked {got['leaked']}/{got['furniture']} ({share:.1f} %)")
    return figures


def main_sync(opts: BenchOptions, print_line: Printer = print) -> dict[str, Path]:
    from .runner import run_in_reactor

    paths: dict[str, Path] = run_in_reactor(lambda: run_bench(opts, print_line))
    print_line(f"report: {paths['md']}  json: {paths['json']}  chart: {paths.get('chart')}")
    sys.stdout.flush()
    return paths
