"""page_content on list-like pages: every item kept, page furniture left out, Markdown agreeing with text."""

from __future__ import annotations

import random
import re

import pytest

from bara_scrapy.extraction.blocks import Block, to_markdown, to_text
from bara_scrapy.extraction.content import page_content, word_at

URL = "https://shop.example/catalog"
FURNITURE = (
    '<header class="site-header"><a href="/">Logo</a><nav><a href="/a">Shop</a><a href="/b">Journal</a>'
    "<span>Free shipping on orders over forty euros today</span></nav></header>"
    '<div class="cookie-consent"><p>We use cookies to remember your basket between visits.</p></div>',
    '<aside class="related"><h2>Related articles</h2><p>Ten kettles that changed how we brew tea.</p></aside>'
    '<div class="share-bar">Share this page with your friends now</div>',
    "<footer><p>Copyright Example Shop, registered in the harbour district.</p></footer>",
)
LEAKS = ("Free shipping on orders", "remember your basket", "Ten kettles that changed", "Share this page",
         "registered in the harbour")

PRODUCTS = [(f"Kettle model {n}", f"A copper kettle number {n} that whistles softly when the water boils.")
            for n in range(1, 13)]
ROWS = [(f"Station {n}", f"{10 + n} mm", f"Rain gauge {n} read steady values through the night.") for n in range(25)]
POSTS = [(f"user{n}", f"Reply {n}: I fixed the leaking tap by replacing the washer under the handle.")
         for n in range(1, 9)]


def page(main: str, intro: str = "") -> str:
    top, mid, bottom = FURNITURE
    return (f"<html><head><title>T</title></head><body>{top}<main><h1>Catalogue</h1>{intro}{main}{mid}</main>"
            f"{bottom}</body></html>")


def listing() -> str:
    cards = "".join(f'<div class="card"><a href="/p/{n}"><h3>{t}</h3></a><div class="card-body">{d}</div>'
                    f'<span class="price">{n}9 EUR</span></div>' for n, (t, d) in enumerate(PRODUCTS))
    intro = "<p>Our kettles are made by hand in a small workshop by the river, one at a time.</p>"
    return page(f'<div class="grid">{cards}</div>', intro)


def table() -> str:
    rows = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in ROWS)
    return page(f"<table><thead><tr><th>Station</th><th>Rain</th><th>Note</th></tr></thead><tbody>{rows}</tbody>"
                "</table>")


def thread() -> str:
    first = ("<article class='topic'><h2>My tap keeps dripping</h2><p>The kitchen tap drips every few seconds, "
             "even when closed tight. What should I check first before calling a plumber?</p></article>")
    posts = "".join(f'<div class="post"><div class="post-meta">{u} wrote</div><div class="post-body">{b}</div>'
                    "</div>" for u, b in POSTS)
    return page(f'{first}<div class="replies">{posts}</div>')


def plain(markdown: str) -> list[str]:
    """The words of Markdown without its marks and link targets."""
    return re.findall(r"\w+", re.sub(r"\]\([^)]*\)", "]", markdown).replace("---", ""))


@pytest.mark.parametrize(("html", "expected"), [
    (listing(), [d for _, d in PRODUCTS] + [t for t, _ in PRODUCTS]),
    (table(), [c for _, _, c in ROWS]),
    (thread(), [b for _, b in POSTS] + ["What should I check first"]),
])
def test_every_item_kept_and_furniture_dropped(html: str, expected: list[str]) -> None:
    content = page_content(html, URL)
    assert [e for e in expected if e not in content.text] == []
    assert [leak for leak in LEAKS if leak in content.text] == []
    assert plain(content.markdown) == re.findall(r"\w+", content.text)  # the same content, formatted


def test_markdown_marks_structure() -> None:
    md = page_content(table(), URL).markdown
    assert md.startswith("# Catalogue\n\n| Station | Rain | Note |\n| --- | --- | --- |\n| Station 0 | 10 mm |")
    md = page_content(listing(), URL).markdown
    assert "### [Kettle model 1](https://shop.example/p/0)" in md


def test_article_page_is_trafilaturas_text_without_furniture() -> None:
    body = "".join(f"<p>Paragraph {n} of a long story about otters, rivers and the stones they use.</p>"
                   for n in range(15))
    content = page_content(page(f"<article>{body}</article>"), URL)
    assert content.method == "trafilatura"
    assert "Paragraph 14 of a long story" in content.text and not any(leak in content.text for leak in LEAKS)


def test_script_source_never_in_text() -> None:
    html = page('<div id="app"></div><script>window.__DATA__ = {"items": [1, 2]};</script>'
                '<template><p>Hidden template text</p></template>' + "".join(
                    f'<li class="row">Row {n} carries enough words to count</li>' for n in range(5)))
    text = page_content(html, URL).text
    assert "__DATA__" not in text and "Hidden template" not in text and "Row 4 carries" in text


