"""`scrapy bara-schedule`: one `bara` job per site, spread over Scrapyd nodes.

    scrapy bara-schedule seeds.txt --node http://n1:6800/ --node http://n2:6800/ -a max_pages=50

SEEDS_FILE holds one seed per line, optionally followed by that seed's own NAME=VALUE spider
arguments (`https://example.org/ max_pages=20`); `-a` arguments go to every job and
`--setting NAME=VALUE` becomes a Scrapyd `setting` of every job. Exit code 0 when every job
finished, 1 otherwise, 2 for a bad seeds file.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from ..config import ConfigError
from .plan import parse_seeds
from .runner import ScheduleOptions, Scheduler, summary

BAD_SEEDS_EXIT = 2


def _pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise UsageError(f"expected NAME=VALUE, got {text!r}")
    return name, value


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False  # it only talks HTTP to Scrapyd

    def syntax(self) -> str:
        return "SEEDS_FILE --node URL [--node URL ...] [-a NAME=VALUE ...]"

    def short_desc(self) -> str:
        return "Run one bara job per site over Scrapyd nodes, re-running jobs whose node went away"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--node", action="append", default=[], metavar="URL", help="a Scrapyd node (repeat)")
        parser.add_argument("-a", dest="spargs", action="append", default=[], metavar="NAME=VALUE",
                            help="spider argument for every job (repeat)")
        parser.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                            help="Scrapy setting for every job (repeat)")
        parser.add_argument("--project", default="bara_scrapy", help="Scrapyd project (default bara_scrapy)")
        parser.add_argument("--spider", default="bara", help="spider (default bara)")
        parser.add_argument("--poll", type=float, default=1.0, help="seconds between polls (default 1)")
        parser.add_argument("--max-tries", type=int, default=3, help="runs of one site at most (default 3)")
        parser.add_argument("--timeout", type=float, default=0.0, help="give up after this many seconds (0: never)")
        parser.add_argument("--summary-json", metavar="FILE", help="also write the summary as JSON")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one SEEDS_FILE")
        if not opts.node:
            raise UsageError("give at least one --node URL")
        for setting in opts.setting:
            _pair(setting)
        try:
            sites = parse_seeds(Path(args[0]).read_text(encoding="utf-8"))
        except (OSError, ConfigError) as exc:
            print(f"error: {args[0]}: {exc}", file=sys.stderr)
            self.exitcode = BAD_SEEDS_EXIT
            return
        options = ScheduleOptions(
            nodes=tuple(opts.node), args=tuple(_pair(a) for a in opts.spargs), settings=tuple(opts.setting),
            project=opts.project, spider=opts.spider, poll=opts.poll, max_tries=max(1, opts.max_tries),
            timeout=opts.timeout,
        )
        print(f"{len(sites)} sites over {len(options.nodes)} nodes", flush=True)
        placements = Scheduler(options, out=lambda line: print(line, flush=True)).run(sites)
        print(summary(placements), flush=True)
        if opts.summary_json:
            rows = [{**asdict(p), "seed": p.site.seed} for p in placements]
            Path(opts.summary_json).write_text(json.dumps(rows, indent=2), encoding="utf-8")
        self.exitcode = 0 if all(p.status == "finished" for p in placements) else 1
