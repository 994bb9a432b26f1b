"""Pure extraction: media grouping, placeholders, blob resolution, served-HTML text fallback, static snapshots."""

from __future__ import annotations

from bara_scrapy.extraction.dom import extract_dom, page_text
from bara_scrapy.extraction.media import build_media
from bara_scrapy.extraction.static import snapshot_from_html
from bara_scrapy.snapshot import NetworkEntry, PageSnapshot, RawCandidate

BASE = "http://site.test/"


def cand(url: str, found_in: str, kind: str = "image", group: str | None = "g1") -> RawCandidate:
    return RawCandidate(url=url, kind=kind, found_in=found_in, group=group)


def test_srcset_group_is_one_image_with_variants() -> None:
    media = build_media([cand(BASE + "a.jpg", "img@src"), cand(BASE + "a-2x.jpg", "img@srcset"),
                         cand(BASE + "a.webp", "picture>source@srcset")], [])
    assert [m.url for m in media.images] == [BASE + "a.jpg"]
    assert media.images[0].variants == [BASE + "a-2x.jpg", BASE + "a.webp"]


def test_lazy_placeholder_is_never_returned() -> None:
    media = build_media([cand(BASE + "grey.gif", "img@src"), cand(BASE + "real.png", "img@data-src")], [])
    assert [m.url for m in media.images] == [BASE + "real.png"]
    assert media.images[0].found_in == ["img@data-src"]


def test_loaded_lazy_image_keeps_both_provenances() -> None:
    media = build_media([cand(BASE + "real.png", "img@data-src"), cand(BASE + "real.png", "img@src")], [])
    assert [(m.url, sorted(m.found_in)) for m in media.images] == [(BASE + "real.png", ["img@data-src", "img@src"])]


def test_blob_video_resolves_to_the_network_manifest_or_stays_unresolved() -> None:
    blob = cand("blob:http://site.test/1234", "video@src", kind="video", group="v1")
    manifest = NetworkEntry(url=BASE + "v/master.m3u8", resource_type="fetch", status=200,
                            content_type="application/vnd.apple.mpegurl")
    segment = NetworkEntry(url=BASE + "v/seg1.ts", resource_type="fetch", status=200, content_type="video/mp2t")
    resolved = build_media([blob], [manifest, segment])
    assert [(m.url, m.found_in) for m in resolved.videos] == [(BASE + "v/master.m3u8", ["network"])]
    assert resolved.unresolved == []
    assert build_media([blob], []).unresolved == ["blob:http://site.test/1234"]


def test_network_images_count_only_when_the_dom_referenced_them() -> None:
    pixel = NetworkEntry(url=BASE + "pixel.gif", resource_type="image", status=200, content_type="image/gif")
    seen = NetworkEntry(url=BASE + "a.jpg", resource_type="image", status=200, content_type="image/jpeg")
    media = build_media([cand(BASE + "a.jpg", "img@src")], [pixel, seen])
    assert [(m.url, m.found_in) for m in media.images] == [(BASE + "a.jpg", ["img@src", "network"])]


def test_data_urls_are_never_media_and_iframes_are_embeds() -> None:
    media = build_media([cand("data:image/png;base64,AAAA", "img@src"),
                         cand("https://player.test/embed/1", "iframe@src", kind="embed", group=None)], [])
    assert media.images == [] and [m.url for m in media.embeds] == ["https://player.test/embed/1"]


ARTICLE = "<html><body><main><h1>Story</h1>" + "".join(
    f"<p>Paragraph {i} of the article tells a long and careful story about the harbour.</p>" for i in range(20)
) + "</main></body></html>"


def test_text_falls_back_to_the_served_html_when_a_script_replaced_the_article() -> None:
    notice = "<html><body><p>This page is not available right now.</p></body></html>"
    snap = PageSnapshot(url=BASE, final_url=BASE, html=notice, body_text="This page is not available right now.",
                        source_html=ARTICLE)
    assert "Paragraph 19 of the article" in page_text(snap).text


def test_rendered_text_wins_for_script_built_pages() -> None:
    skeleton = "<html><body><div id=app></div><noscript>Enable JavaScript.</noscript></body></html>"
    snap = PageSnapshot(url=BASE, final_url=BASE, html=ARTICLE, source_html=skeleton)
    assert "Paragraph 3 of the article" in page_text(snap).text


def test_static_snapshot_reads_links_media_and_markers() -> None:
    html = (
        '<html><head><base href="/sub/"><meta property="og:image" content="/og.png"></head><body>'
        '<a href="a">A</a><a href="mailto:x@y">m</a><img src="grey.gif" data-src="lazy.png">'
        '<img class="lazyload" src="data:image/gif;base64,R0lGOD">'
        '<video poster="p.jpg"><source src="v.mp4"></video><video></video>'
        '<div style="background-image:url(\'bg.jpg\')"></div><iframe src="https://tube.test/e/1"></iframe>'
        '<script type="application/ld+json">{"@type":"VideoObject","contentUrl":"/ld.mp4"}</script>'
        "<p>Body text.</p></body></html>"
    )
    snap = snapshot_from_html(BASE, BASE, 200, html)
    assert snap.links[:2] == [BASE + "sub/a", "mailto:x@y"]
    urls = {(c.url, c.found_in) for c in snap.candidates}
    assert (BASE + "sub/lazy.png", "img@data-src") in urls and (BASE + "og.png", "meta@og:image") in urls
    assert (BASE + "sub/v.mp4", "source@src") in urls and (BASE + "ld.mp4", "json-ld") in urls
    assert (BASE + "sub/bg.jpg", "css@background-image") in urls
    # the data-src image's URL is known; only the lazy image with no URL anywhere is missing media
    assert snap.markers.lazy_placeholders == 1 and snap.markers.empty_videos == 1
    extraction = extract_dom(snap)
    assert [m.url for m in extraction.embeds] == ["https://tube.test/e/1"]
    assert "Body text." in extraction.text
