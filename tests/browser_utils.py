"""Debian's Chromium for tests that drive it through Playwright directly (no crawl)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.async_api import Browser

CHROMIUM = "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed")


@asynccontextmanager
async def chromium(args: tuple[str, ...] = ()) -> AsyncIterator[Browser]:
    """A headless Chromium, closed on the way out whatever the test did."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", *args])
        try:
            yield browser
        finally:
            await browser.close()
