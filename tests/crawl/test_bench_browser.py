"""The JS quirks really behave in Chromium: hidden at load, revealed by scrolling, clicks and waiting.

For one page per quirk, everything the truth expects (selected links, media
URLs or one of their variants, embeds) must show up in the DOM or the
network once the page is driven; content behind scrolling, clicks or the
delay must be absent at load; blob: players expose their real URL only in
the network.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.generate import generate_sites
from bara_scrapy.bench.render import DELAY_MS
from bara_scrapy.bench.serve import BenchServer
from bara_scrapy.bench.sites import SiteSpec
from bara_scrapy.bench.truth import PageTruth

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
QUIRKS = ("script", "delayed", "feed", "load_more", "overlay", "flaky_503", "lazy_native", "lazy_io", "srcset",
          "picture", "css_bg", "poster", "video_src", "video_source", "video_script", "hls", "blob_mse",
          "dash_mse", "blob_fetch", "iframe_thirdparty", "iframe_offsite", "redirect_cdn", "bad_404",
          "bad_html200", "bad_wrong_kind", "calendar", "deep_branch", "duplicate", "redirect", "cookie_banner")
HIDDEN_AT_LOAD = ("delayed", "feed", "load_more", "overlay")  # their key sentences
BLOB = ("blob_mse", "dash_mse", "blob_fetch")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed"),
]

# Every URL the page shows: DOM attributes (+ computed backgrounds) and, optionally, resource timing.
COLLECT = """(withNetwork) => {
  const out = [];
  const abs = (u) => { try { return new URL(u, location.href).href; } catch (e) { return ""; } };
  const set = (s) => (s || "").split(",").forEach((c) => out.push(abs(c.trim().split(/\\s+/)[0])));
  document.querySelectorAll("a[href]").forEach((a) => out.push(a.href));
  document.querySelectorAll("img").forEach((i) => {
    out.push(i.src); if (i.dataset.src) out.push(abs(i.dataset.src)); set(i.srcset);
  });
  document.querySelectorAll("source").forEach((s) => { if (s.src) out.push(s.src); set(s.srcset); });
  document.querySelectorAll("video").forEach((v) => { if (v.src) out.push(v.src); if (v.poster) out.push(v.poster); });
  document.querySelectorAll("iframe").forEach((f) => out.push(f.src));
  document.querySelectorAll("*").forEach((e) => {
    const m = getComputedStyle(e).backgroundImage.match(/url\\("?([^")]+)"?\\)/); if (m) out.push(m[1]);
  });
  if (withNetwork) performance.getEntriesByType("resource").forEach((r) => out.push(r.name));
  return out.map((u) => u.split("#")[0]);
}"""

# The body text, and the time since the navigation started: no less than the time since the page script ran
# (at the end of <body>), so a delayed block seen before DELAY_MS of it is seen too early. (The time since
# domInteractive was less than that: on a loaded machine the script ran well before it, and the timer had fired.)
ELAPSED = """() => [document.body.innerText, performance.now()]"""

# One polling step: accept the banner, press "load more", scroll a little; true once every group is seen.
DRIVE = "([groups, collect]) => {" + """
  const banner = document.querySelector("#cookie-banner .accept"); if (banner) banner.click();
  document.querySelectorAll(".load-more").forEach((b) => b.click());
  window.scrollBy(0, 600);
  const seen = new Set(eval(collect)(true));
  return groups.every((g) => g.some((u) => seen.has(u)));
}"""


@dataclass
class Case:
    quirks: list[str]
    page: PageTruth
    groups: list[list[str]]  # each group: acceptable URLs for one expectation
    hidden: list[tuple[str, tuple[str, ...]]]  # key sentences (with their tags) absent at load
    blob_urls: list[str]  # URLs that only the network may show

    @property
    def quirk(self) -> str:
        return "+".join(self.quirks)


def _tags(page: PageTruth) -> set[str]:
    """Quirks of the page's own content (not of the link that led to it), plus how it was reached."""
    media = (*page.images, *page.videos, *page.embeds, *page.bad)
    reached = set(page.quirks) & {"duplicate", "redirect"}
    return reached | {q for m in media for q in m.quirks} | {q for k in page.key_sentences for q in k.quirks}


