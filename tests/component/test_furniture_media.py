"""Images of the site's furniture are flagged, not dropped, the same in the browser and over HTTP (real Chromium).

A logo in the page-level header, an icon in the navigation, a badge in the page footer and an image in a
`role=banner` block are `furniture`; an article's own header image, its body images and an image that the
page shows in its content as well as in its header are the page's own.
"""

from __future__ import annotations

from bara_scrapy.browser.reveal import Accumulator
from bara_scrapy.extraction.media import build_media
from bara_scrapy.extraction.static import snapshot_from_html

from ..aio import aio
from ..browser_utils import chromium, needs_chromium
from ..crawl_utils import one_page_site

PAGE = """<!doctype html><html><body>
<header class="site-header"><a href="/"><img src="/img/brand.png" alt="Site"></a><img src="/img/shared.png"></header>
<nav aria-label="Main"><a href="/a"><img src="/img/menu.png" alt="menu"></a></nav>
<main><article><header><img src="/img/hero.png" alt="the story's picture"><h1>A story</h1></header>
<p>Body text <img src="/img/body.png" alt="in the body"></p><p><img src="/img/shared.png" alt="again"></p>
<div style="background-image: url(/img/bg.png)">A panel</div></article></main>
<div role="banner"><img src="/img/banner.png"></div>
<footer><img src="/img/badge.png" alt="badge"></footer>
</body></html>"""

FURNITURE = {"brand.png", "menu.png", "banner.png", "badge.png"}
OWN = {"shared.png", "hero.png", "body.png", "bg.png"}


def flags(media: list) -> dict[str, bool]:  # type: ignore[type-arg]
    return {m.url.rsplit("/", 1)[-1]: m.furniture for m in media}


def test_the_http_path_flags_the_furniture_images() -> None:
    snap = snapshot_from_html("http://site.test/", "http://site.test/", 200, PAGE)
    got = flags(build_media(snap.candidates, []).images)
    assert got == {**{n: True for n in FURNITURE}, **{n: False for n in OWN}}


@needs_chromium
@aio
async def test_the_browser_flags_the_same_images_as_the_http_path() -> None:
    with one_page_site(PAGE) as server:
        async with chromium() as browser:
            page = await browser.new_page()
            await page.goto(server.url("/"))
            acc = Accumulator()
            await acc.collect(page)
    got = flags(build_media(acc.candidates.values(), []).images)
    assert got == {**{n: True for n in FURNITURE}, **{n: False for n in OWN}}
