"""A real Scrapyd (pinned from PyPI): deploy this project with `scrapyd-deploy`, run `bara`, read its items."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.server import Site, SiteServer

from ..service_utils import ScrapydNode, copy_project, wait_for

PAGES = {
    "/": ["/a", "/b", "/c"],
    "/a": ["/b", "/d"],
    "/b": [],
    "/c": ["/e"],
    "/d": [],
    "/e": [],
}


@pytest.fixture
def node(tmp_path: Path) -> Iterator[ScrapydNode]:
    scrapyd = ScrapydNode(tmp_path / "scrapyd").start()
    yield scrapyd
    scrapyd.stop()


def finished_job(node: ScrapydNode, job: str) -> dict[str, Any] | None:
    jobs = node.get("listjobs.json?project=bara_scrapy")
    return next((j for j in jobs["finished"] if j["id"] == job), None)


@pytest.mark.browser
def test_scrapyd_deploys_schedules_and_runs_bara_in_chromium(node: ScrapydNode, tmp_path: Path) -> None:
    site = Site()
    for path, links in PAGES.items():
        anchors = "".join(f'<a href="{href}">{href}</a> ' for href in links)
        site.add(path, f"<title>{path}</title><main><p>Scrapyd page {path}.</p>{anchors}</main>")
    with SiteServer(site) as server:
        project = copy_project(tmp_path / "project")
        node.deploy(project)
        assert not (project / "setup.py").read_text().count("Automatically created"), "deploy wrote its own setup.py"
        assert node.get("listspiders.json?project=bara_scrapy")["spiders"] == ["bara"]
        reply = node.post("schedule.json", [
            ("project", "bara_scrapy"), ("spider", "bara"), ("seed", server.url("/")),
            ("max_depth", "1"), ("max_pages", "4"), ("setting", "BARA_SCROLL_PAUSE=0.05"),
            ("setting", "BARA_CHROMIUM_PATH=/usr/bin/chromium"),  # how a node with Chromium elsewhere sets it
        ])
        assert reply["status"] == "ok", reply
        job = reply["jobid"]
        done = wait_for(lambda: finished_job(node, job), f"scrapyd job {job}", timeout=180, interval=0.3)
        log = (node.root / "logs" / "bara_scrapy" / "bara" / f"{job}.log").read_text(encoding="utf-8")
        assert "Traceback" not in log, log[-3000:]
        items = node.items(job)
        assert sorted(i["bfs_index"] for i in items) == [0, 1, 2, 3], log[-3000:]
        assert {i["url"] for i in items} == {server.url(p) for p in ("/", "/a", "/b", "/c")}
        assert all(i["status"] == "ok" for i in items), items
        assert all(i["text"].startswith("Scrapyd page") for i in items)
        assert "playwright/page_count" in log, "the pages were not rendered in Chromium"
        assert "'finish_reason': 'bara_page_budget'" in log
        assert done["items_url"].endswith(f"{job}.jl")
        print(f"scrapyd job {job}: {len(items)} items")
