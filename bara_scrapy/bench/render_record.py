"""Both results of every bench page, for `render_compare`: the rendered crawl's and a plain HTTP fetch's.

The rendered side is a `bara` crawl (the browser, reflection and all) with `RecordMiddleware` between
reflection and link selection: it sees each page's final item and the links the spider yielded, in
order. The HTTP side fetches the same URL with a plain GET and goes through the same code as the
crawl's plain-HTTP path (`snapshot_from_html`, then the DOM extractor), so what is compared is what
`BARA_RENDER=auto` would serve.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from scrapy.crawler import Crawler
from scrapy.http import Response

from ..extraction.dom import extract_dom
from ..extraction.static import snapshot_from_html
from ..items import PageItem
from ..links import PageLinks
from ..snapshot import PageSnapshot

RECORD_SETTING = "BARA_BENCH_RECORD"
RECORDER = "bara_scrapy.bench.render_record.RecordMiddleware"
RECORDER_ORDER = 900  # spider output: after ReflectionMiddleware (950), before LinkWidthMiddleware (850)


def media_of(item: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, URL) of an item's (or an extraction's) images, videos and embeds, rejected ones included."""
    return [(m["kind"], m["url"]) for key in ("images", "videos", "embeds", "rejected_media")
            for m in item.get(key) or []]


class RecordMiddleware:
    """Append one JSON line per finished page to `BARA_BENCH_RECORD`: the item's fields and its links."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RecordMiddleware:
        return cls(Path(crawler.settings.get(RECORD_SETTING)))

    async def process_spider_output(self, response: Response, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        held = [obj async for obj in result]
        item = next((o for o in held if isinstance(o, PageItem)), None)
        if item is not None:
            links = [u for o in held if isinstance(o, PageLinks) for u in o.urls]
            data = item.model_dump(mode="json")
            row = {key: data[key] for key in ("url", "final_url", "depth", "parent_url", "bfs_index", "status",
                                              "http_status", "text")}
            row.update(media=media_of(data), links=links, attempts=len(item.attempts))
            with self.path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
        for obj in held:
            yield obj


def fetch_html(url: str, timeout: float = 15.0) -> dict[str, Any]:
    """A plain GET of a page: final URL, status, HTML (empty unless HTML), or the error."""
    req = urllib.request.Request(url, headers={"User-Agent": "bara-bench-render-compare"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            ctype = resp.headers.get("Content-Type", "")
            body = resp.read()
            charset = resp.headers.get_content_charset() or "utf-8"
            html = body.decode(charset, errors="replace") if "html" in ctype.lower() or not ctype else ""
            return {"final_url": resp.geturl(), "status": resp.status, "html": html, "error": None}
    except urllib.error.HTTPError as exc:
        return {"final_url": url, "status": exc.code, "html": "", "error": f"http {exc.code}"}
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return {"final_url": url, "status": None, "html": "", "error": f"{type(exc).__name__}: {exc}"}


def http_side(url: str, fetched: dict[str, Any]) -> tuple[PageSnapshot, dict[str, Any]]:
    """The HTTP path's snapshot of a fetched page and its result: text, media, links (as the crawl's)."""
    snapshot = snapshot_from_html(url, fetched["final_url"], fetched["status"], fetched["html"])
    extraction = extract_dom(snapshot) if snapshot.html or snapshot.body_text else None
    data = extraction.model_dump(mode="json") if extraction else {}
    return snapshot, {"text": data.get("text", ""), "media": media_of(data), "links": list(snapshot.links)}