def pick_cases(bench: BenchServer, specs: list[SiteSpec]) -> list[Case]:
    """Few pages that together show every quirk (greedy cover: most uncovered quirks first)."""
    pages = [p for s in specs for p in bench.truth(s.site_id).pages if p.status == "ok"]
    todo, cases = set(QUIRKS), []
    while todo:
        page = max(pages, key=lambda p: len(_tags(p) & todo))
        covered = sorted(_tags(page) & todo)
        if not covered:
            break
        todo -= set(covered)
        media = (*page.images, *page.videos, *page.embeds)
        groups = [[u] for u in page.links] + [[m.url, *m.variants] for m in media]
        groups += [[b.url] for b in page.bad]  # bad media are on the page too (never to be returned)
        hidden = [(k.text, k.quirks) for k in page.key_sentences if set(k.quirks) & set(HIDDEN_AT_LOAD)]
        blob = [m.url for m in page.videos if set(m.quirks) & set(BLOB)]
        cases.append(Case(covered, page, groups, hidden, blob))
    return cases


async def run_case(browser: Any, case: Case) -> list[str]:
    problems: list[str] = []
    page = await browser.new_page()
    try:
        # snapshot at DOMContentLoaded: the delayed block is due 1.5 s after the page script ran
        response = await page.goto(case.page.url, wait_until="domcontentloaded")
        if response is not None and response.status == 503:  # flaky pages fail their first hit
            response = await page.goto(case.page.url, wait_until="domcontentloaded")
        if response is None or response.status != 200:
            return [f"{case.quirk}: status {response.status if response else None}"]
        text_at_load, elapsed = await page.evaluate(ELAPSED)
        for sentence, tags in case.hidden:
            if "delayed" in tags and elapsed > DELAY_MS - 300:
                continue  # too late to tell (an overloaded machine): the timer may have fired
            if sentence in text_at_load:
                problems.append(f"{case.quirk}: visible at load: {sentence!r}")
        await page.wait_for_load_state("load")
        fetched = set(await page.evaluate("performance.getEntriesByType('resource').map((r) => r.name)"))
        lazy = [m.url for m in case.page.images if "lazy_io" in m.quirks]
        problems += [f"lazy_io: fetched before scrolling: {u}" for u in lazy if u in fetched]
        try:
            await page.wait_for_function(DRIVE, arg=[case.groups, COLLECT], polling=200, timeout=30_000)
        except Exception:
            seen = set(await page.evaluate(COLLECT, True))
            missing = [g for g in case.groups if not set(g) & seen]
            problems.append(f"{case.quirk}: {case.page.url} never showed {missing}")
        dom_only = set(await page.evaluate(COLLECT, False))
        problems += [f"{case.quirk}: blob URL in DOM: {u}" for u in case.blob_urls if u in dom_only]
        if case.blob_urls:
            srcs = await page.evaluate("Array.from(document.querySelectorAll('video.player')).map(v => v.src)")
            if not any(s.startswith("blob:") for s in srcs):
                problems.append(f"{case.quirk}: no blob: src in {srcs}")
    finally:
        await page.close()
    return problems


async def run_all(cases: list[Case]) -> list[str]:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            gate = asyncio.Semaphore(6)

            async def one(case: Case) -> list[str]:
                async with gate:
                    return await run_case(browser, case)

            results = await asyncio.gather(*(one(c) for c in cases))
        finally:
            await browser.close()
    return [p for r in results for p in r]


@pytest.fixture(scope="module")
def bench() -> Iterator[tuple[BenchServer, list[SiteSpec]]]:
    specs = generate_sites(50, seed=0)
    with BenchServer(specs) as server:
        yield server, specs


def test_each_quirk_is_revealed_only_by_driving_the_page(bench: tuple[BenchServer, list[SiteSpec]]) -> None:
    server, specs = bench
    cases = pick_cases(server, specs)
    assert {q for c in cases for q in c.quirks} == set(QUIRKS)
    hidden = {q for c in cases for _, tags in c.hidden for q in tags}
    assert hidden >= set(HIDDEN_AT_LOAD)  # each "absent at load" check has something to check
    box: dict[str, Any] = {}

    def worker() -> None:  # a private event loop: the test session's reactor owns the main one
        try:
            box["problems"] = asyncio.run(run_all(cases))
        except BaseException as exc:  # re-raised in the test thread
            box["error"] = exc

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(timeout=240)
    assert not thread.is_alive(), "browser run did not finish"
    if "error" in box:
        raise box["error"]
    assert box["problems"] == []
