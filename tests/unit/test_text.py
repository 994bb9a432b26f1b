"""main_text: trafilatura's main text with fallbacks, on small synthetic pages."""

from __future__ import annotations

import pytest
import trafilatura

from bara_scrapy.extraction import content as ct
from bara_scrapy.extraction import text as tx
from bara_scrapy.extraction.blocks import Block
from bara_scrapy.extraction.content import main_text
from bara_scrapy.extraction.text import approx_inner_text, is_little, page_title, paragraphize

URL = "http://127.0.0.1:8000/page"
NAV = (
    '<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/blog">Our blog</a>'
    ' <a href="/contact">Contact</a></nav>'
)
FOOTER = '<footer><p>Copyright 2024 Pottery Ltd. All rights reserved.</p><a href="/privacy">Privacy</a></footer>'
BOILERPLATE = ("About us", "Our blog", "Copyright", "Privacy")
PARAS = (
    "We sell handmade pottery from our studio.",
    "Every piece is fired twice for strength.",
    "Visit us on weekends for a tour.",
)


def page(inner: str, title: str = "Pottery - Home", head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>{head}</head>"
        f"<body>{NAV}{inner}{FOOTER}</body></html>"
    )


def short_page(wrapper: str, para_tag: str) -> str:
    paras = "".join(f"<{para_tag}>{p}</{para_tag}>" for p in PARAS)
    inner = f"<h1>Welcome to the studio</h1>{paras}"
    return page(f"<{wrapper}>{inner}</{wrapper.split()[0]}>" if wrapper else inner)


@pytest.mark.parametrize("wrapper", ["main", "article", "section", 'div class="content"', 'div id="app"', ""])
@pytest.mark.parametrize("para_tag", ["p", "div"])
def test_short_page_keeps_every_paragraph_and_drops_nav_and_footer(wrapper: str, para_tag: str) -> None:
    title, text = main_text(short_page(wrapper, para_tag), URL)
    assert title == "Pottery - Home"
    for para in PARAS:
        assert para in text
    for junk in BOILERPLATE:
        assert junk not in text


def test_bare_divs_next_to_paragraphs_are_kept() -> None:
    # trafilatura alone drops a bare <div> of prose sitting among <p>s
    html = page(
        "<div><h1>News</h1><p>First paragraph of the story here.</p>"
        "<div>Second paragraph lives in a div of its own.</div><p>Third paragraph closes it.</p></div>"
    )
    assert "Second paragraph" not in (trafilatura.extract(html, favor_precision=True) or "")
    assert "Second paragraph lives in a div of its own." in main_text(html, URL)[1]


def test_article_with_boilerplate() -> None:
    body = " ".join(
        f"<p>Paragraph {i} of the report explains how the council voted on the new harbour plan"
        f" and what it means for residents number {i}.</p>"
        for i in range(8)
    )
    aside = '<aside class="related"><h3>Related stories</h3><ul><li><a href="/x">Other story</a></li></ul></aside>'
    share = '<div class="share-buttons"><a href="/s">Share on social</a></div>'
    html = page(f"<main><article><h1>Council votes</h1>{share}{body}</article>{aside}</main>")
    title, text = main_text(html, URL)
    assert title == "Pottery - Home"
    for i in range(8):
        assert f"residents number {i}." in text
    for junk in (*BOILERPLATE, "Related stories", "Other story", "Share on social"):
        assert junk not in text


def test_table_and_list_content_is_kept() -> None:
    html = page(
        "<main><h1>Prices</h1><p>Our current price list for the spring season is below.</p>"
        "<table><tr><td>Large mug</td><td>12 EUR</td></tr><tr><td>Soup bowl</td><td>18 EUR</td></tr></table>"
        "<ul><li>Free shipping over 50 EUR</li><li>Gift wrapping on request</li></ul></main>"
    )
    text = main_text(html, URL)[1]
    for cell in ("Large mug", "18 EUR", "Free shipping over 50 EUR", "Gift wrapping on request"):
        assert cell in text


def test_hidden_elements_are_not_text() -> None:
    html = page("<main><p>Visible words for the reader.</p><div hidden>Secret hidden words.</div></main>")
    text = main_text(html, URL)[1]
    assert "Visible words" in text
    assert "Secret" not in text


def test_fallback_to_body_text_when_trafilatura_finds_nothing() -> None:
    # everything the page shows sits in an <aside>, which trafilatura discards in both modes
    html = (
        "<html><body><aside><p>Opening hours Monday to Friday</p><p>Closed on public holidays</p></aside></body></html>"
    )
    assert trafilatura.extract(html, favor_precision=True) is None
    assert trafilatura.extract(html) is None
    rendered = "Opening hours Monday to Friday\nClosed on public holidays"
    assert main_text(html, URL, body_text=rendered) == ("", rendered)
    # without a rendered body text, the HTML's own visible text stands in for it
    assert main_text(html, URL)[1] == rendered


def test_body_text_is_not_used_when_trafilatura_succeeds() -> None:
    html = short_page("main", "p")
    rendered = "Home About us Our blog Contact\nWelcome\n" + "\n".join(PARAS) + "\nCopyright 2024"
    text = main_text(html, URL, body_text=rendered)[1]
    assert text != rendered
    assert "About us" not in text


