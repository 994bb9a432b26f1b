"""Real pages through the real crawl: the article-extraction-benchmark corpus.

The 181 pages are served on 127.0.0.1 (as UTF-8, under `/p/<key>.html`) behind
an index page that links to each; one `bara` crawl (D=1, W and P wide enough)
renders every page in Chromium, with requests to other hosts aborted (the
pages' own links and assets point at the live web, which is out of reach).
The item `text` is scored with the benchmark's shingle metric.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ..urls import canonicalize
from .articles import PUBLISHED, load_corpus, score
from .runner import CrawlJob, CrawlResult
from .server import Site, SiteServer

CORPUS_NAME = "article-extraction-benchmark"


def corpus_site(pages: list[tuple[str, str]]) -> Site:
    """A site with an index linking to every page: `pages` is (key, html)."""
    site = Site()
    links = "".join(f'<li><a href="/p/{key}.html">{key}</a></li>' for key, _ in pages)
    site.add("/", f"<html><head><title>Corpus</title></head><body><ul>{links}</ul></body></html>")
    site.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    for key, text in pages:
        site.add(f"/p/{key}.html", text, content_type="text/html; charset=utf-8")
    return site


def corpus_job(server: SiteServer, count: int) -> CrawlJob:
    return CrawlJob(
        key="corpus",
        seed=server.url("/"),
        args={"max_depth": 1, "max_width": count + 1, "max_pages": count + 1, "max_attempts": 1},
        settings={"BARA_BLOCK_OFFSITE_SUBRESOURCES": True, "BARA_VERIFY_MEDIA": False,
                  "BARA_SCROLL_MAX_STEPS": 2, "CONCURRENT_REQUESTS": 6},
    )


def score_corpus(result: CrawlResult, server: SiteServer, truths: dict[str, str]) -> dict[str, Any]:
    by_url = {item["url"]: item for item in result.items}
    preds: dict[str, str] = {}
    missing = 0
    for key in truths:
        item = by_url.get(canonicalize(server.url(f"/p/{key}.html")))
        if item is None:
            missing += 1
        preds[key] = item.get("text", "") if item else ""
    figures = score(preds, truths)
    return {
        "corpus": CORPUS_NAME,
        "pages": len(truths),
        "missing_items": missing,
        "seconds": round(result.seconds, 1),
        **{k: round(v, 4) if isinstance(v, float) else v for k, v in figures.items()},
        "published": PUBLISHED,
    }


def load(path: Path) -> tuple[list[tuple[str, str]], dict[str, str]]:
    pages = load_corpus(path)
    return [(key, text) for key, text, _, _ in pages], {key: truth for key, _, _, truth in pages}


def corpus_markdown(figures: dict[str, Any]) -> str:
    rows = [
        "| extractor | F1 | precision | recall |",
        "| --- | --- | --- | --- |",
        f"| **bara_scrapy (rendered in Chromium)** | **{figures['f1']:.3f}** | {figures['precision']:.3f} "
        f"| {figures['recall']:.3f} |",
    ]
    for name, values in figures["published"].items():
        cells = " | ".join("–" if v is None else f"{v:.3f}" for v in values)
        rows.append(f"| {html.escape(name)} (published) | {cells} |")
    return "\n".join(rows)
