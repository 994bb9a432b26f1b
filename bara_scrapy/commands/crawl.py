"""`scrapy crawl`, with bara's spider arguments checked before anything starts.

A bad seed or limit, or a damaged `JOBDIR`, ends the command with one line naming
the value and exit code 2, before Scrapy builds a crawler or launches a browser;
a Chromium that is missing or does not start, with one line and exit code 5. A feed
that cannot be written (a path that cannot be created, a disk that fills) exits 6. A crawl whose seed
page failed exits 3; a worker whose shared frontier (Redis) failed or vanished exits 4.

Once the crawl is over, the objects left are frozen (`gc.freeze`): the process is about to exit, and the
interpreter's last collection would otherwise walk them all (0.25-0.35 s of a 300-page crawl's 8 s on
the speed bench, after the feed and the browser were closed).
"""

from __future__ import annotations

import argparse
import gc
import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand

from ..browser.preflight import browser_problem, chromium_of
from ..config import ConfigError
from ..extensions.feedguard import feed_problem
from ..journal import jobdir_problem

BAD_ARGUMENTS_EXIT = 2
SEED_FAILED_EXIT = 3
FRONTIER_LOST_EXIT = 4
BROWSER_FAILED_EXIT = 5
OUTPUT_FAILED_EXIT = 6


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        check = None  # bara's spider checks its arguments (and is the one that needs Chromium)
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None
            check = getattr(spidercls, "check_arguments", None)
            if check is not None:
                try:
                    check(dict(opts.spargs))
                except ConfigError as exc:
                    print(f"error: {exc}", file=sys.stderr)
                    self.exitcode = BAD_ARGUMENTS_EXIT
                    return
        jobdir = self.settings.get("JOBDIR") if self.settings is not None else None
        problem = jobdir_problem(jobdir) if jobdir else None
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            self.exitcode = BAD_ARGUMENTS_EXIT
            return
        for uri in self.settings.getdict("FEEDS") if check is not None and self.settings is not None else {}:
            problem = feed_problem(str(uri))
            if problem:
                print(f"error: {problem}", file=sys.stderr)
                self.exitcode = OUTPUT_FAILED_EXIT
                return
        chromium = chromium_of(self.settings) if check is not None and self.settings is not None else None
        problem = browser_problem(chromium) if chromium else None
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            self.exitcode = BROWSER_FAILED_EXIT
            return
        if len(args) != 1 or self.crawler_process is None:
            super().run(args, opts)
            return
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        try:
            self.crawler_process.start()
        finally:
            gc.freeze()  # nothing left to collect for: the process exits next (see the module docstring)
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
        elif crawler.stats is not None and crawler.stats.get_value("finish_reason") == "bara_resume_mismatch":
            self.exitcode = BAD_ARGUMENTS_EXIT
        elif crawler.stats is not None and crawler.stats.get_value("finish_reason") == "bara_output_failed":
            self.exitcode = OUTPUT_FAILED_EXIT
        elif crawler.stats is not None and crawler.stats.get_value("finish_reason") == "bara_frontier_lost":
            self.exitcode = FRONTIER_LOST_EXIT
        elif crawler.stats is not None and crawler.stats.get_value("bara/seed/status") == "failed":
            self.exitcode = SEED_FAILED_EXIT


__all__ = ["Command"]
