"""Serving bench sites: pages, ranged media, robots.txt, flaky pages, redirects, APIs, the other hosts."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from bara_scrapy.bench.generate import generate_sites
from bara_scrapy.bench.score import HttpChecker, score_variant, sniff
from bara_scrapy.bench.serve import BenchServer
from bara_scrapy.bench.sites import Block, Link, MediaRef, PageSpec, SiteSpec, make_page
from bara_scrapy.bench.truth import perfect_items, site_path


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def fetch(url: str, headers: dict[str, str] | None = None, follow: bool = True) -> tuple[int, dict[str, str], bytes]:
    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=10) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


SPEC = SiteSpec(
    "s00", "Served", "shop",
    (
        PageSpec("/", "Home", (
            Block("static", ("Home text.",), (Link("/flaky", "flaky"), Link("/old", "old")),
                  (MediaRef("image", "img", "/media/a.png"),
                   MediaRef("image", "redirect_cdn", "/r/b.jpg", ("cdn:/s00/img/b.jpg",)),
                   MediaRef("video", "hls", "cdn:/s00/hls/x/index.m3u8", ("cdn:/s00/hls/x/seg-0.ts",)),
                   MediaRef("image", "bad_html200", "/media/broken.jpg", bad="html200"),
                   MediaRef("video", "bad_wrong_kind", "/media/clip.mp4", bad="wrong_kind"),
                   MediaRef("embed", "iframe_thirdparty", "tp:/embed/s00-1"))),
            Block("feed", ("Fed.",), (Link("/a", "a"), Link("/b", "b")), (), ("Fed.",)),
        )),
        make_page("/flaky", quirks=("flaky_503",)),
        make_page("/new"),
        make_page("/private/x"),
    ),
    redirects=(("/old", "/new"),), robots_disallow=("/private/",), calendar="/events",
    footer=(Link("/files/b.pdf", "PDF"),),
)


@pytest.fixture(scope="module")
def bench() -> Iterator[BenchServer]:
    with BenchServer([SPEC]) as server:
        yield server


def test_page_and_robots(bench: BenchServer) -> None:
    status, headers, body = fetch(bench.seed_url("s00"))
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"Home text." in body and b"<title>Home | Served</title>" in body
    status, _, body = fetch(bench.sites["s00"].url("/robots.txt"))
    assert status == 200 and body.decode() == "User-agent: *\nDisallow: /private/\n"


def test_image_supports_range(bench: BenchServer) -> None:
    status, headers, body = fetch(bench.sites["s00"].url("/media/a.png"), {"Range": "bytes=0-15"})
    assert status == 206 and len(body) == 16 and headers["Content-Range"].startswith("bytes 0-15/")
    assert sniff(body) == "png"


def test_flaky_page_fails_first_hit_only_until_reset(bench: BenchServer) -> None:
    url = bench.sites["s00"].url("/flaky")
    assert fetch(url)[0] == 503
    assert fetch(url)[0] == 200
    bench.reset_hits()
    assert fetch(url)[0] == 503


def test_redirects_page_and_media_to_cdn(bench: BenchServer) -> None:
    status, headers, _ = fetch(bench.sites["s00"].url("/old"), follow=False)
    assert status == 301 and headers["Location"] == bench.sites["s00"].url("/new")
    status, headers, _ = fetch(bench.sites["s00"].url("/r/b.jpg"), follow=False)
    assert status == 302 and headers["Location"] == bench.cdn.url("/s00/img/b.jpg")
    status, headers, body = fetch(bench.sites["s00"].url("/r/b.jpg"))
    assert status == 200 and sniff(body) == "jpeg" and headers["Access-Control-Allow-Origin"] == "*"


def test_cdn_manifest_and_segments(bench: BenchServer) -> None:
    status, _, body = fetch(bench.cdn.url("/s00/hls/x/index.m3u8"))
    assert status == 200 and body.startswith(b"#EXTM3U") and b"seg-0.ts" in body
    assert sniff(fetch(bench.cdn.url("/s00/hls/x/seg-0.ts"))[2]) == "ts"


def test_bad_media_really_is_bad(bench: BenchServer) -> None:
    status, _, body = fetch(bench.sites["s00"].url("/media/broken.jpg"))
    assert status == 200 and sniff(body) is None
    status, headers, body = fetch(bench.sites["s00"].url("/media/clip.mp4"))
    assert status == 200 and headers["Content-Type"] == "video/mp4" and sniff(body) == "png"
    assert fetch(bench.sites["s00"].url("/media/never.jpg"))[0] == 404


def test_feed_api_calendar_pdf_and_embed(bench: BenchServer) -> None:
    batch = json.loads(fetch(bench.sites["s00"].url("/api/feed/0/1/0"))[2])
    assert batch["more"] is True and 'href="/a"' in batch["html"] and "Fed." in batch["html"]
    last = json.loads(fetch(bench.sites["s00"].url("/api/feed/0/1/1"))[2])
    assert last["more"] is False and 'href="/b"' in last["html"]
    status, _, body = fetch(bench.sites["s00"].url("/events?month=41"))
    assert status == 200 and b"/events?month=42" in body
    assert fetch(bench.sites["s00"].url("/events?month=x"))[0] == 404
    status, _, body = fetch(bench.sites["s00"].url("/files/b.pdf"))
    assert status == 200 and body.startswith(b"%PDF")
    status, _, body = fetch(bench.thirdparty.url("/embed/s00-1"))
    assert status == 200 and b"s00-1" in body


def test_every_truth_page_is_served_at_its_url(bench: BenchServer) -> None:
    truth = bench.truth("s00")
    assert [site_path(p.url) for p in truth.pages] == ["/", "/flaky", "/old", "/a", "/b"]
    assert [p.status for p in truth.pages] == ["ok", "ok", "ok", "failed", "failed"]
    bench.reset_hits()
    assert [fetch(p.url)[0] for p in truth.pages] == [200, 503, 200, 404, 404]


def test_default_sites_serve_every_expected_medium_and_no_bad_one() -> None:
    specs = generate_sites(50, seed=0)
    check = HttpChecker(timeout=10)
    with BenchServer(specs) as server:
        truths = {s.site_id: server.truth(s.site_id) for s in specs}
        items = {sid: perfect_items(t) for sid, t in truths.items()}
        for spec, score in zip(specs, score_variant(specs, truths, items, checker=check), strict=True):
            assert score.exact and score.images.recall in (1.0, None) and score.bad_leaked == []
            assert score.media_downloadable == score.media_checked, spec.site_id
            budget = truths[spec.site_id].budget
            assert server.crawl_args(spec.site_id)["max_pages"] == budget.max_pages == (
                spec.budget.max_pages if spec.budget else 100)
        for truth in truths.values():
            for page in truth.pages:
                for media in (*page.images, *page.videos):
                    assert all(check(v, media.kind) for v in media.variants), media
                for bad in page.bad:
                    assert not check(bad.url, bad.kind), bad
                if page.status == "failed":
                    assert fetch(page.url)[0] == 404
