"""`scrapy bara-bench --perf` end to end on a tiny site: every variant and concurrency gives a sane row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.browser
def test_perf_command_on_a_tiny_site(tmp_path: Path) -> None:
    out = tmp_path / "perf"
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", "bara-bench", "--perf", "--perf-pages", "8", "--perf-concurrency", "2",
         "--perf-variants", "floor,http,bara,floor_window", "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads((out / "perf.json").read_text())
    rows = data["rows"]
    assert {(r["variant"], r["concurrency"]) for r in rows} == {
        (v, 2) for v in ("floor", "http", "bara", "floor_window")}
    for row in rows:
        assert row["returncode"] == 0, row
        assert row["pages"] == 8 and row["pages_found"] == 8, row
        assert row["pages_per_min"] > 0 and row["cpu_s"] > 0 and row["peak_pss_mb"] > 0, row
    by = {(r["variant"], r["concurrency"]): r for r in rows}
    assert by[("bara", 2)]["image_recall"] == 1.0  # bara scrolls the feed in, reads the lazy URLs the DOM names
    assert by[("floor", 2)]["image_recall"] < 1.0  # the floor does not scroll
    # the floor with every bara browser step (routed, quiet wait, scroll steps, own windows) scrolls lazy images in
    assert by[("floor_window", 2)]["image_recall"] > by[("floor", 2)]["image_recall"]
    assert by[("bara", 2)]["attempts_per_page"] >= 1.0 and by[("http", 2)]["attempts_per_page"] == 1.0
    assert by[("bara", 2)]["peak_pss_mb"] > by[("http", 2)]["peak_pss_mb"]  # a browser is in the tree
    assert data["machine"]["cores"] and data["machine"]["chromium"].startswith("Chromium")
    assert set(data["targets"]["bara_over_floor"]) == {"2"}
    assert (out / "perf.md").read_text().startswith("# bara-bench --perf")
    assert (out / "perf.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
