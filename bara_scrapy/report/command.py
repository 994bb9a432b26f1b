"""`scrapy bara-report ITEMS -o report.html`: the HTML report of a finished crawl's feed.

    scrapy bara-report items.jsonl -o report.html
    scrapy bara-report items.json -o report.html --max-depth 3 --max-pages 300 --files-store media/
    scrapy bara-report items.jsonl -o report.html --replay http://127.0.0.1:8080/coll/

ITEMS is a JSON Lines or JSON feed of `scrapy crawl bara`. Limits are not in the items: pass them to
show them. Stored copies (`path` on media) are shown from `--files-store` (default: `FILES_STORE`).
`--replay`: a wayback-style collection (pywb) holding the crawl's WARC or WACZ; each page links to its replay.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from .data import ReportMeta, build_report_data, read_items
from .html import write_report

LIMIT_OPTIONS = ("max_depth", "max_width", "max_pages", "max_attempts")


def files_base(store: str | None) -> str | None:
    """Where the report finds stored copies: a local FILES_STORE as a file:// URL, an http(s) store as is.

    >>> files_base("/data/media"), files_base("https://cdn.example/m/"), files_base("s3://b/m"), files_base("")
    ('file:///data/media', 'https://cdn.example/m/', None, None)
    """
    if not store:
        return None
    if store.startswith(("http://", "https://", "file://")):
        return store
    if "://" in store:
        return None  # s3://, gs://, ftp://: not viewable from a browser; the verified URL is shown instead
    return Path(store).resolve().as_uri()


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False

    def syntax(self) -> str:
        return "ITEMS -o REPORT.html [options]"

    def short_desc(self) -> str:
        return "Write a self-contained HTML report of a bara crawl's items (JSON Lines or JSON)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("-o", "--output", default="report.html", help="report file (default report.html)")
        parser.add_argument("--files-store", default=None, help="where stored media are (default FILES_STORE)")
        parser.add_argument("--replay", default=None, metavar="URL",
                            help="replay collection of the crawl's WARC/WACZ (pywb: http://host:port/coll/)")
        for name in LIMIT_OPTIONS:
            parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=None, dest=name,
                                help=f"the crawl's {name} (shown in the summary)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one items file (JSON Lines or JSON)")
        source = Path(args[0])
        if not source.is_file():
            raise UsageError(f"no such items file: {source}")
        started = time.monotonic()
        store = opts.files_store
        if store is None and self.settings is not None:
            store = self.settings.get("FILES_STORE")
        limits = {name: getattr(opts, name) for name in LIMIT_OPTIONS if getattr(opts, name) is not None}
        meta = ReportMeta(source=str(source), limits=limits, files_base=files_base(store), replay_base=opts.replay)
        data = build_report_data(read_items(source), meta)
        out = Path(opts.output)
        size = write_report(data, out)
        print(f"{out}: {len(data['pages'])} pages, {size} bytes, built in {time.monotonic() - started:.2f} s")
