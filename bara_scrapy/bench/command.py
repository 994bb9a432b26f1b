"""`scrapy bara-bench`: measure bara_scrapy on synthetic sites with ground truth.

    scrapy bara-bench --sites 50 --out bench-out
    scrapy bara-bench --sites 3 --variants full,no_scroll --out /tmp/smoke
    scrapy bara-bench --sites 0 --corpus article-extraction-benchmark
    scrapy bara-bench --sites 0 --generators all
    scrapy bara-bench --sites 0 --probes
    scrapy bara-bench --perf --perf-pages 300 --perf-concurrency 1,2,4,8,16 --out bench-out/perf
    scrapy bara-bench --perf-long 2000

`--perf` is the speed bench (bara_scrapy/bench/perf): bara_scrapy against bare Playwright, a plain
scrapy-playwright spider and plain HTTP Scrapy on one generated site; `--perf-long N` adds (or,
without `--perf`, runs alone) a long bara crawl that samples memory against pages done.

Link discovery (the admitted page set against the sequential BFS reference)
is scored apart from extraction (text, images, videos, downloadable rate, bad
media leaked), for full BaRA and each ablation; report.md/json and chart.png
go under --out. `-s NAME=VALUE` applies to every crawl of the quality bench and the corpus (a
variant's own settings win, e.g. no_verification's BARA_VERIFY_MEDIA); the speed bench's variants
are fixed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.utils.conf import arglist_to_dict

from .corpus import CORPORA
from .generators import GENERATORS
from .perf.variants import BARA_SETTINGS, LADDER
from .perf.variants import DEFAULT_VARIANTS as PERF_DEFAULT
from .perf.variants import VARIANTS as PERF_VARIANTS
from .runner import VARIANTS


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False  # the bench installs its reactor and runs many crawls itself

    def syntax(self) -> str:
        return "[options]"

    def short_desc(self) -> str:
        return "Score bara_scrapy on synthetic sites (link discovery vs extraction, with ablations)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--sites", type=int, default=50, help="number of synthetic sites (default 50)")
        parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
        parser.add_argument("--out", default=None, help="output directory (default bench-out, bench-out/perf)")
        parser.add_argument("--variants", default=",".join(v for v in VARIANTS if v != "auto"),
                            help=f"comma-separated subset of {','.join(VARIANTS)}")
        parser.add_argument("--parallel", type=int, default=3, help="crawls at once (default 3)")
        parser.add_argument("--corpus", choices=[*CORPORA, "all"], default=None,
                            help="also score item text on a real-page corpus, beside trafilatura in the same run")
        parser.add_argument("--corpus-path", default=None, help="corpus directory (default $BARA_CORPORA/NAME)")
        parser.add_argument("--generators", default="", metavar="NAMES",
                            help=f"also build sites with real generators and score their text: 'all' or a "
                                 f"comma-separated subset of {','.join(GENERATORS)}")
        parser.add_argument("--probes", action="store_true",
                            help="also score the text of pages in real platforms' markup (bench/probe_pages), beside "
                                 "trafilatura")
        perf = parser.add_argument_group("speed bench")
        perf.add_argument("--perf", action="store_true", help="run the speed bench instead of the quality bench")
        perf.add_argument("--perf-pages", type=int, default=300, help="pages of the speed site (default 300)")
        perf.add_argument("--perf-concurrency", default="1,2,4,8,16", help="CONCURRENT_REQUESTS levels")
        perf.add_argument("--perf-variants", default=",".join(PERF_DEFAULT),
                          help=f"comma-separated subset of {','.join(v for v in PERF_VARIANTS if v not in LADDER)} "
                               f"and the floor plus bara's browser steps: {','.join(LADDER)}")
        perf.add_argument("--perf-long", type=int, default=0, metavar="N",
                          help="also a long bara crawl of N pages at c=4, PSS against pages done")
        perf.add_argument("--perf-long-variant", default="bara", choices=["bara", *BARA_SETTINGS],
                          help="the long crawl's variant (default bara; bara_warc: with the archive)")
        perf.add_argument("--perf-repeat", type=int, default=1, metavar="R",
                          help="run the matrix R times, interleaved; figures are medians (default 1)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if opts.perf or opts.perf_long:
            self.run_perf(opts)
            return
        from .main import BenchOptions, main_sync

        variants = [v.strip() for v in opts.variants.split(",") if v.strip()]
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown:
            raise UsageError(f"unknown variant(s) {', '.join(unknown)}; choose from {', '.join(VARIANTS)}")
        generators = list(GENERATORS) if opts.generators == "all" else \
            [g.strip() for g in opts.generators.split(",") if g.strip()]
        if unknown := [g for g in generators if g not in GENERATORS]:
            raise UsageError(f"unknown generator(s) {', '.join(unknown)}; choose from {', '.join(GENERATORS)}")
        if opts.sites < 0 or opts.parallel < 1:
            raise UsageError("--sites must be >= 0 and --parallel >= 1")
        main_sync(BenchOptions(
            sites=opts.sites, seed=opts.seed, out=Path(opts.out or "bench-out"), variants=variants,
            parallel=opts.parallel,
            corpus=opts.corpus, corpus_path=Path(opts.corpus_path) if opts.corpus_path else None,
            generators=generators, probes=opts.probes,
            settings=arglist_to_dict(opts.set or []),
        ))

    def run_perf(self, opts: argparse.Namespace) -> None:
        from .perf.main import PerfOptions, run_perf

        variants = tuple(v.strip() for v in opts.perf_variants.split(",") if v.strip())
        unknown = [v for v in variants if v not in PERF_VARIANTS]
        if unknown:
            raise UsageError(f"unknown --perf-variants {', '.join(unknown)}; choose from {', '.join(PERF_VARIANTS)}")
        try:
            levels = tuple(int(c) for c in opts.perf_concurrency.split(",") if c.strip())
        except ValueError:
            raise UsageError("--perf-concurrency takes integers, e.g. 1,2,4,8,16") from None
        if not levels or min(levels) < 1 or opts.perf_pages < 2 or opts.perf_long < 0 or opts.perf_repeat < 1:
            raise UsageError("--perf-concurrency levels must be >= 1, --perf-pages >= 2, --perf-long >= 0, "
                             "--perf-repeat >= 1")
        run_perf(PerfOptions(pages=opts.perf_pages, concurrency=levels, variants=variants,
                             out=Path(opts.out or "bench-out/perf"), matrix=opts.perf, long_pages=opts.perf_long,
                             long_variant=opts.perf_long_variant, repeat=opts.perf_repeat))
