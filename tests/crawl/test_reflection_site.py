"""The reflection fixture site: served bytes, fault pages, and (in chromium) naive vs recovered behaviour."""

from __future__ import annotations

import asyncio
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred

from bara_scrapy.bench.reflection_site import (
    CONTENT_PAGES,
    FEED_IMAGES,
    REFLECTION_EXPECTED,
    ReflectionSite,
    build_reflection_site,
)
from bara_scrapy.bench.server import SiteServer
from bara_scrapy.reflection import TEXT_SELECTOR

MAGIC = {"png": b"\x89PNG", "jpeg": b"\xff\xd8\xff", "gif": b"GIF8", "webp": b"RIFF"}


@pytest.fixture
def served() -> Iterator[tuple[ReflectionSite, SiteServer]]:
    site = build_reflection_site()
    with SiteServer(site) as server:
        try:
            yield site, server
        finally:
            site.slow_release.set()


def get(url: str, timeout: float = 5) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, resp.read(), resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers.get("Content-Type", "")


def test_every_expected_image_is_served_as_real_bytes(served: tuple[ReflectionSite, SiteServer]) -> None:
    _, server = served
    paths = {p for e in REFLECTION_EXPECTED.values() for p in e.images}
    assert len(paths) == sum(len(e.images) for e in REFLECTION_EXPECTED.values())  # all distinct
    for path in sorted(paths):
        status, body, ctype = get(server.url(path))
        fmt = path.rsplit(".", 1)[1]
        assert status == 200 and ctype == f"image/{fmt}" and body.startswith(MAGIC[fmt]), path


def test_pages_are_html_and_carry_their_sentences(served: tuple[ReflectionSite, SiteServer]) -> None:
    _, server = served
    for path, expected in REFLECTION_EXPECTED.items():
        if path in ("/flaky-503", "/slow-once"):
            continue
        status, body, ctype = get(server.url(path))
        assert status == 200 and ctype.startswith("text/html")
        assert expected.key_sentence in body.decode()
    _, index, _ = get(server.url("/"))
    assert all(f"href='{p}'" in index.decode() for p in CONTENT_PAGES)
    assert b"flaky" not in index and b"slow" not in index
    _, robots, _ = get(server.url("/robots.txt"))
    assert b"Disallow: /forbidden" in robots


def test_flaky_503_fails_twice_then_serves(served: tuple[ReflectionSite, SiteServer]) -> None:
    _, server = served
    statuses = [get(server.url("/flaky-503"))[0] for _ in range(4)]
    assert statuses == [503, 503, 200, 200]
    assert server.hits["/flaky-503"] == 4


def test_slow_once_blocks_only_the_first_hit_until_released(served: tuple[ReflectionSite, SiteServer]) -> None:
    site, server = served
    with pytest.raises((TimeoutError, socket.timeout, urllib.error.URLError)):
        get(server.url("/slow-once"), timeout=0.5)
    status, body, _ = get(server.url("/slow-once"))
    assert status == 200 and REFLECTION_EXPECTED["/slow-once"].key_sentence.encode() in body
    site.slow_release.set()
    assert server.hits["/slow-once"] == 2


# --- chromium: a naive attempt misses the content, the recovering action reveals it ---------------

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STATE_JS = """() => ({
  text: document.body.innerText,
  images: Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0)
               .map(i => new URL(i.currentSrc).pathname),
  placeholders: document.querySelectorAll('img[data-src]:not([src])').length,
  sentinel: !!document.querySelector('[id*=sentinel]'),
  ms: Math.round(performance.now()),
})"""


