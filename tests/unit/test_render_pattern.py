"""URL patterns: real-looking URLs of news, shops, docs, archives and apps, and what they collapse to."""

from __future__ import annotations

import pytest

from bara_scrapy.render.pattern import url_pattern

CASES = [
    # news: dated paths and long slugs
    ("https://www.nytimes.com/2024/05/17/us/politics/budget-vote-senate.html",
     "nytimes.com/{n}/{n}/{n}/us/politics/{slug}.html"),
    ("https://www.bbc.co.uk/news/world-europe-68912345", "bbc.co.uk/news/{slug}"),
    ("https://example-news.org/2023-11-02/mayor-resigns/", "example-news.org/{date}/{slug}/"),
    # numeric ids
    ("https://news.ycombinator.com/item?id=38921456", "news.ycombinator.com/item?id"),
    ("https://forum.example.org/t/4412/17", "forum.example.org/t/{n}/{n}"),
    ("https://shop.example.com/products/p12345", "shop.example.com/products/{id}"),
    # hex ids and UUIDs
    ("https://app.example.com/doc/3f2a9c1e-77b4-4c1d-9a0e-12ab34cd56ef", "app.example.com/doc/{hex}"),
    ("https://github.com/scrapy/scrapy/commit/5a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
     "github.com/scrapy/scrapy/commit/{hex}"),
    # slugs, with and without numbers
    ("https://www.uni-example.edu/faculty/jane-q-public", "uni-example.edu/faculty/{slug}"),
    ("https://docs.example.org/guide/chapter-12", "docs.example.org/guide/{slug}"),
    # short literal section names stay literal: they name a template, not a record
    ("https://www.uni-example.edu/about-us", "uni-example.edu/about-us"),
    ("https://docs.python.org/3/library/asyncio.html", "docs.python.org/{n}/library/asyncio.html"),
    ("https://docs.example.org/v2/Install", "docs.example.org/v2/install"),
    # file extensions are kept
    ("https://archive.example.org/files/annual-report-2023.pdf", "archive.example.org/files/{slug}.pdf"),
    ("https://archive.example.org/scans/0042.tif", "archive.example.org/scans/{n}.tif"),
    # query: keys kept (they pick the template), values and tracking parameters dropped
    ("https://blog.example.org/?p=123", "blog.example.org/?p"),
    ("https://blog.example.org/?cat=7&utm_source=feed", "blog.example.org/?cat"),
    ("https://shop.example.com/search?q=shoes&page=2", "shop.example.com/search?page&q"),
    # the host: case and www. do not matter, the port does (another port is another site)
    ("HTTP://WWW.Example.ORG/", "example.org/"),
    ("http://127.0.0.1:8081/post/quiet-river-12", "127.0.0.1:8081/post/{slug}"),
]


@pytest.mark.parametrize(("url", "pattern"), CASES)
def test_url_pattern(url: str, pattern: str) -> None:
    assert url_pattern(url) == pattern


def test_pages_of_one_template_share_a_pattern_and_other_templates_do_not() -> None:
    posts = {url_pattern(f"https://a.org/blog/{y}/{m:02d}/{slug}") for y, m, slug in
             [(2021, 3, "first-light-at-dawn"), (2024, 11, "why-we-moved-to-rust"), (2019, 1, "hello-world-2")]}
    assert posts == {"a.org/blog/{n}/{n}/{slug}"}
    assert url_pattern("https://a.org/blog/") != url_pattern("https://a.org/blog/2021/03/first-light-at-dawn")
    assert url_pattern("https://a.org/tag/rust") != url_pattern("https://a.org/blog/rust")
