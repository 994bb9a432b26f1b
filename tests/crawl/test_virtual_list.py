"""A virtualised list: a few nodes recycled through many items as the page scrolls (docs/faults.md, group 4).

The list holds ITEMS entries, each with its own image, but only NODES `<img>` elements exist: a `scroll`
listener moves each node to the entry now in view and gives it that entry's image. Every image is
collected during the scroll, and each is its own image: a node that shows another image is not the
image it showed before (before, every image a node showed after the first was returned as that first
image's variant: NODES images of ITEMS).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.bench.server import SiteServer

from ..crawl_utils import one_page_site, run_crawl

ITEMS, NODES, ROW_PX = 60, 6, 300
PAGE = f"""<html><head><title>Gallery</title></head><body><main><h1>A long gallery</h1>
<p>Every entry of this gallery has a picture; the list draws only the entries in view.</p>
<div id="list" style="position:relative;height:{ITEMS * ROW_PX}px"></div>
<script>
const list = document.getElementById("list");
const nodes = [];
for (let k = 0; k < {NODES}; k++) {{
  const row = document.createElement("div");
  row.style.cssText = "position:absolute;left:0;height:{ROW_PX}px";
  row.innerHTML = '<img width="200" height="150"><p></p>';
  list.appendChild(row);
  nodes.push(row);
}}
function draw() {{
  const top = Math.max(0, scrollY - list.offsetTop);
  const first = Math.min(Math.max(0, Math.floor(top / {ROW_PX}) - 1), {ITEMS - NODES});
  nodes.forEach((row, k) => {{
    const i = first + k;
    row.style.top = (i * {ROW_PX}) + "px";
    const img = row.querySelector("img");
    if (img.dataset.i !== String(i)) {{
      img.dataset.i = String(i);
      img.src = "/img/item-" + i + ".png";
      img.alt = "Entry " + i;
      row.querySelector("p").textContent = "Entry " + i + " of the gallery.";
    }}
  }});
}}
addEventListener("scroll", draw);
draw();
</script></main></body></html>"""


@pytest.fixture
def server() -> Iterator[SiteServer]:
    with one_page_site(PAGE, (f"/img/item-{i}.png" for i in range(ITEMS))) as served:
        yield served


def test_every_image_a_recycled_node_shows_is_its_own_image(tmp_path: Path, server: SiteServer) -> None:
    out = run_crawl(server.url("/"), tmp_path=tmp_path, args={"max_depth": 0}, settings={
        "BARA_ALLOW_PRIVATE_NETWORKS": True, "BARA_MAX_ATTEMPTS": 1, "BARA_SCROLL_MAX_STEPS": 60})
    [item] = list(out)
    assert item["status"] == "ok", item["attempts"]
    images = {m["url"]: m["variants"] for m in item["images"]}
    assert images == {server.url(f"/img/item-{i}.png"): [] for i in range(ITEMS)}, item["attempts"]
