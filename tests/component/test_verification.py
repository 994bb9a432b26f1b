"""MediaVerificationPipeline in real crawls against fixture servers on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import socket
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, cast

import jsonschema
import pytest
import pytest_twisted
from scrapy import Request, Spider, signals
from scrapy.crawler import AsyncCrawlerRunner, Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.resolver import CachingThreadedResolver
from scrapy.utils.test import get_crawler, get_reactor_settings
from twisted.internet.defer import Deferred

from bara_scrapy.bench.media import dash_manifest, hls_manifest, image_bytes, media_bytes, mp4_bytes
from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer
from bara_scrapy.items import SCHEMA_PATH, Attempt, Media, PageItem
from bara_scrapy.pipelines.verification import MediaVerificationPipeline

PNG = image_bytes("png", "main")
_F = TypeVar("_F", bound=Callable[..., Any])


def ensure_deferred(test: _F) -> _F:
    """pytest_twisted.ensureDeferred, typed."""
    return cast(_F, pytest_twisted.ensureDeferred(test))


BIG_BODY = mp4_bytes("big") + bytes(32 * 1024 * 1024)  # a server ignoring Range sends all of it


def fake_resolve(host: str) -> list[str]:
    if host == "media.test":
        return ["127.0.0.1"]
    raise OSError(-2, "Name or service not known")


class QuietSiteServer(SiteServer):
    """A client that gave up (timeout, StopDownload) is expected here: no traceback on stderr."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class FakeDnsPipeline(MediaVerificationPipeline):
    resolve = staticmethod(fake_resolve)