async def scroll(page: Any, steps: int, pause_ms: int = 250) -> tuple[int, bool]:
    """Viewport steps (0.9 vh, like the browser step); stop when stable at the bottom. -> (steps, truncated)"""
    last, stable = -1, 0
    for n in range(1, steps + 1):
        height, bottom = await page.evaluate(
            "() => { window.scrollBy(0, Math.round(innerHeight * 0.9));"
            " const d = document.scrollingElement; return [d.scrollHeight, scrollY + innerHeight]; }"
        )
        await page.wait_for_timeout(pause_ms)
        stable = stable + 1 if bottom >= height - 2 and height == last else 0
        if stable >= 2:
            return n, False
        last = height
    return steps, True


async def attempt(
    browser: Any, url: str, steps: int = 12, clicks: tuple[str, ...] = (), wait_for: str | None = None
) -> Any:
    """One attempt, as the browser step would run it; the state once every started image load ended."""
    page = await browser.new_page()
    try:
        await page.goto(url)
        if wait_for:
            await page.wait_for_selector(wait_for, timeout=15000)
        await page.wait_for_timeout(500)
        for handle in clicks:
            await page.click(handle, timeout=15000)
            await page.wait_for_timeout(300)
        used, truncated = await scroll(page, steps)
        await page.wait_for_function("() => Array.from(document.images).every(i => i.complete)", timeout=15000)
        state = await page.evaluate(STATE_JS)
        return {**state, "steps": used, "truncated": truncated}
    finally:
        await page.close()


# path -> (naive attempt, recovering attempt); "query" is appended to the URL
PLANS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "/long-feed": ({}, {"steps": 36}),  # the longest runs start first
    # the naive run must end before the timer fires: a long timer keeps that true on a busy machine
    "/delayed": ({"query": "?after=10000"}, {"wait_for": TEXT_SELECTOR}),
    "/load-more": ({}, {"clicks": ("#load-more", "#load-more")}),
    # naive = one dismissal pass (the cookie banner only); recovered = also the modal's close handle
    "/overlay": ({"clicks": ("#consent-accept",)}, {"clicks": ("#consent-accept", "#newsletter-close")}),
    "/tabs": ({}, {"clicks": ("#tab-gallery",)}),
    "/ok": ({}, {}),
}


async def naive_then_recovered(base: str) -> dict[str, tuple[Any, Any]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=LAUNCH_ARGS)
        gate = asyncio.Semaphore(4)

        async def run(path: str, kw: dict[str, Any]) -> Any:
            kw = dict(kw)
            async with gate:
                return await attempt(browser, base + path + kw.pop("query", ""), **kw)

        try:
            done = await asyncio.gather(*(run(p, kw) for p, pair in PLANS.items() for kw in pair))
        finally:
            await browser.close()
    it = iter(done)
    return {p: (next(it), next(it)) for p in PLANS}


@pytest.mark.browser
@pytest_twisted.ensureDeferred  # type: ignore[untyped-decorator]
async def test_naive_attempt_misses_and_recovery_reveals(served: tuple[ReflectionSite, SiteServer]) -> None:
    _, server = served
    # playwright needs asyncio futures: run it as a task on the reactor's asyncio loop
    results = await Deferred.fromFuture(asyncio.ensure_future(naive_then_recovered(server.base)))
    for path, (naive, recovered) in results.items():
        expected = REFLECTION_EXPECTED[path]
        assert recovered["images"] == list(expected.images), path
        assert expected.key_sentence in recovered["text"], path
        assert (expected.key_sentence not in naive["text"]) is expected.sentence_hidden_at_first, path
        if path == "/long-feed":  # one post per step: about the first dozen
            loaded = naive["images"]
            assert 5 <= len(loaded) <= 20 and loaded == list(FEED_IMAGES[: len(loaded)])
            assert naive["sentinel"] and naive["truncated"]
            assert not recovered["sentinel"] and not recovered["truncated"] and recovered["steps"] <= 36
        else:
            assert naive["images"] == list(expected.naive_loaded), path
    assert results["/delayed"][0]["text"].strip() == ""
    assert results["/overlay"][0]["placeholders"] == 3 and results["/overlay"][1]["placeholders"] == 0
