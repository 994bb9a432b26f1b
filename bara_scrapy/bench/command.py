"""`scrapy bara-bench`: measure bara_scrapy on synthetic sites with ground truth.

    scrapy bara-bench --sites 50 --out bench-out
    scrapy bara-bench --sites 3 --variants full,no_scroll --out /tmp/smoke
    scrapy bara-bench --sites 0 --corpus article-extraction-benchmark

Link discovery (the admitted page set against the sequential BFS reference)
is scored apart from extraction (text, images, videos, downloadable rate, bad
media leaked), for full BaRA and each ablation; report.md/json and chart.png
go under --out.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from .corpus import CORPUS_NAME
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
        parser.add_argument("--out", default="bench-out", help="output directory (default bench-out)")
        parser.add_argument("--variants", default=",".join(VARIANTS),
                            help=f"comma-separated subset of {','.join(VARIANTS)}")
        parser.add_argument("--parallel", type=int, default=3, help="crawls at once (default 3)")
        parser.add_argument("--corpus", choices=[CORPUS_NAME], default=None,
                            help="also score item text on a real-page corpus")
        parser.add_argument("--corpus-path", default=None, help="corpus directory (default ../shared/corpora/NAME)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        from .main import BenchOptions, main_sync

        variants = [v.strip() for v in opts.variants.split(",") if v.strip()]
        unknown = [v for v in variants if v not in VARIANTS]
        if unknown:
            raise UsageError(f"unknown variant(s) {', '.join(unknown)}; choose from {', '.join(VARIANTS)}")
        if opts.sites < 0 or opts.parallel < 1:
            raise UsageError("--sites must be >= 0 and --parallel >= 1")
        main_sync(BenchOptions(
            sites=opts.sites, seed=opts.seed, out=Path(opts.out), variants=variants, parallel=opts.parallel,
            corpus=opts.corpus, corpus_path=Path(opts.corpus_path) if opts.corpus_path else None,
        ))
