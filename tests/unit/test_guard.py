"""The route guard's decisions as a table (browser/guard.py), the resolver rules and the document rebase."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bara_scrapy.browser import route
from bara_scrapy.browser.guard import (
    ABORT,
    BLANK,
    CANCEL,
    CONTINUE,
    FETCH,
    FOLLOW,
    GuardPolicy,
    Verdict,
    needs_lookup,
    redirect_verdict,
    route_verdict,
)
from bara_scrapy.browser.pinning import host_resolver_rules, ipv4_globs
from bara_scrapy.browser.route import abort_code, rebase
from bara_scrapy.browser.session import PageSession

from ..aio import aio

SEED = "http://127.0.0.1:8000/"
P = GuardPolicy(SEED)
DNS = {"evil.test": ["127.0.0.1"], "meta.test": ["169.254.169.254"], "cdn.test": ["93.184.216.34"]}


def resolve(host: str) -> list[str]:
    if host in DNS:
        return DNS[host]
    raise OSError(host)


# (case, url, document, loaded, left, policy, expected)
ROUTE_CASES = [
    ("seed document", SEED + "a", True, False, False, P, Verdict(FETCH)),
    ("www twin of the seed host is in scope", "http://127.0.0.1:8000/b", True, True, False, P, Verdict(FETCH)),
    ("document to another port, loading", "http://127.0.0.1:9000/", True, False, False, P,
     Verdict(BLANK, "ssrf_blocked")),
    ("document to another loopback host, loaded", "http://127.0.0.2:8000/", True, True, False, P,
     Verdict(CANCEL, "ssrf_blocked")),
    ("document to a public site", "https://example.org/", True, False, False, P, Verdict(BLANK, "offsite_redirect")),
    ("document to file:", "file:///etc/passwd", True, False, False, P, Verdict(BLANK, "offsite_redirect")),
    ("document to localhost", "http://localhost:8000/", True, False, False, P, Verdict(BLANK, "ssrf_blocked")),
    ("sub-resource on the seed", SEED + "x.png", False, True, False, P, Verdict(CONTINUE)),
    ("sub-resource, other port of the seed host", "http://127.0.0.1:9000/x.png", False, True, False, P,
     Verdict(ABORT, "blocked_private")),
    ("127.1", "http://127.1/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    # the seed's host:port spelled otherwise is refused too (only the seed's own spelling is allowed)
    ("0x7f.1", "http://0x7f.1:8000/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("0x7f.2", "http://0x7f.2:8000/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("decimal", "http://2130706433/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("mapped v6", "http://[::ffff:127.0.0.1]:8000/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("metadata", "http://169.254.169.254/latest/", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("ten-net", "https://10.0.0.1/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("websocket to private", "ws://10.0.0.1/socket", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("localhost name", "http://localhost/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("name resolving to loopback", "http://evil.test/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("name resolving to metadata", "http://meta.test/x", False, True, False, P, Verdict(ABORT, "blocked_private")),
    ("public CDN name", "https://cdn.test/x.png", False, True, False, P, Verdict(CONTINUE)),
    ("unresolvable name: Chromium fails it", "https://nx.test/x.png", False, True, False, P, Verdict(CONTINUE)),
    ("data: never reaches the network", "data:image/png;base64,AAAA", False, True, False, P, Verdict(CONTINUE)),
    ("after the document left", SEED + "x.png", False, False, True, P, Verdict(ABORT, "document_left_scope")),
    ("block_offsite on", "https://cdn.test/x.png", False, True, False, GuardPolicy(SEED, block_offsite=True),
     Verdict(ABORT, "offsite_subresource")),
    ("allow_private", "http://10.0.0.1/x", False, True, False, GuardPolicy(SEED, allow_private=True),
     Verdict(CONTINUE)),
]


@pytest.mark.parametrize(("url", "document", "loaded", "left", "policy", "expected"),
                         [c[1:] for c in ROUTE_CASES], ids=[c[0] for c in ROUTE_CASES])
def test_route_verdict(url: str, document: bool, loaded: bool, left: bool, policy: GuardPolicy,
                       expected: Verdict) -> None:
    assert route_verdict(url, document=document, loaded=loaded, left=left, policy=policy, resolve=resolve) == expected


REDIRECT_CASES = [
    ("same site", SEED + "next", Verdict(FOLLOW)),
    ("other loopback host", "http://127.0.0.2:8000/landing", Verdict(BLANK, "ssrf_blocked")),
    ("other port", "http://127.0.0.1:8001/landing", Verdict(BLANK, "ssrf_blocked")),
    ("metadata", "http://169.254.169.254/", Verdict(BLANK, "ssrf_blocked")),
    ("public off-site", "https://example.org/", Verdict(BLANK, "offsite_redirect")),
    ("off-site name is not resolved", "http://evil.test/", Verdict(BLANK, "offsite_redirect")),
    ("ftp", "ftp://127.0.0.1:8000/x", Verdict(BLANK, "offsite_redirect")),
    ("javascript", "javascript:alert(1)", Verdict(BLANK, "offsite_redirect")),
]


@pytest.mark.parametrize(("location", "expected"), [c[1:] for c in REDIRECT_CASES], ids=[c[0] for c in REDIRECT_CASES])
def test_redirect_verdict(location: str, expected: Verdict) -> None:
    assert redirect_verdict(location, P, resolve) == expected


def test_in_scope_name_resolving_private_is_refused_on_the_hop() -> None:
    policy = GuardPolicy("http://site.test/", scope="domain")
    DNS["a.site.test"] = ["10.1.2.3"]
    assert redirect_verdict("http://a.site.test/x", policy, resolve) == Verdict(BLANK, "ssrf_blocked")
    assert redirect_verdict("http://site.test/x", policy, resolve) == Verdict(FOLLOW)  # the seed's own host


def test_resolver_rules_cover_the_private_ranges_and_keep_the_seed_first() -> None:
    rules = host_resolver_rules("http://127.0.0.1:8000/").split(", ")
    assert rules[0] == "MAP 127.0.0.1:8000 127.0.0.1:8000"
    for glob in ("10.*", "127.*", "169.254.*", "172.31.*", "192.168.*", "100.127.*", "0.*", "239.*", "255.*"):
        assert f"MAP {glob} ~NOTFOUND" in rules, glob
    for v6 in ("[::*]:*", "[fd*]:*", "[fe8*]:*", "[64:ff9b:*]:*"):
        assert f"MAP {v6} ~NOTFOUND" in rules, v6
    assert "MAP localhost ~NOTFOUND" in rules and "MAP 8.* ~NOTFOUND" not in rules
    assert ipv4_globs("172.16.0.0/12") == [f"172.{n}.*" for n in range(16, 32)]


def test_rebase_and_abort_codes() -> None:
    assert rebase(b"<html><head><base href='/x/'>", "http://a/b/", "http://a/b").startswith(
        b"<html><head><script>history.replaceState")
    assert abort_code("connect ECONNRESET") == "connectionreset"
    assert abort_code("something else") == "failed"


@aio
async def test_a_host_is_looked_up_once_while_requests_for_it_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Concurrent requests for one new host share one lookup (a slow name held every pool thread before);
    an offsite sub-request that blocking aborts anyway is never looked up."""
    calls: list[str] = []
    release = threading.Event()

    def slow_resolve(host: str) -> list[str]:
        calls.append(host)
        release.wait(30)
        return DNS[host]

    monkeypatch.setattr(route, "default_resolve", slow_resolve)
    monkeypatch.setattr(route, "_DNS", {})

    waiters = [asyncio.ensure_future(route.learn(f"http://cdn.test/{k}.js", P)) for k in range(5)]
    while not calls:  # the one lookup has started in its thread
        await asyncio.sleep(0.01)
    release.set()
    await asyncio.gather(*waiters)
    assert calls == ["cdn.test"] and route._DNS["cdn.test"] == DNS["cdn.test"]
    blocking = GuardPolicy(SEED, block_offsite=True)
    assert not needs_lookup("http://cdn.test/a.js", document=False, left=False, policy=blocking)
    assert needs_lookup("http://cdn.test/a.js", document=False, left=False, policy=P)
    assert not needs_lookup("http://cdn.test/a.js", document=False, left=True, policy=P)


