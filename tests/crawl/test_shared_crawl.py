"""Many `scrapy crawl bara` workers, one site, one Redis frontier: exactly the sequential BFS.

Workers crawl over plain HTTP (`BARA_BROWSER_ENABLED=False`): the frontier does not care how a
page is rendered, and three Chromiums would not fit this test's time on two cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.server import Site, SiteServer

from ..crawl_utils import GraphSite, Ref, make_graph_site, parse_stats, refs_of, run_crawl
from ..forum_site import TEMPLATE_LINES, Forum
from ..redis_hold import AckHoldingProxy
from ..service_utils import REPO_ROOT, RedisServer, clean_env, kill_group, wait_for

GRAPH_SEED = 36
D, W, P = 3, 5, 40


@dataclass
class Worker:
    proc: subprocess.Popen[bytes]
    out: Path
    log: Path

    def items(self) -> list[dict[str, Any]]:
        if not self.out.exists():
            return []
        return [json.loads(line) for line in self.out.read_text(encoding="utf-8").splitlines() if line.strip()]

    def finish(self, timeout: float = 240) -> tuple[int, dict[str, Any], str]:
        try:
            self.proc.wait(timeout=timeout)
        finally:
            kill_group(self.proc)
        log = self.log.read_text(encoding="utf-8") if self.log.exists() else ""
        return self.proc.returncode, parse_stats(log), log


def start_worker(seed: str, redis_url: str, tmp: Path, name: str, settings: Mapping[str, object]) -> Worker:
    out, log = tmp / f"{name}.jsonl", tmp / f"{name}.log"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "bara", "-a", f"seed={seed}", "-a", f"max_depth={D}",
           "-a", f"max_width={W}", "-a", f"max_pages={P}", "-O", str(out)]
    merged = {"BARA_FRONTIER_URL": redis_url, "BARA_BROWSER_ENABLED": False, "CONCURRENT_REQUESTS": 4,
              "CONCURRENT_REQUESTS_PER_DOMAIN": 4, "LOG_LEVEL": "INFO", "LOG_FILE": log, **settings}
    for key, value in merged.items():
        cmd += ["-s", f"{key}={value}"]
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=clean_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    return Worker(proc, out, log)


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


@pytest.fixture
def graph_site() -> Iterator[tuple[GraphSite, SiteServer]]:
    site = Site()
    with SiteServer(site) as server:
        generated = make_graph_site(server.base, GRAPH_SEED, script_links=False)
        generated.install(site)
        yield generated, server


def union(workers: list[Worker]) -> list[dict[str, Any]]:
    return [item for w in workers for item in w.items()]


def check_union(items: list[dict[str, Any]], want: list[Ref]) -> None:
    twice = sorted(i for i, n in Counter(item["bfs_index"] for item in items).items() if n > 1)
    assert not twice, f"written twice: {twice}"
    assert refs_of(items) == want, f"union of the feeds: {len(items)} pages, reference {len(want)}"


@pytest.mark.slow
def test_three_workers_admit_the_sequential_bfs(
    redis_server: RedisServer, graph_site: tuple[GraphSite, SiteServer], tmp_path: Path
) -> None:
    gen, server = graph_site
    want = gen.reference(D, W, P)
    assert len(want) == P
    workers = [start_worker(gen.seed, redis_server.url, tmp_path, f"w{n}", {}) for n in range(3)]
    results = [w.finish() for w in workers]
    for code, stats, log in results:
        assert code == 0, log[-3000:]
        assert "Traceback" not in log, log[log.index("Traceback") - 300 :][:3000]
        assert stats["finish_reason"] == "bara_page_budget", stats
        assert stats["bara/pages/admitted"] == P
    items = union(workers)
    check_union(items, want)
    delivered = [stats.get("bara/frontier/delivered", 0) for _, stats, _ in results]
    assert sum(delivered) == P
    assert sum(1 for n in delivered if n) >= 2, f"the work was not shared: {delivered}"
    calls = sum(stats["bara/frontier/redis_calls"] for _, stats, _ in results)
    print(f"3 workers: items per worker {delivered}, redis calls {calls} ({calls / P:.1f} per page)")
    assert not [p for p in gen.private if server.hits[p]], "robots.txt-forbidden page requested"


def test_workers_give_each_page_the_text_one_process_gives_it(redis_server: RedisServer, tmp_path: Path) -> None:
    """A page's text leaves out what its parent shows at the same place (`extraction.template`), whichever
    worker extracted the parent: the fingerprint travels through Redis."""
    forum, site = Forum().build(), Site()
    forum.install(site)
    with SiteServer(site) as server:
        seed = server.url("/")
        workers = [start_worker(seed, redis_server.url, tmp_path, f"w{n}", {}) for n in range(2)]
        for code, _, log in [w.finish() for w in workers]:
            assert code == 0, log[-3000:]
        local = run_crawl(seed, tmp_path=tmp_path, args={"max_depth": D, "max_width": W, "max_pages": P},
                          settings={"BARA_BROWSER_ENABLED": False})
    shared = {item["url"]: item["text"] for item in union(workers)}
    assert len(shared) == len(local) == len(forum.pages)
    assert shared == {item["url"]: item["text"] for item in local}
    assert sum(TEMPLATE_LINES[0] in text for text in shared.values()) == 1  # the seed's alone


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_and_duplicates_nothing(
    redis_server: RedisServer, graph_site: tuple[GraphSite, SiteServer], tmp_path: Path
) -> None:
    gen, _ = graph_site
    want = gen.reference(D, W, P)
    fast_lease = {"BARA_FRONTIER_LEASE": 2}
    victim = start_worker(gen.seed, redis_server.url, tmp_path, "victim", fast_lease)
    wait_for(lambda: len(victim.items()) >= 3, "the victim's first items", timeout=120)
    others = [start_worker(gen.seed, redis_server.url, tmp_path, f"w{n}", fast_lease) for n in range(2)]
    kill_group(victim.proc)  # SIGKILL, Chromium-free worker: it has pages leased and in flight
    written_by_victim = len(victim.items())
    results = [w.finish() for w in others]
    for code, stats, log in results:
        assert code == 0, log[-3000:]
        assert stats["finish_reason"] == "bara_page_budget", stats
    items = union([victim, *others])
    check_union(items, want)
    requeued = max(stats.get("bara/frontier/requeued", 0) for _, stats, _ in results)
    print(f"killed worker: wrote {written_by_victim} items before SIGKILL; {requeued} leased pages went back "
          f"to the queue; union {len(items)} items = reference {len(want)}")
    assert written_by_victim < P
    assert requeued >= 1, "the killed worker held no lease: the test proved nothing"


@pytest.mark.slow
def test_a_worker_killed_between_writing_an_item_and_acknowledging_it_leaves_it_written_once(
    redis_server: RedisServer, graph_site: tuple[GraphSite, SiteServer], tmp_path: Path
) -> None:
    """The victim's Redis calls go through a proxy that, once armed, holds its next acknowledgement: the
    victim has written that item and Redis has not heard of it when the SIGKILL comes. The restarted
    worker finds the page unconfirmed, reads the victim's feed, and delivers the page without crawling it."""
    gen, server = graph_site
    want = gen.reference(D, W, P)
    fast_lease = {"BARA_FRONTIER_LEASE": 2}
    proxy = AckHoldingProxy(redis_server.port)
    try:
        victim = start_worker(gen.seed, proxy.url, tmp_path, "victim", fast_lease)
        wait_for(lambda: len(victim.items()) >= 5, "the victim's first items", timeout=120)
        proxy.armed.set()
        wait_for(proxy.held.is_set, "an acknowledgement held", timeout=60)
        kill_group(victim.proc)  # SIGKILL while the acknowledgement of a written item is held
    finally:
        proxy.close()
    written = {i["bfs_index"] for i in victim.items()}
    hits_before = sum(server.hits.values())
    restarted = start_worker(gen.seed, redis_server.url, tmp_path, "restarted", fast_lease)
    code, stats, log = restarted.finish()
    assert code == 0 and "Traceback" not in log, log[-3000:]
    assert stats["finish_reason"] == "bara_page_budget", stats
    items = union([victim, restarted])
    check_union(items, want)
    again = [i["bfs_index"] for i in restarted.items() if i["bfs_index"] in written]
    print(f"victim wrote {len(written)} items, killed with an acknowledgement held; restarted worker: "
          f"{stats.get('bara/frontier/unconfirmed_delivered', 0)} unconfirmed pages found in the victim's feed, "
          f"{stats.get('bara/frontier/unconfirmed_requeued', 0)} queued again; pages written twice {again}; "
          f"site requests after the kill {sum(server.hits.values()) - hits_before}")
    assert stats.get("bara/frontier/unconfirmed_delivered", 0) >= 1, "no written, unacknowledged item: proved nothing"
    assert again == []


