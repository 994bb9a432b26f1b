"""`python -m bara_scrapy.demo [--out DIR] [--port 0]`: serve the demo site, crawl it, summarise.

Starts "Northbound Notes" (demo/site.py) on 127.0.0.1, runs
`scrapy crawl bara -a seed=<url> -O <out>/items.jsonl` in the project directory,
shows one line per finished page (the whole log goes to `<out>/crawl.log`), then
prints a summary. Exits 1 when the crawl failed, 2 when it wrote no items.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit

from pydantic import ValidationError

from ..bench.server import SiteServer
from ..items import PageItem
from . import site

LOG_FORMAT = "%(asctime)s [%(name)s] %(levelname)s: %(message)s"
_LOG_LINE = re.compile(r"^\S+ \S+ \[(?P<name>[^\]]+)\] (?P<level>[A-Z]+): (?P<message>.*)$")
_CLOSED = re.compile(r"Spider closed \((?P<reason>[^)]*)\)")


def project_root(start: Path | None = None) -> Path:
    """The directory holding scrapy.cfg, searched upwards from this package."""
    here = (start or Path(__file__)).resolve()
    for folder in (here, *here.parents):
        if (folder / "scrapy.cfg").is_file():
            return folder
    raise FileNotFoundError(f"no scrapy.cfg above {here}")


def crawl_command(seed: str, items: Path) -> list[str]:
    return [
        sys.executable, "-m", "scrapy", "crawl", "bara", "-a", f"seed={seed}", "-O", str(items),
        "-s", "LOG_LEVEL=INFO", "-s", f"LOG_FORMAT={LOG_FORMAT}",
        "-s", "EXTENSIONS=" + json.dumps({"bara_scrapy.demo.DemoProgress": 500}),
    ]


def console_line(line: str) -> str | None:
    """What the console shows for one crawl log line (None: log file only).

    >>> console_line("2024-01-01 10:00:00 [bara_scrapy.demo] INFO: ok  #0 d0  /")
    '  ok  #0 d0  /'
    >>> console_line("2024-01-01 10:00:00 [scrapy.core.engine] INFO: Spider opened") is None
    True
    >>> console_line("2024-01-01 10:00:00 [scrapy.core.scraper] ERROR: Spider error processing <GET x>")
    '  ! ERROR scrapy.core.scraper: Spider error processing <GET x>'
    """
    match = _LOG_LINE.match(line.rstrip("\n"))
    if match is None:
        return None
    name, level, message = match["name"], match["level"], match["message"]
    if name == "bara_scrapy.demo":
        return f"  {message}"
    if level in ("ERROR", "CRITICAL"):
        return f"  ! {level} {name}: {message[:200]}"
    if message.startswith("Reflection: retrying"):
        return f"  ~ {message[:200]}"
    return None


@dataclass
class CrawlLog:
    """What the runner learnt from the crawl's log while streaming it."""

    close_reason: str | None = None
    errors: int = 0
    lines: list[str] = field(default_factory=list)


def stream(source: Iterable[str], log_file: TextIO, console: TextIO) -> CrawlLog:
    seen = CrawlLog()
    for line in source:
        log_file.write(line)
        closed = _CLOSED.search(line)
        if closed:
            seen.close_reason = closed["reason"]
        match = _LOG_LINE.match(line.rstrip("\n"))
        if match and match["level"] in ("ERROR", "CRITICAL"):
            seen.errors += 1
        shown = console_line(line)
        if shown is not None:
            print(shown, file=console, flush=True)
    return seen


