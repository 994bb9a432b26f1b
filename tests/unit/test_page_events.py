"""PageEvents on a reused tab: until the new document commits, only the navigation's own requests are the
page's; the previous page's requests (its `beforeunload` handlers, loads still running) are not counted,
not waited for and not logged as the new page's media (a real browser: tests/crawl/test_page_reuse.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bara_scrapy.browser.events import PageEvents
from bara_scrapy.browser.session import PageSession


@dataclass(eq=False)
class FakeFrame:
    parent_frame: FakeFrame | None = None


MAIN = FakeFrame()


@dataclass(eq=False)
class FakeRequest:
    url: str
    navigation: bool = False
    frame: FakeFrame = MAIN
    resource_type: str = "media"
    redirected_from: None = None

    def is_navigation_request(self) -> bool:
        return self.navigation


@dataclass(eq=False)
class FakeResponse:
    request: FakeRequest
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"content-type": "application/vnd.apple.mpegurl"})

    @property
    def url(self) -> str:
        return self.request.url


def _session() -> PageSession:
    return PageSession(seed="http://a/", scope="host", page_url="http://a/next", allow_private=False, deadline=0)


def test_the_previous_documents_requests_are_not_the_new_pages() -> None:
    session = _session()
    events = PageEvents(session)
    leftover = FakeRequest("http://a/old.m3u8")  # the previous page's, e.g. from its beforeunload handler
    events.on_request(leftover)
    events.on_response(FakeResponse(leftover))
    assert (session.inflight, session.requests_total, session.network) == (0, 0, [])

    document = FakeRequest("http://a/next", navigation=True, resource_type="document")
    events.on_request(document)
    assert session.inflight == 1 and not session.committed
    late = FakeRequest("http://a/old-2.m3u8")  # still the previous page's: not committed yet
    events.on_request(late)
    events.on_response(FakeResponse(late))
    assert session.inflight == 1 and session.network == []

    events.on_navigated(FakeFrame(parent_frame=MAIN))  # a frame of the previous page navigating: not a commit
    assert not session.committed
    events.on_navigated(MAIN)
    assert session.committed
    own = FakeRequest("http://a/own.m3u8")
    events.on_request(own)
    events.on_response(FakeResponse(own))
    assert session.inflight == 2 and [e.url for e in session.network] == ["http://a/own.m3u8"]
    events.on_done(own)
    events.on_done(leftover)  # ending a request that was never counted changes nothing
    assert session.inflight == 1


def test_a_main_frame_commit_before_the_navigation_request_is_not_this_pages() -> None:
    session = _session()
    events = PageEvents(session)
    events.on_navigated(MAIN)  # the previous page changing its own URL (history.pushState) before the navigation
    assert not session.committed
    events.on_request(FakeRequest("http://a/old.m3u8"))
    assert session.requests_total == 0
