"""A page's script cannot break bara by taking the names bara keeps on its window.

The init script (`timers_js.py`) and the DOM collection (`collect_js.py`) read a few `window.__bara*`
names. A page that redefines them with a getter that throws, or assigns them, would otherwise make
every state reading, scroll step and collection raise: the page would fail however often it was tried.
The page below does both, and needs a scroll (a `scroll` listener adds its second image at the bottom).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.bench.server import SiteServer

from ..crawl_utils import one_page_site, run_crawl

NAMES = ("__baraState", "__baraScrollHooks", "__baraGroups", "__baraPendingTimers")
TAKE = "".join(
    f"try {{ Object.defineProperty(window, '{n}', {{ get() {{ throw new Error('mine'); }}, configurable: true }}); }}"
    f" catch (e) {{}} try {{ window['{n}'] = () => {{ throw new Error('mine'); }}; }} catch (e) {{}}\n"
    for n in NAMES
)
PAGE = f"""<html><head><title>Names</title><script>{TAKE}</script></head><body><main>
<h1>A page that takes names</h1><p>Its text, long enough to be read as the page's own text.</p>
<img src="/img/top.png" alt="top"><div style="height:6000px">Spacer.</div>
<script>{TAKE}
let done = false;
addEventListener("scroll", () => {{
  if (!done && innerHeight + scrollY > document.body.scrollHeight - 600) {{
    done = true;
    document.querySelector("main").insertAdjacentHTML("beforeend", '<img src="/img/bottom.png" alt="bottom">');
  }}
}});
</script></main></body></html>"""


@pytest.fixture
def server() -> Iterator[SiteServer]:
    with one_page_site(PAGE, (f"/img/{name}.png" for name in ("top", "bottom"))) as served:
        yield served


def test_a_page_that_takes_bara_names_is_still_scrolled_and_read(tmp_path: Path, server: SiteServer) -> None:
    out = run_crawl(server.url("/"), tmp_path=tmp_path, args={"max_depth": 0}, settings={
        "BARA_ALLOW_PRIVATE_NETWORKS": True, "BARA_MAX_ATTEMPTS": 1})
    [item] = list(out)
    assert item["status"] == "ok", item["attempts"]
    assert "long enough to be read" in item["text"]
    assert sorted(m["url"] for m in item["images"]) == [server.url("/img/bottom.png"), server.url("/img/top.png")]