class FakeResponse:
    def __init__(self, status: int, location: str | None = None) -> None:
        self.status = status
        self.headers = {"location": location} if location else {"content-type": "text/html"}
        self.disposed = False

    async def body(self) -> bytes:
        return b"<html><head><title>t</title></head></html>"

    async def dispose(self) -> None:
        self.disposed = True


class FakeRoute:
    def __init__(self, url: str, answers: dict[str, FakeResponse]) -> None:
        self.request = type("Req", (), {"url": url})()
        self.answers = answers
        self.fulfilled: list[dict[str, object]] = []

    async def fetch(self, url: str, **_: object) -> FakeResponse:
        return self.answers[url]

    async def fulfill(self, **kwargs: object) -> None:
        self.fulfilled.append(kwargs)

    async def abort(self, code: str) -> None:
        raise AssertionError(f"aborted: {code}")


@aio
async def test_every_fetched_document_body_is_disposed_after_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver keeps a `route.fetch` body until the context closes unless it is disposed: over a
    2,000-page crawl the Playwright driver grew by 155 MB before this (perf site, c=4)."""
    monkeypatch.setattr(route, "_DNS", {"127.0.0.1": ["127.0.0.1"]})
    hop, final = FakeResponse(302, location="/home"), FakeResponse(200)
    fake = FakeRoute(SEED, {SEED: hop, SEED + "home": final})
    session = PageSession(seed=SEED, scope="host", page_url=SEED, allow_private=True, deadline=1e12)
    await route._fetch_document(fake, session, GuardPolicy(SEED, allow_private=True))  # type: ignore[arg-type]
    assert len(fake.fulfilled) == 1 and fake.fulfilled[0]["response"] is final
    assert hop.disposed and final.disposed
    assert session.redirected_to == SEED + "home"
