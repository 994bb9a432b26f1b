"""Crawl a generated gallery site with `BARA_WARC` and `BARA_WACZ`, stop the site, and replay the
archive in pywb: every `ok` page and every verified medium with its original bytes, no rejected
medium as a response. Prints the archive's size against the bytes the site served, its records by
type, the replay check over the WARC and over the WACZ (the measurement in docs/archive.md):

    .venv/bin/python -m tests.archive_replay --pages 300
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bara_scrapy.archive.wacz import check_wacz
from bara_scrapy.bench.server import SiteServer

from .archive_utils import Replay, bodies, bytes_by_type, check_replay, records
from .crawl_utils import run_crawl
from .gallery_site import build_gallery_site
from .service_utils import PywbServer


def measure(pages: int, work: Path, concurrency: int = 4) -> dict[str, Any]:
    warc, wacz = work / "crawl.warc.gz", work / "crawl.wacz"
    site = build_gallery_site(pages)
    with SiteServer(site) as server:
        out = run_crawl(server.url("/"), tmp_path=work, timeout=3600,
                        args={"max_pages": pages, "max_width": 10, "max_depth": 10},
                        settings={"BARA_WARC": warc, "BARA_WACZ": wacz, "CONCURRENT_REQUESTS": concurrency})
        originals = bodies(site, server)
        served = sum(len(site.lookup(path).payload()) * n for path, n in server.hits.items()
                     if path.split("?")[0] in site.routes)
    items = list(out)
    found = records(warc)
    responses = {uri: status for kind, uri, status, *_ in found if kind == "response"}
    rejected = {m["url"] for i in items for m in i["rejected_media"]}
    figures: dict[str, Any] = {
        "items": len(items), "ok": sum(i["status"] == "ok" for i in items),
        "statuses": dict(Counter(i["status"] for i in items)),
        "warc_bytes": warc.stat().st_size, "wacz_bytes": wacz.stat().st_size, "site_bytes_served": served,
        "records": dict(Counter(kind for kind, *_ in found)),
        "warc_bytes_by_type": bytes_by_type(warc),
        "payload_bytes_by_type": dict(sum((Counter({kind: len(payload)}) for kind, _, _, payload, _ in found),
                                          Counter())),
        "rejected_media": len(rejected),
        "rejected_archived_as_200": sum(responses.get(url) == 200 for url in rejected),
        "wacz_problems": check_wacz(str(wacz)),
    }
    for name, archive in (("warc", warc), ("wacz", wacz)):
        pywb = PywbServer(work / f"pywb-{name}").start([archive])
        try:
            replay: Replay = check_replay(pywb, items, originals)
        finally:
            pywb.stop()
        figures[f"replay_{name}"] = {"pages": replay.pages, "media": replay.media, "rejected": replay.rejected,
                                     "failures": replay.failures[:20], "failed": len(replay.failures)}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--work", type=Path, default=None, help="keep the crawl, archive and pywb here")
    opts = parser.parse_args()
    if opts.work:
        opts.work.mkdir(parents=True, exist_ok=True)
        figures = measure(opts.pages, opts.work, opts.concurrency)
    else:
        with tempfile.TemporaryDirectory(prefix="bara-archive-") as tmp:
            figures = measure(opts.pages, Path(tmp), opts.concurrency)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
