"""The crawl's Chromium flags (`browser/pinning.py`): one `--disable-features` that keeps Playwright's own.

Chromium keeps the last `--disable-features` it is given; Playwright passes its list first. A crawl's
flag that left Playwright's out would let Chromium upgrade `http` navigations to `https` before the route
handler sees them, among others. It also keeps a new window from loading the omnibox's drop-down, a WebUI
page that cost 0.4–0.5 CPU s per window.
"""

from __future__ import annotations

import re
from pathlib import Path

import playwright
import pytest

from bara_scrapy.addon import CHROMIUM_ARGS
from bara_scrapy.browser.pinning import DISABLE_FEATURES, PLAYWRIGHT_FEATURES, chromium_args
from bara_scrapy.browser.windows import new_window_tab

from ..aio import aio
from ..browser_utils import chromium, needs_chromium

BUNDLE = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"


def _installed_driver_features() -> list[str]:
    source = BUNDLE.read_text(encoding="utf-8", errors="replace") if BUNDLE.exists() else ""
    found = re.search(r"disabledFeatures = \[(.*?)\]", source, re.DOTALL)
    if found is None:
        pytest.skip(f"Playwright's list of disabled features not found in {BUNDLE}")
    return re.findall(r'^\s*"(\w+)"', found.group(1), re.MULTILINE)


def test_the_crawls_flag_keeps_every_feature_the_installed_playwright_disables() -> None:
    features = _installed_driver_features()
    assert "HttpsUpgrades" in features
    assert set(features) <= set(PLAYWRIGHT_FEATURES), set(features) - set(PLAYWRIGHT_FEATURES)


def test_one_flag_with_the_users_own_features() -> None:
    args = chromium_args([*CHROMIUM_ARGS, "--disable-features=Translate,MediaRouter"], "http://127.0.0.1:1/", False)
    flags = [a for a in args if a.startswith(DISABLE_FEATURES)]
    assert len(flags) == 1
    features = flags[0].removeprefix(DISABLE_FEATURES).split(",")
    assert {"Translate", "HttpsUpgrades", "LocalNetworkAccessChecks"} <= set(features)
    assert len(features) == len(set(features))


@needs_chromium
@aio
async def test_an_http_navigation_to_a_host_name_stays_http() -> None:
    """Routed and answered by the test: nothing leaves the machine."""
    args = chromium_args(list(CHROMIUM_ARGS), None, True)
    async with chromium(tuple(args)) as browser:
        page = await browser.new_page()
        asked: list[str] = []

        async def answer(route: object) -> None:
            asked.append(route.request.url)  # type: ignore[attr-defined]
            await route.fulfill(status=200, content_type="text/html", body="<p>hi</p>")  # type: ignore[attr-defined]

        await page.route("**/*", answer)
        await page.goto("http://example.com/page")
        assert asked == ["http://example.com/page"] and page.url == "http://example.com/page"


async def _ui_pages_of_a_new_window(args: tuple[str, ...]) -> list[str]:
    """The browser's own UI pages (CDP `browser_ui` targets) once a window has opened, as the pooled tabs open."""
    async with chromium(args) as browser:
        context = await browser.new_context()
        await new_window_tab(browser, context)
        session = await browser.new_browser_cdp_session()
        targets = (await session.send("Target.getTargets"))["targetInfos"]
        return [t["url"] for t in targets if t["type"] == "browser_ui"]


@needs_chromium
@aio
async def test_a_new_window_loads_no_page_of_the_browsers_own_ui() -> None:
    """Playwright's own flags leave the omnibox's drop-down on (the control); the crawl's flag turns it off."""
    default = await _ui_pages_of_a_new_window(tuple(CHROMIUM_ARGS))
    if not default:
        pytest.skip("this Chromium opens no UI page of its own with a window: nothing to turn off")
    assert any(url.startswith("chrome://omnibox-popup") for url in default), default
    assert await _ui_pages_of_a_new_window(tuple(chromium_args(list(CHROMIUM_ARGS), None, True))) == []
