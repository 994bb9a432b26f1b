"""The speed bench's floor ladder on pages that fail: a document the routed fetch cannot get is a failed
row at once, as in Chromium, not a route left pending until the navigation times out (seen on real pages,
whose scripts navigate to hosts out of reach)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bara_scrapy.bench.server import Site, SiteServer

REPO = Path(__file__).resolve().parents[2]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.browser
def test_a_document_the_routed_fetch_cannot_get_fails_the_page_at_once(tmp_path: Path) -> None:
    site = Site()
    site.add("/", "<html><body><p>Reachable page with some text.</p></body></html>")
    with SiteServer(site) as server:
        urls = tmp_path / "urls.txt"
        urls.write_text(f"{server.url('/')}\nhttp://127.0.0.1:{_closed_port()}/gone\n", encoding="utf-8")
        feed = tmp_path / "feed.jsonl"
        proc = subprocess.run([sys.executable, "-m", "bara_scrapy.bench.perf.floor", str(urls), str(feed), "1",
                               "route,fetch"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines()]
    assert [r["url"].rsplit("/", 1)[-1] for r in rows] == ["", "gone"]
    assert rows[0]["text_chars"] > 0 and "error" not in rows[0]
    assert "ERR_FAILED" in rows[1]["error"], rows[1]  # aborted by the route, not "Timeout 30000ms exceeded"
    assert "Error occurred in event listener" not in proc.stderr
