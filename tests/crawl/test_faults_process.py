"""Fault suite, the process (docs/faults.md, groups 1, 4, 7 and 10): crashes, signals, seeds, robots.txt.

Faults are triggered by the hostile server itself when the crawler reaches a
route (kill the renderer, kill the browser, send SIGINT), never by sleeping.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.bench.server import RequestInfo, Route

from ..faults import Hostile, crawl_processes, hostile_servers, page, record_timing


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    yield from hostile_servers()


def _logged(pid: int, needle: str) -> bool:
    """Whether the crawl `pid` has written `needle` to its LOG_FILE."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return True  # gone: nothing more to wait for
    log = next((a.removeprefix("LOG_FILE=") for a in args if a.startswith("LOG_FILE=")), None)
    return log is None or (Path(log).exists() and needle in Path(log).read_text(encoding="utf-8", errors="replace"))


def _wait_logged(pids: list[int], needle: str, seconds: float) -> None:
    """Poll (bounded) until every crawl in `pids` has logged `needle`."""
    pause = threading.Event()  # never set: a 50 ms wait between reads of the log
    for _ in range(int(seconds / 0.05)):
        if all(_logged(pid, needle) for pid in pids):
            return
        pause.wait(0.05)


def _freeze_browser(resume_on: str) -> object:
    """A route handler that, on its first hit, stops (SIGSTOP) the crawl's browser: every Playwright
    call then waits for an answer. The browser is resumed once the crawl logged `resume_on`."""
    def handler(info: RequestInfo) -> Route:
        if info.hits == 1:
            crawls, browsers = crawl_processes("crawl"), crawl_processes("browser")
            for pid in browsers:
                os.kill(pid, signal.SIGSTOP)

            def resume() -> None:
                _wait_logged(crawls, resume_on, seconds=150)
                for pid in browsers:
                    try:
                        os.kill(pid, signal.SIGCONT)
                    except ProcessLookupError:
                        pass
            threading.Thread(target=resume, daemon=True).start()
        return Route(b"", status=204)
    return handler


def _kill_once(kind: str, sig: int = signal.SIGKILL, times: int = 1, sent: list[float] | None = None) -> object:
    """A route handler that, on its first hit, sends `sig` to the crawl's `kind` processes, `times` times.

    A signal is sent again only once the crawl logged the previous one: two SIGINTs sent back to back
    can reach the process as one pending signal, and Scrapy then shuts down gracefully (about 21 s here)
    instead of at once.
    """
    def handler(info: RequestInfo) -> Route:
        if info.hits == 1:
            if sent is not None:
                sent.append(time.monotonic())
            for n in range(times):
                for pid in crawl_processes(kind):
                    if n:  # wait (bounded) for the previous signal to be handled
                        _wait_logged([pid], "Received SIGINT", seconds=10)
                    try:
                        os.kill(pid, sig)
                    except ProcessLookupError:
                        pass
        return Route(b"", status=204)
    return handler


@pytest.mark.browser
def test_renderer_crash_and_browser_killed_mid_crawl(tmp_path: Path, hostile: Hostile) -> None:
    h = hostile
    for name in "abcdef":
        h.add(f"/{name}", page(f"Plain page {name} of the crash test, with enough words to read."))
    h.add("/kill-renderer", handler=_kill_once("renderer"), link=False)
    h.add("/kill-browser", handler=_kill_once("browser"), link=False)
    h.add("/renderer-crash", page("This page's renderer is killed while it loads.", extra='<img src="/kill-renderer">'))
    h.add("/browser-killed", page("The whole browser is killed while this page loads.",
                                  extra='<img src="/kill-browser">'))
    items = h.crawl(tmp_path, args={"max_attempts": 3}, settings={"BARA_PAGE_TIMEOUT": 10, "BARA_RENDER": "always"},
                    bound=180, name="crashes")  # every page rendered: the crashes hit pages in flight
    assert h.server.hits["/kill-renderer"] >= 1 and h.server.hits["/kill-browser"] >= 1
    assert sorted(items) == sorted(["/", *h.links])  # every expected page, once
    for path in ("/renderer-crash", "/browser-killed"):  # the page in flight was fetched again
        assert h.server.hits[path] >= 2, dict(h.server.hits)
    assert h.log_text.count("Launching browser chromium") == 2  # relaunched once, after the kill
    assert all(i["status"] == "ok" for i in items.values()), {p: i["error"] for p, i in items.items()}