class ItemsSpider(Spider):
    """Fetches one page, then yields the prepared PageItems from its callback."""

    name = "verify_test"

    def __init__(self, seed: str, start_url: str, pages: list[PageItem], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seed = seed
        self.start_url = start_url
        self.pages = pages

    async def start(self) -> AsyncIterator[Any]:
        yield Request(self.start_url, callback=self.parse)

    def parse(self, response: Response) -> Iterator[PageItem]:
        yield from self.pages


@dataclass
class CrawlResult:
    items: list[PageItem]
    crawler: Crawler
    downloaded: list[Request] = field(default_factory=list)
    bytes_by_url: dict[str, int] = field(default_factory=dict)
    max_active: int = 0

    def stat(self, name: str) -> Any:
        return self.crawler.stats.get_value(name)


async def crawl(
    seed: str,
    pages: list[PageItem],
    pipeline: type = MediaVerificationPipeline,
    start_url: str | None = None,
    **settings: Any,
) -> CrawlResult:
    runner = AsyncCrawlerRunner(
        {
            **get_reactor_settings(),
            "ITEM_PIPELINES": {pipeline: 300},
            "TELNETCONSOLE_ENABLED": False,
            "ROBOTSTXT_OBEY": False,
            "RETRY_ENABLED": False,
            "LOG_LEVEL": "DEBUG",
            "BARA_SEED": seed,
            **settings,
        }
    )
    crawler = runner.create_crawler(ItemsSpider)
    result = CrawlResult(items=[], crawler=crawler)
    active = {"now": 0}

    def reached(request: Request) -> None:
        if request.url == (start_url or seed):
            return
        result.downloaded.append(request)
        active["now"] += 1
        result.max_active = max(result.max_active, active["now"])

    def left(request: Request) -> None:
        if request.url != (start_url or seed):
            active["now"] -= 1

    def received(data: bytes, request: Request) -> None:
        result.bytes_by_url[request.url] = result.bytes_by_url.get(request.url, 0) + len(data)

    crawler.signals.connect(lambda item: result.items.append(item), signal=signals.item_scraped, weak=False)
    crawler.signals.connect(reached, signal=signals.request_reached_downloader, weak=False)
    crawler.signals.connect(left, signal=signals.request_left_downloader, weak=False)
    crawler.signals.connect(received, signal=signals.bytes_received, weak=False)
    await Deferred.fromFuture(runner.crawl(crawler, seed=seed, start_url=start_url or seed, pages=pages))
    return result


def page(url: str, images: Iterable[str] = (), videos: Iterable[str] = (), **kwargs: Any) -> PageItem:
    return PageItem(
        url=url,
        depth=0,
        bfs_index=kwargs.pop("bfs_index", 0),
        status=kwargs.pop("status", "ok"),
        text="some text",
        images=[Media(url=u, kind="image", found_in=["img@src"]) for u in images],
        videos=[Media(url=u, kind="video", found_in=["video@src"]) for u in videos],
        attempts=[Attempt(n=1, instructions="render and scroll", actions={"scroll_steps": 4})],
        **kwargs,
    )


def accepted(media: list[Media]) -> list[tuple[str, str | None]]:
    return [(m.url, m.sniffed_type) for m in media]


def rejected(item: PageItem) -> list[tuple[str, str | None]]:
    return [(m.url, m.reason) for m in item.rejected_media]


def all_media(item: PageItem) -> list[Media]:
    return item.images + item.videos + item.embeds + item.rejected_media


SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def validate_item(item: PageItem) -> None:
    """Check an item against the JSON Schema of the contract."""
    jsonschema.validate(json.loads(item.model_dump_json()), SCHEMA)


@dataclass
class Fixture:
    main: SiteServer
    cdn: SiteServer
    slow_release: threading.Event
    seen: dict[str, dict[str, str]]
    closed_port: int


def build_main_site(cdn: SiteServer, slow_release: threading.Event, seen: dict[str, dict[str, str]]) -> Site:
    site = Site()
    site.add("/", "<p>the page</p>")
    for fmt in ("png", "jpeg", "gif", "webp", "mp4", "webm", "ts"):
        body, ctype = media_bytes(fmt, "main")
        site.add(f"/m/ok.{fmt}", body, content_type=ctype)
    site.add("/m/index.m3u8", hls_manifest(["seg1.ts"]), content_type="application/vnd.apple.mpegurl")
    site.add("/m/manifest.mpd", dash_manifest("ok.mp4"), content_type="application/dash+xml")
    site.add("/m/error.png", "<!DOCTYPE html><html><body>Image not found</body></html>")
    site.add("/m/mislabelled.png", PNG, content_type="application/octet-stream")
    site.add("/m/mislabelled.webm", media_bytes("webm", "x")[0], content_type="text/html")
    site.add("/m/empty.png", b"", content_type="image/png")
    site.add("/m/416.png", b"", status=416, content_type="image/png", headers={"Content-Range": "bytes */0"})
    site.add("/m/unknown.png", b"just some bytes", content_type="image/png")
    site.add("/m/dup.png", PNG, content_type="image/png")
    site.add("/m/actually-image.mp4", PNG, content_type="video/mp4")
    site.add("/m/big.mp4", BIG_BODY, content_type="video/mp4", honour_range=False)
    site.add("/m/slow.mp4", mp4_bytes(), content_type="video/mp4", delay_event=slow_release)
    site.add("/m/redirect-cdn.png", status=302, headers={"Location": cdn.url("/cdn/a.png")})
    site.add("/m/redirect-private.png", status=302, headers={"Location": "http://10.0.0.1/x"})
    site.add("/m/redirect-file.png", status=301, headers={"Location": "file:///etc/passwd"})
    for n in range(1, 7):
        site.add(f"/c/{n}", status=307, headers={"Location": f"/c/{n - 1}"})
    site.add("/c/0", PNG, content_type="image/png")

    def record(info: RequestInfo) -> Route:
        seen[info.path] = info.headers
        return Route(PNG, content_type="image/png")

    site.add("/m/headers.png", handler=record)
    return site


@pytest.fixture(scope="module")
def servers() -> Iterator[Fixture]:
    slow_release = threading.Event()
    seen: dict[str, dict[str, str]] = {}
    cdn_site = Site()
    cdn_site.add("/", "<p>cdn home</p>")
    cdn_site.add("/cdn/a.png", image_bytes("png", "cdn"), content_type="image/png")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    with SiteServer(cdn_site) as cdn:
        main = QuietSiteServer(build_main_site(cdn, slow_release, seen))
        with main:
            try:
                yield Fixture(main, cdn, slow_release, seen, closed_port)
            finally:
                slow_release.set()


@pytest.fixture
def fx(servers: Fixture) -> Fixture:
    """The module's servers with fresh hit counters."""
    servers.main.hits.clear()
    servers.cdn.hits.clear()
    servers.seen.clear()
    return servers


@ensure_deferred
async def test_verification_accepts_and_rejects_with_reasons(
    fx: Fixture, caplog: pytest.LogCaptureFixture
) -> None:
    url = fx.main.url
    pages = [
        page(
            url("/p0"),
            images=[url(f"/m/ok.{f}") for f in ("png", "jpeg", "gif", "webp")]
            + [
                url("/m/missing.png"),
                url("/m/error.png"),
                url("/m/mislabelled.png"),
                url("/m/empty.png"),
                url("/m/416.png"),
                url("/m/unknown.png"),
                url("/m/dup.png"),
                url("/m/headers.png"),
                "ftp://127.0.0.1/x.png",
                "data:image/png;base64,iVBORw0KGgo=",
                url("/m/redirect-file.png"),
                url("/c/5"),
                url("/c/6"),
            ],
            videos=[url(f"/m/ok.{f}") for f in ("mp4", "webm", "ts")]
            + [
                url("/m/index.m3u8"),
                url("/m/manifest.mpd"),
                url("/m/big.mp4"),
                url("/m/mislabelled.webm"),
                url("/m/actually-image.mp4"),
            ],
        ),
        page(
            url("/p1"),
            bfs_index=1,
            images=[
                url("/m/dup.png"),
                url("/m/redirect-cdn.png"),
                url("/m/redirect-private.png"),
                f"http://media.test:{fx.main.port}/m/ok.png",
                "http://10.0.0.1/a.png",
                f"http://127.1:{fx.main.port}/m/ok.png",
                f"http://[::1]:{fx.main.port}/m/ok.png",
                fx.cdn.url("/cdn/a.png"),
                url("/m/dup.png"),
            ],
        ),
        page(
            url("/p3"),
            bfs_index=3,
            status="incomplete",
            error="missing_media",
            images=[url("/m/ok.png"), "http://nx.test/b.png"],
        ),
        page(url("/p4"), bfs_index=4),
    ]
    with caplog.at_level(logging.DEBUG):
        result = await crawl(url("/"), pages, FakeDnsPipeline)
    items = {item.url: item for item in result.items}
    assert len(result.items) == 4

    p0 = items[url("/p0")]
    assert accepted(p0.images) == [
        (url("/m/ok.png"), "png"),
        (url("/m/ok.jpeg"), "jpeg"),
        (url("/m/ok.gif"), "gif"),
        (url("/m/ok.webp"), "webp"),
        (url("/m/mislabelled.png"), "png"),
        (url("/m/dup.png"), "png"),
        (url("/m/headers.png"), "png"),
        (url("/c/5"), "png"),
    ]
    assert accepted(p0.videos) == [
        (url("/m/ok.mp4"), "mp4"),
        (url("/m/ok.webm"), "webm"),
        (url("/m/ok.ts"), "mpegts"),
        (url("/m/index.m3u8"), "hls"),
        (url("/m/manifest.mpd"), "dash"),
        (url("/m/big.mp4"), "mp4"),
        (url("/m/mislabelled.webm"), "webm"),
    ]
    assert rejected(p0) == [
        (url("/m/missing.png"), "http_404"),
        (url("/m/error.png"), "html_page"),
        (url("/m/empty.png"), "empty_body"),
        (url("/m/416.png"), "empty_body"),
        (url("/m/unknown.png"), "unknown_type"),
        (url("/m/redirect-file.png"), "blocked_scheme"),
        (url("/c/6"), "too_many_redirects"),
        (url("/m/actually-image.mp4"), "wrong_kind"),
    ]
    # non-http(s) candidates are dropped, not listed: the item contract holds http(s) media only
    assert all(m.url.startswith(("http://", "https://")) for item in result.items for m in all_media(item))
    for item in result.items:
        validate_item(item)
    assert (p0.status, p0.error) == ("ok", None)  # checked-and-bad media does not change status
    assert all(m.verified for m in p0.images + p0.videos)
    assert not any(m.verified for m in p0.rejected_media)

    by_url = {m.url: m for m in p0.images + p0.videos + p0.rejected_media}
    png = by_url[url("/m/ok.png")]
    assert (png.http_status, png.content_type, png.bytes, png.final_url) == (
        206,
        "image/png",
        len(media_bytes("png", "main")[0]),
        url("/m/ok.png"),
    )
    assert png.checked_at is not None and png.checked_at.endswith("Z") and png.reason is None
    mislabelled = by_url[url("/m/mislabelled.png")]
    assert (mislabelled.content_type, mislabelled.sniffed_type) == ("application/octet-stream", "png")
    error_page = by_url[url("/m/error.png")]
    assert (error_page.http_status, error_page.sniffed_type) == (206, "html")
    assert by_url[url("/m/missing.png")].http_status == 404
    assert (by_url[url("/m/416.png")].http_status, by_url[url("/m/416.png")].bytes) == (416, 0)
    assert (by_url[url("/m/empty.png")].http_status, by_url[url("/m/empty.png")].bytes) == (200, 0)
    chain = by_url[url("/c/5")]
    assert (chain.http_status, chain.final_url) == (206, url("/c/0"))
    assert by_url[url("/c/6")].final_url == url("/c/1")
    assert by_url[url("/m/redirect-file.png")].final_url == "file:///etc/passwd"

    # a server ignoring Range: accepted, full size known, download cut after the first bytes
    big = by_url[url("/m/big.mp4")]
    assert (big.http_status, big.bytes) == (200, len(BIG_BODY))
    assert result.bytes_by_url[url("/m/big.mp4")] < 1024 * 1024

    p1 = items[url("/p1")]
    assert accepted(p1.images) == [(url("/m/dup.png"), "png"), (url("/m/dup.png"), "png")]
    assert rejected(p1) == [
        (url("/m/redirect-cdn.png"), "blocked_private"),  # another port is another host
        (url("/m/redirect-private.png"), "blocked_private"),
        (f"http://media.test:{fx.main.port}/m/ok.png", "blocked_private"),  # name resolving to loopback
        ("http://10.0.0.1/a.png", "blocked_private"),
        (f"http://127.1:{fx.main.port}/m/ok.png", "blocked_private"),
        (f"http://[::1]:{fx.main.port}/m/ok.png", "blocked_private"),
        (fx.cdn.url("/cdn/a.png"), "blocked_private"),
    ]
    assert by_url[url("/m/dup.png")].final_url == url("/m/dup.png")
    assert {m.url: m.final_url for m in p1.rejected_media}[
        url("/m/redirect-private.png")
    ] == "http://10.0.0.1/x"
    assert (p1.status, p1.error) == ("ok", None)

    p3 = items[url("/p3")]
    assert accepted(p3.images) == [(url("/m/ok.png"), "png")]
    assert rejected(p3) == [("http://nx.test/b.png", "dns_error")]
    assert (p3.status, p3.error) == ("incomplete", "missing_media; unverified_media: 1")

    p4 = items[url("/p4")]
    assert (p4.status, p4.error, p4.images, p4.rejected_media) == ("ok", None, [], [])

    # every canonical URL fetched once, even when named by two items or twice in one
    assert fx.main.hits["/m/dup.png"] == 1
    assert fx.main.hits["/m/ok.png"] == 1
    assert fx.main.hits["/c/0"] == 1 and fx.main.hits["/c/1"] == 2
    # blocked hops never reach the network: only the seed server was contacted
    hosts = {r.url.split("/")[2] for r in result.downloaded}
    assert hosts == {f"127.0.0.1:{fx.main.port}"}
    assert fx.cdn.hits == {}
    assert all(isinstance(r.meta.get("bara_verify"), int) and "bara" not in r.meta for r in result.downloaded)
    # Range and the page as Referer
    headers = fx.seen["/m/headers.png"]
    assert headers["range"] == "bytes=0-4095"
    assert headers["referer"] == url("/p0")
    assert headers["accept-encoding"] == "identity"

    assert result.stat("bara/verify/ok") == 15
    assert result.stat("bara/verify/cache_hit") == 3
    assert result.stat("bara/verify/rejected/blocked_private") == 7
    assert result.stat("bara/verify/rejected/blocked_scheme") == 3
    assert result.stat("bara/verify/rejected/empty_body") == 2
    assert result.stat("bara/verify/rejected/dns_error") == 1
    assert result.stat("bara/verify/rejected/too_many_redirects") == 1
    assert result.stat("bara/verify/rejected/http_404") == 1
    assert result.stat("bara/verify/rejected/html_page") == 1
    assert result.stat("bara/verify/rejected/wrong_kind") == 1
    assert result.stat("bara/verify/rejected/unknown_type") == 1
    assert result.stat("bara/verify/requests") == len(result.downloaded)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r for r in caplog.records if "Traceback" in r.getMessage()]


