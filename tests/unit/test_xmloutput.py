"""trafilatura's XML output with bara's cleaning of plain text (`extraction/xmloutput.py`): the same string as
`determine_returnstring`, on hand-made documents and on real pages."""

from __future__ import annotations

import copy
import random

import pytest
from trafilatura.core import determine_returnstring
from trafilatura.settings import Document

from bara_scrapy.bench.articles import default_corpus, load_corpus
from bara_scrapy.extraction import xmloutput
from bara_scrapy.extraction.precise import precise_extraction
from bara_scrapy.extraction.text import paragraphize, parse, trafilatura_options

S = "The river keeps its own calendar,  and the town\n   has learned to read it. "
PAGES = {
    "prose": "<html><body><article><h1>Flood</h1>" + "".join(f"<p>{S * 3} {i}</p>" for i in range(6))
             + "</article></body></html>",
    # no-break spaces, tabs, a zero-width space and a soft hyphen (dropped), `&nbsp;` as text, `␤`, blank lines
    "spaces": "<html><body><article>" + "".join(
        f"<p>{S}\u00a0<b> bold\t</b> x\u200by co\u00adop &amp;nbsp; a\u2424b\n\n\n <i>it </i>{i}</p>"
        for i in range(6)) + "</article></body></html>",
    # code keeps its spaces; list items, quotes and table cells keep a space around their text
    "mixed": "<html><body><article>" + "".join(f"<p>{S * 2}</p>" for _ in range(3))
             + "<pre><code>  def f():\n\treturn  1\n</code></pre><ul><li> One <a href='/a'> link </a> </li>"
             + "<li>Two</li></ul><blockquote> Quoted  text </blockquote><table><tr><td> a </td><td></td>"
             + "<td>c</td></tr></table></article></body></html>",
}


def _document(html: str, url: str = "http://example.org/a") -> Document | None:
    tree = parse(html)
    assert tree is not None
    paragraphize(tree)  # as `content._choose` hands it over
    return precise_extraction(tree, trafilatura_options(url, True))


def _both(document: Document, url: str = "http://example.org/a") -> tuple[str, str]:
    options = trafilatura_options(url, True)
    return xmloutput.xml_string(copy.deepcopy(document), options), determine_returnstring(document, options)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_same_xml_as_determine_returnstring(name: str) -> None:
    document = _document(PAGES[name])
    assert document is not None
    ours, stock = _both(document)
    assert ours == stock


def test_sanitized_is_trafilaturas_sanitize() -> None:
    from trafilatura.utils import sanitize

    for text in (" a  b ", "a\n\n b \n", "\u00a0x\u00a0", "a\tb", "a\u200bb", "&nbsp;a", "a\u2424b", "  ", "\n",
                 "x\ry", "a\u2028b", " A\u3000b ", " ", "a", "a b", " a b", "a b ", " a b ", "a  b", "a&b"):
        for preserve, trailing in ((False, False), (False, True), (True, True)):
            assert xmloutput._sanitized(text, preserve, trailing) == sanitize(text, preserve, trailing), repr(text)


def test_sanitized_is_sanitize_on_random_text() -> None:
    from trafilatura.utils import sanitize

    rng = random.Random(3)
    alphabet = list("ab &;#13") + list(" \t\n\r\x0b\x0c\x1c\x85\u00a0\u2028\u3000\u200b\u00ad\u2424\x07é’")
    printable = list("ab  &é’.")  # mostly text that cleaning keeps as it is (`_clean`)
    for n in range(10_000):
        text = "".join(rng.choice(alphabet if n % 2 else printable) for _ in range(rng.randrange(1, 12)))
        for preserve, trailing in ((False, False), (False, True), (True, True)):
            assert xmloutput._sanitized(text, preserve, trailing) == sanitize(text, preserve, trailing), repr(text)


CLEANEVAL = default_corpus("cleaneval")


@pytest.mark.skipif(not CLEANEVAL.is_dir(), reason=f"CleanEval corpus not found at {CLEANEVAL} (set BARA_CORPORA)")
def test_the_same_xml_on_real_pages() -> None:
    for key, html, url, _ in load_corpus(CLEANEVAL, limit=120):
        document = _document(html, url)
        if document is not None:
            ours, stock = _both(document, url)
            assert ours == stock, key
