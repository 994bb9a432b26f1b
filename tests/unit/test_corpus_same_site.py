"""The site's template measured on a corpus: pages of one site, each given another page of its site as the parent."""

from __future__ import annotations

from bara_scrapy.bench.corpus import score_same_site
from bara_scrapy.extraction.content import page_content

BLURB = "Our river club has four hundred members and meets every Sunday at the old mill by the weir."


def story(n: int) -> str:
    return " ".join(f"Story {n} paragraph {i}: the otters of stretch {n} were counted at dawn by the volunteers."
                    for i in range(4))


def page(n: int) -> str:
    body = "".join(f"<p>{line}.</p>" for line in story(n).split(". ") if line)
    return (f"<html><head><title>Story {n}</title></head><body><main><article><h1>Story {n}</h1>{body}"
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
