"""Print the admitted pages of one generated site at CONCURRENT_REQUESTS 1 and 16 (closing-note figure).

    .venv/bin/python -m tests.conc_compare
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bara_scrapy.bench.server import Site, SiteServer

from .crawl_utils import make_graph_site, refs_of, run_crawl

D, W, P = 3, 6, 17


def main() -> None:
    site = Site()
    with SiteServer(site) as server:
        gen = make_graph_site(server.base, 36)
        gen.install(site)
        want = gen.reference(D, W, P)
        runs = {}
        for concurrency in (1, 16):
            with tempfile.TemporaryDirectory() as tmp:
                items = run_crawl(gen.seed, tmp_path=Path(tmp),
                                  args={"max_depth": D, "max_width": W, "max_pages": P},
                                  settings={"CONCURRENT_REQUESTS": concurrency, "BARA_SCROLL_PAUSE": 0.05})
                runs[concurrency] = refs_of(items)
                order = [i["bfs_index"] for i in items]
                print(f"concurrency {concurrency}: {len(items)} pages in {items.seconds:.1f}s; "
                      f"completion order of bfs_index: {order}")
        for ref in runs[1]:
            print(f"  #{ref.bfs_index:>2} d{ref.depth} {ref.url.split(str(server.port), 1)[1]}")
        print("admitted set and bfs_index equal at 1 and 16:", runs[1] == runs[16], "| equal to reference:",
              runs[1] == want)


if __name__ == "__main__":
    main()
