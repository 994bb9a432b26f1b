"""`scrapy crawl`, with bara's spider arguments checked before anything starts.

A bad seed or limit ends the command with one line naming the value and exit
code 2, before Scrapy builds a crawler or launches a browser.
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.utils.misc import load_object

from ..config import ConfigError


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
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
                    self.exitcode = 2
                    return
        super().run(args, opts)


__all__ = ["Command", "load_object"]