@ensure_deferred
async def test_unchecked_media_marks_the_page_incomplete(fx: Fixture) -> None:
    """Media that could not be checked at all (timeout, DNS) is rejected and makes an ok page incomplete."""
    url = fx.main.url
    pages = [
        page(url("/p"), images=["http://nx.test/a.png", "http://10.0.0.1/a.png"], videos=[url("/m/slow.mp4")])
    ]
    try:
        result = await crawl(url("/"), pages, FakeDnsPipeline, BARA_VERIFY_TIMEOUT=0.5)
    finally:
        fx.slow_release.set()
    (item,) = result.items
    assert (item.images, item.videos) == ([], [])
    assert rejected(item) == [
        ("http://nx.test/a.png", "dns_error"),
        ("http://10.0.0.1/a.png", "blocked_private"),
        (url("/m/slow.mp4"), "timeout"),
    ]
    assert (item.status, item.error) == ("incomplete", "unverified_media: 2")
    assert result.stat("bara/verify/rejected/timeout") == 1


@ensure_deferred
async def test_allow_private_follows_cross_host_redirects(fx: Fixture) -> None:
    url = fx.main.url
    closed = f"http://127.0.0.1:{fx.closed_port}/a.png"
    pages = [page(url("/p0"), images=[url("/m/redirect-cdn.png"), fx.cdn.url("/cdn/a.png"), closed])]
    result = await crawl(url("/"), pages, BARA_ALLOW_PRIVATE_NETWORKS=True)
    (item,) = result.items
    assert accepted(item.images) == [(url("/m/redirect-cdn.png"), "png"), (fx.cdn.url("/cdn/a.png"), "png")]
    assert item.images[0].final_url == fx.cdn.url("/cdn/a.png")
    assert item.images[0].bytes == len(image_bytes("png", "cdn"))
    assert rejected(item) == [(closed, "download_error")]
    assert (item.status, item.error) == ("incomplete", "unverified_media: 1")
    assert fx.cdn.hits["/cdn/a.png"] == 2  # via the redirect, and named directly: two canonical URLs


