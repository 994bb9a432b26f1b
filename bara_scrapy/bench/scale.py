"""Throughput of N workers on one site through the shared Redis frontier (docs/scale.md).

    make redis-up
    python -m bara_scrapy.bench.scale --redis redis://127.0.0.1:6379/0 --workers 1,2,3 --pages 60

Serves a generated tree site on 127.0.0.1, runs N `scrapy crawl bara` workers per round (a new
`BARA_FRONTIER_KEY` each round), and prints pages, wall time, pages/s and Redis commands per page
(from INFO commandstats, so the workers' idle polling is counted too). Pages/s is taken between the
first and the last item's `fetched_at`: the workers' start-up (imports, Chromium launch) is not in it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

from .server import RequestInfo, Route, Site, SiteServer


def tree_site(pages: int, fanout: int, delay: float) -> Site:
    """Page i links to pages fanout*i+1 .. fanout*i+fanout; each answers after `delay` seconds."""
    site = Site()
    for i in range(pages):
        kids = [k for k in range(fanout * i + 1, fanout * i + fanout + 1) if k < pages]
        links = "".join(f'<li><a href="/p/{k}">page {k}</a></li>' for k in kids)
        text = " ".join(f"Paragraph {n} of page {i}, written to give the extractor some text." for n in range(8))
        html = f"<title>Page {i}</title><main><h1>Page {i}</h1><p>{text}</p><ul>{links}</ul></main>"

        def handler(info: RequestInfo, html: str = html) -> Route:
            time.sleep(delay)  # server latency
            return Route(html)

        site.add("/" if i == 0 else f"/p/{i}", handler=handler)
    return site


def commands(client: Any) -> tuple[int, int]:
    """(Lua script calls, all commands: those the scripts run inside Redis and the status reads too)."""
    stats = client.info("commandstats")
    scripts = sum(int(stats.get(k, {}).get("calls", 0)) for k in ("cmdstat_evalsha", "cmdstat_eval"))
    return scripts, sum(int(v["calls"]) for v in stats.values())


def run_round(seed: str, redis_url: str, workers: int, pages: int, browser: bool, out: Path) -> dict[str, float]:
    import redis

    client = redis.Redis.from_url(redis_url)
    before = commands(client)
    key = f"bara:{{scale-{uuid.uuid4().hex[:8]}}}"
    feeds = [out / f"w{workers}-{n}.jsonl" for n in range(workers)]
    started = time.monotonic()
    procs = [subprocess.Popen(
        [sys.executable, "-m", "scrapy", "crawl", "bara", "-a", f"seed={seed}", "-a", "max_depth=10",
         "-a", f"max_pages={pages}", "-O", str(feed), "-s", f"BARA_FRONTIER_URL={redis_url}",
         "-s", f"BARA_FRONTIER_KEY={key}", "-s", f"BARA_BROWSER_ENABLED={browser}", "-s", "LOG_LEVEL=WARNING",
         "-s", "BARA_SCROLL_PAUSE=0.05", "-s", "BARA_VERIFY_MEDIA=False"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for feed in feeds]
    codes = [p.wait() for p in procs]
    wall = time.monotonic() - started
    items = [json.loads(line) for f in feeds if f.exists() for line in f.read_text(encoding="utf-8").splitlines()]
    stamps = sorted(datetime.fromisoformat(i["fetched_at"]).timestamp() for i in items)
    window = stamps[-1] - stamps[0] if len(stamps) > 1 else float("nan")
    after = commands(client)
    calls, total = after[0] - before[0], after[1] - before[1]
    client.close()
    done = len(items)
    return {"workers": workers, "pages": done, "wall": wall, "window": window, "pages_per_s": (done - 1) / window,
            "calls_per_page": calls / max(done, 1),
            "cmds_per_page": total / max(done, 1), "failed_workers": sum(1 for c in codes if c)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", required=True, help="redis:// URL (make redis-up)")
    parser.add_argument("--workers", default="1,2,3")
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--delay", type=float, default=0.2, help="server latency per page, seconds")
    parser.add_argument("--http", action="store_true", help="plain HTTP instead of Chromium")
    opts = parser.parse_args(argv)
    with SiteServer(tree_site(opts.pages + 20, 4, opts.delay)) as server, tempfile.TemporaryDirectory() as tmp:
        print("workers  pages  wall s  first->last item s  pages/s  script calls/page  (all cmds)  failed")
        for n in (int(w) for w in opts.workers.split(",")):
            r = run_round(server.url("/"), opts.redis, n, opts.pages, not opts.http, Path(tmp))
            print(f"{r['workers']:>7}  {r['pages']:>5}  {r['wall']:>6.1f}  {r['window']:>18.1f}  "
                  f"{r['pages_per_s']:>7.2f}  {r['calls_per_page']:>17.1f}  {r['cmds_per_page']:>10.1f}  "
                  f"{r['failed_workers']:>6}", flush=True)


if __name__ == "__main__":
    main()