@pytest.mark.browser
def test_browser_that_stops_answering_does_not_hold_the_crawl(tmp_path: Path, hostile: Hostile) -> None:
    """Seen in CI: after a renderer was killed, a new tab never came and the crawl hung at 8 of 9
    pages. Here the whole browser stops answering (SIGSTOP) while a page loads. A new tab is bounded
    by the navigation timeout and a page download by creation + navigation + the page deadline + a
    grace; the page fails as `browser_crash` ("browser not answering") and is retried. The browser
    is resumed once such a failure was logged, so the retries succeed and every page ends once."""
    h = hostile
    for name in "abc":
        h.add(f"/{name}", page(f"Plain page {name} of the frozen-browser test, with enough words to read."))
    h.add("/freeze", handler=_freeze_browser(resume_on="browser_crash"), link=False)
    h.add("/frozen", page("The browser stops answering while this page loads.", extra='<img src="/freeze">'))
    items = h.crawl(tmp_path, args={"max_attempts": 4},
                    settings={"BARA_NAVIGATION_TIMEOUT": 3, "BARA_PAGE_TIMEOUT": 3, "CONCURRENT_REQUESTS": 2,
                              "BARA_RENDER": "always"},  # the page that freezes the browser is rendered
                    bound=150, name="frozen browser")
    assert h.server.hits["/freeze"] >= 1
    assert sorted(items) == sorted(["/", *h.links])  # every expected page, once
    errors = [a["error"] for i in items.values() for a in i["attempts"] if a["error"]]
    assert any("browser not answering" in e for e in errors), errors
    assert all(i["status"] == "ok" for i in items.values()), {p: i["error"] for p, i in items.items()}


@pytest.mark.browser
def test_browser_frozen_after_the_last_render_does_not_hold_the_close(tmp_path: Path, hostile: Hostile) -> None:
    """Under `auto` the last page is served over HTTP (its URL pattern settled by the four probes before it);
    its image's check stops the browser, which renders nothing more. Closing a stopped browser waited for
    Playwright's own timeouts (150 s); now the close is bounded (15 s) and the browser's processes are
    killed. Nothing is left running (`Hostile.crawl` checks)."""
    h = hostile
    for name in "abc":
        h.add(f"/{name}", page(f"Plain page {name} of the frozen-at-close test, with enough words to read."))
    h.add("/freeze", handler=_freeze_browser(resume_on="The browser did not close"), link=False)
    h.add("/frozen", page("The browser stops answering once this page's image is checked.",
                          extra='<img src="/freeze">'))
    items = h.crawl(tmp_path, args={"max_attempts": 2}, settings={"CONCURRENT_REQUESTS": 2}, bound=90,
                    name="frozen at close")
    assert items["/frozen"]["render"]["path"] == "http" and h.server.hits["/freeze"] >= 1
    assert all(i["status"] == "ok" for i in items.values()), {p: i["error"] for p, i in items.items()}
    assert "The browser did not close within 15 s" in h.log_text