@ensure_deferred
async def test_seed_setting_allows_its_host(fx: Fixture) -> None:
    """BARA_SEED names the seed, whatever the spider's `seed` attribute says."""
    pages = [page(fx.cdn.url("/p"), images=[fx.cdn.url("/cdn/a.png"), fx.main.url("/m/ok.png")])]
    result = await crawl(
        "http://seed-attribute.invalid/", pages, start_url=fx.cdn.url("/"), BARA_SEED=fx.cdn.url("/")
    )
    (item,) = result.items
    assert accepted(item.images) == [(fx.cdn.url("/cdn/a.png"), "png")]
    assert rejected(item) == [(fx.main.url("/m/ok.png"), "blocked_private")]
    assert "/m/ok.png" not in fx.main.hits


@ensure_deferred
async def test_concurrency_cap(fx: Fixture) -> None:
    """With a cap of 2, exactly two checks overlap, never more, whatever the number of candidates."""
    arrivals = {"n": 0}
    lock = threading.Lock()
    both_in = threading.Event()

    def gate(info: RequestInfo) -> Route:
        with lock:
            arrivals["n"] += 1
            if arrivals["n"] >= 2:
                both_in.set()
        both_in.wait(timeout=10)  # the first waits for a second one in flight: proves overlap
        return Route(PNG, content_type="image/png")

    for i in range(6):
        fx.main.site.add(f"/gate/{i}.png", handler=gate)
    pages = [page(fx.main.url("/p"), images=[fx.main.url(f"/gate/{i}.png") for i in range(6)])]
    result = await crawl(fx.main.url("/"), pages, BARA_VERIFY_CONCURRENCY=2)
    (item,) = result.items
    assert len(item.images) == 6
    assert result.max_active == 2