def test_escalates_to_balanced_mode_when_precise_text_is_little(monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = {True: "Just a teaser.", False: "Just a teaser." + " Full story words here." * 30}
    monkeypatch.setattr(ct, "trafilatura_blocks", lambda tree, url, precise: [Block("p", outputs[precise], "")])
    body = "menu " * 100 + outputs[False]
    assert main_text(page("<p>x</p>"), URL, body_text=body)[1] == outputs[False]
    # a precise text that is not little relative to the body is kept as is
    outputs[True] = "Enough precise words here." * 10
    assert main_text(page("<p>x</p>"), URL, body_text=body)[1] == outputs[True]


def test_escalation_keeps_precise_text_when_balanced_finds_little_more(monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = {True: "Short precise text of six words.", False: "Short precise text of six words. Home Menu"}
    monkeypatch.setattr(ct, "trafilatura_blocks", lambda tree, url, precise: [Block("p", outputs[precise], "")])
    body = "word " * 200
    assert main_text(page("<p>x</p>"), URL, body_text=body)[1] == outputs[True]


@pytest.mark.parametrize(
    "garbage",
    [
        "",
        "   ",
        "\x00\x01\x02\xff garbage",
        "\ud800 lone surrogate",
        "<<<>>>",
        "<html>",
        "</p></div>",
        '{"json": [1, 2, 3]}',
        "<p>unclosed <b>tags <i>everywhere",
    ],
)
def test_garbage_never_raises(garbage: str) -> None:
    title, text = main_text(garbage, URL)
    assert isinstance(title, str) and isinstance(text, str)
    text.encode("utf-8")  # no lone surrogates left
    assert "\x00" not in text and "\x01" not in text


def test_non_html_input_types_never_raise() -> None:
    assert main_text(b"<html><body><p>bytes page with words</p></body></html>", URL)[1]  # type: ignore[arg-type]
    assert main_text(None, URL, body_text="rendered") == ("", "rendered")  # type: ignore[arg-type]
    assert main_text("<p>x</p>", None, body_text=None) is not None  # type: ignore[arg-type]


def test_plain_text_and_fragments_are_their_own_text() -> None:
    assert main_text("just some plain text, no markup", URL) == ("", "just some plain text, no markup")
    assert main_text("<p>only a fragment here</p>", URL)[1] == "only a fragment here"


def test_huge_input_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ct, "MAX_HTML_CHARS", 5_000)
    html = "<html><body><main>" + "<p>lorem ipsum dolor sit amet</p>" * 2_000 + "</main></body></html>"
    text = main_text(html, URL)[1]
    assert 0 < len(text) < 5_000


def test_too_many_elements_keeps_body_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ct, "MAX_ELEMENTS", 50)
    html = "<html><body>" + "<div><span>item</span></div>" * 100 + "</body></html>"
    monkeypatch.setattr(ct, "trafilatura_blocks", lambda *a, **k: pytest.fail("trafilatura must not run"))
    assert main_text(html, URL, body_text="rendered items") == ("", "rendered items")


@pytest.mark.parametrize(
    ("head", "body", "expected"),
    [
        ("<title> The  title </title>", "<h1>Heading</h1>", "The title"),
        ('<meta property="og:title" content="OG title">', "<h1>Heading</h1>", "OG title"),
        ("", "<h1>Heading <b>one</b></h1><h1>Two</h1>", "Heading one"),
        ("", "<p>nothing</p>", ""),
    ],
)
def test_page_title(head: str, body: str, expected: str) -> None:
    tree = tx.parse(f"<html><head>{head}</head><body>{body}</body></html>")
    assert tree is not None
    assert page_title(tree) == expected


def test_approx_inner_text_skips_invisible_and_breaks_blocks() -> None:
    tree = tx.parse(
        "<html><head><title>T</title></head><body><script>var x=1;</script><style>p{}</style>"
        "<div>One <b>bold</b></div><p style='display: none'>gone</p><p>Two</p><noscript>ns</noscript></body></html>"
    )
    assert tree is not None
    assert approx_inner_text(tree) == "One bold\nTwo"


def test_paragraphize_converts_only_prose_leaf_divs() -> None:
    tree = tx.parse(
        "<html><body><div id='outer'><div id='prose'>Some <em>plain</em> prose</div>"
        "<div id='links'><a href='/a'>Link one</a> <a href='/b'>two</a></div>"
        "<div id='empty'> </div></div></body></html>"
    )
    assert tree is not None
    paragraphize(tree)
    tags = {el.get("id"): el.tag for el in tree.iter() if el.get("id")}
    assert tags == {"outer": "div", "prose": "p", "links": "div", "empty": "div"}


@pytest.mark.parametrize(
    ("text", "body", "fraction", "expected"),
    [
        ("", "", 0.02, True),
        ("a", "", 0.02, False),
        ("a b", "w " * 100, 0.02, False),
        ("a", "w " * 100, 0.02, True),
        ("a " * 9, "w " * 100, 0.10, True),
        ("a " * 10, "w " * 100, 0.10, False),
    ],
)
def test_is_little(text: str, body: str, fraction: float, expected: bool) -> None:
    assert is_little(text, body, fraction) is expected
