"""The floor: bare Playwright, one reused tab per worker, `goto(load)` and read the DOM, no scrolling.

    python -m bara_scrapy.bench.perf.floor URLS_FILE FEED CONCURRENCY

Every URL of URLS_FILE (one a line, in BFS order) is visited once by the first free worker;
one JSON line per page goes to FEED: url, text_chars, images, videos, links.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from ...addon import CHROMIUM_ARGS, find_chromium

READ_DOM = """() => ({
  text_chars: (document.body ? document.body.innerText : '').trim().length,
  images: Array.from(document.images, (i) => i.currentSrc || i.src).filter((u) => u && !u.startsWith('data:')),
  videos: Array.from(document.querySelectorAll('video, video source'), (v) => v.src).filter(Boolean),
  links: Array.from(document.links, (a) => a.href),
})"""


async def crawl(urls: list[str], feed: Path, concurrency: int) -> int:
    from playwright.async_api import async_playwright

    queue: asyncio.Queue[str] = asyncio.Queue()
    for url in urls:
        queue.put_nowait(url)
    done = 0
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS, headless=True)
        context = await browser.new_context()
        with feed.open("w", encoding="utf-8") as out:

            async def worker() -> None:
                nonlocal done
                page = await context.new_page()
                while not queue.empty():
                    url = queue.get_nowait()
                    record: dict[str, Any] = {"url": url}
                    try:
                        await page.goto(url, wait_until="load", timeout=30_000)
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
    asyncio.run(crawl(urls, Path(args[1]), int(args[2])))


if __name__ == "__main__":
    main()