@ensure_deferred
async def test_robots_txt_governs_verification_requests(fx: Fixture) -> None:
    fx.main.site.add("/robots.txt", "User-agent: *\nDisallow: /m/ok.gif\n", content_type="text/plain")
    try:
        pages = [page(fx.main.url("/p"), images=[fx.main.url("/m/ok.gif"), fx.main.url("/m/ok.png")])]
        result = await crawl(fx.main.url("/"), pages, ROBOTSTXT_OBEY=True)
    finally:
        del fx.main.site.routes["/robots.txt"]
    (item,) = result.items
    assert accepted(item.images) == [(fx.main.url("/m/ok.png"), "png")]
    assert rejected(item) == [(fx.main.url("/m/ok.gif"), "robots_forbidden")]
    assert (item.status, item.error) == ("ok", None)
    assert "/m/ok.gif" not in fx.main.hits


def test_not_configured_when_disabled() -> None:
    crawler = get_crawler(settings_dict={"BARA_VERIFY_MEDIA": False})
    with pytest.raises(NotConfigured):
        MediaVerificationPipeline.from_crawler(crawler)


@ensure_deferred
async def test_items_without_media_and_foreign_items_pass_untouched(fx: Fixture) -> None:
    pipeline = MediaVerificationPipeline(get_crawler())
    item = page(fx.main.url("/p"))
    assert await pipeline.process_item(item) is item
    foreign = {"url": "x"}
    assert await pipeline.process_item(foreign) is foreign
    assert fx.main.hits == {}


