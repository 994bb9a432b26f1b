"""Escalation signals on small documents of each kind, and server-rendered pages that must not escalate."""

from __future__ import annotations

import pytest

from bara_scrapy.extraction.static import snapshot_from_html
from bara_scrapy.render.signals import REASONS, Reference, signals

URL = "https://www.example.org/news/2024/05/a-story"
PROSE = "<p>" + " ".join(["The council met on Tuesday and voted on the budget for the coming year."] * 6) + "</p>"


def page(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>T</title>{head}</head><body>{body}</body></html>"


def reasons(html: str, **kwargs: object) -> tuple[str, ...]:
    return signals(html, snapshot_from_html(URL, URL, 200, html), **kwargs)  # type: ignore[arg-type]


ESCALATE = {
    "app_mount": page('<div id="__next"></div><script src="/_next/static/chunks/main.js"></script>' + PROSE),
    "app_mount/vue": page('<div data-v-app=""></div>' + PROSE + '<script src="/app.js"></script>'),
    "script_container": page(PROSE + '<section id="comments-7"></section>'
                             '<script>fill(document.getElementById("comments-7"));</script>'),
    "noscript_js": page(PROSE + "<noscript>You need to enable JavaScript to run this app.</noscript>"),
    "noscript_js/de": page(PROSE + "<noscript>Bitte JavaScript aktivieren.</noscript>"),
    "thin_text": page("<main><h1>Loading…</h1></main><script src='/bundle.js'></script>"),
    "lazy_placeholder": page(PROSE + '<img class="lazyload" src="data:image/gif;base64,R0lGOD" alt="x">'),
    "script_video": page(PROSE + '<video id="player" controls></video><script src="/player.js"></script>'),
    "script_video/blob": page(PROSE + '<video src="blob:https://www.example.org/4f1c"></video>'),
    "stream_video": page(PROSE + '<video controls><source src="/v/master.m3u8" type="application/x-mpegURL">'
                         "</video>"),
    "feed_sentinel": page(PROSE + '<div class="feed"></div><div class="scroll-sentinel">Loading…</div>'),
    "load_more": page(PROSE + '<ul><li><a href="/a">A</a></li></ul><button type="button">Load more</button>'),
    "load_more/fr": page(PROSE + '<a href="#" class="btn">Voir plus</a>'),
    "empty_panel": page(PROSE + '<button role="tab" aria-controls="specs">Specs</button><div id="specs"></div>'),
    "infinite_scroll": page(PROSE + '<script src="/js/infinite-scroll.pkgd.min.js"></script>'),
}
# an IntersectionObserver that only swaps `data-src` into `src`: the HTTP path reads `data-src` itself
LAZY_LOADER = page(PROSE + '<img data-src="/a.jpg" src="/a-small.jpg"><script>const io = new IntersectionObserver('
                   "(es) => es.forEach((e) => { e.target.src = e.target.dataset.src; }));"
                   " document.querySelectorAll('img[data-src]').forEach((i) => io.observe(i));</script>")


@pytest.mark.parametrize("case", sorted(ESCALATE))
def test_each_kind_escalates_for_its_reason(case: str) -> None:
    assert case.split("/")[0] in reasons(ESCALATE[case])


WORDPRESS = page(
    '<header><nav><ul><li><a href="/">Home</a></li><li><a href="/news/">News</a></li></ul></nav></header>'
    '<main><article class="post type-post"><h1 class="entry-title">Budget approved</h1>'
    f'<div class="entry-content">{PROSE}<figure class="wp-block-image"><img loading="lazy" decoding="async" '
    'src="/wp-content/uploads/2024/05/hall.jpg" srcset="/wp-content/uploads/2024/05/hall-300x200.jpg 300w, '
    '/wp-content/uploads/2024/05/hall.jpg 1024w" alt="The hall"></figure>'
    '<img class="lazyload" data-src="/wp-content/uploads/2024/05/vote.jpg" '
    'src="data:image/svg+xml,%3Csvg%3E" alt="The vote"><noscript><img src="/wp-content/uploads/2024/05/vote.jpg">'
    "</noscript></div></article>"
    '<div id="respond" class="comment-respond"><form id="commentform"><textarea name="comment"></textarea>'
    '<input type="submit" value="Post Comment"></form></div><div class="clear"></div></main>'
    "<footer><p>© 2024 Example</p></footer>",
    head="<script src='/wp-includes/js/jquery/jquery.min.js'></script>"
         "<script>jQuery(function($){ $('.menu-toggle').on('click', function(){ $('#site-nav').toggle(); }); });"
         "</script><script type='application/ld+json'>{\"@type\": \"NewsArticle\"}</script>",
)
DOCS = page(
    '<div class="sphinxsidebar"><ul><li><a href="/docs/intro.html">Intro</a></li>'
    '<li><a href="/docs/api.html">API</a></li></ul><div id="searchbox" style="display: none" role="search">'
    '<input type="text" name="q"></div></div><div class="body" role="main"><h1>Installation</h1>'
    f'{PROSE}<pre><code>pip install example</code></pre><details><summary>Windows</summary>'
    f"<p>{PROSE}</p></details></div>"
    '<script src="/_static/documentation_options.js"></script><script src="/_static/searchtools.js"></script>'
    "<script>document.getElementById('searchbox').style.display = 'block';</script>"
)
LISTING = page(
    '<h1>Products</h1><ul class="products">'
    + "".join(f'<li class="product"><a href="/p/item-{i}"><img src="/img/{i}.jpg" alt="Item {i}" loading="lazy">'
              f"<h2>Item {i}</h2></a><span class=\"price\">€{i}.00</span><p>{PROSE}</p></li>" for i in range(12))
    + '</ul><nav class="pagination"><a href="?page=1">1</a> <a href="?page=2">2</a> <a href="?page=2">Next</a>'
    "</nav><script src='/js/shop.js'></script><script>window.dataLayer = window.dataLayer || [];</script>"
)
STATIC = {"wordpress article": WORDPRESS, "docs page": DOCS, "listing": LISTING, "lazy loader": LAZY_LOADER}


@pytest.mark.parametrize("name", sorted(STATIC))
def test_server_rendered_pages_do_not_escalate(name: str) -> None:
    assert reasons(STATIC[name]) == ()


def test_below_the_pattern_compares_text_with_the_rendered_pages() -> None:
    ref = Reference(text_chars=4000, links=30)
    assert reasons(WORDPRESS, text_chars=3000, links=28, reference=ref) == ()
    assert reasons(WORDPRESS, text_chars=1500, links=28, reference=ref) == ("below_pattern",)
    # a pattern's pages differ in their links (the last page of a list, a leaf): no evidence alone
    assert reasons(WORDPRESS, text_chars=3000, links=0, reference=ref) == ()
    assert reasons(WORDPRESS, text_chars=10, links=1) == ()  # no rendered page of the pattern yet


def test_nothing_to_read_is_no_evidence() -> None:
    assert reasons("") == () and reasons("   ") == ()


def test_reasons_are_named_in_order() -> None:
    found = reasons(page('<div id="root"></div><button>Show more</button>'))
    assert found == tuple(r for r in REASONS if r in found) and "load_more" in found
