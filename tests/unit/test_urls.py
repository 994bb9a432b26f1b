"""URL rules: canonical form, deny list, scope, link width (tables and hypothesis properties)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bara_scrapy.links import select_links
from bara_scrapy.urls import DenyPolicy, canonicalize, in_scope, is_http_url

# --------------------------------------------------------------------------- canonicalize


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        # tracking parameters
        ("http://a.org/x?utm_source=n&utm_medium=m&utm_campaign=c&id=3", "http://a.org/x?id=3"),
        ("http://a.org/x?UTM_Source=n&id=3", "http://a.org/x?id=3"),
        ("http://a.org/x?fbclid=abc", "http://a.org/x"),
        ("http://a.org/x?gclid=1&msclkid=2&mc_cid=3&mc_eid=4&_ga=5&yclid=6", "http://a.org/x"),
        ("http://a.org/x?pk_campaign=a&mtm_source=b&k=v", "http://a.org/x?k=v"),
        ("http://a.org/p;jsessionid=ABC123?x=1", "http://a.org/p?x=1"),
        ("http://a.org/x?source=feed&utm=1", "http://a.org/x?source=feed&utm=1"),  # not tracking names
        # fragments
        ("http://a.org/x#section", "http://a.org/x"),
        ("http://a.org/x?b=1#frag?c=2", "http://a.org/x?b=1"),
        ("http://a.org/#", "http://a.org/"),
        # default ports
        ("http://a.org:80/x", "http://a.org/x"),
        ("https://a.org:443/x", "https://a.org/x"),
        ("http://a.org:443/x", "http://a.org:443/x"),
        ("https://a.org:80/x", "https://a.org:80/x"),
        ("http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"),
        # case: scheme and host lower, path and query kept
        ("HTTP://A.ORG/Path/File?Q=V", "http://a.org/Path/File?Q=V"),
        ("HtTpS://WWW.Example.COM/", "https://www.example.com/"),
        # query order, empty query, trailing ?
        ("http://a.org/x?b=2&a=1&c=0", "http://a.org/x?a=1&b=2&c=0"),
        ("http://a.org/x?a=2&a=1", "http://a.org/x?a=1&a=2"),
        ("http://a.org/x?", "http://a.org/x"),
        ("http://a.org/x?utm_source=only", "http://a.org/x"),
        ("http://a.org/x?q=", "http://a.org/x?q="),
        # IDN, empty path, trailing dot, percent-encoding
        ("http://Bücher.example/a", "http://xn--bcher-kva.example/a"),
        ("http://xn--bcher-kva.example/a", "http://xn--bcher-kva.example/a"),
        ("http://a.org", "http://a.org/"),
        ("http://a.org./x", "http://a.org/x"),
        ("http://a.org/ä", "http://a.org/%C3%A4"),
        ("http://a.org/a%20b", "http://a.org/a%20b"),
        ("  http://a.org/x  ", "http://a.org/x"),
    ],
)
def test_canonicalize(raw: str, canonical: str) -> None:
    assert canonicalize(raw) == canonical
    assert canonicalize(canonical) == canonical


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://a.org/", True), ("HTTP://a.org", True), ("mailto:x@a.org", False), ("javascript:void(0)", False),
        ("ftp://a.org/f", False), ("tel:+1", False), ("/relative", False), ("http://", False), ("data:,x", False),
    ],
)
def test_is_http_url(url: str, ok: bool) -> None:
    assert is_http_url(url) is ok


# --------------------------------------------------------------------------- deny list

DENIED = [
    "/login", "/log-in", "/logout", "/signin", "/sign-in/", "/signup", "/sign-up?next=/", "/register",
    "/user/registration", "/account", "/my-account/orders", "/cart", "/basket/", "/checkout/step-2",
    "/admin", "/wp-admin/edit.php", "/wp-login.php", "/auth/callback", "/oauth2/authorize", "/sso",
    "/reset-password", "/forgot-password", "/password", "/feed", "/blog/feed/", "/rss", "/atom",
    "/share", "/sharer.php?u=x", "/intent/tweet?text=x", "/unsubscribe", "/print", "/login.html",
    "/x?action=login", "/x?do=logout&y=1", "/post?share=twitter", "/files/report.pdf", "/a.ZIP",
    "/img/photo.jpg", "/video.mp4?x=1", "/data.json", "/style.css", "/app.js", "/LOGIN",
]
ALLOWED = [
    "/", "/blog/login-tips", "/blog/how-to-register-a-domain", "/accounting", "/accountability/report",
    "/cartography", "/carts-and-horses", "/feedback", "/feeds-and-speeds-explained", "/printing-press",
    "/administration-history", "/authors/jane", "/shared-values", "/page.html", "/index.php",
    "/search?q=login", "/x?action=view", "/docs/password-policy-guide", "/catalog", "/p/3",
    "/pdf-guide", "/news/2024/report",
]


@pytest.mark.parametrize("path", DENIED)
def test_deny_list_true_positives(path: str) -> None:
    assert DenyPolicy().is_denied("https://a.org" + path)


@pytest.mark.parametrize("path", ALLOWED)
def test_deny_list_false_positives(path: str) -> None:
    assert not DenyPolicy().is_denied("https://a.org" + path)


# One row per rule the README documents (the `BARA_DENY` row): paths and query-string variants.
DOCUMENTED_RULES = {
    "login": ["/login", "/log-in/", "/x?action=login", "/wp-login.php"],
    "logout": ["/logout", "/x?do=logout&y=1"],
    "sign-in": ["/sign-in", "/signin?next=/", "/x?mode=signin"],
    "sign-up": ["/signup", "/user/sign-up", "/x?action=sign-up"],
    "register": ["/register", "/user/registration", "/x?action=register"],
    "account": ["/account", "/my-account/orders"],
    "cart": ["/cart", "/basket/"],
    "checkout": ["/checkout/step-2"],
    "admin": ["/admin", "/wp-admin/edit.php"],
    "auth": ["/auth/callback"],
    "oauth": ["/oauth2/authorize"],
    "sso": ["/sso"],
    "password reset": ["/reset-password", "/forgot-password", "/lost-password"],
    "feeds": ["/feed", "/blog/feed/", "/rss", "/atom", "/?feed=rss2"],
    "share intents": ["/share", "/sharer.php?u=x", "/intent/tweet?text=x", "/post?share=twitter"],
    "print": ["/print", "/t/5/print/", "/t/5?view=print", "/t/5?print=1", "/t/5?format=print",
              "/t/5?page=2&print", "/t/5?printable=true", "/t/5?output=printable&page=2", "/t/5?layout=printer"],
    "non-HTML file extensions": ["/files/report.pdf", "/a.ZIP", "/img/photo.jpg", "/data.json"],
    "wiki edit": ["/index.php?title=Mill_Lock&action=edit", "/index.php?title=Voss&action=edit&redlink=1",
                  "/doku.php?id=start&do=edit"],
    "history": ["/index.php?title=Mill_Lock&action=history", "/w/index.php?title=Mill_Lock&oldid=42",
                "/index.php?title=Mill_Lock&diff=43&oldid=42", "/doku.php?id=start&do=revisions"],
    "special pages": ["/index.php/Special:RecentChanges", "/wiki/Special:WhatLinksHere/Mill_Lock",
                      "/index.php?title=Special:UserLogin&returnto=Mill_Lock"],
}
NOT_PRINT = ["/t/5?view=list", "/t/5?format=json", "/search?q=print", "/blueprint", "/t/5?print_id=4",
             "/t/5?sprint=1", "/printing-press", "/t/5?view=printing-history"]
NOT_WIKI = ["/index.php?title=Mill_Lock", "/index.php/Mill_Lock", "/wiki/Special_offers", "/x?action=view",
            "/editions/history-of-edits", "/blog/special-report", "/x?do=search"]


def _readme_deny_row() -> str:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    return next(line for line in readme.splitlines() if line.startswith("| `BARA_DENY`"))


def test_every_documented_deny_rule_has_a_case() -> None:
    documented = _readme_deny_row().split("built-in list (", 1)[1].split(") |", 1)[0]
    names = [n for part in documented.split(", ") for n in part.split("/")]
    names = ["sign-up" if n == "up" else n for n in names]  # "sign-in/up"
    assert sorted(names) == sorted(DOCUMENTED_RULES), documented


@pytest.mark.parametrize(("rule", "path"), [(r, p) for r, paths in DOCUMENTED_RULES.items() for p in paths])
def test_each_documented_deny_rule_denies_its_paths_and_queries(rule: str, path: str) -> None:
    assert DenyPolicy().is_denied("https://a.org" + path), (rule, path)


@pytest.mark.parametrize("path", NOT_PRINT)
def test_print_rules_leave_other_queries_alone(path: str) -> None:
    assert not DenyPolicy().is_denied("https://a.org" + path)


@pytest.mark.parametrize("path", NOT_WIKI)
def test_wiki_rules_leave_a_wikis_pages_and_look_alikes_alone(path: str) -> None:
    assert not DenyPolicy().is_denied("https://a.org" + path)


def test_deny_ignores_the_host_and_allow_overrides_deny() -> None:
    assert not DenyPolicy().is_denied("https://login.a.org/news")
    policy = DenyPolicy(deny=(*DenyPolicy().deny, r"^/tag/"), allow=(r"^/cart/gallery",))
    assert policy.is_denied("https://a.org/tag/x")
    assert not policy.is_denied("https://a.org/cart/gallery")
    assert policy.is_denied("https://a.org/cart/")


# --------------------------------------------------------------------------- scope


@pytest.mark.parametrize(
    ("url", "seed", "scope", "inside"),
    [
        ("https://a.org/x", "https://a.org/", "host", True),
        ("http://a.org/x", "https://a.org/", "host", True),  # http and https: same site
        ("https://www.a.org/x", "https://a.org/", "host", True),
        ("https://a.org/x", "https://www.a.org/", "host", True),
        ("https://A.ORG/x", "https://a.org/", "host", True),
        ("https://b.a.org/x", "https://a.org/", "host", False),
        ("https://a.org.evil.com/", "https://a.org/", "host", False),
        ("https://evila.org/", "https://a.org/", "host", False),
        ("http://127.0.0.1:8000/x", "http://127.0.0.1:8000/", "host", True),
        ("http://127.0.0.1:8001/x", "http://127.0.0.1:8000/", "host", False),
        ("http://localhost:8000/x", "http://127.0.0.1:8000/", "host", False),
        ("http://a.org:80/x", "http://a.org/", "host", True),
        ("mailto:x@a.org", "https://a.org/", "host", False),
        ("https://b.a.org/x", "https://a.org/", "domain", True),
        ("https://c.b.a.org/x", "https://www.a.org/", "domain", True),
        ("https://a.org/x", "https://www.a.org/", "domain", True),
        ("https://evila.org/", "https://a.org/", "domain", False),
        ("https://a.org.evil.com/", "https://a.org/", "domain", False),
        ("https://a.org/docs/x", "https://a.org/docs/intro", "prefix", True),
        ("https://a.org/docs/", "https://a.org/docs/", "prefix", True),
        ("https://www.a.org/docs/deep/page", "https://a.org/docs/", "prefix", True),
        ("https://a.org/docsx", "https://a.org/docs/", "prefix", False),
        ("https://a.org/blog/", "https://a.org/docs/", "prefix", False),
        ("https://b.a.org/docs/x", "https://a.org/docs/", "prefix", False),
    ],
)
def test_in_scope(url: str, seed: str, scope: str, inside: bool) -> None:
    assert in_scope(url, seed, scope) is inside


# --------------------------------------------------------------------------- width


def test_select_links_keeps_the_first_w_distinct_in_dom_order() -> None:
    links = [
        "https://x.org/a#top", "https://x.org/a?utm_source=n", "mailto:a@x.org", "https://y.org/b",
        "https://x.org/login", "https://x.org/b", "https://x.org/c", "https://x.org/d",
    ]
    sel = select_links(links, seed="https://x.org/", max_width=3)
    assert sel.kept == ["https://x.org/a", "https://x.org/b", "https://x.org/c"]
    assert sel.dropped == {"duplicate": 1, "scheme": 1, "offsite": 1, "denied": 1, "width": 1}


def test_select_links_robots_forbidden_do_not_count_toward_width() -> None:
    links = ["https://x.org/private/1", "https://x.org/a", "https://x.org/private/2", "https://x.org/b"]
    sel = select_links(links, seed="https://x.org/", max_width=2, allowed=lambda u: "/private/" not in u)
    assert sel.kept == ["https://x.org/a", "https://x.org/b"]
    assert sel.dropped == {"robots": 2}


def test_select_links_width_zero_and_scope() -> None:
    assert select_links(["https://x.org/a"], seed="https://x.org/", max_width=0).kept == []
    links = ["https://x.org/docs/a", "https://x.org/blog/b", "https://sub.x.org/docs/c"]
    assert select_links(links, seed="https://x.org/docs/", max_width=9, scope="prefix").kept == [links[0]]
    assert select_links(links, seed="https://x.org/", max_width=9, scope="domain").kept == links


def test_select_links_extra_deny_rules() -> None:
    policy = DenyPolicy(deny=(*DenyPolicy().deny, r"^/tag/"))
    links = ["https://x.org/tag/1", "https://x.org/a"]
    assert select_links(links, seed="https://x.org/", max_width=1, policy=policy).kept == ["https://x.org/a"]


# --------------------------------------------------------------------------- properties

_HOSTS = st.sampled_from(["a.org", "A.Org", "www.a.org", "b.a.org", "bücher.example", "127.0.0.1", "x-y.test"])
_SEGMENT = st.text(alphabet="abcXYZ019-_.~%äé ", min_size=0, max_size=8)
_PARAM_NAMES = st.sampled_from(["q", "id", "page", "sort", "Q", "a b", "ä"])
_VALUES = st.text(alphabet="abc01 &=/?ä%+", max_size=6)


@st.composite
def urls(draw: st.DrawFn) -> str:
    scheme = draw(st.sampled_from(["http", "https", "HTTP"]))
    port = draw(st.sampled_from(["", ":80", ":443", ":8080"]))
    path = "/".join(draw(st.lists(_SEGMENT, max_size=4)))
    query = urlencode(draw(st.lists(st.tuples(_PARAM_NAMES, _VALUES), max_size=4)))
    question = draw(st.sampled_from(["?", ""])) if not query else "?"
    return f"{scheme}://{draw(_HOSTS)}{port}/{path}{question}{query}"


_TRACKING = st.lists(
    st.tuples(st.sampled_from(["utm_source", "utm_medium", "UTM_CAMPAIGN", "fbclid", "gclid", "mc_cid"]), _VALUES),
    min_size=1, max_size=3,
)


@settings(max_examples=400, deadline=None)
@given(url=urls())
def test_canonicalize_is_idempotent(url: str) -> None:
    once = canonicalize(url)
    assert canonicalize(once) == once


@settings(max_examples=400, deadline=None)
@given(url=urls(), tracking=_TRACKING, fragment=st.text(alphabet="ab#?=&1", max_size=5), at_front=st.booleans())
def test_tracking_parameters_and_fragments_do_not_change_the_canonical_url(
    url: str, tracking: list[tuple[str, str]], fragment: str, at_front: bool
) -> None:
    base, _, query = url.partition("?")
    extra = urlencode(tracking)
    query = "&".join(p for p in ([extra, query] if at_front else [query, extra]) if p)
    assert canonicalize(f"{base}?{query}#{fragment}") == canonicalize(url)


@settings(max_examples=400, deadline=None)
@given(
    url=urls(),
    seed=st.sampled_from(["https://a.org/", "http://www.a.org/docs/", "http://127.0.0.1:8080/", "https://b.a.org/"]),
    scope=st.sampled_from(["host", "domain", "prefix"]),
)
def test_scope_does_not_change_under_canonicalize(url: str, seed: str, scope: str) -> None:
    assert in_scope(canonicalize(url), seed, scope) == in_scope(url, seed, scope)
