"""The HTML report: its numbers (pure), the command, and the file itself in Chromium from file://."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import Site, SiteServer
from bara_scrapy.items import Attempt, Media, PageItem
from bara_scrapy.report import ReportMeta, build_report_data, read_items, render_html, write_report
from tests.browser_utils import chromium, needs_chromium
from tests.crawl_utils import REPO_ROOT

STATUS_OF = {5: "incomplete", 9: "failed"}  # by i % 10; the rest are ok


def status_of(i: int) -> str:
    return STATUS_OF.get(i % 10, "ok")


def make_items(base: str, n: int, fanout: int = 3) -> list[dict[str, Any]]:
    """Items as a crawl writes them: a fanout-ary BFS tree, i % 3 images on ok pages, a retry every 4th page."""
    items = []
    for i in range(n):
        parent = None if i == 0 else (i - 1) // fanout
        status = status_of(i)
        images = [Media(url=f"{base}/img/{i}-{j}.png", kind="image", found_in=["img@src"], verified=True,
                        sniffed_type="png", bytes=200) for j in range(i % 3)] if status == "ok" else []
        videos = [Media(url=f"{base}/v/{i}.mp4", kind="video", found_in=["video@src"], verified=True,
                        sniffed_type="mp4", bytes=4096)] if i % 7 == 1 else []
        rejected = [Media(url=f"{base}/gone/{i}.png", kind="image", found_in=["img@src"], reason="http_404")
                    ] if i % 6 == 2 else []
        attempts = [Attempt(n=1, instructions="render and scroll", actions={}, images=0,
                            diagnosis=["missing_media"] if i % 4 == 3 else [])]
        if i % 4 == 3:
            attempts.append(Attempt(n=2, instructions="scroll 24 steps, wait for network", actions={},
                                    images=len(images)))
        items.append(PageItem(
            url=f"{base}/p/{i}", final_url=f"{base}/p/{i}", depth=0 if i == 0 else _depth(i, fanout),
            parent_url=None if parent is None else f"{base}/p/{parent}", bfs_index=i, status=status,
            title=f"Page number {i}", text=f"Words of page {i}. " * 5, images=images, videos=videos,
            rejected_media=rejected, attempts=attempts, fetched_at=f"2026-11-30T10:{i // 60 % 60:02d}:{i % 60:02d}Z",
        ).model_dump(mode="json"))
    return items


def _depth(i: int, fanout: int) -> int:
    depth = 0
    while i:
        i = (i - 1) // fanout
        depth += 1
    return depth


def expected_summary(items: list[dict[str, Any]]) -> dict[str, int]:
    retried = [it for it in items if len(it["attempts"]) > 1]
    return {
        "pages": len(items), "status-ok": sum(it["status"] == "ok" for it in items),
        "status-incomplete": sum(it["status"] == "incomplete" for it in items),
        "status-failed": sum(it["status"] == "failed" for it in items),
        "images": sum(len(it["images"]) for it in items), "videos": sum(len(it["videos"]) for it in items),
        "rejected": sum(len(it["rejected_media"]) for it in items), "retried": len(retried),
        "recovered": sum(it["status"] == "ok" for it in retried),
        "media-gained": sum(len(it["images"]) for it in retried),
    }


def test_summary_tree_and_reflection_numbers() -> None:
    items = make_items("http://127.0.0.1:9", 40)
    data = build_report_data(reversed(items), ReportMeta(elapsed=120.0, limits={"max_pages": 40}))
    s, pages = data["summary"], data["pages"]
    want = expected_summary(items)
    assert s["pages"] == want["pages"] == 40
    assert s["by_status"] == {"ok": want["status-ok"], "incomplete": 4, "failed": 4}
    assert (s["images"], s["videos"]) == (want["images"], want["videos"])
    assert s["rejected"] == {"image": {"http_404": want["rejected"]}}
    assert s["reflection"]["pages_retried"] == want["retried"] == 10
    assert s["reflection"]["recovered"] == want["recovered"]
    assert s["reflection"]["media_gained"] == want["media-gained"] > 0
    assert s["reflection"]["diagnoses"] == {"missing_media": 10}
    assert s["pages_per_min"] == 20.0 and s["seed"] == "http://127.0.0.1:9/p/0"
    assert [p["i"] for p in pages] == list(range(40))  # sorted by bfs_index whatever the feed order
    assert [p["parent"] for p in pages[:5]] == [None, 0, 0, 0, 1]
    assert s["started"] == "2026-11-30T10:00:00Z" and s["finished"] == "2026-11-30T10:00:39Z"


def test_page_data_cannot_break_out_of_the_report(tmp_path: Path) -> None:
    item = make_items("http://127.0.0.1:9", 1)[0]
    item["title"] = "</script><script>document.title='pwned'</script><!--"
    html = render_html(build_report_data([item]))
    assert "<script>document.title='pwned'" not in html
    embedded = re.search(r'<script id="bara-data" type="application/json">(.*?)</script>', html, re.S)
    assert embedded is not None
    assert json.loads(embedded.group(1))["pages"][0]["title"] == item["title"]
    assert re.search(r"<script[^>]*\bsrc=|<link\b|@import|url\(", html) is None  # self-contained


def test_read_items_takes_json_lines_and_json(tmp_path: Path) -> None:
    items = make_items("http://127.0.0.1:9", 3)
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items) + "\n")
    (tmp_path / "a.json").write_text("\n" + json.dumps(items))
    assert list(read_items(tmp_path / "a.jsonl")) == items == list(read_items(tmp_path / "a.json"))


def test_command_writes_the_report(tmp_path: Path) -> None:
    items = make_items("http://127.0.0.1:9", 12)
    feed = tmp_path / "items.jsonl"
    feed.write_text("".join(json.dumps(i) + "\n" for i in items))
    out = tmp_path / "out" / "report.html"
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", "bara-report", str(feed), "-o", str(out), "--max-pages", "12",
         "--replay", "http://127.0.0.1:8080/coll/"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "12 pages" in proc.stdout
    html = out.read_text(encoding="utf-8")
    assert 'data-stat="pages">12<' in html and "pages 12" in html
    # each page that was fetched links to its replay in the archive (tests/crawl/test_archive_crawl.py follows them)
    data = json.loads(html.split('type="application/json">', 1)[1].split("</script>", 1)[0])
    replays = {p["url"]: p.get("replay") for p in data["pages"]}
    for item in items:
        if item["status"] == "failed":
            assert replays[item["url"]] is None
        else:
            assert replays[item["url"]].startswith("http://127.0.0.1:8080/coll/2")
            assert replays[item["url"]].endswith("/" + (item.get("final_url") or item["url"]))


def test_command_refuses_a_missing_feed(tmp_path: Path) -> None:
    import argparse

    from scrapy.exceptions import UsageError
    from scrapy.settings import Settings

    from bara_scrapy.report.command import Command

    command = Command()
    command.settings = Settings()
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    opts = parser.parse_args(["-o", str(tmp_path / "r.html")])
    with pytest.raises(UsageError, match="no such items file"):
        command.run([str(tmp_path / "nope.jsonl")], opts)
    with pytest.raises(UsageError, match="one items file"):
        command.run([], opts)
    assert not (tmp_path / "r.html").exists()


# ---------------------------------------------------------------------------------------------- in Chromium

READ_SUMMARY = """() => Object.fromEntries([...document.querySelectorAll('#summary [data-stat]')]
  .map((e) => [e.dataset.stat, e.textContent.trim()]))"""
THUMBS_LOADED = """(n) => { const t = [...document.querySelectorAll('#detail img.thumb')];
  t.forEach((i) => i.scrollIntoView()); return t.length === n && t.every((i) => i.complete && i.naturalWidth > 0); }"""


@pytest.fixture
def media_server() -> Iterator[SiteServer]:
    site = Site()
    with SiteServer(site) as server:
        for i in range(200):
            for j in range(3):
                site.add(f"/img/{i}-{j}.png", image_bytes("png", f"{i}-{j}", (48, 36)), content_type="image/png")
        yield server


async def _drive(report: Path, big: Path, stored_page: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1400, "height": 1000})
        await page.goto(report.as_uri() + "#page=4")
        await page.wait_for_selector("body[data-ready='1']")
        out["summary"] = await page.evaluate(READ_SUMMARY)
        out["title4"] = await page.text_content("#detail h2")
        await page.wait_for_function(THUMBS_LOADED, arg=1, timeout=30_000)
        await page.goto(report.as_uri() + f"#page={stored_page}")
        await page.reload()
        await page.wait_for_selector("body[data-ready='1']")
        await page.wait_for_function(THUMBS_LOADED, arg=2, timeout=30_000)
        out["stored_srcs"] = await page.eval_on_selector_all("#detail img.thumb", "(t) => t.map((i) => i.src)")
        out["tree_selected"] = await page.text_content("#tree .sel")
        await page.select_option("#f-status", "failed")
        out["failed_count"] = await page.text_content("#count")
        await page.select_option("#f-status", "")
        await page.fill("#f-search", "page number 17")
        out["search_rows"] = await page.eval_on_selector_all("#rows tr", "(r) => r.map((x) => x.dataset.i)")
        await page.goto(big.as_uri())
        await page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        out["big_rows"] = await page.eval_on_selector_all("#rows tr", "(r) => r.length")
        out["big_nodes"] = await page.evaluate("document.querySelectorAll('*').length")
        out["big_count"] = await page.text_content("#count")
        await page.click("#next")
        out["big_next_first"] = await page.eval_on_selector("#rows tr", "(r) => r.dataset.i")
        out["big_pageno"] = await page.text_content("#pageno")
    return out


@pytest.mark.browser
@needs_chromium
def test_report_in_chromium(media_server: SiteServer, tmp_path: Path) -> None:
    items = make_items(media_server.base, 120)
    stored_page = 8  # ok, two images: one stored copy on disk, one served by the loopback server
    store = tmp_path / "files"
    (store / "full").mkdir(parents=True)
    (store / "full" / "copy.png").write_bytes(image_bytes("png", "stored copy", (50, 40)))
    items[stored_page]["images"][0]["path"] = "full/copy.png"
    report = tmp_path / "report.html"
    write_report(build_report_data(items, ReportMeta(files_base=store.as_uri())), report)
    big = tmp_path / "big.html"
    write_report(build_report_data(make_items(media_server.base, 5000, fanout=8)), big)
    box: dict[str, Any] = {}

    def worker() -> None:  # a private event loop: the session's reactor owns the main one
        try:
            box["out"] = asyncio.run(_drive(report, big, stored_page))
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(timeout=180)
    assert not thread.is_alive(), "browser run did not finish"
    if "error" in box:
        raise box["error"]
    out = box["out"]
    want = expected_summary(items)
    assert {k: int(out["summary"][k]) for k in want} == want
    assert out["title4"] == "#4 Page number 4"
    assert out["stored_srcs"][0] == (store / "full" / "copy.png").as_uri()
    assert out["stored_srcs"][1] == f"{media_server.base}/img/{stored_page}-1.png"
    assert "Page number 8" in out["tree_selected"]  # the tree opened down to the page
    assert out["failed_count"] == f"{want['status-failed']} of 120 pages"
    assert out["search_rows"] == ["17"]
    assert out["big_count"] == "5000 of 5000 pages"
    assert out["big_rows"] == 50 and out["big_next_first"] == "50" and out["big_pageno"] == "page 2 / 100"
    assert out["big_nodes"] < 2500  # a screenful is laid out, not 5,000 pages
