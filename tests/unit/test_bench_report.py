"""The bench report: JSON, Markdown tables per variant and per quirk, and a PNG chart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bara_scrapy.bench.report import build_report, render_markdown, write_report
from bara_scrapy.bench.score import Counts, SiteScore


def site_score(site_id: str, found: int, leaked: int = 0) -> SiteScore:
    s = SiteScore(site_id, pages=Counts(4, found, found, found), exact=found == 4, bfs_agree=found,
                  text=Counts(8, 2 * found), images=Counts(4, found, found, found),
                  media_checked=found, media_downloadable=found - leaked, bad_expected=1,
                  bad_leaked=[f"http://x/{i}" for i in range(leaked)])
    s.tag(("feed",), "pages", 2, found // 2)
    s.tag(("bad_404",), "bad", 1, leaked)
    return s


def test_report_files_and_tables(tmp_path: Path) -> None:
    report = build_report(
        {"http": [site_score("s00", 2), site_score("s01", 1)],
         "full": [site_score("s00", 4), site_score("s01", 4)],
         "no_verification": [site_score("s00", 4, leaked=1), site_score("s01", 4)]},
        {"seed": 0, "sites": 2},
    )
    assert list(report["variants"]) == ["full", "no_verification", "http"]
    paths = write_report(report, tmp_path / "out")
    assert json.loads(paths["json"].read_text())["variants"]["http"]["summary"]["pages"]["recall"] == 3 / 8
    assert paths["chart"].read_bytes().startswith(b"\x89PNG")
    md = paths["md"].read_text()
    assert md == render_markdown(report)
    assert "| full | 100.0% | 100.0% | 100.0% | 100.0% | 100.0% |" in md
    assert "| http | plain HTTP, no browser | +0.0 pp | +62.5 pp | +100.0 pp |" in md
    assert "| feed | 4 | 100.0% | 100.0% | 25.0% |" in md  # quirk rows: recall per variant
    assert "| bad_404 | 2 | 0 | 1 | 0 |" in md  # leaks per variant
    assert "| s01 | 4 | 100.0% ✓ | 100.0% ✓ | 25.0% |" in md


def test_without_matplotlib_the_report_says_so_and_skips_the_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bara_scrapy.bench.report as bench_report

    monkeypatch.setattr(bench_report, "have_matplotlib", lambda: False)
    report = build_report({"full": [site_score("s00", 4)]}, {"seed": 0, "sites": 1})
    paths = write_report(report, tmp_path / "out")
    assert "chart" not in paths and not (tmp_path / "out" / "chart.png").exists()
    assert paths["md"].exists() and paths["json"].exists()
    assert "pip install 'bara_scrapy[bench]'" in capsys.readouterr().err
