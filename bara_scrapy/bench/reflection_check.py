"""What reflection buys, measured: the reflection fixtures crawled with A=3 and A=1.

    python -m bara_scrapy.bench.reflection_check [--out DIR]

Serves `bara_scrapy.bench.reflection_site` on 127.0.0.1, crawls its content
pages and its two fault pages (503 twice, a first request that hangs) with
reflection on (`max_attempts=3`) and off (`max_attempts=1`), and prints per
page the status, attempts and images found against the expected ones. For the
fault pages Scrapy's own RetryMiddleware is kept off 503 so reflection is what
retries (in a normal crawl RetryMiddleware retries transport faults first).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .reflection_site import REFLECTION_EXPECTED, ReflectionSite, build_reflection_site
from .runner import CrawlJob, CrawlResult, run_in_reactor, run_jobs
from .server import RequestInfo, Route, SiteServer

FAULT_PAGES = ("/flaky-503", "/slow-once")
FAULT_SETTINGS = {
    "RETRY_HTTP_CODES": [500, 502, 504, 522, 524, 408, 429],
    "BARA_PAGE_TIMEOUT": 4.0,
    "BARA_NAVIGATION_TIMEOUT": 3.0,
    # the fault is a rendered first attempt's; under `auto` a probe's HTTP side would take the slow hit instead
    "BARA_RENDER": "always",
}


def release_on_retry(site: ReflectionSite) -> None:
    """The first `/slow-once` request hangs until the retry arrives (no timers)."""
    original = site.routes["/slow-once"]

    def handler(info: RequestInfo) -> Route:
        if info.hits >= 2:
            site.slow_release.set()
        return original.handler(info) if original.handler else original

    site.routes["/slow-once"] = Route(handler=handler)


def jobs(servers: dict[int, SiteServer]) -> list[CrawlJob]:
    """One fixture server per mode: fault pages count their hits."""
    out = []
    for attempts, server in servers.items():
        out.append(CrawlJob(f"content-a{attempts}", server.url("/"),
                            {"max_depth": 1, "max_width": 20, "max_pages": 20, "max_attempts": attempts}))
        for path in FAULT_PAGES:
            out.append(CrawlJob(f"{path.strip('/')}-a{attempts}", server.url(path),
                                {"max_depth": 0, "max_attempts": attempts}, dict(FAULT_SETTINGS)))
    return out


def summarise(results: list[CrawlResult]) -> dict[str, Any]:
    rows: dict[str, dict[str, Any]] = {}
    for result in results:
        mode = "reflection" if result.job.key.endswith("a3") else "no_reflection"
        for item in result.items:
            path = urlsplit(item["url"]).path
            expected = REFLECTION_EXPECTED.get(path)
            if expected is None:
                continue
            found = {urlsplit(m["url"]).path for m in item["images"]}
            rows.setdefault(path, {})[mode] = {
                "status": item["status"],
                "attempts": len(item["attempts"]),
                "diagnoses": [a["diagnosis"] for a in item["attempts"]],
                "images": f"{len(found & set(expected.images))}/{len(expected.images)}",
                "complete": item["status"] == "ok" and set(expected.images) <= found,
            }
    recoverable = [p for p, e in REFLECTION_EXPECTED.items() if e.attempts > 1]
    counts = {
        mode: sum(1 for p in recoverable if rows.get(p, {}).get(mode, {}).get("complete"))
        for mode in ("reflection", "no_reflection")
    }
    return {"recoverable_pages": len(recoverable), "complete": counts, "pages": rows}


def render(summary: dict[str, Any]) -> str:
    lines = ["| page | A=3 status | attempts | images | A=1 status | images |", "| --- | --- | --- | --- | --- | --- |"]
    for path, modes in sorted(summary["pages"].items()):
        on, off = modes.get("reflection", {}), modes.get("no_reflection", {})
        lines.append(f"| {path} | {on.get('status')} | {on.get('attempts')} | {on.get('images')} "
                     f"| {off.get('status')} | {off.get('images')} |")
    c = summary["complete"]
    lines.append("")
    lines.append(f"recoverable pages complete (ok with every expected image): with reflection "
                 f"{c['reflection']}/{summary['recoverable_pages']}, without {c['no_reflection']}/"
                 f"{summary['recoverable_pages']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", default="bench-out/reflection", help="where the items go")
    args = parser.parse_args(argv)
    sites = {attempts: build_reflection_site() for attempts in (3, 1)}
    for site in sites.values():
        release_on_retry(site)
    servers = {attempts: SiteServer(site).start() for attempts, site in sites.items()}
    out = Path(args.out)
    try:
        results = run_in_reactor(lambda: run_jobs(jobs(servers), out, parallel=3))
    finally:
        for attempts, server in servers.items():
            sites[attempts].slow_release.set()
            server.stop()
    summary = summarise(results)
    (out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    print(render(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
