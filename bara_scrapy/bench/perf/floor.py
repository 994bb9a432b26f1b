"""The floor: bare Playwright, one reused tab per worker, `goto(load)` and read the DOM, no scrolling.

    python -m bara_scrapy.bench.perf.floor URLS_FILE FEED CONCURRENCY [STEPS]

Every URL of URLS_FILE (one a line, in BFS order) is visited once by the first free worker;
one JSON line per page goes to FEED: url, text_chars, images, videos, links.

STEPS (comma-separated, default none) adds bara's own browser steps one by one, so that the bench
tells what each costs next to the floor (the `floor_*` variants, `variants.LADDER`):

- `route`: a route handler that continues every request (each one crosses into Python, as the
  scope/SSRF guard's does);
- `fetch`: with `route`, the main document fetched through the route (`route.fetch`, its body read,
  then fulfilled and disposed), as the guard does to decide every redirect hop itself;
- `quiet`: bara's init script, and after `load` a wait for 100 ms of DOM quiet with no short timer
  and no image loading (`waits.QUIET_MS`);
- `scroll`: bara's scroll step (a viewport, then two animation frames) to the bottom of every page
  taller than the viewport, then one DOM collection (`collect_js`);
- `window`: every worker's tab in a window of its own, as bara's pooled tabs.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from ...addon import CHROMIUM_ARGS, find_chromium

STEPS = ("route", "fetch", "quiet", "scroll", "window")
READ_DOM = """() => ({
  text_chars: (document.body ? document.body.innerText : '').trim().length,
  images: Array.from(document.images, (i) => i.currentSrc || i.src).filter((u) => u && !u.startsWith('data:')),
  videos: Array.from(document.querySelectorAll('video, video source'), (v) => v.src).filter(Boolean),
  links: Array.from(document.links, (a) => a.href),
})"""
MAX_SCROLL_STEPS = 30
QUIET_BOUND_S = 4.0


def parse_steps(text: str) -> frozenset[str]:
    """The STEPS argument as a set.

    >>> sorted(parse_steps("route, fetch"))
    ['fetch', 'route']
    >>> parse_steps("teleport")
    Traceback (most recent call last):
    ValueError: unknown floor step(s) teleport; choose from route, fetch, quiet, scroll, window
    """
    steps = frozenset(s.strip() for s in text.split(",") if s.strip())
    unknown = sorted(steps - set(STEPS))
    if unknown:
        raise ValueError(f"unknown floor step(s) {', '.join(unknown)}; choose from {', '.join(STEPS)}")
    return steps


async def _route(route: Any, fetch: bool) -> None:
    from playwright.async_api import Error as PlaywrightError

    request = route.request
    try:
        if fetch and request.resource_type == "document" and request.frame.parent_frame is None:
            try:
                response = await route.fetch(max_redirects=0)
            except PlaywrightError:  # refused, unresolved, TLS to a plain port: the page fails, as in Chromium
                await route.abort("failed")
                return
            await response.body()
            await route.fulfill(response=response)
            await response.dispose()
        else:
            await route.continue_()
    except PlaywrightError:
        pass  # the page closed meanwhile


async def _quiet(page: Any) -> None:
    from ...browser.waits import POLL_S, QUIET_MS, page_progress

    started = time.monotonic()
    while time.monotonic() - started < QUIET_BOUND_S:
        state = await page_progress(page)
        if state.dom_quiet_ms >= QUIET_MS and not state.timers and not state.loading_images and not state.calls:
            return
        await asyncio.sleep(POLL_S)


async def _scroll(page: Any) -> None:
    from ...browser.collect_js import COLLECT_JS
    from ...browser.reveal import SCROLL_STEP_JS
    from ...browser.waits import progress_of

    for _ in range(MAX_SCROLL_STEPS):
        raw, _elapsed_ms = await page.evaluate(SCROLL_STEP_JS)
        if progress_of(raw).at_bottom:
            break
    await page.evaluate(COLLECT_JS)


async def _new_tab(browser: Any, context: Any, steps: frozenset[str]) -> Any:
    if "window" in steps:
        from ...browser.windows import new_window_tab

        page = await new_window_tab(browser, context)
    else:
        page = await context.new_page()
    if "route" in steps:
        fetch = "fetch" in steps
        await page.route("**/*", lambda route: _route(route, fetch))
    return page


async def crawl(urls: list[str], feed: Path, concurrency: int, steps: frozenset[str] = frozenset()) -> int:
    from playwright.async_api import async_playwright

    queue: asyncio.Queue[str] = asyncio.Queue()
    for url in urls:
        queue.put_nowait(url)
    done = 0
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS, headless=True)
        context = await browser.new_context()
        if "quiet" in steps:
            from ...browser.timers_js import TIMERS_JS

            await context.add_init_script(TIMERS_JS)
        with feed.open("w", encoding="utf-8") as out:

            async def worker() -> None:
                nonlocal done
                page = await _new_tab(browser, context, steps)
                while not queue.empty():
                    url = queue.get_nowait()
                    record: dict[str, Any] = {"url": url}
                    try:
                        await page.goto(url, wait_until="load", timeout=30_000)
                        if "quiet" in steps:
                            await _quiet(page)
                        if "scroll" in steps:
                            await _scroll(page)
                        record.update(await page.evaluate(READ_DOM))
                    except Exception as exc:  # a failed page is a row, as in a crawler's feed
                        record["error"] = f"{type(exc).__name__}: {exc}"
                    out.write(json.dumps(record) + "\n")
                    out.flush()
                    done += 1
                await page.close()

            await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))
        await browser.close()
    return done


def main(argv: list[str] | None = None) -> None:
    args = argv if argv is not None else sys.argv[1:]
    urls = [u for u in Path(args[0]).read_text(encoding="utf-8").splitlines() if u.strip()]
    steps = parse_steps(args[3]) if len(args) > 3 else frozenset()
    asyncio.run(crawl(urls, Path(args[1]), int(args[2]), steps))


if __name__ == "__main__":
    main()
