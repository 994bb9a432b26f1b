"""`BARA_RENDER=auto` against `always` on one site: the same pages, text and media; HTTP where it is safe.

The site is a binary tree of server-rendered pages (`/p/<n>` links to `/p/<2n>` and `/p/<2n+1>`), one
pattern, each page with its own text and image. Two pages are written by a script into an empty mount
point (only a browser gives their text and links), one page's text is changed by a script (a probe
sees the difference), and one page has a "Load more" button.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import Route, Site, SiteServer

from ..crawl_utils import refs_of, run_crawl

PAGES = 31
APP_PAGES = (9, 12)  # written by a script into <div id="root">
LOAD_MORE = 13


def _links(n: int) -> str:
    return "".join(f'<li><a href="/p/{c}">Page {c}</a></li>' for c in (2 * n, 2 * n + 1) if c <= PAGES)


def _page(n: int) -> str:
    body = (f"<h1>Page {n}</h1><p>Page {n} tells the story of the number {n} in plain words.</p>"
            f'<img src="/img/{n}.png" alt="figure {n}"><ul>{_links(n)}</ul>')
    if n in APP_PAGES:
        script = body.replace("'", "\\'")
        return f"""<title>Page {n}</title><div id="root"></div>
<script>document.getElementById('root').innerHTML = '{script}';</script>"""
    if n == LOAD_MORE:
        body += '<button type="button">Load more</button>'
    return f"<title>Page {n}</title><main>{body}</main>"


def tree_site() -> Site:
    site = Site()
    site.add("/", '<title>Home</title><main><h1>Home</h1><p>The tree of pages.</p><a href="/p/1">Page 1</a></main>')
    for n in range(1, PAGES + 1):
        site.add(f"/p/{n}", _page(n))
        site.add(f"/img/{n}.png", handler=lambda info: Route(image_bytes("png", info.path), content_type="image/png"))
    return site


def crawl(server: SiteServer, tmp_path: Path, mode: str, concurrency: int = 4, **settings: Any) -> list[dict[str, Any]]:
    out = tmp_path / f"{mode}-{concurrency}"
    out.mkdir()
    return run_crawl(server.base + "/", tmp_path=out, args={"max_depth": 6, "max_width": 4, "max_pages": 40},
                     settings={"BARA_RENDER": mode, "CONCURRENT_REQUESTS": concurrency, **settings})


def essentials(items: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
    return {i["url"]: (i["bfs_index"], i["status"], " ".join(i["text"].split()),
                       sorted(m["url"] for m in i["images"] if m["verified"])) for i in items}


@pytest.mark.browser
def test_auto_serves_settled_pages_over_http_and_gives_the_items_of_always(tmp_path: Path) -> None:
    with SiteServer(tree_site()) as server:
        always = crawl(server, tmp_path, "always")
        auto = crawl(server, tmp_path, "auto", BARA_RENDER_PROBES=2, BARA_RENDER_AUDIT=0)
        wide = crawl(server, tmp_path, "auto", 16, BARA_RENDER_PROBES=2, BARA_RENDER_AUDIT=0)
    assert refs_of(auto) == refs_of(always) and len(auto) == PAGES + 1
    assert essentials(auto) == essentials(always)
    render = {i["url"].rsplit("/", 1)[-1] or "home": i["render"] for i in auto}
    # page 13: escalated by its button, then retried by reflection (in `always` too)
    assert {k: r["reason"] for k, r in render.items() if r["path"] == "browser" and r["reason"] != "probe"} == {
        "9": "escalated:app_mount", "12": "escalated:app_mount", "13": "retry"}
    probes = [k for k, r in render.items() if r["reason"] == "probe"]
    assert all(render[k]["compared"] == "equal" for k in probes), render  # the script pages were never probed
    served = Counter(r["path"] for r in render.values())
    assert served["http"] >= PAGES - len(probes) - 3 and served["http"] >= 20, render
    assert all(i["render"]["path"] == "browser" and i["render"]["reason"] == "always" for i in always)
    # planned from the pages BFS finished before each page's parent: the same choices at any concurrency
    assert {i["url"]: i["render"] for i in wide} == {i["url"]: i["render"] for i in auto}
    assert essentials(wide) == essentials(always)
    stats = auto.stats  # type: ignore[attr-defined]
    assert stats["bara/render/escalated/app_mount"] == 2 and stats["bara/render/escalated/load_more"] == 1
    # an escalated or probed page's document is downloaded once: the browser is served what Scrapy fetched
    assert stats["bara/render/handed"] == 3 + len(probes)
    assert [server.hits[f"/p/{n}"] for n in APP_PAGES] == [3, 3]  # once in each crawl: always, auto, wide
    probed = {"/" if k == "home" else f"/p/{k}" for k in probes} - {"/p/13"}  # 13 is retried (in `always` too)
    assert {path: server.hits[path] for path in probed} == dict.fromkeys(probed, 3)
    assert stats["bara/render/compared/equal"] == len(probes)
