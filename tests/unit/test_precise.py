"""trafilatura's precision mode with the comparison skipped where it cannot change the result (`extraction/precise.py`):
the same XML as `bare_extraction`, page by page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from trafilatura import bare_extraction
from trafilatura.core import determine_returnstring
from trafilatura.settings import Extractor

from bara_scrapy.bench.articles import default_corpus, load_corpus
from bara_scrapy.extraction import precise
from bara_scrapy.extraction.text import paragraphize, parse, trafilatura_options

S = "The river keeps its own calendar, and the town has learned to read it well over many years. "
LINKS = "".join(f"<li><a href='/{i}'>Link {i}</a></li>" for i in range(30))
PAGES = {
    # trafilatura's own text is nearly all of the page: no comparison
    "article": "<html><body><nav><a href='/'>Home</a><a href='/n'>News</a></nav><article><h1>Flood</h1>"
               + "".join(f"<p>{S * 3} {i}</p>" for i in range(6)) + "</article><footer>(c) Town</footer></body></html>",
    # prose with line breaks, in no paragraph, beside a long link list: readability's text replaces trafilatura's
    "lines": "<html><body><section>" + "".join(f"{S * 2} {i}<br>" for i in range(8))
             + f"</section><ul>{LINKS}</ul></body></html>",
    # a paragraph of trafilatura's, and more than twice as much prose in no paragraph: readability's text wins
    "beside": "<html><body><div><h2>Intro</h2><p>" + S * 4 + "</p></div><div><section>"
              + "".join(f"{S * 2} {i}<br>" for i in range(8)) + "</section></div></body></html>",
    # more script than text: readability drops scripts first, so the article is still half of what it could read
    "scripted": "<html><head><script>" + "var data = 'x';" * 200 + f"</script></head><body><nav>{LINKS}</nav>"
                "<article>" + "".join(f"<p>{S * 3}</p>" for _ in range(3)) + f"</article><footer>{S * 3}</footer>"
                "</body></html>",
    # a video's iframe: readability writes "VIDEO" into it
    "video": "<html><body><article>" + "".join(f"<p>{S * 3}</p>" for _ in range(3))
             + "<iframe src='https://www.youtube.com/embed/x'></iframe></article></body></html>",
    # more table rows than paragraphs: readability is preferred
    "table": "<html><body><table>" + "".join(f"<tr><td>{S} {i}</td><td>{S}</td></tr>" for i in range(10))
             + "</table><div>" + "".join(f"<p>{S} {i}</p>" for i in range(2)) + "</div></body></html>",
    # a short text: jusText is tried
    "short": f"<html><body><main><p>Closed today.</p></main><ul>{LINKS}</ul></body></html>",
    # the <figure> is no part of trafilatura's text: no comparison
    "figure": "<html><body><article>" + "".join(f"<p>{S * 3}</p>" for _ in range(4))
              + "<figure><img src='a.jpg'><figcaption>A caption</figcaption></figure></article></body></html>",
    "empty": "<html><body><nav><a href='/'>Home</a></nav></body></html>",
    # a sidebar saying more than the article: the comparison prunes it (its class names it) before readability reads
    # the page, so readability cannot say twice as much
    "sidebar": "<html><body><article>" + "".join(f"<p>{S * 3}</p>" for _ in range(3)) + "</article>"
               "<div class='sidebar'>" + "".join(f"<div>{S * 3}</div>" for _ in range(8)) + "</div></body></html>",
    # ... but a box the prune does not name may be readability's (here it is: twice the article)
    "box": "<html><body><article>" + "".join(f"<p>{S * 3}</p>" for _ in range(3)) + "</article>"
           "<div class='more'>" + "".join(f"<div>{S * 3}</div>" for _ in range(8)) + "</div></body></html>",
}


def _options(precision: bool = True) -> Extractor:
    return trafilatura_options("http://example.org/a", precision)  # the options `text.trafilatura_xml` gives


def _xml(extract: Callable[[Any, Extractor], Any], html: str, options: Extractor) -> str | None:
    tree = parse(html)
    assert tree is not None
    paragraphize(tree)  # as `content._choose` hands it over
    found = extract(tree, options)
    return determine_returnstring(found, options) if found is not None else None


def _stock(tree: Any, options: Extractor) -> Any:
    found = bare_extraction(tree, options=options)
    return found if found is not None and not isinstance(found, dict) else None


def _compared(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Record each comparison `precise` runs: whether it replaced trafilatura's own result."""
    runs: list[bool] = []
    compare = precise.compare_extraction

    def recording(*args: Any) -> Any:
        body, text = compare(*args)
        runs.append(body is not args[2])
        return body, text

    monkeypatch.setattr(precise, "compare_extraction", recording)
    return runs


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_same_xml_as_bare_extraction(name: str) -> None:
    html = PAGES[name]
    assert _xml(precise.precise_extraction, html, _options()) == _xml(_stock, html, _options())


@pytest.mark.parametrize(("name", "compared", "replaced"), [
    ("article", False, False), ("lines", True, True), ("table", True, True), ("short", True, False),
    ("figure", False, False), ("empty", True, True),
    ("beside", True, True), ("scripted", False, False), ("video", False, False), ("sidebar", False, False),
    ("box", True, True),
])
def test_the_comparison_runs_only_where_it_may_change_the_result(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                 compared: bool, replaced: bool) -> None:
    runs = _compared(monkeypatch)
    _xml(precise.precise_extraction, PAGES[name], _options())
    assert runs == ([replaced] if compared else [])


def test_other_options_go_to_bare_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _compared(monkeypatch)
    html = PAGES["lines"]
    assert _xml(precise.precise_extraction, html, _options(precision=False)) == _xml(_stock, html, _options(False))
    assert runs == []  # trafilatura's own sequence ran, not this module's


def test_another_trafilatura_goes_to_bare_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _compared(monkeypatch)
    monkeypatch.setattr(precise.trafilatura, "__version__", "9.9.9")
    html = PAGES["lines"]
    assert _xml(precise.precise_extraction, html, _options()) == _xml(_stock, html, _options())
    assert runs == []  # on 2.3.1 this page is compared here (test above)


CLEANEVAL = default_corpus("cleaneval")


@pytest.mark.skipif(not CLEANEVAL.is_dir(), reason=f"CleanEval corpus not found at {CLEANEVAL} (set BARA_CORPORA)")
def test_the_same_xml_on_real_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _compared(monkeypatch)
    pages = load_corpus(CLEANEVAL, limit=120)
    for key, html, url, _ in pages:
        options = trafilatura_options(url, True)
        assert _xml(precise.precise_extraction, html, options) == _xml(_stock, html, options), key
    assert 0 < len(runs) < len(pages)  # some comparisons skipped, some run
    assert any(runs)  # and some of those run replaced trafilatura's own result
