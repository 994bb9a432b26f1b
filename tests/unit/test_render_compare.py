"""Comparing a page's HTTP result with its rendered result: what counts as a difference, and what not."""

from __future__ import annotations

import pytest

from bara_scrapy.render.compare import PageResult, compare, normalise_text

SEED = "https://news.example.org/"
LINKS = ["https://news.example.org/", "https://news.example.org/world/", "https://news.example.org/2024/05/a-b-c"]
MEDIA = [("image", "https://cdn.example.org/a.jpg"), ("video", "https://cdn.example.org/v.mp4")]


def result(links: list[str] = LINKS, text: str = "One. Two.", media: list[tuple[str, str]] = MEDIA) -> PageResult:
    return PageResult.of(links, text, media, seed=SEED)


RENDERED = result()


@pytest.mark.parametrize(("http", "differences"), [
    (result(), ()),
    # equal after canonicalisation: fragments, tracking parameters, repeats, off-site links, schemes
    (result([*LINKS[:1], "https://news.example.org/world/#top", "https://news.example.org/world/?utm_source=x",
             "https://other.org/", "mailto:desk@news.example.org", LINKS[2]]), ()),
    # whitespace and no-break spaces only
    (result(text="One.\u00a0 Two.\n"), ()),
    # media as a set: the order the two paths collected them in does not matter
    (result(media=MEDIA[::-1]), ()),
    (result(media=[(k, u.replace("https://cdn", "HTTPS://CDN")) for k, u in MEDIA]), ()),
    # the order of child links does matter (BFS admits the first W in order)
    (result([LINKS[0], LINKS[2], LINKS[1]]), ("links",)),
    (result(LINKS[:2]), ("links",)),
    (result([*LINKS, "https://news.example.org/more"]), ("links",)),
    (result(text="One."), ("text",)),
    (result(text="One. Two!"), ("text",)),
    (result(media=MEDIA[:1]), ("media",)),
    (result(media=[("image", MEDIA[1][1]), MEDIA[0]]), ("media",)),  # the same URL as another kind
    (result([], "", []), ("links", "text", "media")),
])
def test_compare(http: PageResult, differences: tuple[str, ...]) -> None:
    outcome = compare(http, RENDERED)
    assert outcome.differences == differences
    assert outcome.equal is (not differences)
    assert set(outcome.detail) == set(differences)


def test_normalise_text_touches_whitespace_only() -> None:
    assert normalise_text("a\u202fb\u2007c\ufeffd") == "a b c d"
    assert normalise_text("Ünïcödé — «quotes»") == "Ünïcödé — «quotes»"
    assert normalise_text("A") != normalise_text("a")
