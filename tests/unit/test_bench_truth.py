"""Ground truth on small hand-written specs: the sequential BFS reference of docs/design.md."""

from __future__ import annotations

from bara_scrapy.bench.sites import Block, Budget, Hosts, Link, MediaRef, PageSpec, SiteSpec, make_page
from bara_scrapy.bench.truth import compute_truth

HOSTS = Hosts("http://127.0.0.1:8001", "http://127.0.0.1:8002", "http://127.0.0.1:8003")
BASE = HOSTS.site


def site(*pages: PageSpec, **kwargs: object) -> SiteSpec:
    return SiteSpec("t", "Test", "blog", tuple(pages), **kwargs)  # type: ignore[arg-type]


def admitted(spec: SiteSpec, budget: Budget | None = None) -> list[tuple[str, int]]:
    return [(p.url.removeprefix(BASE), p.depth) for p in compute_truth(spec, HOSTS, budget).pages]


def test_width_counts_only_allowed_distinct_links() -> None:
    home = make_page("/", ["mailto:a@b.invalid", "https://other.invalid/", "/login", "cdn:/x", "/a", "/a#f",
                           "/b", "/c", "/d"])
    spec = site(home, *(make_page(p) for p in ("/a", "/b", "/c", "/d")))
    truth = compute_truth(spec, HOSTS, Budget(max_width=2))
    assert [(p.url.removeprefix(BASE)) for p in truth.pages] == ["/", "/a", "/b"]
    assert truth.pages[0].width_dropped == 2
    assert truth.width_bound


def test_nav_and_footer_links_count_in_dom_order() -> None:
    spec = site(make_page("/", ["/main"]), make_page("/main"), make_page("/nav"), make_page("/foot"),
                nav=(Link("/nav", "Nav"),), footer=(Link("/foot", "Foot"),))
    assert admitted(spec, Budget(max_depth=1, max_width=2)) == [("/", 0), ("/nav", 1), ("/main", 1)]


def test_page_budget_binds_mid_level() -> None:
    spec = site(make_page("/", ["/a", "/b"]), make_page("/a", ["/c", "/d"]), make_page("/b", ["/e"]),
                *(make_page(p) for p in ("/c", "/d", "/e")))
    truth = compute_truth(spec, HOSTS, Budget(max_pages=4))
    assert [(p.url.removeprefix(BASE), p.bfs_index) for p in truth.pages] == [("/", 0), ("/a", 1), ("/b", 2),
                                                                              ("/c", 3)]
    assert truth.dropped_by_budget == 2  # /d and /e


def test_site_budget_overrides_the_default() -> None:
    spec = site(make_page("/", ["/a", "/b"]), make_page("/a"), make_page("/b"), budget=Budget(max_pages=2))
    assert admitted(spec, Budget(max_pages=100)) == [("/", 0), ("/a", 1)]


def test_robots_disallowed_links_are_dropped_and_do_not_count_toward_width() -> None:
    spec = site(make_page("/", ["/private/x", "/a", "/private/y", "/b"]), make_page("/private/x"),
                make_page("/a"), make_page("/b"), robots_disallow=("/private/",))
    assert admitted(spec, Budget(max_width=2)) == [("/", 0), ("/a", 1), ("/b", 1)]


def test_tracking_parameters_fragments_and_absolute_forms_dedupe() -> None:
    spec = site(make_page("/", ["/a?utm_source=x&utm_medium=y", "/a#frag", "site:/a", "/a", "/b?y=2&x=1",
                                "/b?x=1&y=2&fbclid=z", "/c"]),
                make_page("/a"), make_page("/b?x=1&y=2"), make_page("/c"))
    truth = compute_truth(spec, HOSTS, Budget(max_width=3))
    assert [p.url for p in truth.pages] == [f"{BASE}/", f"{BASE}/a", f"{BASE}/b?x=1&y=2", f"{BASE}/c"]


def test_redirect_target_counts_as_seen() -> None:
    spec = site(make_page("/", ["/old", "/x"]), make_page("/x", ["/new"]), make_page("/new", ["/y"]),
                make_page("/y"), redirects=(("/old", "/new"),))
    truth = compute_truth(spec, HOSTS)
    assert [(p.url.removeprefix(BASE), p.depth) for p in truth.pages] == [("/", 0), ("/old", 1), ("/x", 1),
                                                                          ("/y", 2)]
    old = truth.pages[1]
    assert old.final_url == f"{BASE}/new" and "redirect" in old.quirks
    assert old.links == (f"{BASE}/y",)  # the target's links, resolved against the target