def read_items(path: Path) -> tuple[list[PageItem], int]:
    """The items of a JSON-lines feed and the number of lines that are not valid items."""
    items: list[PageItem] = []
    bad = 0
    if not path.is_file():
        return items, bad
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            items.append(PageItem.model_validate_json(line))
        except ValidationError:
            bad += 1
    return items, bad


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def site_check(items: Sequence[PageItem]) -> list[str]:
    """Differences between the crawl and the demo site's ground truth (empty: as expected)."""
    found = Counter(_path(i.url) for i in items)
    problems = [f"missing page {p}" for p in site.EXPECTED_PAGES if p not in found]
    problems += [f"page crawled {n} times: {p}" for p, n in found.items() if n > 1]
    problems += [f"unexpected page {p}" for p in found if p not in site.EXPECTED_PAGES]
    return problems


def summary(items: Sequence[PageItem], seconds: float, items_path: Path, log: CrawlLog, bad_lines: int) -> str:
    statuses = Counter(i.status for i in items)
    rejected = Counter((m.reason or "?", m.url, _path(i.url)) for i in items for m in i.rejected_media)
    pages = len(items)
    lines = [
        "",
        f"Crawl finished ({log.close_reason or 'no close reason logged'}) in {seconds:.1f} s",
        f"  pages      {pages} admitted: ok {statuses['ok']}, incomplete {statuses['incomplete']}, "
        f"failed {statuses['failed']}",
        f"  media      {sum(len(i.images) for i in items)} images and {sum(len(i.videos) for i in items)} videos "
        f"(verified), {sum(len(i.embeds) for i in items)} embeds",
        f"  rejected   {sum(rejected.values())} media",
    ]
    lines += [f"               {reason}: {url} (on {page})" for (reason, url, page), _ in sorted(rejected.items())]
    per_page = f"{seconds / pages:.2f} s per page" if pages else "no pages"
    lines.append(f"  time       {seconds:.1f} s total, {per_page} (browser start-up included)")
    problems = site_check(items)
    lines.append("  site check " + ("all expected pages, each once; nothing off-limits crawled" if not problems
                                     else "; ".join(problems)))
    if log.errors:
        lines.append(f"  log        {log.errors} ERROR lines, see the log")
    if bad_lines:
        lines.append(f"  items      {bad_lines} lines are not valid page items")
    lines.append(f"  items      {items_path}")
    lines.append(f"  log        {items_path.parent / 'crawl.log'}")
    return "\n".join(lines)


def run(server: SiteServer, out: Path, console: TextIO = sys.stdout) -> int:
    """Crawl the site `server` serves into `out`, print progress and a summary; the exit status."""
    out.mkdir(parents=True, exist_ok=True)
    items_path, log_path = out / "items.jsonl", out / "crawl.log"
    items_path.unlink(missing_ok=True)
    seed = server.url("/")
    print(f"Demo site 'Northbound Notes' at {seed}", file=console)
    print(f"scrapy crawl bara -a seed={seed} -O {items_path}   (log: {log_path})", file=console, flush=True)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    started = time.monotonic()
    with log_path.open("w", encoding="utf-8") as log_file, subprocess.Popen(
        crawl_command(seed, items_path.resolve()), cwd=project_root(), env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, encoding="utf-8", errors="replace",
    ) as proc:
        assert proc.stdout is not None
        try:
            log = stream(proc.stdout, log_file, console)
            code = proc.wait()
        except KeyboardInterrupt:
            proc.terminate()
            proc.wait()
            print("interrupted", file=console)
            return 130
    seconds = time.monotonic() - started
    items, bad = read_items(items_path)
    print(summary(items, seconds, items_path, log, bad), file=console, flush=True)
    if code != 0:
        print(f"scrapy exited with status {code}", file=console)
        return 1
    if not items:
        print("the crawl wrote no items", file=console)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bara_scrapy.demo",
                                     description="Serve the demo site, crawl it, summarise.")
    parser.add_argument("--out", type=Path, default=Path("out"), help="output directory [out]")
    parser.add_argument("--port", type=int, default=0, help="port for the demo site on 127.0.0.1 [0: a free one]")
    args = parser.parse_args(argv)
    server = SiteServer(site.build_demo_site(), port=args.port).start()
    try:
        return run(server, args.out)
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
