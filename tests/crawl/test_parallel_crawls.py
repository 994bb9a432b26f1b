"""Under load (docs/faults.md, §4): 4 crawls at once on this machine's 2 cores, as Scrapyd runs them, each
of its own generated site; each ends exact (the pages and `bfs_index` of the sequential reference) and
with the right statuses (every page of the site `ok`, every 404 and off-scope redirect `failed` with its reason)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from bara_scrapy.bench.server import Site, SiteServer

from ..crawl_utils import REPO_ROOT, GraphSite, make_graph_site, refs_of
from ..kill_resume import crawl_command, feed_lines

CRAWLS = 4
ARGS = {"max_pages": 20, "max_width": 6, "max_depth": 5, "max_attempts": 2}


@pytest.mark.browser
@pytest.mark.slow
def test_four_crawls_at_once_each_finish_exact(tmp_path: Path) -> None:
    servers = [SiteServer(Site()).start() for _ in range(CRAWLS)]
    try:
        graphs = [make_graph_site(s.base, rng_seed=290 + n, n_pages=40, flaky=False) for n, s in enumerate(servers)]
        for server, graph in zip(servers, graphs, strict=True):
            graph.install(server.site)
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCRAPY_")}
        procs = []
        for n, graph in enumerate(graphs):
            cmd = crawl_command(graph.seed, tmp_path / f"items-{n}.jsonl", tmp_path / f"crawl-{n}.log", ARGS,
                                {"CONCURRENT_REQUESTS": 4})
            procs.append(subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True))
        stderrs = [p.communicate(timeout=600)[1] for p in procs]
    finally:
        for server in servers:
            server.stop()
    for n, (proc, graph) in enumerate(zip(procs, graphs, strict=True)):
        log = (tmp_path / f"crawl-{n}.log").read_text()
        assert proc.returncode == 0, stderrs[n][-2000:] + log[-2000:]
        assert "Traceback" not in log and "Traceback" not in stderrs[n]
        items = [json.loads(line) for line in feed_lines(tmp_path / f"items-{n}.jsonl")]
        assert refs_of(items) == graph.reference(D=5, W=6, P=20), f"crawl {n}"
        for item in items:
            assert item["status"] == _expected_status(graph, item["url"]), (n, item["url"], item["error"])
            assert item["status"] == "ok" or item["error"]


def _expected_status(graph: GraphSite, url: str) -> str:
    """`ok` for a page of the site (or an in-scope redirect to one); `failed` for a 404 or an off-scope redirect."""
    path = urlsplit(url).path or "/"
    target = graph.redirects.get(path)
    if target is not None:
        return "failed" if target.startswith("http") else _expected_status(graph, urljoin(url, target))
    return "ok" if path in graph.pages else "failed"