def test_redirect_target_linked_before_the_redirect_is_expanded_is_its_own_page() -> None:
    spec = site(make_page("/", ["/new", "/old"]), make_page("/new"), redirects=(("/old", "/new"),))
    assert admitted(spec) == [("/", 0), ("/new", 1), ("/old", 1)]


def test_depth_limit_cuts_a_deep_branch() -> None:
    spec = site(make_page("/", ["/1"]), make_page("/1", ["/2"]), make_page("/2", ["/3"]), make_page("/3", ["/4"]),
                make_page("/4"))
    truth = compute_truth(spec, HOSTS, Budget(max_depth=2))
    assert [(p.url.removeprefix(BASE), p.depth) for p in truth.pages] == [("/", 0), ("/1", 1), ("/2", 2)]
    assert truth.depth_cut == 1


def test_missing_page_is_admitted_failed_without_links() -> None:
    spec = site(make_page("/", ["/gone", "/a"]), make_page("/a"))
    truth = compute_truth(spec, HOSTS)
    gone = truth.page(f"{BASE}/gone")
    assert gone is not None and gone.status == "failed" and gone.links == () and gone.images == ()


def test_calendar_trap_is_bounded_by_depth() -> None:
    spec = site(make_page("/", ["/events?month=1"]), calendar="/events")
    truth = compute_truth(spec, HOSTS, Budget(max_depth=3))
    assert [p.url.removeprefix(BASE) for p in truth.pages] == [
        "/", "/events?month=1", "/events?month=0", "/events?month=2", "/events?month=3"]
    assert all("calendar" in p.quirks for p in truth.pages[1:])


def test_expected_media_variants_posters_bad_and_quirk_tags() -> None:
    media = (
        MediaRef("image", "srcset", "cdn:/i/a-480.jpg", ("cdn:/i/a-960.jpg",)),
        MediaRef("video", "video_src", "/v/b.mp4", poster="/i/p.jpg"),
        MediaRef("embed", "iframe_thirdparty", "tp:/embed/1"),
        MediaRef("image", "bad_404", "/i/missing.jpg", bad="404"),
    )
    dynamic = Block("feed", ("Fed text.",), (), (MediaRef("image", "img", "/i/f.png"),), ("Fed text.",))
    page = make_page("/", media=media, text="Static text.")
    page = PageSpec("/", "Home", (*page.blocks, dynamic), ("flaky_503",))
    truth = compute_truth(site(page), HOSTS).pages[0]
    srcset, poster, fed = truth.images
    assert srcset.url == "http://127.0.0.1:8002/i/a-480.jpg" and srcset.matches("http://127.0.0.1:8002/i/a-960.jpg")
    assert set(srcset.quirks) == {"srcset", "cdn", "flaky_503"}
    assert poster.url == f"{BASE}/i/p.jpg" and "poster" in poster.quirks
    assert fed.quirks == ("img", "feed", "flaky_503")
    assert [v.url for v in truth.videos] == [f"{BASE}/v/b.mp4"]
    assert [e.url for e in truth.embeds] == ["http://127.0.0.1:8003/embed/1"]
    assert [b.url for b in truth.bad] == [f"{BASE}/i/missing.jpg"]
    assert [(k.text, k.quirks) for k in truth.key_sentences] == [("Static text.", ("flaky_503",)),
                                                                 ("Fed text.", ("flaky_503", "feed"))]


def test_links_from_dynamic_blocks_tag_the_pages_they_admit() -> None:
    home = PageSpec("/", "Home", (Block("static", links=(Link("/a", "a"),)),
                                  Block("load_more", links=(Link("/b", "b"), Link("/a", "again")))))
    truth = compute_truth(site(home, make_page("/a"), make_page("/b")), HOSTS)
    assert [(p.url.removeprefix(BASE), p.quirks) for p in truth.pages] == [("/", ()), ("/a", ()),
                                                                           ("/b", ("load_more",))]
