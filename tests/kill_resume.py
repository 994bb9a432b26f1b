"""Kill a `JOBDIR` crawl with SIGKILL at chosen moments, resume it with the same command, compare.

A moment is "after N items": the crawl runs until its feed holds N whole lines (observable
progress, polled), then the crawl and its Chromium get SIGKILL. The same command runs again until
the next moment, and a last time to the end. The feed is the one file of every run (`-O`: bara
appends to it on a resume). `kill_and_resume` returns one row per run; `main` prints the table
(the measurement in docs/faults.md):

    .venv/bin/python -m tests.kill_resume --pages 300 --kills 5
    .venv/bin/python -m tests.kill_resume --redis --pages 300 --kills 5   # shared-frontier workers
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bara_scrapy.bench.server import Site, SiteServer

from .crawl_utils import REPO_ROOT, GraphSite, make_graph_site, refs_of


@dataclass
class Run:
    moment: int | None  # killed after this many items in the feed; None: ran to the end
    items_before: int  # whole lines in the feed when the run started
    items_after: int  # whole lines when it ended (after the kill, or at the end)
    exit_code: int
    duplicates: int = 0  # items in the feed for a page that already has one, when it ended
    hits: Counter[str] | None = None  # the site's request counts when it ended (`kill_and_resume(server=)`)


def feed_lines(path: Path) -> list[str]:
    """The whole lines of the feed (a line cut by a kill has no newline yet)."""
    if not path.exists():
        return []
    data = path.read_bytes()
    return [ln.decode("utf-8") for ln in data.split(b"\n")[:-1]]


def crawl_command(seed: str, feed: Path, log: Path, args: Mapping[str, object],
                  settings: Mapping[str, object]) -> list[str]:
    cmd = [sys.executable, "-m", "scrapy", "crawl", "bara", "-a", f"seed={seed}"]
    for name, value in args.items():
        cmd += ["-a", f"{name}={value}"]
    for name, value in {"LOG_LEVEL": "INFO", **settings, "LOG_FILE": str(log)}.items():
        cmd += ["-s", f"{name}={value}"]
    return [*cmd, "-O", str(feed)]


def _marked(marker: str) -> list[int]:
    needle = f"BARA_KILL_RUN={marker}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def run_once(cmd: Sequence[str], feed: Path, kill_after: int | None, timeout: float = 600.0) -> Run:
    """Run the crawl; with `kill_after`, SIGKILL it (and every process it started) once the feed
    holds that many whole lines. Polls the feed every 50 ms (bounded by `timeout`)."""
    before = len(feed_lines(feed))
    marker = uuid.uuid4().hex
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCRAPY_")}
    env["BARA_KILL_RUN"] = marker  # Chromium inherits it: every process of this run can be found
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    pause = threading.Event()  # never set: the wait between two reads of the feed
    try:
        for _ in range(int(timeout / 0.05)):
            if proc.poll() is not None:
                break
            if kill_after is not None and len(feed_lines(feed)) >= kill_after:
                for pid in [proc.pid, *_marked(marker)]:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                break
            pause.wait(0.05)
        else:
            raise AssertionError(f"crawl still running after {timeout}s")
        proc.wait(timeout=60)
    finally:
        for pid in _marked(marker):  # what the kill left (a renderer started meanwhile)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stderr is not None
        proc.stderr.close()
    urls = [json.loads(line).get("url") for line in feed_lines(feed)]
    return Run(kill_after, before, len(urls), proc.returncode, len(urls) - len(set(urls)))


def kill_and_resume(seed: str, workdir: Path, moments: Sequence[int], args: Mapping[str, object],
                    settings: Mapping[str, object], *, finish: bool = True,
                    server: SiteServer | None = None) -> list[Run]:
    """Kill at each moment (items in the feed), resume, and (`finish`) run a last time to the end.

    Run n of the job in `workdir` logs to `crawl-<n>.log`, its feed is `items.jsonl`, its JOBDIR `job`.
    """
    feed, job = workdir / "items.jsonl", workdir / "job"
    runs = []
    for moment in [*moments, None] if finish else moments:
        log = workdir / f"crawl-{len(list(workdir.glob('crawl-*.log')))}.log"
        runs.append(run_once(crawl_command(seed, feed, log, args, {**settings, "JOBDIR": job}), feed, moment))
        runs[-1].hits = Counter(server.hits) if server is not None else None
    return runs


def page_path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def recrawled(pages: Sequence[str], hits: Counter[str], reference_hits: Counter[str]) -> int:
    """Page fetches beyond those of the uninterrupted crawl."""
    return sum(max(0, hits[p] - reference_hits[p]) for p in pages)


def generated_site(pages: int) -> tuple[SiteServer, GraphSite]:
    server = SiteServer(Site()).start()
    graph = make_graph_site(server.base, rng_seed=29, n_pages=pages, delays=False, flaky=False, max_fanout=8)
    graph.install(server.site)
    return server, graph


def union_lines(workdir: Path) -> list[dict[str, object]]:
    """Every whole item of every worker feed in `workdir`."""
    return [json.loads(ln) for feed in sorted(workdir.glob("worker-*.jsonl")) for ln in feed_lines(feed)]


def kill_redis_workers(seed: str, workdir: Path, redis_port: int, moments: Sequence[int],
                       args: Mapping[str, object], settings: Mapping[str, object], server: SiteServer) -> list[Run]:
    """One shared-frontier worker at a time, each with a feed of its own (`worker-<n>.jsonl`); run n is
    SIGKILLed once the feeds together hold `moments[n]` items and the worker sits between writing an item
    and acknowledging it (its next DELIVER held by `AckHoldingProxy`); a last worker runs to the end."""
    from .redis_hold import AckHoldingProxy

    runs = []
    for n, moment in enumerate([*moments, None]):
        feed, log = workdir / f"worker-{n}.jsonl", workdir / f"crawl-{n}.log"
        proxy = AckHoldingProxy(redis_port) if moment is not None else None
        url = proxy.url if proxy is not None else f"redis://127.0.0.1:{redis_port}/0"
        cmd = crawl_command(seed, feed, log, args, {**settings, "BARA_FRONTIER_URL": url})
        before = len(union_lines(workdir))
        marker = uuid.uuid4().hex
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCRAPY_")}
        env["BARA_KILL_RUN"] = marker
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        pause = threading.Event()
        try:
            while proc.poll() is None:
                if proxy is not None and moment is not None and len(union_lines(workdir)) >= moment:
                    proxy.armed.set()
                    if proxy.held.wait(timeout=60):
                        break
                pause.wait(0.05)
        finally:
            for pid in [proc.pid, *_marked(marker)]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            proc.wait(timeout=60)
            if proxy is not None:
                proxy.close()
        items = union_lines(workdir)
        urls = [i.get("url") for i in items]
        runs.append(Run(moment, before, len(items), proc.returncode, len(urls) - len(set(urls)), Counter(server.hits)))
    return runs


def reference_run(opts: argparse.Namespace, seed: str, server: SiteServer, args: Mapping[str, object],
                  settings: Mapping[str, object]) -> tuple[Path, Run, list[dict[str, Any]], Counter[str], list[int]]:
    """The uninterrupted reference crawl, then the kill moments drawn from its size: (the killed runs'
    directory, the reference run, its items, its page hits, the moments)."""
    ref_dir, kill_dir = opts.out / "reference", opts.out / "killed"
    for d in (ref_dir, kill_dir):
        d.mkdir(parents=True, exist_ok=False)
    reference = run_once(crawl_command(seed, ref_dir / "items.jsonl", ref_dir / "crawl.log", args, settings),
                         ref_dir / "items.jsonl", None)
    ref_items = [json.loads(ln) for ln in feed_lines(ref_dir / "items.jsonl")]
    ref_hits = Counter(server.hits)
    server.hits.clear()
    total = len(ref_items)
    return kill_dir, reference, ref_items, ref_hits, sorted(random.Random(opts.seed).sample(range(5, total - 5),
                                                                                          opts.kills))


def print_table(runs: Sequence[Run], items: list[dict[str, Any]], ref_items: list[dict[str, Any]],
                ref_hits: Counter[str], kills: int, killed: str, final: str) -> None:
    """The kill table (moment, items before and after, duplicates, pages fetched again) and its summary."""
    urls = [str(i["url"]) for i in items]
    pages = [page_path(u) for u in urls]
    print(f"| run | {killed} | items before | items after | duplicates | pages fetched again |")
    print("|---|---|---|---|---|---|")
    excess = 0
    for n, run in enumerate(runs, 1):
        moment = "end (exit 0)" if run.moment is None else f"{run.moment} (exit {run.exit_code})"
        now = recrawled(pages, run.hits or Counter(), ref_hits)
        print(f"| {n} | {moment} | {run.items_before} | {run.items_after} | {run.duplicates} | {now - excess} |")
        excess = now
    print(f"{final}: {len(items)} items, {len(urls) - len(set(urls))} duplicates, "
          f"same pages and bfs_index as the reference: {refs_of(items) == refs_of(ref_items)}, "
          f"pages lost: {len({i['url'] for i in ref_items} - set(urls))}, "
          f"page fetches beyond the reference: {excess} over {kills} kills")


def main_redis(opts: argparse.Namespace, args: Mapping[str, object], settings: Mapping[str, object]) -> None:
    from .service_utils import RedisServer

    server, graph = generated_site(opts.pages * 2)
    redis = RedisServer(opts.out / "redis").start()
    try:
        kill_dir, reference, ref_items, ref_hits, moments = reference_run(opts, graph.seed, server, args, settings)
        runs = kill_redis_workers(graph.seed, kill_dir, redis.port, moments, args,
                                  {**settings, "BARA_FRONTIER_LEASE": 2}, server)
        items = union_lines(kill_dir)
    finally:
        redis.stop()
        server.stop()
    print(f"reference (one process, no Redis): {len(ref_items)} items, exit {reference.exit_code}; "
          f"CONCURRENT_REQUESTS={opts.concurrency}, browser {opts.browser}")
    print_table(runs, items, ref_items, ref_hits, opts.kills, "killed after (items, an acknowledgement held)",
                "union of the worker feeds")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--seed", type=int, default=29, help="random moments")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--out", type=Path, default=Path("/tmp/kill_resume"))
    parser.add_argument("--redis", action="store_true",
                        help="shared-frontier workers (Debian's redis-server) killed between item and acknowledgement")
    parser.add_argument("--browser", action=argparse.BooleanOptionalAction, default=True)
    opts = parser.parse_args(argv)
    args = {"max_pages": opts.pages, "max_width": 8, "max_depth": 8, "max_attempts": 2}
    settings: dict[str, object] = {"CONCURRENT_REQUESTS": opts.concurrency, "BARA_PAGE_TIMEOUT": 10}
    if not opts.browser:
        settings["BARA_BROWSER_ENABLED"] = False
    if opts.redis:
        main_redis(opts, args, settings)
        return
    server, graph = generated_site(opts.pages * 2)
    try:
        kill_dir, reference, ref_items, ref_hits, moments = reference_run(opts, graph.seed, server, args, settings)
        runs = kill_and_resume(graph.seed, kill_dir, moments, args, settings, server=server)
        items = [json.loads(ln) for ln in feed_lines(kill_dir / "items.jsonl")]
    finally:
        server.stop()
    print(f"reference: {len(ref_items)} items, exit {reference.exit_code}; CONCURRENT_REQUESTS={opts.concurrency}")
    print_table(runs, items, ref_items, ref_hits, opts.kills, "killed after (items)", "final feed")


if __name__ == "__main__":
    main()
