"""One whole crawl with every output on: every feed format, stored media, progress, the report."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from bara_scrapy.bench.server import SiteServer
from bara_scrapy.exporters import CSV_FIELDS
from bara_scrapy.items import SCHEMA_PATH
from tests.crawl_utils import REPO_ROOT, parse_stats
from tests.gallery_site import build_gallery_site, has_hls

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
PAGES = 6  # pages 0-5: images, an MP4, an HLS manifest, a broken image; no reflection

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="Debian chromium not installed"),
]


def test_feeds_stored_media_progress_and_report(tmp_path: Path) -> None:
    store, report, log = tmp_path / "files", tmp_path / "report.html", tmp_path / "crawl.log"
    with SiteServer(build_gallery_site(PAGES)) as server:
        cmd = [sys.executable, "-m", "scrapy", "crawl", "bara", "-a", f"seed={server.url('/')}",
               "-a", f"max_pages={PAGES}", "-a", "max_width=10", "-a", "max_depth=3",
               "-s", "BARA_STORE_MEDIA=True", "-s", f"FILES_STORE={store}", "-s", f"BARA_REPORT={report}",
               "-s", "BARA_PROGRESS_INTERVAL=0.5", "-s", f"LOG_FILE={log}", "-s", "LOG_LEVEL=INFO"]
        for fmt in ("jsonl", "json", "csv", "xml"):
            cmd += ["-O", str(tmp_path / f"items.{fmt}")]
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCRAPY_")}
        proc = subprocess.run(cmd, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=240)
    log_text = log.read_text(encoding="utf-8")
    assert proc.returncode == 0, proc.stderr[-3000:] + log_text[-3000:]
    assert "Traceback" not in log_text + proc.stderr
    items = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    by_url = {i["url"]: i for i in items}
    assert len(items) == PAGES and sum(len(i["images"]) for i in items) > 0
    for item in items:
        jsonschema.validate(item, SCHEMA)

    # JSON: the same items
    assert {i["url"]: i for i in json.loads((tmp_path / "items.json").read_text())} == by_url

    # CSV: one flat row per page, counts + ;-joined URLs
    with (tmp_path / "items.csv").open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames or ()) == CSV_FIELDS
        rows = list(reader)
    assert len(rows) == PAGES
    for row in rows:
        item = by_url[row["url"]]
        assert int(row["images_count"]) == len(item["images"])
        assert row["images"] == ";".join(m["url"] for m in item["images"])
        assert row["videos"] == ";".join(m["url"] for m in item["videos"])
        assert row["image_paths"] == ";".join(m["path"] for m in item["images"])
        assert row["rejected_reasons"] == ";".join(m["reason"] for m in item["rejected_media"])
        assert int(row["attempts"]) == len(item["attempts"]) and row["status"] == item["status"]

    # XML: media nested as elements, no Python reprs, no "None"
    root = ET.parse(tmp_path / "items.xml").getroot()
    assert len(root) == PAGES
    for element in root:
        item = by_url[element.findtext("url") or ""]
        assert [u.text for u in element.findall("images/value/url")] == [m["url"] for m in item["images"]]
    assert "None" not in (tmp_path / "items.xml").read_text() and "Media(" not in (tmp_path / "items.csv").read_text()

    # stored media: every verified image and video, checksums are the files' MD5, manifests as manifests
    stored = [m for i in items for m in i["images"] + i["videos"]]
    assert stored and all(m["path"] and m["checksum"] for m in stored)
    for m in stored:
        assert hashlib.md5((store / m["path"]).read_bytes()).hexdigest() == m["checksum"]
    manifests = [m for m in stored if m["url"].endswith(".m3u8")]
    assert len(manifests) == sum(has_hls(i) for i in range(PAGES)) >= 1
    assert all((store / m["path"]).read_bytes().startswith(b"#EXTM3U") for m in manifests)
    # the manifest, not its segments (Chromium may fetch segments to play it; tests/test_store.py checks the store)
    assert not [m for m in stored if m["url"].endswith(".ts")] and not list(store.rglob("*.ts"))

    # progress: lines in the log, the final numbers in the stats
    stats = parse_stats(log_text)
    assert {k: stats[f"bara/progress/{k}"] for k in ("admitted", "done", "budget")} == {
        "admitted": PAGES, "done": PAGES, "budget": PAGES}
    assert stats["bara/progress/verified_images"] == sum(len(i["images"]) for i in items)
    assert stats["bara/progress/lines"] >= 1 and stats["bara/progress/pages_per_min"] > 0
    assert f"bara progress: admitted {PAGES} / done {PAGES} / budget {PAGES}" in log_text

    # the report, written at close
    html = report.read_text(encoding="utf-8")
    data = json.loads(re.search(r'type="application/json">(.*?)</script>', html, re.S).group(1))  # type: ignore[union-attr]
    assert sorted(p["url"] for p in data["pages"]) == sorted(by_url)
    assert data["summary"]["stored"] == len(stored) and data["meta"]["files_base"] == store.as_uri()
    assert f'data-stat="pages">{PAGES}<' in html and stats["bara/report/pages"] == PAGES
