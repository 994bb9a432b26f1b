"""Whole-crawl lifecycle and fault cases (docs/faults.md): bad input, deadlines, scope, resume, cleanup."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest

from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer
from bara_scrapy.items import SCHEMA_PATH

from ..crawl_utils import REPO_ROOT, run_crawl
from ..faults import leftover_chromium

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _page(body: str, links: list[str] = ()) -> str:  # type: ignore[assignment]
    anchors = "".join(f'<a href="{href}">{href}</a> ' for href in links)
    return f"<html><head><title>t</title></head><body><main><p>{body}</p>{anchors}</main></body></html>"


@pytest.fixture
def site() -> SiteServer:
    s = Site()
    s.add("/", _page("Home page of the lifecycle site.", ["/a", "/b", "/hog", "/away", "/js-away"]))
    s.add("/a", _page("Page A.", ["/c"]))
    s.add("/b", _page("Page B."))
    s.add("/c", _page("Page C."))
    s.add("/hog", _page("A page whose script never yields.") + "<script>setTimeout(()=>{for(;;){}},50)</script>")
    other = SiteServer(Site()).start()
    other.site.add("/", _page("The other site."))
    s.add("/away", b"", status=302, headers={"Location": other.url("/")})
    s.add("/js-away", _page("leaving") + f"<script>location.href='{other.url('/')}'</script>")
    server = SiteServer(s).start()
    server.other = other  # type: ignore[attr-defined]
    yield server  # type: ignore[misc]
    server.stop()
    other.stop()


@pytest.mark.parametrize(
    ("arg", "fragment"),
    [
        ("seed=example.org", "invalid seed 'example.org'"),
        ("seed=http//x", "invalid seed 'http//x'"),
        ("seed=", "invalid seed ''"),
        ("seed=file:///etc/passwd", "unsupported scheme 'file'"),
        ("seed=javascript:alert(1)", "unsupported scheme 'javascript'"),
        ("max_depth=-1", "invalid max_depth '-1'"),
        ("max_pages=many", "invalid max_pages 'many'"),
        ("max_width=1.5", "invalid max_width '1.5'"),
    ],
)
def test_bad_arguments_fail_fast_without_a_browser(tmp_path: Path, arg: str, fragment: str) -> None:
    args = ["-a", arg] if arg.startswith("seed=") else ["-a", "seed=http://127.0.0.1:9/", "-a", arg]
    out = tmp_path / "items.jsonl"
    proc = subprocess.run([sys.executable, "-m", "scrapy", "crawl", "bara", *args, "-O", str(out)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    errors = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and fragment in errors[0]
    assert "playwright" not in proc.stderr.lower() and "Traceback" not in proc.stderr
    assert not out.exists()


@pytest.mark.browser
def test_deadline_scope_and_schema(tmp_path: Path, site: SiteServer) -> None:
    started = time.monotonic()
    items = run_crawl(site.url("/"), tmp_path=tmp_path, args={"max_attempts": 2},
                      settings={"BARA_PAGE_TIMEOUT": 4, "BARA_NAVIGATION_TIMEOUT": 3})
    elapsed = time.monotonic() - started
    by_path = {i["url"].split(str(site.port), 1)[1]: i for i in items}
    assert sorted(by_path) == ["/", "/a", "/away", "/b", "/c", "/hog", "/js-away"]
    hog = by_path["/hog"]
    assert hog["status"] == "failed" and len(hog["attempts"]) == 2
    assert all("timeout" in a["diagnosis"] for a in hog["attempts"])
    assert all(a["seconds"] <= 4 + 6 for a in hog["attempts"])  # each attempt within its deadline + slack (loaded)
    for path in ("/away", "/js-away"):
        assert by_path[path]["status"] == "failed"
        # the other site is 127.0.0.1 on another port: a private address that is not the seed's host:port
        assert by_path[path]["error"].startswith("ssrf_blocked")
        assert len(by_path[path]["attempts"]) == 1  # never retried
    # the other site saw nothing: redirects are decided before they are followed
    assert sum(site.other.hits.values()) == 0  # type: ignore[attr-defined]
    assert elapsed < 120
    for item in items:
        jsonschema.validate(item, SCHEMA)
    assert not leftover_chromium(site.port), "Chromium processes of this crawl left behind"


@pytest.mark.browser
def test_seed_failure_exits_3_with_one_failed_item(tmp_path: Path) -> None:
    with SiteServer(Site()) as server:
        port = server.port
    items = run_crawl(f"http://127.0.0.1:{port}/", tmp_path=tmp_path, args={"max_attempts": 1},
                      settings={"RETRY_TIMES": 0}, expect_exit=3)
    assert len(items) == 1 and items[0]["status"] == "failed" and items[0]["error"]


@pytest.mark.browser
def test_jobdir_resume_gives_the_uninterrupted_items(tmp_path: Path, site: SiteServer) -> None:
    job = tmp_path / "job"
    args = {"max_attempts": 1}
    settings = {"JOBDIR": str(job), "CONCURRENT_REQUESTS": 2, "BARA_PAGE_TIMEOUT": 4}
    (tmp_path / "run1").mkdir()
    (tmp_path / "run2").mkdir()
    (tmp_path / "full").mkdir()
    first = run_crawl(site.url("/"), tmp_path=tmp_path / "run1", args=args,
                      settings={**settings, "CLOSESPIDER_ITEMCOUNT": 2})
    assert first.stats["finish_reason"] == "closespider_itemcount"
    second = run_crawl(site.url("/"), tmp_path=tmp_path / "run2", args=args, settings=settings)
    full = run_crawl(site.url("/"), tmp_path=tmp_path / "full", args=args,
                     settings={"CONCURRENT_REQUESTS": 2, "BARA_PAGE_TIMEOUT": 4})
    urls = [i["url"] for i in first + second]
    assert len(urls) == len(set(urls)), "a page was written twice"
    key = lambda i: (i["bfs_index"], i["url"], i["depth"], i["parent_url"])  # noqa: E731
    assert sorted(map(key, first + second)) == sorted(map(key, full))
    # another budget on the same JOBDIR is refused
    (tmp_path / "run3").mkdir()
    refused = run_crawl(site.url("/"), tmp_path=tmp_path / "run3", args={**args, "max_pages": 3},
                        settings=settings, expect_exit=2)
    assert refused.stats["finish_reason"] == "bara_resume_mismatch" and len(refused) == 0



@pytest.mark.browser
def test_retry_after_is_honoured(tmp_path: Path) -> None:
    stamps: list[float] = []

    def handler(info: RequestInfo) -> Route:
        stamps.append(time.monotonic())
        if info.hits == 1:
            return Route("busy", status=429, headers={"Retry-After": "2"})
        return Route(_page("Finally served after waiting as asked."))

    site = Site()
    site.add("/", handler=handler)
    with SiteServer(site) as server:
        items = run_crawl(server.url("/"), tmp_path=tmp_path, args={"max_depth": 0})
    assert items[0]["status"] == "ok" and "Finally served" in items[0]["text"]
    assert len(stamps) == 2 and stamps[1] - stamps[0] >= 2.0
    assert items.stats["bara/retry_after/waits"] == 1
