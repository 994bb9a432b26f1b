"""`new_window_tab`: pooled tabs of one browser context, each in a window of its own (real Chromium).

Tabs that share a window are background tabs to Chromium (frames about every 2 s); a pooled tab
outlives newer ones, so each gets its own window, in the crawl's one context.
"""

from __future__ import annotations

from bara_scrapy.bench.server import Site, SiteServer
from bara_scrapy.browser.windows import new_window_tab, target_info

from ..aio import aio
from ..browser_utils import chromium, needs_chromium

pytestmark = needs_chromium


@aio
async def test_tabs_of_one_context_each_get_a_window_and_share_the_context() -> None:
    site = Site()
    site.add("/", "<html><body><p>hello</p></body></html>")
    with SiteServer(site) as server:
        async with chromium() as browser:
            context = await browser.new_context()
            popup_source = await context.new_page()  # a tab the helper did not make: the id comes from it
            tabs = [await new_window_tab(browser, context) for _ in range(3)]
            assert len(set(tabs)) == 3 and popup_source not in tabs
            assert all(tab.context is context for tab in tabs)
            session = await browser.new_browser_cdp_session()
            windows = set()
            for page in [popup_source, *tabs]:
                target = (await target_info(context, page))["targetId"]
                windows.add((await session.send("Browser.getWindowForTarget", {"targetId": target}))["windowId"])
            assert len(windows) == 4
            await context.add_cookies([{"name": "c", "value": "1", "url": server.url("/")}])
            for tab in tabs:  # usable at once, and the context's cookies are theirs
                await tab.goto(server.url("/"))
                assert await tab.evaluate("document.body.innerText + '|' + document.cookie") == "hello|c=1"


@aio
async def test_the_first_tab_of_an_empty_context_is_an_ordinary_one() -> None:
    async with chromium() as browser:
        context = await browser.new_context()
        first = await new_window_tab(browser, context)
        second = await new_window_tab(browser, context)
        assert context.pages == [first, second]