class RebindingPipeline(MediaVerificationPipeline):
    """A name whose first answer is the fixture's loopback address and every later one a private address."""

    calls: ClassVar[list[str]] = []

    @staticmethod
    def resolve(host: str) -> list[str]:
        RebindingPipeline.calls.append(host)
        return ["127.0.0.1"] if len(RebindingPipeline.calls) == 1 else ["10.9.9.9"]


@pytest.fixture
def scrapy_resolver() -> Iterator[None]:
    """The resolver `scrapy crawl` installs (CrawlerProcess); test runners keep Twisted's own."""
    from twisted.internet import reactor

    saved = reactor.resolver, reactor.nameResolver  # type: ignore[attr-defined]
    CachingThreadedResolver(reactor, 100, 5.0).install_on_reactor()  # type: ignore[arg-type]
    try:
        yield
    finally:
        reactor.installResolver(saved[0])  # type: ignore[attr-defined]
        reactor.installNameResolver(saved[1])  # type: ignore[attr-defined]


@ensure_deferred
async def test_verification_resolves_once_and_connects_to_the_checked_address(
    fx: Fixture, scrapy_resolver: None
) -> None:
    """`rebind.test` is unknown to the system resolver: a fetch succeeds only through the pinned answer."""
    RebindingPipeline.calls.clear()
    base = f"http://rebind.test:{fx.main.port}"
    pages = [page(f"{base}/p", images=[f"{base}/m/ok.png", f"{base}/m/dup.png"])]
    result = await crawl(f"{base}/", pages, pipeline=RebindingPipeline, start_url=fx.main.url("/"))
    (item,) = result.items
    assert accepted(item.images) == [(f"{base}/m/ok.png", "png"), (f"{base}/m/dup.png", "png")], rejected(item)
    assert RebindingPipeline.calls == ["rebind.test"]  # one answer, checked and used for both downloads
