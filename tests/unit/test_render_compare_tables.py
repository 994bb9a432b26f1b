"""The tables of the render comparison, on hand-made rows (no crawl): the policy's path per page, the
confusion table and the served-over-HTTP-but-different list."""

from __future__ import annotations

from typing import Any

from bara_scrapy.bench.render_record import http_side
from bara_scrapy.bench.render_tables import analyse, sweep_table, tables

SEED = "http://a.test/"
PROSE = " ".join(["The committee reviewed the archive and published its findings for the winter term."] * 8)


def html(body: str) -> str:
    return (f"<!doctype html><html><head><title>T</title></head><body><nav><a href='/'>Home</a>"
            f"<a href='/p/alpha-beta-gamma'>A</a></nav><main><h1>Title</h1><p>{PROSE}</p>{body}</main>"
            "<script src='/site.js'></script></body></html>")


def row(index: int, path: str, body: str = "", *, rendered_extra: str = "", parent: int | None = 0,
        quirks: tuple[str, ...] = (), http_error: str | None = None) -> dict[str, Any]:
    url = SEED.rstrip("/") + path
    fetched = {"final_url": url, "status": 200, "html": html(body), "error": None}
    _, result = http_side(url, fetched)
    rendered = {"status": "ok", "http_status": 200, "text": result["text"] + rendered_extra,
                "media": result["media"], "links": result["links"], "attempts": 1}
    if http_error:
        fetched = {"final_url": url, "status": 503, "html": "", "error": http_error}
    return {"site": "s", "layout": "blog", "url": url, "bfs_index": index,
            "parent_index": None if index == 0 else parent, "seed": SEED, "quirks": list(quirks),
            "rendered": rendered, "http": fetched}


ROWS = [
    row(0, "/", parent=None),
    row(1, "/p/first-post-here"),
    row(2, "/p/second-post-here"),
    row(3, "/p/third-post-here", parent=2),  # admitted by page 2: the pattern has 2 equal pages by then
    row(4, "/p/scripted-post-here", '<div id="late"></div><script>fill("late")</script>', rendered_extra=" More.",
        parent=2, quirks=("script",)),
    row(5, "/p/sneaky-post-here", rendered_extra=" Written by a script nothing shows.", parent=2,
        quirks=("delayed",)),
    row(6, "/p/flaky-post-here", parent=2, http_error="http 503"),
]


def test_the_policy_probes_then_serves_over_http_escalates_and_falls_back() -> None:
    analysis = analyse(ROWS, probes=2, audit_share=0.0)
    paths = [(p.plan, p.served, p.why, p.truth) for p in analysis.pages]
    assert paths == [
        ("probe", "browser", "probe", "equal"),
        ("probe", "browser", "probe", "equal"),
        ("probe", "browser", "probe", "equal"),
        ("http", "http", "http", "equal"),
        ("http", "browser", "escalated:script_container", "different"),
        ("http", "http", "http", "different"),  # no signal: the one the table must show
        ("http", "browser", "http_failed", "inconclusive"),
    ]
    assert analysis.confusion() == {("browser", "equal"): 3, ("http", "equal"): 1, ("browser", "different"): 1,
                                    ("http", "different"): 1, ("browser", "inconclusive"): 1}
    assert [p.url for p in analysis.wrong()] == ["http://a.test/p/sneaky-post-here"]


def test_the_tables_name_the_wrong_page_and_count_reasons() -> None:
    text = "\n".join(tables(analyse(ROWS, probes=2, audit_share=0.0)))
    assert "| http | 1 | 1 | 0 |" in text and "| browser | 3 | 1 | 1 |" in text
    assert "Served over HTTP but different: 1" in text
    assert "- s http://a.test/p/sneaky-post-here quirks delayed: text" in text
    assert "| script_container | 1 | 1 | 1 |" in text
    assert "| delayed | 1 | 1 | 1 | 100.0% | 1 |" in text


def test_more_probes_keep_the_pattern_rendered() -> None:
    analysis = analyse(ROWS, probes=8, audit_share=0.0)
    assert analysis.wrong() == [] and {p.served for p in analysis.pages} == {"browser"}
    assert [p.plan for p in analysis.pages] == ["probe"] * 7
    later = row(7, "/p/later-post-here", parent=6)  # admitted once page 4's difference was learnt
    assert analyse([*ROWS, later], probes=2, audit_share=0.0).pages[-1].why == "pinned"


def test_the_sweep_has_a_row_per_n() -> None:
    lines = sweep_table([analyse(ROWS, probes=n, audit_share=0.0) for n in (0, 2, 8)])
    assert lines[2].startswith("| 0 | ") and lines[3] == "| 2 | 2 | 28.6% | 1 | 3 / 0 / 0 / 1 / 1 |"
    assert lines[4] == "| 8 | 0 | 0.0% | 0 | 7 / 0 / 0 / 0 / 0 |"
