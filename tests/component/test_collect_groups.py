"""Media groups across the collections of one page (real Chromium).

The accumulator unions every collection of an attempt, and an image's group (its srcset, lazy and
current URLs) decides which URLs are variants of one image. Content inserted before an image between
two collections (a "load more" batch, a feed) must not make the new image a variant of the old one,
and neither must a node that shows another image (a virtualised list recycles its nodes); a lazy
image swapping its placeholder for its URL stays one image.
"""

from __future__ import annotations

import pytest

from bara_scrapy.browser.reveal import Accumulator
from bara_scrapy.extraction.media import build_media

from ..aio import aio
from ..browser_utils import chromium, needs_chromium
from ..crawl_utils import one_page_site

pytestmark = needs_chromium

PAGE = """<html><body>{script}<main>
<div id="batch"></div>
<img id="old" src="/img/old.png" alt="old">
<img id="lazy" class="lazy" src="/img/placeholder.gif" data-src="/img/lazy.png" alt="lazy">
<img id="recycled" src="/img/first.png" alt="a virtualised list's node">
</main></body></html>"""


# a page that took the name the collection keeps its groups under: each collection's groups stay apart
HOSTILE = '<script>Object.defineProperty(window, "__baraGroups", {get() { throw new Error("mine"); }});</script>'


@pytest.mark.parametrize("script", ["", HOSTILE], ids=["page", "page-that-took-the-name"])
@aio
async def test_an_image_inserted_before_another_between_collections_is_its_own_image(script: str) -> None:
    with one_page_site(PAGE.format(script=script)) as server:
        async with chromium() as browser:
            page = await browser.new_page()
            await page.goto(server.url("/"))
            acc = Accumulator()
            await acc.collect(page)
            # a batch lands before the old images, and the lazy image swaps its placeholder for its URL
            await page.evaluate("""() => {
                document.getElementById("batch").innerHTML = '<img src="/img/new.png" alt="new">';
                const lazy = document.getElementById("lazy");
                lazy.src = lazy.dataset.src;
                document.getElementById("recycled").src = "/img/second.png";  // the node shows another image
            }""")
            await acc.collect(page)
    media = build_media(acc.candidates.values(), [])
    images = {m.url.rsplit("/", 1)[1]: sorted(v.rsplit("/", 1)[1] for v in m.variants) for m in media.images}
    # with a group count per collection, new.png was old.png's variant; with a group per element and no more,
    # second.png was first.png's
    assert images == {"old.png": [], "lazy.png": [], "new.png": [], "first.png": [], "second.png": []}