def test_renderings_agree_on_blocks() -> None:
    blocks = [Block("h", "Title", "Title", 2), Block("p", "See docs", "See [docs](https://d/)"),
              Block("li", "one", "one"), Block("quote", "said", "said")]
    assert to_text(blocks) == "Title\nSee docs\none\nsaid"
    assert to_markdown(blocks) == "## Title\n\nSee [docs](https://d/)\n\n- one\n\n> said"


def test_the_headline_the_title_names_is_read_at_any_level_even_as_a_link_to_the_page() -> None:
    """A forum thread's `<h2 class="topic-title"><a href=thread>Topic</a></h2>` (phpBB) and a blog theme's linked
    entry title: all link words, yet the page's headline; the board's name in the title is not (it is the site's)."""
    from ..forum_site import Forum

    forum = Forum().build()
    path = "/viewtopic.php?t=201"
    lines = page_content(forum.pages[path], "http://f.test" + path).text.split("\n")
    assert "Thread 2-1 about the weir and its portage" in lines and "Riverside Forum" not in lines
    blog = ('<html><head><title>Notes on rivers | Cocoa Log</title></head><body><div id="top"><h1><a href="/">Cocoa '
            'Log</a></h1></div><div class="post"><h2 class="entry-title"><a href="/notes-on-rivers">Notes on rivers'
            '</a></h2><p>Rivers carry more sediment in spring than in any other season of the year, we found.</p>'
            '<p>The measurements were taken at the same bridge every morning for three years.</p></div></body></html>')
    lines = page_content(blog, "http://b.test/notes-on-rivers").text.split("\n")
    assert "Notes on rivers" in lines and "Cocoa Log" not in lines


@pytest.mark.parametrize("wrapper", ["nav", "div"])
def test_a_short_page_under_a_mega_menu_is_its_own_few_lines_not_the_menu(wrapper: str) -> None:
    """A university's contact page: twelve words of its own under a 100-link mega-menu (in a <nav>, or in a
    `div.site-header`). The menu holds most of the page's words, all of them links: it is no content wrapper,
    and trafilatura's balanced mode returning it as one line is no reason to prefer that mode."""
    sections = ["Study", "Research", "Admissions", "Student life", "About us", "Alumni", "News and events",
                "Libraries", "Faculties", "International", "Give", "Contact"]
    subs = ["Undergraduate", "Postgraduate taught", "Research degrees", "Fees and funding", "Open days", "Visit us",
            "Accommodation", "Careers"]
    menu = "".join(f'<li><a href="/s{i}/">{s}</a><ul class="sub-menu">'
                   + "".join(f'<li><a href="/s{i}/p{j}">{t}</a></li>' for j, t in enumerate(subs)) + "</ul></li>"
                   for i, s in enumerate(sections))
    html = (f'<html><head><title>Contact us | Northfield University</title></head><body><div class="site-header">'
            f'<div class="logo"><a href="/">Northfield University</a></div><{wrapper} class="mega-menu"><ul>{menu}'
            f'</ul></{wrapper}></div><div class="content-area"><h1>Contact us</h1><p>Call the front desk on 555 0100, '
            'Monday to Friday.</p></div></body></html>')
    text = page_content(html, "https://www.northfield.example.edu/contact/").text
    assert "Call the front desk on 555 0100, Monday to Friday." in text
    assert "Postgraduate taught" not in text and len(text.split()) < 30, text[:300]


def test_a_forum_quote_header_is_a_line_of_its_own_not_glued_to_the_quoted_text() -> None:
    """phpBB's `<blockquote><div><cite>name wrote: <span>date</span></cite>quoted text</div></blockquote>`."""
    quote = ('<blockquote><div><cite><a href="/u/2">riverrat</a> wrote: <span>Tue Feb 14, 2023 7:22 pm</span></cite>'
             "Padded sawhorses are fine, but keep it away from the furnace.</div></blockquote>")
    html = ("<html><body><main><article><h1>Winter storage</h1><p>My canoe spends the winter in the garage, "
            f"upside down on two sawhorses.</p><div class='content'>{quote}I would add a breathable cover."
            "</div></article></main></body></html>")
    lines = page_content(html, "http://f.test/t/1").text.split("\n")
    assert "riverrat wrote: Tue Feb 14, 2023 7:22 pm" in lines
    assert "Padded sawhorses are fine, but keep it away from the furnace." in lines


def test_word_at_finds_what_the_pattern_of_whole_words_finds() -> None:
    """`content.word_at` against `(?<!\\w)label(?!\\w)` on seeded random text: letters of several scripts, digits,
    the underscore, marks, punctuation and spaces."""
    alphabet = "ab_1 .,-ΩЖ中é\u0301\u00a0’"
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        label = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3)))
        start = rng.randint(0, len(text))
        found = re.compile(rf"(?<!\w){re.escape(label)}(?!\w)").search(text, start)
        assert word_at(text, label, start) == (found.start() if found else -1), (text, label, start)