@pytest.mark.slow
def test_workers_fail_fast_when_redis_restarts_mid_crawl(redis_server: RedisServer, tmp_path: Path) -> None:
    site = Site()
    with SiteServer(site) as server:
        gen = make_graph_site(server.base, GRAPH_SEED, script_links=False)
        gen.install(site)
        workers = [start_worker(gen.seed, redis_server.url, tmp_path, f"w{n}", {}) for n in range(2)]
        wait_for(lambda: len(union(workers)) >= 3, "the first items", timeout=120)
        redis_server.restart()  # no persistence: the crawl's state is gone
        for worker in workers:
            code, stats, log = worker.finish(timeout=120)
            assert code == 4, log[-3000:]
            assert stats["finish_reason"] == "bara_frontier_lost"
            assert "lost this crawl's state (Redis restarted?)" in log or "failed" in log
        assert len(union(workers)) < P


@pytest.mark.slow
def test_each_worker_writes_its_own_warc(
    redis_server: RedisServer, graph_site: tuple[GraphSite, SiteServer], tmp_path: Path
) -> None:
    from warcio.archiveiterator import ArchiveIterator

    gen, _ = graph_site
    base = tmp_path / "crawl.warc.gz"
    workers = [start_worker(gen.seed, redis_server.url, tmp_path, f"w{n}", {"BARA_WARC": base}) for n in range(2)]
    for code, _, log in [w.finish() for w in workers]:
        assert code == 0 and "Traceback" not in log, log[-3000:]
    warcs = sorted(tmp_path.glob("crawl-*.warc.gz"))
    assert len(warcs) == 2 and not base.exists(), warcs  # named by worker (host-pid), never one shared file
    pages = []
    for warc in warcs:
        with warc.open("rb") as fh:
            pages += [json.loads(r.content_stream().read())["url"] for r in ArchiveIterator(fh)
                      if r.rec_type == "metadata"]
    items = union(workers)
    assert sorted(pages) == sorted(i["url"] for i in items) and len(pages) == len(set(pages)) == P
