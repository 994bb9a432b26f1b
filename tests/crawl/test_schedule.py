"""`scrapy bara-schedule`: pure decisions, then two real Scrapyd nodes, one stopped mid-run."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer
from bara_scrapy.config import ConfigError
from bara_scrapy.schedule.plan import NodeLoad, Placement, SiteJob, choose_node, lost_jobs, parse_seeds

from ..service_utils import REPO_ROOT, ScrapydNode, clean_env, copy_project, kill_group, wait_for

A, B, C = "http://a:6800/", "http://b:6800/", "http://c:6800/"


@pytest.mark.parametrize(("loads", "want"), [
    ([NodeLoad(A, True), NodeLoad(B, True)], A),  # tie: list order
    ([NodeLoad(A, True, 0, 2), NodeLoad(B, True, 0, 1)], B),  # fewer running
    ([NodeLoad(A, True, 1, 0), NodeLoad(B, True, 0, 5)], B),  # A has a backlog
    ([NodeLoad(A, False), NodeLoad(B, True, 0, 3), NodeLoad(C, True, 0, 3)], B),  # A is down
    ([NodeLoad(A, False), NodeLoad(B, True, 2, 0)], None),  # nowhere to go now
    ([], None),
])
def test_choose_node(loads: list[NodeLoad], want: str | None) -> None:
    assert choose_node(loads) == want


def test_parse_seeds_reads_per_seed_arguments_and_rejects_bad_lines() -> None:
    text = "  # my sites\nhttps://a.test/\nhttps://b.test/x#frag max_pages=3 max_depth=1\n\n"
    assert parse_seeds(text) == [SiteJob("https://a.test/"),
                                 SiteJob("https://b.test/x#frag", (("max_pages", "3"), ("max_depth", "1")))]
    for bad, message in [("example.org", "line 1: invalid seed"), ("https://a.test/ max_pages=0", "max_pages"),
                         ("https://a.test/\nftp://x/", "line 2"), ("https://a.test/ =3", "NAME=VALUE")]:
        with pytest.raises(ConfigError, match=message):
            parse_seeds(bad)


def test_lost_jobs_are_active_jobs_on_a_down_node_or_missing_from_their_node() -> None:
    ps = [Placement(SiteJob(f"http://s{n}/"), node=node, job=f"j{n}", status=status)
          for n, (node, status) in enumerate([(A, "running"), (A, "pending"), (B, "running"), (B, "finished")])]
    up = {A: False, B: True}
    assert [p.job for p in lost_jobs(ps, up, {B: {"j2": "running", "j3": "finished"}})] == ["j0", "j1"]
    assert [p.job for p in lost_jobs(ps, {A: True, B: True}, {A: {"j0": "running"}, B: {}})] == ["j1", "j2"]


# --------------------------------------------------------------------------- two real Scrapyd nodes

PAGES = ["/", "/1", "/2", "/3", "/4"]  # a chain, each page a bit slow


def slow_site() -> Site:
    site = Site()
    for n, path in enumerate(PAGES):
        nxt = PAGES[n + 1] if n + 1 < len(PAGES) else None
        html = f"<title>{path}</title><p>Page {path}.</p>" + (f'<a href="{nxt}">next</a>' if nxt else "")

        def handler(info: RequestInfo, html: str = html) -> Route:
            time.sleep(0.4)  # server behaviour: the job runs long enough to be caught running
            return Route(html)

        site.add(path, handler=handler)
    return site


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[ScrapydNode, ScrapydNode]]:
    a, b = ScrapydNode(tmp_path / "node-a"), ScrapydNode(tmp_path / "node-b")
    try:
        yield a.start(), b.start()
    finally:
        a.stop()
        b.stop()


def running_jobs(node: ScrapydNode) -> list[str]:
    return [j["id"] for j in node.get("listjobs.json?project=bara_scrapy")["running"]]


@pytest.mark.slow
def test_bara_schedule_spreads_sites_and_reruns_the_job_of_a_stopped_node(
    nodes: tuple[ScrapydNode, ScrapydNode], tmp_path: Path
) -> None:
    node_a, node_b = nodes
    project = copy_project(tmp_path / "project")
    node_a.deploy(project)
    node_b.deploy(project)
    servers = [SiteServer(slow_site()).start() for _ in range(3)]
    try:
        seeds = tmp_path / "seeds.txt"
        lines = [s.url("/") for s in servers]
        lines[2] += " max_pages=3"
        seeds.write_text("# three sites\n" + "\n".join(lines) + "\n", encoding="utf-8")
        summary_json = tmp_path / "summary.json"
        cmd = [sys.executable, "-m", "scrapy", "bara-schedule", str(seeds), "--node", node_a.url, "--node", node_b.url,
               "-a", "max_depth=10", "--setting", "BARA_BROWSER_ENABLED=False", "--setting", "CONCURRENT_REQUESTS=1",
               "--poll", "0.3", "--timeout", "300", "--summary-json", str(summary_json)]
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=clean_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        lines_out: list[str] = []

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines_out.append(line)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()

        def placed_and_running_on_b() -> bool:  # bara-schedule knows the job, and it runs
            placed = " ".join(line for line in lines_out if f"scheduled on {node_b.url}" in line)
            return any(job in placed for job in running_jobs(node_b))

        try:
            wait_for(placed_and_running_on_b, "a job placed on node B and running", timeout=120, interval=0.1)
            node_b.stop()  # the node goes away with its running crawl
            proc.wait(timeout=300)
            reader.join(timeout=30)
        finally:
            kill_group(proc)
        output = "".join(lines_out)
        print(output)
        assert proc.returncode == 0, output
        rows = json.loads(summary_json.read_text(encoding="utf-8"))
        assert [r["seed"] for r in rows] == [s.url("/") for s in servers]
        assert all(r["status"] == "finished" for r in rows), rows
        assert [r["items"] for r in rows] == [5, 5, 3], rows
        moved = [r for r in rows if r["lost_on"]]
        assert moved and all(r["lost_on"] == [node_b.url] and r["node"] == node_a.url for r in moved), rows
        assert all(r["tries"] == 2 for r in moved)
        for r in rows:
            if r["node"] == node_a.url:  # node B's items dir went away with it, as far as we know
                items = node_a.items(r["job"])
                assert sorted(i["bfs_index"] for i in items) == list(range(r["items"]))
        on_a = sorted(r["job"] for r in rows if r["node"] == node_a.url)
        ran_on_a = sorted(p.stem for p in (node_a.root / "logs" / "bara_scrapy" / "bara").glob("*.log"))
        assert ran_on_a == on_a, "node A ran a job the summary does not show (scheduled twice?)"
        assert "lost on " + node_b.url in output
        assert "site" in output.splitlines()[-len(rows) - 1], output
    finally:
        for server in servers:
            server.stop()
