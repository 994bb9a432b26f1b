"""Reflection end to end: fixture pages that defeat a naive first attempt, crawled in Chromium.

With reflection (A=3) every recoverable page ends `ok` with exactly its
expected images; with A=1 they do not. Every returned media URL is fetched
again here, independently, and must carry the right magic bytes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bara_scrapy.bench.reflection_check import FAULT_SETTINGS, release_on_retry
from bara_scrapy.bench.reflection_site import REFLECTION_EXPECTED, build_reflection_site
from bara_scrapy.bench.server import SiteServer
from bara_scrapy.verify.sniff import kind_of, sniff

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[2]


def _command(seed: str, out: Path, args: dict[str, Any], settings: dict[str, Any]) -> list[str]:
    cmd = [sys.executable, "-m", "scrapy", "crawl", "bara", "-a", f"seed={seed}", "-O", str(out),
           "-s", f"LOG_FILE={out.with_suffix('.log')}"]
    for name, value in args.items():
        cmd += ["-a", f"{name}={value}"]
    for name, value in settings.items():
        cmd += ["-s", f"{name}={','.join(map(str, value)) if isinstance(value, list) else value}"]
    return cmd


def _run_all(commands: list[list[str]], at_once: int = 2) -> None:
    # two crawls at a time: six Chromiums on two cores ate the pages' own deadlines (the fixture's timing
    # must come from the site, not from the test's own load)
    for start in range(0, len(commands), at_once):
        procs = [subprocess.Popen(c, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for c in commands[start:start + at_once]]
        for proc in procs:
            _, err = proc.communicate(timeout=300)
            # 3 = the seed page failed: expected for the fault pages without reflection
            assert proc.returncode in (0, 3), err.decode()[-2000:]


def _items(path: Path) -> dict[str, dict[str, Any]]:
    items = [json.loads(line) for line in path.read_text().splitlines()]
    log = path.with_suffix(".log").read_text()
    assert "Traceback" not in log, log[-3000:]
    return {urlsplit(i["url"]).path: i for i in items}


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("reflection")
    sites = {a: build_reflection_site() for a in (3, 1)}
    for site in sites.values():
        release_on_retry(site)
    servers = {a: SiteServer(site).start() for a, site in sites.items()}
    try:
        commands, outputs = [], {}
        for a, server in servers.items():
            outputs[a] = [tmp / f"content-a{a}.jsonl", tmp / f"flaky-a{a}.jsonl", tmp / f"slow-a{a}.jsonl"]
            commands.append(_command(server.url("/"), outputs[a][0],
                                     {"max_depth": 1, "max_width": 20, "max_pages": 20, "max_attempts": a}, {}))
            commands.append(_command(server.url("/flaky-503"), outputs[a][1],
                                     {"max_depth": 0, "max_attempts": a}, FAULT_SETTINGS))
            commands.append(_command(server.url("/slow-once"), outputs[a][2],
                                     {"max_depth": 0, "max_attempts": a}, FAULT_SETTINGS))
        _run_all(commands)
        result: dict[int, dict[str, dict[str, Any]]] = {}
        for a, paths in outputs.items():
            merged: dict[str, dict[str, Any]] = {}
            for path in paths:
                merged.update(_items(path))
            result[a] = merged
        # independent re-fetch while the servers are up
        for items in result.values():
            for item in items.values():
                for media in item["images"] + item["videos"]:
                    with urllib.request.urlopen(media["url"], timeout=10) as resp:
                        body = resp.read(4096)
                    assert kind_of(sniff(body)) == media["kind"], media["url"]
        hits = {a: dict(server.hits) for a, server in servers.items()}
        result[0] = {"hits": hits}  # type: ignore[dict-item]
        return result
    finally:
        for a, server in servers.items():
            sites[a].slow_release.set()
            server.stop()


RECOVERABLE = sorted(p for p, e in REFLECTION_EXPECTED.items() if e.attempts > 1 and p != "/overlay")


@pytest.mark.parametrize("path", RECOVERABLE)
def test_reflection_recovers_page(crawls: dict[int, dict[str, dict[str, Any]]], path: str) -> None:
    item = crawls[3][path]
    expected = REFLECTION_EXPECTED[path]
    assert item["status"] == "ok", item["error"]
    assert item["error"] is None
    # the fixture needs `expected.attempts`; one more rewrite may be needed on a loaded machine (A=3)
    assert expected.attempts <= len(item["attempts"]) <= 3
    assert item["attempts"][0]["diagnosis"], "the first attempt must have been diagnosed"
    assert item["attempts"][-1]["diagnosis"] == []
    # each attempt's plan differs from the one before it
    plans = [json.dumps(a["actions"], sort_keys=True) for a in item["attempts"]]
    assert len(set(plans)) == len(plans)
    assert [urlsplit(m["url"]).path for m in item["images"]] == list(expected.images)
    assert item["rejected_media"] == []
    assert all(m["verified"] for m in item["images"])
    if expected.key_sentence:
        assert expected.key_sentence in item["text"]


@pytest.mark.parametrize("path", RECOVERABLE)
def test_without_reflection_page_stays_short(crawls: dict[int, dict[str, dict[str, Any]]], path: str) -> None:
    item = crawls[1][path]
    expected = REFLECTION_EXPECTED[path]
    assert len(item["attempts"]) == 1
    found = [urlsplit(m["url"]).path for m in item["images"]]
    assert item["status"] != "ok" or found != list(expected.images)
    assert item["error"], "a page that is not ok says why"


def test_fault_pages_hit_counts(crawls: dict[int, Any]) -> None:
    hits = crawls[0]["hits"]
    assert hits[3]["/flaky-503"] == 3
    assert hits[1]["/flaky-503"] == 1
    # one request per attempt; like test_reflection_recovers_page, one extra rewrite is allowed under load
    assert hits[3]["/slow-once"] == len(crawls[3]["/slow-once"]["attempts"]) >= 2


def test_overlay_page_ok_in_one_attempt(crawls: dict[int, dict[str, dict[str, Any]]]) -> None:
    # stacked banners are dismissed in a loop, so the naive attempt already sees everything
    for a in (3, 1):
        item = crawls[a]["/overlay"]
        assert item["status"] == "ok"
        assert [urlsplit(m["url"]).path for m in item["images"]] == list(REFLECTION_EXPECTED["/overlay"].images)


def test_one_item_per_admitted_page(crawls: dict[int, dict[str, dict[str, Any]]]) -> None:
    for a in (3, 1):
        indexes = sorted(i["bfs_index"] for p, i in crawls[a].items() if p not in ("/flaky-503", "/slow-once"))
        assert indexes == list(range(len(indexes)))
