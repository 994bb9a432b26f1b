"""A `JOBDIR` crawl killed with SIGKILL, resumed with the same command, killed again...: the exact crawl.

The kills are real (the `scrapy crawl` process and its Chromium get SIGKILL) at moments chosen by
observable progress: the number of whole lines in the feed. One kill is followed by half a line
appended to the feed, as a kill in the middle of a write leaves it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from bara_scrapy.journal import JOURNAL_NAME, read_journal

from ..crawl_utils import REPO_ROOT, refs_of
from ..kill_resume import crawl_command, feed_lines, generated_site, kill_and_resume, page_path

ARGS = {"max_pages": 60, "max_width": 8, "max_depth": 8, "max_attempts": 2}
SETTINGS = {"CONCURRENT_REQUESTS": 4, "BARA_PAGE_TIMEOUT": 10}
MOMENTS = (5, 24, 41)


@pytest.mark.browser
def test_sigkill_at_three_moments_then_resume_gives_the_exact_crawl(tmp_path: Path) -> None:
    server, graph = generated_site(90)
    cut = b'{"url": "http://127.0.0.1/half-written'
    try:
        first = kill_and_resume(graph.seed, tmp_path, MOMENTS[:1], ARGS, SETTINGS, finish=False)[0]
        feed = tmp_path / "items.jsonl"
        with feed.open("ab") as fh:  # the kill cut the write of the next item
            fh.write(cut)
        # the bytes past the last journaled item: the cut, and any whole item the kill left unjournaled
        [journaled] = read_journal((tmp_path / "job" / JOURNAL_NAME).read_bytes()).feeds.values()
        unjournaled = feed.stat().st_size - journaled
        assert unjournaled >= len(cut)
        runs = [first, *kill_and_resume(graph.seed, tmp_path, MOMENTS[1:], ARGS, SETTINGS)]
    finally:
        server.stop()
    assert [r.exit_code for r in runs] == [-9, -9, -9, 0], runs
    assert all(r.items_after >= r.moment for r in runs if r.moment is not None)
    assert feed.read_bytes().endswith(b"\n") and cut not in feed.read_bytes()
    items = [json.loads(line) for line in feed_lines(feed)]  # every line whole and valid
    urls = [i["url"] for i in items]
    assert len(urls) == len(set(urls)), Counter(urls).most_common(3)
    assert refs_of(items) == graph.reference(D=8, W=8, P=60)
    second_log = (tmp_path / "crawl-1.log").read_text()  # killed: no stats dump, the warning says it
    assert f"dropped {unjournaled} bytes written after its last journaled item" in second_log
    # work repeated: at most the pages in flight at each kill (fetches beyond one per attempt)
    repeated = sum(server.hits[page_path(i["url"])] - len(i["attempts"]) for i in items)
    assert 0 <= repeated <= len(MOMENTS) * 2 * SETTINGS["CONCURRENT_REQUESTS"], repeated
    _damaged_jobdir_is_refused(tmp_path, graph.seed)


def _damaged_jobdir_is_refused(tmp_path: Path, seed: str) -> None:
    """A corrupted journal, a truncated spider.state: one clear line, exit 2, no crawl (and no fresh start)."""
    for name, damage in (("journal", lambda job: _garble_line(job / JOURNAL_NAME, 3)),
                         ("state", lambda job: _truncate(job / "spider.state"))):
        job = tmp_path / f"job-{name}"
        shutil.copytree(tmp_path / "job", job)
        damage(job)
        feed = tmp_path / f"{name}.jsonl"
        cmd = crawl_command(seed, feed, tmp_path / f"{name}.log", ARGS, {**SETTINGS, "JOBDIR": job})
        done = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 2, done.stderr[-2000:]
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: JOBDIR") and "damaged" in lines[0], lines
        assert "Traceback" not in done.stderr and not feed.exists()


def _garble_line(path: Path, n: int) -> None:
    lines = path.read_bytes().split(b"\n")
    lines[n] = lines[n][: len(lines[n]) // 2]
    path.write_bytes(b"\n".join(lines))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-9])
