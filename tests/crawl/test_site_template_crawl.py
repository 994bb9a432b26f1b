"""The site's template by repetition, in whole crawls: what a page's parent shows at the same place leaves
its text, and every page's text is the same at any concurrency (over plain HTTP: the evidence is the
extractor's, not the browser's; `test_shared_crawl` checks the same across Redis workers)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bara_scrapy.bench.server import Site, SiteServer

from ..crawl_utils import run_crawl
from ..forum_site import TEMPLATE_LINES, Forum

ARGS = {"max_depth": 2, "max_width": 8, "max_pages": 16}


def crawl_forum(tmp_path: Path, concurrency: int) -> tuple[Forum, str, list[dict[str, Any]], dict[str, Any]]:
    forum, site = Forum().build(), Site()
    forum.install(site)
    tmp_path.mkdir()
    with SiteServer(site) as server:
        items = run_crawl(server.url("/"), tmp_path=tmp_path, args=ARGS,
                          settings={"BARA_BROWSER_ENABLED": False, "CONCURRENT_REQUESTS": concurrency,
                                    "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency})
        return forum, server.url("/").rstrip("/"), list(items), items.stats


def test_the_template_leaves_every_page_but_the_seed_and_the_text_is_the_same_at_any_concurrency(
    tmp_path: Path,
) -> None:
    forum, base, items, stats = crawl_forum(tmp_path / "c1", 1)
    assert len(items) == ARGS["max_pages"]
    for item in items:
        path = item["url"][len(base):]
        assert item["text"], path
        for own in forum.own[path]:
            assert own in item["text"], (path, own)
        template = [line for line in TEMPLATE_LINES if line in item["text"]]
        assert template == (list(TEMPLATE_LINES) if item["bfs_index"] == 0 else []), path  # the seed has no parent
    assert stats["bara/text/template_lines"] >= 2 * (len(items) - 1)
    _, wide_base, wide, _ = crawl_forum(tmp_path / "c8", 8)  # another server, another port
    assert {i["url"][len(wide_base):]: i["text"] for i in wide} == {i["url"][len(base):]: i["text"] for i in items}
