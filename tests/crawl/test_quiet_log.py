"""A default crawl is quiet: no WARNING unless something is wrong, and one summary line at the end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer

from ..crawl_utils import run_crawl

pytestmark = pytest.mark.browser

PAGE = """<html><head><title>{title}</title></head><body><main><h1>{title}</h1>
<p>The {title} page's own text, long enough to be read as the content of the page.</p>
<img src="/img/{name}.png" alt="{title}">{extra}</main></body></html>"""


def png(info: RequestInfo) -> Route:
    return Route(image_bytes("png", info.path), content_type="image/png")


def site() -> Site:
    site = Site()
    links = '<a href="/a">A</a> <a href="/b">B</a>'
    site.add("/", PAGE.format(title="Home", name="home", extra=links))
    site.add("/a", PAGE.format(title="A", name="a", extra=""))
    site.add("/b", PAGE.format(title="B", name="b", extra='<img src="/img/gone.png" alt="gone">'))
    for name in ("home", "a", "b"):
        site.add(f"/img/{name}.png", handler=png)
    site.add("/img/gone.png", b"not here", status=404, content_type="text/plain")
    return site


def log_lines(text: str, level: str) -> list[str]:
    return [line for line in text.splitlines() if f"] {level}: " in line]


def test_a_default_crawl_logs_no_warning_and_ends_with_one_summary(tmp_path: Path) -> None:
    with SiteServer(site()) as server:
        out = run_crawl(server.url("/"), tmp_path=tmp_path)
    assert [i["status"] for i in out] == ["ok"] * 3  # a rejected image is the verifier's job, not a fault
    assert log_lines(out.log_text, "WARNING") == [] and log_lines(out.log_text, "ERROR") == []
    [summary] = [line for line in out.log_text.splitlines() if "bara done:" in line]
    rejected = sum(len(i["rejected_media"]) for i in out)
    attempts = sum(len(i["attempts"]) for i in out)
    assert rejected == 1
    assert re.search(
        rf"bara done: 3 pages \(ok 3, incomplete 0, failed 0\) \| 3 media verified, 1 rejected \| {attempts} attempts"
        rf" \| [\d.]+ pages/min \| items: {re.escape(str(tmp_path / 'items.jsonl'))}$",
        summary,
    ), summary
