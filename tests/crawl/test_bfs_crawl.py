"""Whole crawls: the admitted pages equal the sequential BFS reference, whatever the concurrency.

The generated site (tests/crawl_utils.py) has duplicate links written with
fragments and tracking parameters, self links, off-site and non-http links,
denied and robots.txt-forbidden links, redirects in and out of scope, broken
links, links a script adds after load, and per-page server delays so pages
finish in a different order than they were admitted.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit

import pytest

from bara_scrapy.bench.server import Site, SiteServer
from bara_scrapy.items import PageItem
from bara_scrapy.urls import canonicalize

from ..crawl_utils import (
    DENIED_HREFS,
    CrawlOutput,
    GraphSite,
    Ref,
    make_graph_site,
    reference_bfs,
    refs_of,
    run_crawl,
)

GRAPH_SEED = 36  # checked by test_the_fixture_exercises_every_rule
# name -> (D, W, P)
CASES = {
    "seed-only": (0, 5, 50),
    "depth-1": (1, 20, 50),
    "width-binds": (2, 3, 100),
    "budget-binds-mid-level": (3, 6, 17),
}
FAST = {"BARA_SCROLL_PAUSE": 0.05}  # short pages: no need to wait 250 ms per scroll step


@pytest.fixture
def graph_site() -> Iterator[tuple[GraphSite, SiteServer]]:
    site = Site()
    server = SiteServer(site).start()
    generated = make_graph_site(server.base, GRAPH_SEED)
    generated.install(site)
    yield generated, server
    server.stop()


def _diff(got: Sequence[Ref], want: Sequence[Ref]) -> str:
    lines = [f"crawl admitted {len(got)} pages, reference {len(want)}"]
    for n in range(max(len(got), len(want))):
        a = got[n] if n < len(got) else None
        b = want[n] if n < len(want) else None
        if a != b:
            lines.append(f"  #{n}: crawl {a}\n       ref   {b}")
    return "\n".join(lines[:25])


def check_crawl(items: CrawlOutput, want: list[Ref], gen: GraphSite, server: SiteServer, max_pages: int) -> None:
    """Everything a whole crawl must satisfy against its reference."""
    indexes = sorted(item["bfs_index"] for item in items)
    assert indexes == list(range(len(items))), f"not one item per admitted page: {indexes}"
    assert len({item["url"] for item in items}) == len(items), "a page was admitted twice"
    got = refs_of(items)
    assert got == want, _diff(got, want)
    for item in items:
        PageItem.model_validate(item)
    # a page that fails (404, off-scope redirect) is admitted and contributes no links
    graph, redirects = gen.graph(), gen.reference_redirects()
    for item in items:
        final = item["url"]
        for _ in range(10):
            final = canonicalize(redirects.get(final, final))
        expect_ok = final in graph
        assert (item["status"] == "ok") == expect_ok, (item["url"], item["status"], item["error"])
        if expect_ok and item["url"] in redirects:
            assert canonicalize(item["final_url"]) == final
    reason = items.stats.get("finish_reason")
    assert reason == ("bara_page_budget" if len(want) >= max_pages else "finished"), reason
    assert items.stats.get("bara/pages/admitted") == len(want)
    # never asked: robots.txt-forbidden and denied pages
    asked = {urlsplit(path).path for path, hits in server.hits.items() if hits}
    assert not asked & set(gen.private), asked & set(gen.private)
    assert not asked & set(DENIED_HREFS)
    late_pages = {urlsplit(r.url).path for r in want} & gen.flaky
    assert all(server.hits[path] >= 2 for path in late_pages), "a flaky page was not retried"


def test_the_fixture_exercises_every_rule() -> None:
    """The cases below can fail: each rule changes the reference on this site."""
    gen = make_graph_site("http://127.0.0.1:4444", GRAPH_SEED)
    seed_only, depth_1, width, budget = (gen.reference(*CASES[name]) for name in CASES)
    assert [r.url for r in seed_only] == [gen.seed]
    assert len(depth_1) > 5 and {r.depth for r in depth_1} == {0, 1}
    D, W, P = CASES["width-binds"]  # noqa: N806
    assert width != gen.reference(D, W + 1, P), "W does not bind"
    assert len(width) < P
    D, W, P = CASES["budget-binds-mid-level"]  # noqa: N806
    unbounded = gen.reference(D, W, 10**6)
    assert len(budget) == P and unbounded[:P] == budget
    assert unbounded[P - 1].depth == unbounded[P].depth, "P does not cut a level in the middle"
    for name, (D, W, P) in CASES.items():  # noqa: N806
        if name != "seed-only":
            ref = gen.reference(D, W, P)
            assert ref != gen.reference(D, W, P, robots=False), f"{name}: robots.txt changes nothing"
            assert ref != gen.reference(D, W, P, late=False), f"{name}: script links change nothing"
    admitted = {urlsplit(r.url).path for name in CASES for r in gen.reference(*CASES[name])}
    assert any(p.startswith("/old/") for p in admitted), "no in-scope redirect admitted"
    assert any(p.startswith("/out/") for p in admitted), "no off-scope redirect admitted"
    assert any(p.startswith("/missing/") for p in admitted), "no broken link admitted"
    assert "/q" in admitted, "no query-variant page admitted"
    assert len(admitted & gen.flaky) >= 2, "no page that finishes late after a retry"


@pytest.mark.browser
@pytest.mark.parametrize("concurrency", [1, 4, 16])
@pytest.mark.parametrize("case", list(CASES))
def test_browser_crawl_admits_the_sequential_bfs(
    graph_site: tuple[GraphSite, SiteServer], tmp_path: Any, case: str, concurrency: int
) -> None:
    gen, server = graph_site
    D, W, P = CASES[case]  # noqa: N806
    items = run_crawl(
        gen.seed, tmp_path=tmp_path, args={"max_depth": D, "max_width": W, "max_pages": P},
        settings={"CONCURRENT_REQUESTS": concurrency, "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency, **FAST},
    )
    check_crawl(items, gen.reference(D, W, P), gen, server, P)


@pytest.mark.parametrize("concurrency", [1, 8])
def test_plain_http_crawl_admits_the_sequential_bfs(tmp_path: Any, concurrency: int) -> None:
    site = Site()
    with SiteServer(site) as server:
        gen = make_graph_site(server.base, GRAPH_SEED, script_links=False)
        gen.install(site)
        D, W, P = 3, 5, 30  # noqa: N806
        want = gen.reference(D, W, P)
        assert len(want) == P
        items = run_crawl(
            gen.seed, tmp_path=tmp_path, args={"max_depth": D, "max_width": W, "max_pages": P},
            settings={"BARA_BROWSER_ENABLED": False, "CONCURRENT_REQUESTS": concurrency,
                      "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency},
        )
        check_crawl(items, want, gen, server, P)
        assert "playwright/page_count" not in items.stats


ROBOTS_SITE = {
    "/": ["/private/a", "/private/b", "/login", "/p/1", "/private/c", "/p/2", "/p/3"],
    "/p/1": ["/private/d", "/p/4", "/p/5", "/p/6"],
    "/p/2": ["/p/1", "/private/a"],
    "/p/3": [],
    "/p/4": [],
    "/p/5": [],
    "/p/6": [],
}


@pytest.mark.browser
def test_robots_forbidden_links_are_not_admitted_nor_counted_toward_width(tmp_path: Any) -> None:
    site = Site()
    for path, links in ROBOTS_SITE.items():
        anchors = "".join(f'<a href="{h}">{h}</a> ' for h in links)
        site.add(path, f"<title>{path}</title><main><p>Page {path} of the robots site.</p>{anchors}</main>")
    for name in "abcd":
        site.add(f"/private/{name}", "<p>private page</p>")
    site.add("/robots.txt", "User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    with SiteServer(site) as server:
        graph = {server.url(p): [server.url(h) for h in links] for p, links in ROBOTS_SITE.items()}
        want = reference_bfs(graph, server.url("/"), 2, 2, 50, robots_disallowed=("/private/",))
        assert [urlsplit(r.url).path for r in want] == ["/", "/p/1", "/p/2", "/p/4", "/p/5"]
        items = run_crawl(
            server.url("/"), tmp_path=tmp_path, args={"max_depth": 2, "max_width": 2, "max_pages": 50},
            settings={"CONCURRENT_REQUESTS": 4, **FAST},
        )
        assert refs_of(items) == want, _diff(refs_of(items), want)
        assert not any(server.hits[f"/private/{name}"] for name in "abcd")
        assert server.hits["/robots.txt"] >= 1
        assert items.stats.get("bara/links/dropped/robots", 0) >= 4
        assert items.stats.get("finish_reason") == "finished"
