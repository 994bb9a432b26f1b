"""Fixture pages that a naive first attempt gets wrong and a rewritten attempt recovers.

"Naive" means the default `Instructions` (12 viewport steps, 250 ms pauses,
500 ms settle, no clicks on page controls, at most one overlay-dismissal pass).
Every page uses inline JS only; images are real bytes served by the same site.

========================  =============================================  ==========================
path                      what defeats the naive attempt                 what recovers it
========================  =============================================  ==========================
``/delayed``              main text + image inserted by setTimeout(6 s)   wait_for_selector / settle
                          (``/delayed?after=MS`` moves the timer)
``/load-more``            3 images only after clicking "Load more" twice  click handle, 2 rounds
``/long-feed``            IntersectionObserver feed, ~30 viewport steps   more scroll steps (36)
``/overlay``              cookie banner, then a newsletter modal that     click the modal's close
                          locks scrolling; lazy images below the fold     handle, then scroll
``/tabs``                 gallery in a hidden tab panel, filled on click  click the tab handle
``/ok``                   nothing                                         --
``/flaky-503``            503 for the first 2 hits, then 200              retry (3 attempts)
``/slow-once``            first hit blocks until `slow_release` is set    retry after the timeout
========================  =============================================  ==========================

`/robots.txt` disallows `/forbidden` (for `robots_forbidden`). `/` links to
the six content pages (not to the two fault pages, whose hit counters tests
assert).

How to use the fault pages:

- ``/flaky-503``: switch Scrapy's RetryMiddleware off for it (or drop 503
  from ``RETRY_HTTP_CODES``) so reflection does the retrying; with
  ``max_attempts=3`` the item is ``ok`` after exactly 3 attempts and
  ``server.hits["/flaky-503"] == 3``; with ``max_attempts=2`` it is
  ``failed`` with "http_error after 2 attempts: HTTP 503".
- ``/slow-once``: the first request blocks (no sleep: it waits on
  ``site.slow_release``) until the test sets the event. Give the crawl a
  short navigation timeout/page deadline (e.g. 2 s); the first attempt ends
  in ``timeout``, the second hit is served at once and the item is ``ok``
  after 2 attempts. Set ``site.slow_release`` once the first attempt has
  timed out, and in teardown in any case, so the blocked server thread ends.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from .media import media_bytes
from .server import RequestInfo, Route, Site

FEED_ITEMS = 30
DELAY_MS = 6000  # /delayed fills its main text after this long (beyond the page step's 4 s timer wait)
CONTENT_PAGES = ("/delayed", "/load-more", "/long-feed", "/overlay", "/tabs", "/ok")
LOAD_MORE_BATCHES = (("more-1.png", "more-2.jpeg"), ("more-3.webp",))


@dataclass(frozen=True)
class Expected:
    """What a page yields once recovered, and what a naive attempt sees (for assertions)."""

    images: tuple[str, ...]  # image paths of the recovered attempt, in page order
    key_sentence: str  # a sentence of the recovered main text
    first_kinds: tuple[str, ...]  # `diagnose` of the naive first attempt
    recovery: str  # the instruction change that recovers it
    attempts: int  # attempts until "ok" with the rule-based rewrite
    naive_loaded: tuple[str, ...] = ()  # images the browser loads in the naive attempt
    sentence_hidden_at_first: bool = True  # key sentence absent from the naive attempt's text


def _m(name: str) -> str:
    return f"/media/{name}"


FEED_IMAGES = tuple(_m(f"feed-{i:02d}.png") for i in range(1, FEED_ITEMS + 1))
REFLECTION_EXPECTED: dict[str, Expected] = {
    "/delayed": Expected(
        images=(_m("delayed-1.webp"),),
        key_sentence="The delayed article finally arrived after three seconds.",
        first_kinds=("empty_text",),
        recovery="wait_for_selector + settle_ms",
        attempts=2,
    ),
    "/load-more": Expected(
        images=(_m("more-1.png"), _m("more-2.jpeg"), _m("more-3.webp")),
        key_sentence="That is every photo in this album.",
        first_kinds=("missing_media",),
        recovery="click_handles=[load-more button], click_rounds=2",
        attempts=2,
    ),
    "/long-feed": Expected(
        images=FEED_IMAGES,
        key_sentence="You have reached the end of the feed.",
        first_kinds=("missing_media",),
        recovery="scroll_steps 12 -> 36",
        attempts=2,
        naive_loaded=FEED_IMAGES[:14],  # about one post per 0.9-viewport step (approximate)
    ),
    "/overlay": Expected(
        images=(_m("overlay-1.png"), _m("overlay-2.gif"), _m("overlay-3.jpeg")),
        key_sentence="Harbour lights reflect on the quiet water every evening.",
        first_kinds=("missing_media",),
        recovery="click_handles=[newsletter close button]",
        attempts=2,
        sentence_hidden_at_first=False,
    ),
    "/tabs": Expected(
        images=(_m("tab-intro.png"), _m("tab-gallery-1.jpeg"), _m("tab-gallery-2.png")),
        key_sentence="The gallery shows the bridge at dawn and at dusk.",
        first_kinds=("missing_media",),
        recovery="click_handles=[gallery tab]",
        attempts=2,
        naive_loaded=(_m("tab-intro.png"),),
    ),
    "/ok": Expected(
        images=(_m("ok-1.png"), _m("ok-2.gif")),
        key_sentence="This page has everything on the first attempt.",
        first_kinds=(),
        recovery="",
        attempts=1,
        naive_loaded=(_m("ok-1.png"), _m("ok-2.gif")),
        sentence_hidden_at_first=False,
    ),
    "/flaky-503": Expected(
        images=(_m("flaky-1.png"),),
        key_sentence="The service recovered on the third request.",
        first_kinds=("http_error",),
        recovery="retry (settle_ms escalates so plans differ)",
        attempts=3,
    ),
    "/slow-once": Expected(
        images=(_m("slow-1.jpeg"),),
        key_sentence="The second request was answered at once.",
        first_kinds=("timeout",),
        recovery="retry (settle_ms escalates so plans differ)",
        attempts=2,
    ),
}

_STYLE = "body{font-family:sans-serif;margin:0;padding:0 16px}img{display:block;width:320px;height:240px}"


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"<style>{_STYLE}</style></head><body>{body}</body></html>"
    )


def _filler(n: int, topic: str) -> str:
    return "".join(
        f"<p>Paragraph {i} about {topic}: a calm description that fills the page so it scrolls.</p>"
        for i in range(1, n + 1)
    )


_E = REFLECTION_EXPECTED


def delayed_page(after_ms: int = DELAY_MS) -> str:
    return _page(
        "Delayed article",
        "<main id='content'></main><script>setTimeout(function () {"
        " var m = document.getElementById('content');"
        f" m.innerHTML = '<h1>Delayed article</h1><p>{_E['/delayed'].key_sentence}</p>'"
        " + '<img alt=\"delayed\" src=\"/media/' + 'delayed-1.webp\">'; }"
        f", {after_ms});</script>",
    )


def _delayed_handler(info: RequestInfo) -> Route:
    """`/delayed?after=MS` moves the timer (0..60000 ms; default 6000), e.g. for tests on a busy machine."""
    raw = parse_qs(urlsplit(info.path).query).get("after", [""])[0]
    after = min(max(int(raw), 0), 60000) if raw.isdigit() else DELAY_MS
    return Route(delayed_page(after))


LOAD_MORE = _page(
    "Album",
    "<main><h1>Album</h1><p>Photos from the spring walk, loaded in batches.</p><div id='photos'></div>"
    "<button id='load-more' type='button'>Load more</button></main><script>"
    f"var batches = {[list(b) for b in LOAD_MORE_BATCHES]!r}; var next = 0;"
    "document.getElementById('load-more').addEventListener('click', function () {"
    " var box = document.getElementById('photos');"
    " batches[next].forEach(function (n) { var i = document.createElement('img');"
    "  i.alt = 'album photo'; i.src = '/media/' + n; box.appendChild(i); });"
    " next += 1; if (next >= batches.length) { this.remove(); var p = document.createElement('p');"
    f"  p.textContent = '{_E['/load-more'].key_sentence}'; box.appendChild(p); }} }});</script>",
)

LONG_FEED = _page(
    "Feed",
    "<main><h1>Feed</h1><p>Scroll for more posts.</p><div id='feed'></div>"
    "<div id='feed-sentinel' style='height:20px'></div></main><script>"
    f"var total = {FEED_ITEMS}, n = 0, feed = document.getElementById('feed');"
    "var sentinel = document.getElementById('feed-sentinel');"
    "var io = new IntersectionObserver(function (entries) {"
    " if (!entries.some(function (e) { return e.isIntersecting; }) || n >= total) return;"
    " n += 1; var d = document.createElement('article'); d.style.cssText = 'height:80vh;margin:0;display:flow-root';"
    " var name = 'feed-' + (n < 10 ? '0' : '') + n + '.png';"
    " d.innerHTML = '<p>Post ' + n + ' of the feed.</p><img alt=\"post\" src=\"/media/' + name + '\">';"
    " feed.appendChild(d);"
    " if (n >= total) { io.disconnect(); sentinel.remove(); var e = document.createElement('p');"
    f"  e.textContent = '{_E['/long-feed'].key_sentence}'; feed.appendChild(e); return; }}"
    # observe afresh: a fresh observation reports the sentinel again if it is still in view
    " io.unobserve(sentinel); io.observe(sentinel);"
    "}); io.observe(sentinel);</script>",
)

_MODAL = "position:fixed;inset:0;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center"
OVERLAY = _page(
    "Harbour",
    "<main><h1>Harbour</h1>"
    f"<p>{_E['/overlay'].key_sentence}</p>{_filler(40, 'the harbour')}"
    + "".join(
        f"<img class='lazy' alt='harbour {i}' data-src='{src}'>" for i, src in enumerate(_E["/overlay"].images, start=1)
    )
    + "</main>"
    f"<div id='cookie-consent' role='dialog' aria-modal='true' style='{_MODAL}'>"
    "<div style='background:#fff;padding:24px'><p>We use cookies.</p>"
    "<button id='consent-accept' type='button'>Accept all</button></div></div><script>"
    # scroll lock as modal libraries do it: a fixed body cannot be scrolled, not even by script
    "var lock = 'position:fixed;top:0;left:0;right:0;overflow:hidden';"
    "function unlock() { document.body.style.cssText = ''; }"
    "document.body.style.cssText = lock;"
    "document.getElementById('consent-accept').addEventListener('click', function () {"
    " document.getElementById('cookie-consent').remove();"
    # a second modal replaces the first one: a single dismissal pass leaves the page locked
    " var m = document.createElement('div'); m.id = 'newsletter-modal'; m.setAttribute('role', 'dialog');"
    f" m.setAttribute('aria-modal', 'true'); m.style.cssText = '{_MODAL}';"
    " m.innerHTML = '<div style=\"background:#fff;padding:24px\"><p>Join our newsletter.</p>'"
    '  + \'<button id="newsletter-close" type="button">Close</button></div>\';'
    " document.body.appendChild(m);"
    " document.getElementById('newsletter-close').addEventListener('click', function () {"
    "  m.remove(); unlock(); }); });"
    "var io = new IntersectionObserver(function (entries) { entries.forEach(function (e) {"
    " if (e.isIntersecting) { e.target.src = e.target.dataset.src; io.unobserve(e.target); } }); });"
    "document.querySelectorAll('img.lazy').forEach(function (i) { io.observe(i); });</script>",
)

TABS = _page(
    "Bridge",
    "<main><h1>Bridge</h1><p>An old stone bridge over the river.</p>"
    "<img alt='bridge' src='/media/tab-intro.png'>"
    "<div role='tablist'>"
    "<button role='tab' id='tab-summary' aria-selected='true' aria-controls='panel-summary'>Summary</button>"
    "<button role='tab' id='tab-gallery' aria-selected='false' aria-controls='panel-gallery'>Gallery</button>"
    "</div><section id='panel-summary' role='tabpanel'><p>Built in stone, repaired twice.</p></section>"
    "<section id='panel-gallery' role='tabpanel' hidden></section></main><script>"
    "var filled = false;"
    "function show(which) {"
    " ['summary', 'gallery'].forEach(function (k) {"
    "  document.getElementById('tab-' + k).setAttribute('aria-selected', String(k === which));"
    "  document.getElementById('panel-' + k).hidden = k !== which; });"
    " if (which === 'gallery' && !filled) { filled = true;"
    f"  document.getElementById('panel-gallery').innerHTML = '<p>{_E['/tabs'].key_sentence}</p>'"
    "   + '<img alt=\"dawn\" src=\"/media/' + 'tab-gallery-1.jpeg\">'"
    "   + '<img alt=\"dusk\" src=\"/media/' + 'tab-gallery-2.png\">'; } }"
    "document.getElementById('tab-summary').addEventListener('click', function () { show('summary'); });"
    "document.getElementById('tab-gallery').addEventListener('click', function () { show('gallery'); });"
    "</script>",
)

OK_PAGE = _page(
    "Everything here",
    f"<main><h1>Everything here</h1><p>{_E['/ok'].key_sentence}</p>"
    "<img alt='one' src='/media/ok-1.png'><img alt='two' src='/media/ok-2.gif'></main>",
)

INDEX = _page(
    "Reflection fixtures",
    "<main><h1>Reflection fixtures</h1><p>Pages that need a second, better attempt.</p><ul>"
    + "".join(f"<li><a href='{p}'>{p}</a></li>" for p in CONTENT_PAGES)
    + "</ul></main>",
)


def _simple(title: str, sentence: str, image: str) -> str:
    return _page(title, f"<main><h1>{title}</h1><p>{sentence}</p><img alt='{title}' src='{image}'></main>")


@dataclass
class ReflectionSite(Site):
    """A `Site` plus the event that releases the first `/slow-once` request."""

    slow_release: threading.Event = field(default_factory=threading.Event)


def build_reflection_site(slow_release: threading.Event | None = None) -> ReflectionSite:
    """The reflection fixture site (see the module docstring for the pages and their use).

    >>> site = build_reflection_site()
    >>> sorted(p for p in REFLECTION_EXPECTED if p not in site.routes)
    []
    >>> all(i in site.routes for e in REFLECTION_EXPECTED.values() for i in e.images)
    True
    """
    site = ReflectionSite(slow_release=slow_release or threading.Event())
    for path, body in (
        ("/", INDEX),
        ("/load-more", LOAD_MORE),
        ("/long-feed", LONG_FEED),
        ("/overlay", OVERLAY),
        ("/tabs", TABS),
        ("/ok", OK_PAGE),
        ("/forbidden", _page("Forbidden", "<main><p>Robots say no.</p></main>")),
    ):
        site.add(path, body)
    site.add("/delayed", handler=_delayed_handler)
    site.add("/robots.txt", "User-agent: *\nDisallow: /forbidden\n", content_type="text/plain")
    flaky = _simple("Flaky service", _E["/flaky-503"].key_sentence, _m("flaky-1.png"))
    unavailable = Route(_page("Unavailable", "<h1>Service temporarily unavailable</h1>"), status=503)

    def flaky_handler(info: RequestInfo) -> Route:
        return unavailable if info.hits <= 2 else Route(flaky)

    site.add("/flaky-503", handler=flaky_handler)
    slow = _simple("Slow once", _E["/slow-once"].key_sentence, _m("slow-1.jpeg"))

    def slow_handler(info: RequestInfo) -> Route:
        return Route(slow, delay_event=site.slow_release) if info.hits == 1 else Route(slow)

    site.add("/slow-once", handler=slow_handler)
    for expected in REFLECTION_EXPECTED.values():
        for path in expected.images:
            name = path.rsplit("/", 1)[1]
            data, ctype = media_bytes(name.rsplit(".", 1)[1], seed=name)
            site.add(path, data, content_type=ctype)
    return site
