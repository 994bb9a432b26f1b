"""`prunes.py` selects what trafilatura's prune expressions select, element for element, in the same order."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from lxml.html import HtmlElement
from trafilatura.core import _prepare_tree
from trafilatura.xpaths import (
    BODY_XPATH,
    DISCARD_IMAGE_ELEMENTS,
    OVERALL_DISCARD_XPATH,
    PRECISION_DISCARD_XPATH,
    RAW_TREE_PRUNE_XPATH,
    REMOVE_COMMENTS_AND_LISTS_XPATH,
    REMOVE_COMMENTS_XPATH,
    TEASER_DISCARD_XPATH,
)

from bara_scrapy.bench.articles import default_corpus, load_corpus
from bara_scrapy.extraction import prunes
from bara_scrapy.extraction.text import parse, trafilatura_options

# one expression list each, and the function that stands for it
SELECTIONS: list[tuple[Callable[[HtmlElement], list[HtmlElement]], list[Any]]] = [
    (prunes.overall_discard, OVERALL_DISCARD_XPATH), (prunes.teasers, TEASER_DISCARD_XPATH),
    (prunes.headers, PRECISION_DISCARD_XPATH[:1]), (prunes.bottoms_and_links, PRECISION_DISCARD_XPATH[1:]),
    (prunes.captions, DISCARD_IMAGE_ELEMENTS),
]
# the sequence's first prunes (their own page below, `PRUNABLE`)
FIRST: list[tuple[Callable[[HtmlElement], list[HtmlElement]], list[Any]]] = [
    (prunes.ad_boxes, RAW_TREE_PRUNE_XPATH[:1]), (prunes.share_buttons, RAW_TREE_PRUNE_XPATH[1:]),
    (prunes.comment_sections_and_lists, REMOVE_COMMENTS_AND_LISTS_XPATH),
    (prunes.comment_sections, REMOVE_COMMENTS_XPATH),
]

# each test of each expression, met and missed: attribute order (the first of id and class is the one tested),
# case, missing and empty attributes, the tags tested, and elements only some of the expressions test
PAGE = """<html><body>
<div class="x" id="sharebox">1</div><div id="x" class="cookie-notice">2</div><div class="cookie-notice" id="x">3</div>
<p data-lp-replacement-content="">4</p><span role="Navigation">5</span><section role="main">6</section>
<div data-component="MostPopularStories-x">7</div><div class="article-body">8</div><p class=" ad ">9</p>
<div class="metadata">10</div><a class="byline" href="/">11</a><div id="premium-x">12</div><div id="Nav">13</div>
<p class="comments-title">14</p><b id="reply-3">15</b><b class="x" id="reply-4">16</b><i class="reply-5" id="r">17</i>
<b id="hidden-x">18</b><b style="color: red" id="x-hidden">19</b><b style="display: none">20</b>
<b style="display:none">21</b><b id="akismet">22</b><b class="x hidden">23</b><b class="hidden">24</b>
<b aria-hidden="true">25</b><b aria-hidden="false">26</b><item class="related">27</item><list id="menu">28</list>
<div id="TeaserBox">29</div><div class="teaser">30</div><header>31</header><div><header>32</header></div>
<div class="page bottom">33</div><div id="bottom-bar" class="link">34</div><div class="link x">35</div>
<div class="links">36</div><div style="border: 1px">37</div><div id="caption">38</div><p class="figcaption">39</p>
<figure class="caption">40</figure><div id=""><div class="">41</div></div>
<div class="social"><p class="share-x"><span id="cookie">42</span></p></div>
</body></html>"""


def _same(select: Callable[[HtmlElement], list[HtmlElement]], expressions: list[Any], tree: HtmlElement) -> list[Any]:
    found = select(tree)  # lxml hands out one object per element while it is held: `==` compares elements
    assert found == list(dict.fromkeys(el for expression in expressions for el in expression(tree)))
    return found


@pytest.mark.parametrize(("select", "expressions"), SELECTIONS)
def test_the_same_elements_as_the_expressions(select: Callable[[HtmlElement], list[HtmlElement]],
                                              expressions: list[Any]) -> None:
    tree = parse(PAGE)
    assert tree is not None
    assert _same(select, expressions, tree)  # and something to compare


def test_the_page_meets_each_test() -> None:
    tree = parse(PAGE)
    assert tree is not None
    texts = {select.__name__: [el.text_content() for el in select(tree)] for select, _ in SELECTIONS}
    # not 2 (its first name is its id), 6 (role=main), 8, 11 (<a> is no box), 16 (its class comes first), 19 (its
    # style does), 24 ("hidden" alone names nothing), 26, 41
    assert texts["overall_discard"] == ["1", "3", "4", "5", "7", "9", "10", "12", "13", "27", "28", "42", "42", "42",
                                        "14", "15", "17", "18", "20", "21", "22", "23", "25"]
    assert texts["teasers"] == ["29", "30"] and texts["headers"] == ["31", "32"]
    assert texts["bottoms_and_links"] == ["33", "34", "35", "37"] and texts["captions"] == ["38", "39"]


# boxes, sections and lists each of the first prunes' expressions selects or leaves, by id, class and tag
PRUNABLE = ("<html><body><div id='infinite-scroll'><p>Feed</p></div><section class='x infinitescroll'><h1>T</h1>"
            "</section><aside class='mvp-post-add-box'><h1>T</h1></aside><div class='a elementor-share-buttons'>S</div>"
            "<p class='infinite-scroll'>P</p><div id='comments'><ol class='commentlist'><li>C</li></ol></div>"
            "<ul id='comol'><li>C</li></ul><ol class='comments'><li>C</li></ol><ul id='disqus_thread'><li>C</li></ul>"
            "<div class='commentary'>K</div><div class='post-comments'>X</div><section id='disqus_thread'></section>"
            "<details class='Comment-box'><div id='comment-2'>D</div></details><list id='comment-1'>L</list>"
            "<ul class='x'><li>K</li></ul><div class='x' id='dsq-comments'><div class='comment'>R</div></div>"
            "</body></html>")


@pytest.mark.parametrize(("select", "expressions", "count"), [
    (prunes.ad_boxes, RAW_TREE_PRUNE_XPATH[:1], 2), (prunes.share_buttons, RAW_TREE_PRUNE_XPATH[1:], 1),
    (prunes.comment_sections_and_lists, REMOVE_COMMENTS_AND_LISTS_XPATH, 11),
    (prunes.comment_sections, REMOVE_COMMENTS_XPATH, 8),
])
def test_the_first_prunes_select_what_trafilatura_expressions_select(select: Callable[[Any], list[Any]],
                                                                      expressions: list[Any], count: int) -> None:
    tree = parse(PRUNABLE)
    found = select(tree)  # lxml hands out one object per element while it is held: `==` compares the elements
    assert found == [el for expression in expressions for el in expression(tree)]
    assert len(found) == count


CORPORA = default_corpus("cleaneval").parent


def _prepared(name: str) -> Iterator[tuple[str, Any, Any]]:
    """A corpus's first 80 pages: each its key, its tree as parsed and as trafilatura prepares it (tags converted:
    list, item, head...)."""
    for key, html, url, _ in load_corpus(CORPORA / name, limit=80):
        tree = parse(html)
        if tree is not None:
            yield key, tree, _prepare_tree(tree, trafilatura_options(url, True), url)[0]


@pytest.mark.skipif(not (CORPORA / "cleaneval").is_dir(), reason=f"corpora not found in {CORPORA} (set BARA_CORPORA)")
@pytest.mark.parametrize("name", ["cleaneval", "cleanportaleval", "article-extraction-benchmark"])
def test_the_same_elements_on_real_pages(name: str) -> None:
    """On the page as parsed and as trafilatura hands it to these prunes."""
    found = 0
    for _key, tree, cleaned in _prepared(name):
        for select, expressions in SELECTIONS + FIRST:
            found += len(_same(select, expressions, tree)) + len(_same(select, expressions, cleaned))
    assert found  # the pages hold elements these prunes take


# each test of each of `BODY_XPATH`'s expressions, met and missed, each page with one box that passes (or none)
BODIES = ['<div class="post">a</div>', '<section class="entry">a</section>', '<main itemprop="articleBody">a</main>',
          '<div id="articleContent">a</div>', '<div id="my-article-body">a</div>',
          '<div class="x post_content">a</div>', '<article class="x">a</article>', '<div role="article">a</div>',
          '<div id="story">a</div>', '<div class="cell">a</div>', '<div id="primary-col">a</div>',
          '<div class="FullText">a</div>', '<div class="article x">a</div>', '<div class="x single-content">a</div>',
          '<div id="content">a</div>', '<div class="x content__body">a</div>', '<div id="Main-Content">a</div>',
          '<div class="x Page-Content">a</div>', '<div class="mainbox">a</div>',
          '<section role="main-x">a</section>', '<main>a</main>', '<p class="post">a</p>',
          '<div class="x article">a</div>', '<div class="contents">a</div>', '<div id="xmain">a</div>',
          '<div class="Entry">a</div>', '<div class="posts"><div id="main">a</div><main>b</main></div>']


@pytest.mark.parametrize("box", BODIES)
def test_the_same_body_subtrees_as_the_expressions(box: str) -> None:
    tree = parse(f"<html><body><div>x</div>{box}</body></html>")
    assert tree is not None
    found = [prunes.body_subtree(tree, n) for n in range(len(BODY_XPATH))]
    assert found == [next(iter(expression(tree)), None) for expression in BODY_XPATH]


@pytest.mark.skipif(not (CORPORA / "cleaneval").is_dir(), reason=f"corpora not found in {CORPORA} (set BARA_CORPORA)")
@pytest.mark.parametrize("name", ["cleaneval", "cleanportaleval", "article-extraction-benchmark"])
def test_the_same_body_subtrees_on_real_pages(name: str) -> None:
    found = 0
    for key, _tree, cleaned in _prepared(name):
        for n, expression in enumerate(BODY_XPATH):
            subtree = prunes.body_subtree(cleaned, n)
            assert subtree is next(iter(expression(cleaned)), None), (key, n)
            found += subtree is not None
    assert found
