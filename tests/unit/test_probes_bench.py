"""The pages in real platforms' markup (`bench/probes.py`): the bundled set, its scoring and its report."""

from __future__ import annotations

from lxml.html import fromstring

from bara_scrapy.bench.main import run_probe_pages
from bara_scrapy.bench.probes import fold, load_probes, probes_markdown
from bara_scrapy.extraction.text import parse


def test_every_probe_pages_keys_are_words_its_page_shows_and_its_furniture_stands_in_it() -> None:
    """Each bundled page has its URL, its keys and its furniture; each key stands in the page's visible text (a key
    no reader could see would measure nothing) and each furniture string in its markup's text (some are hidden until
    a script shows them: an extractor that keeps hidden text leaks them)."""
    probes = load_probes()
    assert len(probes) >= 32, [p.name for p in probes]
    for probe in probes:
        assert probe.url.startswith("https://") and probe.keys and probe.furniture, probe.name
        tree = parse(probe.html)
        assert tree is not None, probe.name
        shown, written = fold(" ".join(tree.itertext())), fold(" ".join(fromstring(probe.html).itertext()))
        unseen = [key for key in probe.keys if not _stands(key, shown)]
        unwritten = [string for string in probe.furniture if not _stands(string, written)]
        assert not unseen and not unwritten, (probe.name, unseen, unwritten)


def _stands(string: str, text: str) -> bool:
    """Whether a string stands in a text, the spaces between inline elements aside (a text's "318 kcal" of
    `<span>318</span><span>kcal</span>`, walked element by element)."""
    return fold(string) in text or fold(string).replace(" ", "") in text.replace(" ", "")


def test_the_bench_scores_the_probe_pages_beside_trafilatura() -> None:
    """`scrapy bara-bench --sites 0 --probes`: every page scored for bara and trafilatura, a line each and the totals,
    and a Markdown table of them for the report."""
    lines: list[str] = []
    figures = run_probe_pages(lines.append)
    pages = len(load_probes())
    assert set(figures) == {"bara", "trafilatura"} and all(len(f["pages"]) == pages for f in figures.values())
    assert all(0 <= f["found"] <= f["keys"] and 0 <= f["leaked"] <= f["furniture"] for f in figures.values())
    assert len(lines) == pages + 2 and lines[-2].startswith("[probes] bara: keys found "), lines[-2:]
    table = probes_markdown(figures).split("\n")
    assert len(table) == pages + 3 and table[2].startswith("| **all** |"), table[:3]
