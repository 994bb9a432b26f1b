"""The raw-HTML rows of `scrapy bara-bench --corpus`: trafilatura and bara in the same run, and what the headline
bara adds costs against an article corpus whose gold is the body alone."""

from __future__ import annotations

from bara_scrapy.bench.corpus import CORPUS_NAME, corpus_markdown, score_offline


def story(n: int) -> str:
    return " ".join(f"The otters of stretch {n} were counted at dawn by volunteer number {i} of the club."
                    for i in range(6))


def page(n: int) -> str:
    body = "".join(f"<p>{line}.</p>" for line in story(n).split(". ") if line)
    return (f"<html><head><title>Otters are back on stretch {n} | River News</title></head><body>"
            f"<nav><a href='/'>Home</a> <a href='/news'>News</a></nav><main><article><header>"
            f"<h1 class='entry-title'>Otters are back on stretch {n}</h1><p class='byline'>By Ann Reed</p></header>"
            f"<div class='entry-content'>{body}</div></article></main></body></html>")


def test_the_article_corpus_reports_its_body_less_the_headline_bara_adds() -> None:
    pages = [(f"p{n}", page(n), f"http://river.test/news/{n}", story(n)) for n in range(3)]

    figures = score_offline(pages, CORPUS_NAME)

    bara, body = figures["bara"], figures["bara_less_headings"]
    assert bara["recall"] == body["recall"] == 1.0  # the headline is all it leaves out
    assert bara["precision"] < body["precision"] == 1.0
    assert {"f1", "precision", "recall", "ms_per_page"} <= set(figures["trafilatura"])
    table = corpus_markdown({"corpus": CORPUS_NAME, "pages": 3, "scored": "article", "f1": 1.0, "precision": 1.0,
                             "recall": 1.0, "text": bara, "offline": figures})
    assert "less the headings it adds to trafilatura's" in table


def test_other_corpora_count_the_headline_as_their_gold_does() -> None:
    pages = [(f"p{n}", page(n), f"http://river.test/news/{n}", story(n)) for n in range(2)]
    assert "bara_less_headings" not in score_offline(pages, "cleanportaleval")
