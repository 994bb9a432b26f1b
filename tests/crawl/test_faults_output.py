"""Faults before and around the crawl (docs/faults.md, §4 and §10): no Chromium, a broken Chromium, an output
that cannot be written, a disk that fills mid-crawl. Each is a real fault: a missing file, an executable
that fails, a path under a regular file, a 24 KiB tmpfs."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.bench.server import Site, SiteServer

from ..crawl_utils import REPO_ROOT
from ..faults import page
from ..kill_resume import crawl_command, feed_lines

BROKEN_CHROMIUM = "#!/bin/sh\necho 'chromium: error while loading shared libraries: libnss3.so' >&2\nexit 127\n"


@pytest.fixture
def site() -> Iterator[SiteServer]:
    s = Site()
    s.add("/", page("The output test site.", [f"/p/{n}" for n in range(40)]))
    for n in range(40):
        s.add(f"/p/{n}", page(f"Page {n} of the output test site, with a few words to read. " * 8))
    with SiteServer(s) as server:
        yield server


def _run(server: SiteServer, tmp_path: Path, feed: Path, **settings: object) -> subprocess.CompletedProcess[str]:
    cmd = crawl_command(server.url("/"), feed, tmp_path / "crawl.log", {"max_pages": 41, "max_width": 50},
                        {"CONCURRENT_REQUESTS": 2, **settings})
    return subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False)


def _one_error_line(done: subprocess.CompletedProcess[str], exit_code: int, needle: str) -> None:
    assert done.returncode == exit_code, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines
    assert "Traceback" not in done.stderr


def _nothing_started(server: SiteServer, tmp_path: Path) -> None:
    log = (tmp_path / "crawl.log").read_text() if (tmp_path / "crawl.log").exists() else ""
    assert server.hits == {} and "Spider opened" not in log and "Launching browser" not in log


def test_missing_chromium_one_line_exit_5_before_any_page(tmp_path: Path, site: SiteServer) -> None:
    done = _run(site, tmp_path, tmp_path / "items.jsonl", BARA_CHROMIUM_PATH=tmp_path / "no-chromium")
    _one_error_line(done, 5, f"Chromium not found at {tmp_path / 'no-chromium'}")
    _nothing_started(site, tmp_path)


def test_chromium_that_fails_to_launch_one_line_exit_5_before_any_page(tmp_path: Path, site: SiteServer) -> None:
    broken = tmp_path / "chromium"
    broken.write_text(BROKEN_CHROMIUM)
    broken.chmod(0o755)
    done = _run(site, tmp_path, tmp_path / "items.jsonl", BARA_CHROMIUM_PATH=broken)
    _one_error_line(done, 5, "does not start (exit 127: chromium: error while loading shared libraries")
    _nothing_started(site, tmp_path)


def test_unwritable_output_one_line_exit_6_before_any_page(tmp_path: Path, site: SiteServer) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory")
    done = _run(site, tmp_path, a_file / "items.jsonl")
    _one_error_line(done, 6, f"cannot write the feed {a_file / 'items.jsonl'}: {a_file} is not a directory")
    _nothing_started(site, tmp_path)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24k", "tmpfs", str(disk)], capture_output=True,
                             check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr!r}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.mark.browser
def test_a_disk_that_fills_mid_crawl_stops_it_keeping_every_whole_item(tmp_path: Path, site: SiteServer,
                                                                      small_disk: Path) -> None:
    feed = small_disk / "items.jsonl"
    done = _run(site, tmp_path, feed)
    log = (tmp_path / "crawl.log").read_text()
    assert done.returncode == 6, done.stderr[-2000:] + log[-3000:]
    assert "Traceback" not in log and "Traceback" not in done.stderr, log[-4000:]
    assert "Cannot write the feed" in log and "No space left on device" in log
    data = feed.read_bytes()
    assert data.endswith(b"\n")  # no cut line
    items = [json.loads(line) for line in feed_lines(feed)]
    assert 0 < len(items) < 41 and len({i["url"] for i in items}) == len(items)
    assert "'finish_reason': 'bara_output_failed'" in log
