"""The raw-HTML figures of `scrapy bara-bench --corpus`: what the headline bara adds costs against an article body's
gold, and the site's template measured on a corpus (pages of one site, each given another page of its site as the
parent)."""

from __future__ import annotations

from bara_scrapy.bench.corpus import CORPUS_NAME, corpus_markdown, score_offline, score_same_site
from bara_scrapy.extraction.content import page_content

BLURB = "Our river club has four hundred members and meets every Sunday at the old mill by the weir."


def story(n: int) -> str:
    return " ".join(f"Story {n} paragraph {i}: the otters of stretch {n} were counted at dawn by the volunteers."
                    for i in range(4))


def paragraphs(n: int) -> str:
    return "".join(f"<p>{line}.</p>" for line in story(n).split(". ") if line)


def page(n: int) -> str:
    return (f"<html><head><title>Story {n}</title></head><body><main><article><h1>Story {n}</h1>{paragraphs(n)}"
            f"<p>{BLURB}</p></article></main></body></html>")


def test_a_blurb_every_page_of_the_site_shows_leaves_with_a_parent_of_the_site() -> None:
    pages = [(f"a{n}", page(n), f"http://river.test/s/{n}", f"Story {n}\n{story(n)}") for n in range(3)]
    pages.append(("b0", page(9), "http://other.test/s/9", "a site with one page is not scored"))
    alone = {key: page_content(html, url) for key, html, url, _ in pages}
    assert all(BLURB in content.text for content in alone.values())  # alone, nothing tells it from the story

    figures = score_same_site(pages, alone, use_article=False)

    assert (figures["pages"], figures["sites"], figures["template_lines"]) == (3, 1, 3)
    assert figures["alone"]["precision"] < 0.9 and figures["alone"]["recall"] == 1.0
    assert figures["with_parent"] == {"f1": 1.0, "precision": 1.0, "recall": 1.0}


def test_no_site_with_two_pages_gives_no_figures() -> None:
    pages = [("a", page(1), "http://one.test/", "x"), ("b", page(2), "", "y")]
    assert score_same_site(pages, {key: page_content(html, url) for key, html, url, _ in pages}, False) == {}


def headed(n: int) -> str:
    """A WordPress-like post whose headline trafilatura leaves out (and bara puts back)."""
    return (f"<html><head><title>Otters are back on stretch {n} | River News</title></head><body><nav><a href='/'>"
            f"Home</a></nav><main><article><header><h1 class='entry-title'>Otters are back on stretch {n}</h1>"
            f"<p class='byline'>By Ann Reed</p></header>"
            f"<div class='entry-content'>{paragraphs(n)}</div></article></main></body></html>")


def test_the_article_corpus_reports_its_body_less_the_headline_bara_adds() -> None:
    pages = [(f"p{n}", headed(n), f"http://river.test/news/{n}", story(n)) for n in range(3)]

    figures = score_offline(pages, CORPUS_NAME)

    bara, body = figures["bara"], figures["bara_less_headings"]
    assert bara["recall"] == body["recall"] == 1.0  # the headline is all it leaves out
    assert bara["precision"] < body["precision"] == 1.0
    assert {"f1", "precision", "recall", "ms_per_page"} <= set(figures["trafilatura"])
    table = corpus_markdown({"corpus": CORPUS_NAME, "pages": 3, "scored": "article", "f1": 1.0, "precision": 1.0,
                             "recall": 1.0, "text": bara, "offline": figures})
    assert "less the headings it adds to trafilatura's" in table


def captioned(n: int) -> str:
    """`headed`'s post with a figure whose caption trafilatura leaves out (and the article frame puts back)."""
    figure = (f"<figure><img src='/otter{n}.jpg' alt=''><figcaption>An otter on the weir at stretch {n}, photographed "
              "from the footbridge at dawn</figcaption></figure>")
    return headed(n).replace("<div class='entry-content'>", f"<div class='entry-content'>{figure}")


def test_the_article_corpus_reports_its_body_less_the_headline_and_captions_bara_adds() -> None:
    pages = [(f"p{n}", captioned(n), f"http://river.test/news/{n}", story(n)) for n in range(3)]

    figures = score_offline(pages, CORPUS_NAME)

    bara, body, bare = figures["bara"], figures["bara_less_headings"], figures["bara_less_added"]
    assert bara["precision"] < body["precision"] < bare["precision"] == 1.0, (bara, body, bare)
    assert bare["recall"] == 1.0
    table = corpus_markdown({"corpus": CORPUS_NAME, "pages": 3, "scored": "article", "f1": 1.0, "precision": 1.0,
                             "recall": 1.0, "text": bara, "offline": figures})
    assert "less the headings and the figure captions it adds" in table


def test_other_corpora_count_the_headline_as_their_gold_does() -> None:
    pages = [(f"p{n}", headed(n), f"http://river.test/news/{n}", story(n)) for n in range(2)]
    figures = score_offline(pages, "cleanportaleval")
    assert "bara_less_headings" not in figures and "bara_less_added" not in figures
