"""MediaStorePipeline as a component in a real (browserless) crawl: stored copies, checksums, the SSRF guard."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from bara_scrapy.bench.media import hls_manifest, image_bytes, mp4_bytes
from bara_scrapy.bench.server import Site, SiteServer
from bara_scrapy.items import Media, PageItem
from bara_scrapy.pipelines.store import MediaStorePipeline
from tests.component.test_verification import crawl, ensure_deferred

PNG = image_bytes("png", "stored", (40, 30))
MP4 = mp4_bytes("stored")
M3U8 = hls_manifest(["/seg-0.ts", "/seg-1.ts"])
CAP = max(len(PNG), len(MP4), len(M3U8)) + 100
BIG = PNG + bytes(CAP)


def verified(url: str, kind: str = "image", final_url: str | None = None, size: int | None = None) -> Media:
    return Media(url=url, kind=kind, found_in=["img@src" if kind == "image" else "video@src"], verified=True,
                 http_status=206, final_url=final_url or url, bytes=size)


@pytest.fixture
def servers() -> Any:
    site, other = Site(), Site()
    site.add("/", "<p>page</p>")
    site.add("/a.png", PNG, content_type="image/png")
    site.add("/v.mp4", MP4, content_type="video/mp4")
    site.add("/live.m3u8", M3U8, content_type="application/vnd.apple.mpegurl")
    site.add("/big.png", BIG, content_type="image/png")
    other.add("/secret.png", PNG, content_type="image/png")
    with SiteServer(site) as main, SiteServer(other) as private:
        site.add("/moved.png", "", status=302, headers={"Location": private.url("/secret.png")})
        yield main, private


@ensure_deferred
async def test_verified_media_are_stored_with_path_and_checksum_and_the_guard_holds(
    servers: tuple[SiteServer, SiteServer], tmp_path: Path
) -> None:
    main, private = servers
    store = tmp_path / "files"
    item = PageItem(
        url=main.url("/"), final_url=main.url("/"), depth=0, bfs_index=0, status="ok", text="t",
        images=[
            verified(main.url("/a.png"), size=len(PNG)),
            verified(private.url("/secret.png")),  # another loopback host: the guard refuses it
            verified(main.url("/moved.png")),  # now redirects to that host: never followed
            verified(main.url("/big.png"), size=len(BIG)),  # over the cap (known size)
            verified(main.url("/big.png") + "?unknown", final_url=main.url("/big.png") + "?x"),  # cut off
        ],
        videos=[verified(main.url("/v.mp4"), "video"), verified(main.url("/live.m3u8"), "video")],
    )
    result = await crawl(
        main.url("/"), [item], pipeline=MediaStorePipeline,
        BARA_STORE_MEDIA=True, FILES_STORE=str(store), BARA_STORE_MAX_BYTES=CAP,
    )
    [out] = result.items
    paths = {m.url.rsplit("/", 1)[1]: m for m in out.images + out.videos}
    for name, body in (("a.png", PNG), ("v.mp4", MP4), ("live.m3u8", M3U8)):
        media = paths[name]
        assert media.path and media.checksum, name
        stored = (store / media.path).read_bytes()
        assert stored == body
        assert hashlib.md5(stored).hexdigest() == media.checksum
    for name in ("secret.png", "moved.png", "big.png", "big.png?unknown"):
        assert paths[name].path is None and paths[name].checksum is None, name
    assert private.hits == {}  # neither directly nor through the redirect
    assert not any(p.endswith(".ts") for p in main.hits)  # a manifest is stored, not its segments
    assert main.hits["/big.png"] == 0 and main.hits["/big.png?x"] == 1  # known size skipped, unknown cut off
    assert result.stat("bara/store/stored") == 3
    assert result.stat("bara/store/skipped/blocked_private") == 1
    assert result.stat("bara/store/skipped/too_large") == 1
    assert result.stat("bara/store/failed") == 2  # the redirect and the cut-off download
    assert sorted(p.name for p in (store / "full").iterdir()) == sorted(Path(m.path or "").name for m in
                                                                         (paths["a.png"], paths["v.mp4"],
                                                                          paths["live.m3u8"]))


def test_store_is_off_by_default_and_needs_files_store() -> None:
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.test import get_crawler

    with pytest.raises(NotConfigured) as off:  # off by default: no message, so Scrapy logs no warning
        MediaStorePipeline.from_crawler(get_crawler())
    assert off.value.args == ()
    with pytest.raises(NotConfigured, match="FILES_STORE"):
        MediaStorePipeline.from_crawler(get_crawler(settings_dict={"BARA_STORE_MEDIA": True}))
