"""`scrapy bara-bench --sites 3` end to end: the command, its report, and full BaRA's scores on them
(with the two ablations that lose something a test can name: the other ablations are one setting each)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path, str]:  # type: ignore[type-arg]
    out = tmp_path_factory.mktemp("bench")
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy", "bara-bench", "--sites", "3", "--variants", "full,dfs,http",
         "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads((out / "report.json").read_text()), out, proc.stdout


def test_bench_writes_report_chart_and_progress(report: tuple[dict, Path, str]) -> None:  # type: ignore[type-arg]
    data, out, stdout = report
    assert (out / "report.md").read_text().startswith("# bara-bench report")
    assert (out / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(data["variants"]) == {"full", "dfs", "http"}
    assert "[full] 3/3" in stdout and "report:" in stdout  # progress lines while it runs


def test_full_bara_scores_on_the_smoke_sites(report: tuple[dict, Path, str]) -> None:  # type: ignore[type-arg]
    full = report[0]["variants"]["full"]["summary"]
    assert full["pages"]["exact_rate"] == 1.0 and full["pages"]["bfs_agreement"] == 1.0
    assert full["images"]["recall"] >= 0.97 and full["images"]["precision"] >= 0.99
    assert full["videos"]["recall"] >= 0.95
    assert full["downloadable"]["rate"] == 1.0
    assert full["bad"]["leaked"] == 0


def test_ablations_lose_what_they_switch_off(report: tuple[dict, Path, str]) -> None:  # type: ignore[type-arg]
    variants = report[0]["variants"]
    full = variants["full"]["summary"]
    assert variants["dfs"]["summary"]["pages"]["bfs_agreement"] < full["pages"]["bfs_agreement"]
    http = variants["http"]["summary"]
    assert http["videos"]["recall"] < full["videos"]["recall"] or http["images"]["recall"] < full["images"]["recall"]