@pytest.mark.browser
@pytest.mark.parametrize(("signals", "bound"), [(1, 30.0), (2, 20.0)], ids=["ctrl-c-once", "ctrl-c-twice"])
def test_ctrl_c(tmp_path: Path, hostile: Hostile, signals: int, bound: float) -> None:
    """Bound: from the (first) SIGINT to the end of the process. Once: the page in flight finishes (its
    held image bounded by the page deadline, 8 s), its items' media checks end (the held image: verify
    timeout 8 s, one Scrapy retry) and the feed is written; twice: Scrapy stops at once, the feed stays valid."""
    h = hostile
    release = threading.Event()
    sent: list[float] = []
    for name in "abcd":
        h.add(f"/{name}", page(f"Plain page {name}."))
    h.add("/sigint", handler=_kill_once("crawl", signal.SIGINT, times=signals, sent=sent), link=False)
    h.add("/slow", page("A page that holds the crawl open.", extra='<img src="/sigint"><img src="/slow.png">'))
    h.add("/slow.png", b"", delay_event=release, link=False)
    try:
        items = h.crawl(tmp_path, settings={"BARA_PAGE_TIMEOUT": 8, "BARA_VERIFY_TIMEOUT": 8},
                        name=f"ctrl-c x{signals}")
    finally:
        release.set()
    after_signal = time.monotonic() - sent[0]
    record_timing(f"ctrl-c x{signals} (after SIGINT)", after_signal, bound)
    assert after_signal <= bound, f"{after_signal:.1f}s after SIGINT > {bound}s"
    if signals == 1:
        assert "/" in items and "Closing spider (shutdown)" in h.log_text


@pytest.mark.browser
def test_seed_faults(tmp_path: Path, hostile: Hostile) -> None:
    h = hostile
    items = h.crawl(tmp_path / "nx", seed="http://nx.invalid/", args={"max_attempts": 1}, expect_exit=3,
                    bound=60, name="seed nx.invalid")
    assert len(items) == 1 and items["http://nx.invalid/"]["status"] == "failed"
    h.add("/away", status=302, headers={"Location": f"http://127.0.0.2:{h.canary.port}/"}, link=False)
    items = h.crawl(tmp_path / "away", seed_path="/away", expect_exit=3, name="seed redirects to a private host")
    assert items["/away"]["error"].startswith("ssrf_blocked")
    h.add("/moved", status=301, headers={"Location": "/home"}, link=False)
    h.add("/home", page("The seed's new home.", ["/child"]), link=False)
    h.add("/child", page("A child of the seed's new home."), link=False)
    items = h.crawl(tmp_path / "moved", seed_path="/moved", name="seed redirects in scope")
    assert items["/moved"]["status"] == "ok" and items["/moved"]["final_url"] == h.url("/home")
    assert "/child" in items


ROBOTS = {
    "404": Route("", status=404),
    "500": Route("", status=500),
    "latin-1": Route("User-agent: *\nDisallow: /private # caf\xe9\n".encode("latin-1"), content_type="text/plain"),
    "huge": Route(("# filler\n" * 60_000) + "User-agent: *\nDisallow: /private\n", content_type="text/plain"),
    "redirect": Route(status=301, headers={"Location": "/robots-real.txt"}),
}


@pytest.mark.parametrize("variant", sorted(ROBOTS))
def test_robots_variants(tmp_path: Path, hostile: Hostile, variant: str) -> None:
    """robots.txt 404/5xx allow all (Scrapy's choice); odd encodings, size and a redirect still parse."""
    h = hostile
    h.site.routes["/robots.txt"] = ROBOTS[variant]
    h.add("/robots-real.txt", "User-agent: *\nDisallow: /private\n", content_type="text/plain", link=False)
    h.add("/public", page("A public page."))
    h.add("/private", page("A private page."))
    items = h.crawl(tmp_path, settings={"BARA_BROWSER_ENABLED": False, "ROBOTSTXT_OBEY": True},
                    name=f"robots {variant}")
    assert "/public" in items
    if variant in ("404", "500"):
        assert items["/private"]["status"] == "ok"
    else:
        assert "/private" not in items and h.server.hits["/private"] == 0  # not admitted, never fetched
