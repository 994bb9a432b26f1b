"""Scoring hand-made items against a hand-written truth, and the HTTP download check."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bara_scrapy.bench.media import image_bytes, mp4_bytes
from bara_scrapy.bench.score import HttpChecker, aggregate, score_site
from bara_scrapy.bench.server import Site, SiteServer
from bara_scrapy.bench.sites import Block, Hosts, Link, MediaRef, PageSpec, SiteSpec, make_page
from bara_scrapy.bench.truth import SiteTruth, compute_truth, perfect_items

HOSTS = Hosts("http://127.0.0.1:8001", "http://127.0.0.1:8002", "http://127.0.0.1:8003")
BASE = HOSTS.site
HOME = PageSpec("/", "Home", (
    Block("static", ("Alpha sentence here. Beta sentence there.",), (Link("/a", "a"), Link("/b", "b")),
          (MediaRef("image", "srcset", "/i/x-480.jpg", ("/i/x-960.jpg",)),
           MediaRef("video", "hls", "cdn:/v/index.m3u8", ("cdn:/v/seg-0.ts",)),
           MediaRef("embed", "iframe_thirdparty", "tp:/embed/1"),
           MediaRef("image", "bad_404", "/i/gone.jpg", bad="404")),
          ("Alpha sentence here.",)),
    Block("delayed", ("Late words arrive.",), (), (MediaRef("image", "img", "/i/late.png"),), ("Late words arrive.",)),
))
SPEC = SiteSpec("t", "T", "blog", (HOME, make_page("/a", text="Page a text."), make_page("/b", text="Page b.")),
                robots_disallow=("/private/",))


def everything_downloads(url: str, kind: str) -> bool:
    return "gone" not in url


@pytest.fixture
def truth() -> SiteTruth:
    return compute_truth(SPEC, HOSTS)


@pytest.fixture
def items(truth: SiteTruth) -> list[dict[str, Any]]:
    return copy.deepcopy(perfect_items(truth))


def test_perfect_items_score_perfectly(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    s = score_site(SPEC, truth, items, checker=everything_downloads)
    assert s.exact and s.pages.precision == 1.0 and s.pages.recall == 1.0 and s.bfs_agree == 3
    assert s.text.recall == 1.0 and s.images.recall == 1.0 and s.images.precision == 1.0
    assert s.videos.recall == 1.0 and s.embeds.recall == 1.0
    assert s.media_checked == 3 and s.media_downloadable == 3 and s.bad_leaked == [] and s.bad_expected == 1
    assert s.quirks["delayed"]["images"].found == 1 and s.quirks["delayed"]["text"].found == 1
    assert s.extra_pages == {}


def test_missing_page_lowers_recall_only(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    s = score_site(SPEC, truth, [i for i in items if not i["url"].endswith("/a")], checker=everything_downloads)
    assert not s.exact and s.pages.recall == pytest.approx(2 / 3) and s.pages.precision == 1.0
    assert s.text.expected == 3  # extraction is scored on pages found only
    assert s.quirks["plain"]["pages"].expected == 3 and s.quirks["plain"]["pages"].found == 2


def test_extra_pages_lower_precision_and_say_why(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    extra = [dict(items[1], url=f"{BASE}/private/x", bfs_index=3), dict(items[1], url=f"{BASE}/c", bfs_index=4),
             dict(items[1], url=f"{BASE}/login", bfs_index=5), dict(items[1], url=f"{BASE}/a?utm_source=x")]
    s = score_site(SPEC, truth, items + extra, checker=everything_downloads)
    assert not s.exact and s.pages.recall == 1.0 and s.pages.precision == pytest.approx(3 / 7)
    assert s.extra_pages == {"robots": 1, "missing_page": 1, "denied": 1, "not_canonical": 1}


def test_leaked_bad_media_and_wrong_urls(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    home = items[0]
    home["images"] = [{"url": f"{BASE}/i/x-960.jpg"}, {"url": f"{BASE}/i/gone.jpg"}, {"url": f"{BASE}/i/other.jpg"}]
    s = score_site(SPEC, truth, items, checker=everything_downloads)
    assert s.bad_leaked == [f"{BASE}/i/gone.jpg"] and s.quirks["bad_404"]["bad"].found == 1
    assert s.images.expected == 2 and s.images.found == 1  # the srcset variant counts, the late image is missing
    assert s.images.returned == 3 and s.images.correct == 1
    assert s.media_checked == 4 and s.media_downloadable == 3


def test_bfs_index_disagreement_and_duplicates(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    items[1]["bfs_index"], items[2]["bfs_index"] = 2, 1
    s = score_site(SPEC, truth, [*items, items[0]], checker=everything_downloads)
    assert s.exact and s.bfs_agree == 1 and s.duplicate_items == 1


def test_text_match_ignores_case_and_whitespace(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    items[0]["text"] = "ALPHA   sentence\nhere. (late words arrive missing)"
    s = score_site(SPEC, truth, items, checker=everything_downloads)
    assert s.text.expected == 4 and s.text.found == 3  # "Late words arrive." is not there


def test_aggregate_sums_sites_and_quirks(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    good = score_site(SPEC, truth, items, checker=everything_downloads)
    half = score_site(SPEC, truth, items[:1], checker=everything_downloads)
    agg = aggregate([good, half])
    assert agg["sites"] == 2 and agg["pages"]["expected"] == 6 and agg["pages"]["found"] == 4
    assert agg["pages"]["exact_sites"] == 1 and agg["pages"]["exact_rate"] == 0.5
    assert agg["pages"]["macro_recall"] == pytest.approx((1 + 1 / 3) / 2)
    assert agg["quirks"]["plain"]["recall"] == pytest.approx(4 / 6)
    assert agg["quirks"]["bad_404"]["bad_expected"] == 2 and agg["quirks"]["bad_404"]["bad_leaked"] == 0
    assert agg["downloadable"]["rate"] == 1.0 and agg["bad"]["leaked"] == 0


def test_http_checker_fetches_and_sniffs() -> None:
    site = Site()
    site.add("/ok.png", image_bytes("png", "a"), content_type="image/png")
    site.add("/ok.mp4", mp4_bytes("a"), content_type="application/octet-stream")
    site.add("/html.jpg", "<html>sorry</html>")
    site.add("/wrong.mp4", image_bytes("png", "b"), content_type="video/mp4")
    site.add("/moved.png", status=302, headers={"Location": "/ok.png"})
    with SiteServer(site) as server:
        check = HttpChecker(timeout=5)
        assert check(server.url("/ok.png"), "image") and check(server.url("/moved.png"), "image")
        assert check(server.url("/ok.mp4"), "video")
        assert not check(server.url("/ok.png"), "video")
        assert not check(server.url("/html.jpg"), "image") and not check(server.url("/wrong.mp4"), "video")
        assert not check(server.url("/missing.png"), "image")
        assert not check("blob:http://x/1", "video")
        assert server.hits["/ok.png"] == 2  # once directly, once through the redirect; cached afterwards


def test_attempts_and_wasted_attempts_are_counted(truth: SiteTruth, items: list[dict[str, Any]]) -> None:
    items = copy.deepcopy(items)
    items[0]["attempts"] = [{"text_chars": 90, "images": 1, "links": 2}, {"text_chars": 90, "images": 1, "links": 2}]
    items[1]["attempts"] = [{"text_chars": 10}, {"text_chars": 50}]
    s = score_site(SPEC, truth, items, checker=everything_downloads)
    assert s.attempts == sum(len(i.get("attempts") or ()) for i in items) >= 4
    assert s.wasted_attempts == 1  # the second attempt of the first page found nothing new
    assert aggregate([s])["attempts"]["wasted"] == 1


def test_comments_are_scored_in_their_own_field() -> None:
    """A comment's key sentence counts in `comments` (recall); another key sentence there costs precision."""
    page = PageSpec("/", "Home", (Block("static", ("The post itself.",), key=("The post itself.",)),
                                  Block("static", (), key=("First!", "Nice read."), layout="comment_cards",
                                        items=(("ann", "First!"), ("bob", "Nice read.")))))
    spec = SiteSpec("c", "C", "blog", (page,))
    truth = compute_truth(spec, HOSTS)
    items = perfect_items(truth)
    assert items[0]["comments"] == [
        {"author": None, "text": "First!"}, {"author": None, "text": "Nice read."}]
    s = score_site(spec, truth, items, checker=everything_downloads)
    assert (s.comments.expected, s.comments.found, s.comments.precision) == (2, 2, 1.0)
    items[0]["comments"] = [{"author": "ann", "text": "First!"}, {"author": None, "text": "The post itself."}]
    s = score_site(spec, truth, items, checker=everything_downloads)
    assert s.comments.recall == 0.5 and s.comments.precision == 0.5
    assert aggregate([s])["comments"]["recall"] == 0.5
