"""Would `BARA_RENDER=auto` serve a bench page over HTTP, and would that page then equal its rendered result?

    python -m bara_scrapy.bench.render_compare --sites 50 --out bench-out/render
    python -m bara_scrapy.bench.render_compare --from bench-out/render/pages.jsonl --probes 0,1,2,4,8

Collects both results of every page of the generated bench (`render_record`): each site crawled by
`bara` in the browser at CONCURRENT_REQUESTS 4, each page it returned fetched again over plain HTTP and
extracted by the same code as the crawl's HTTP path. Then, per site in admission (`bfs_index`) order,
runs `render.signals` and `render.policy` as the crawl would, and prints (`render_tables`) the confusion
table (served over HTTP by the policy x equal to the rendered result), the share served over HTTP per
layout and quirk, the escalation reasons and every quirk page served over HTTP although it differed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from .generate import generate_sites
from .main import BENCH_CRAWL_SETTINGS
from .render_record import RECORD_SETTING, RECORDER, RECORDER_ORDER, fetch_html
from .runner import CrawlJob, read_items, run_in_reactor, run_jobs
from .serve import BenchServer
from .sites import PageSpec, SiteSpec
from .truth import site_path

CONCURRENCY = 4


def page_quirks(spec: SiteSpec, page: PageSpec | None) -> list[str]:
    """Every quirk a page carries: its own, its blocks' mechanisms and layouts, its media's placements."""
    if page is None:
        return []
    found = set(page.quirks)
    for block in page.blocks:
        found.update(q for q in (block.mechanism, block.layout) if q and q != "static")
        found.update(m.quirk for m in block.media)
    return sorted(found)


def _job(spec: SiteSpec, bench: BenchServer, record: Path) -> CrawlJob:
    settings = {
        **BENCH_CRAWL_SETTINGS, "CONCURRENT_REQUESTS": CONCURRENCY, "CONCURRENT_REQUESTS_PER_DOMAIN": CONCURRENCY,
        "SPIDER_MIDDLEWARES": {RECORDER: RECORDER_ORDER}, RECORD_SETTING: str(record),
    }
    return CrawlJob(spec.site_id, bench.seed_url(spec.site_id), bench.crawl_args(spec.site_id), settings)


async def collect(sites: int, seed: int, out: Path, parallel: int) -> Path:
    """Crawl every site in the browser, fetch each page it returned over HTTP; one JSON line per page."""
    specs = generate_sites(sites, seed)
    records = out / "recorded"
    records.mkdir(parents=True, exist_ok=True)
    pages_path = out / "pages.jsonl"
    with BenchServer(specs) as bench, pages_path.open("w", encoding="utf-8") as dest:
        jobs = []
        for spec in specs:
            (records / f"{spec.site_id}.jsonl").unlink(missing_ok=True)
            jobs.append(_job(spec, bench, records / f"{spec.site_id}.jsonl"))
        await run_jobs(jobs, out / "items", parallel=parallel,
                       progress=lambda r, d, t: print(f"[render] {d}/{t} {r.job.key}: {len(r.items)} pages "
                                                      f"in {r.seconds:.1f}s", flush=True))
        bench.reset_hits()  # the HTTP fetch sees a flaky page as the crawl's first hit did
        for spec in specs:
            rows = sorted(read_items(records / f"{spec.site_id}.jsonl"), key=lambda r: r["bfs_index"])
            index = {r["url"]: r["bfs_index"] for r in rows}
            for row in rows:
                fetched = await asyncio.to_thread(fetch_html, row["url"])
                dest.write(json.dumps({
                    "site": spec.site_id, "layout": spec.layout, "url": row["url"], "bfs_index": row["bfs_index"],
                    "parent_index": index.get(row["parent_url"]) if row["parent_url"] else None,
                    "seed": bench.seed_url(spec.site_id),
                    "quirks": page_quirks(spec, spec.page_at(site_path(row["final_url"] or row["url"]))),
                    "rendered": {k: row[k] for k in ("status", "http_status", "text", "media", "links", "attempts")},
                    "http": fetched,
                }) + "\n")
    return pages_path


def main(argv: list[str] | None = None) -> None:
    from .render_tables import analyse, print_tables, sweep_table

    parser = argparse.ArgumentParser(prog="python -m bara_scrapy.bench.render_compare", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parallel", type=int, default=3, help="crawls at once (default 3)")
    parser.add_argument("--out", type=Path, default=Path("bench-out/render"))
    parser.add_argument("--from", dest="source", type=Path, default=None,
                        help="analyse a pages.jsonl collected before instead of crawling")
    parser.add_argument("--probes", default="4", help="N: equal pages before a pattern goes to HTTP (list)")
    parser.add_argument("--audit", type=float, default=0.05, help="share of HTTP-mode pages also rendered")
    parser.add_argument("--horizon", type=int, default=0,
                        help="plan page k from pages through max(parent, k - H) (default 0: the parent)")
    parser.add_argument("--strict", action="store_true",
                        help="a probe difference on a page with a signal reason pins its pattern too")
    args = parser.parse_args(argv)
    source = args.source or run_in_reactor(lambda: collect(args.sites, args.seed, args.out, args.parallel))
    rows = read_items(source)
    analyses = [analyse(rows, probes=int(n), audit_share=args.audit, strict=args.strict,
                        horizon=args.horizon or None) for n in args.probes.split(",") if n.strip()]
    print("\n".join(sweep_table(analyses)) + "\n")
    for analysis in analyses:
        print_tables(analysis, print)


if __name__ == "__main__":
    main()
