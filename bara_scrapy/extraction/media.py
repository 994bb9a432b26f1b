"""Turn raw candidates and the network log into Media lists (pure).

One `<img>` with its `srcset`/`<picture>` sources is one image: the URL the
page actually loaded (or its lazy URL) is primary, the others are variants.
Lazy placeholders (a `src` that differs from the element's lazy `data-*` URL)
are never returned. `blob:` videos are resolved to the manifest or file the
network log shows; network images count only when the DOM referenced them
(so pixels and sprites do not leak in, while recycled list nodes still do).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ..items import Media
from ..snapshot import NetworkEntry, RawCandidate
from ..urls import canonicalize_media, is_http_url

MANIFEST_SUFFIXES = (".m3u8", ".mpd")
VIDEO_FILE_SUFFIXES = (".mp4", ".m4v", ".webm", ".mov", ".ogv", ".mkv")
SEGMENT_SUFFIXES = (".ts", ".m4s", ".aac", ".m4a")
# preference of a group's primary URL: what the browser loaded first
_PRIMARY_ORDER = ("img@currentSrc", "img@src", "video@currentSrc", "video@src", "source@src")


@dataclass
class MediaSet:
    images: list[Media] = field(default_factory=list)
    videos: list[Media] = field(default_factory=list)
    embeds: list[Media] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)


def _is_manifest(entry: NetworkEntry) -> bool:
    path = urlsplit(entry.url).path.lower()
    ctype = entry.content_type.lower()
    return path.endswith(MANIFEST_SUFFIXES) or "mpegurl" in ctype or "dash+xml" in ctype


def _is_video_file(entry: NetworkEntry) -> bool:
    path = urlsplit(entry.url).path.lower()
    ctype = entry.content_type.lower()
    if path.endswith(SEGMENT_SUFFIXES) or "mp2t" in ctype:
        return False
    return path.endswith(VIDEO_FILE_SUFFIXES) or ctype.startswith("video/")


class _Collector:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.by_url: dict[str, Media] = {}

    def add(self, url: str, found_in: Iterable[str], variants: Iterable[str] = (),
            alt: str | None = None, context: str | None = None, furniture: bool | None = None) -> None:
        """Add a sighting; `furniture` None is no evidence of where on the page (a network response)."""
        media = self.by_url.get(url)
        if media is None:
            media = Media(url=url, kind=self.kind, found_in=list(dict.fromkeys(found_in)), alt=alt or None,  # type: ignore[arg-type]
                          context=context or None, furniture=bool(furniture))
            self.by_url[url] = media
        else:
            media.found_in = list(dict.fromkeys([*media.found_in, *found_in]))
            media.alt = media.alt or alt or None
            media.context = media.context or context or None
            if furniture is not None:  # furniture only while every sighting on the page is in the furniture
                media.furniture = media.furniture and furniture
        for v in variants:
            if v != url and v not in media.variants:
                media.variants.append(v)

    def values(self) -> list[Media]:
        return list(self.by_url.values())


def _group_primary(cands: list[RawCandidate]) -> tuple[RawCandidate, list[RawCandidate]]:
    lazy = [c for c in cands if c.found_in.startswith("img@data-") and "srcset" not in c.found_in]
    usable = cands
    if lazy:
        lazy_urls = {c.url for c in lazy}
        # a src that differs from the lazy URL is a placeholder, not content
        usable = [c for c in cands if not (c.found_in == "img@src" and c.url not in lazy_urls)]
    for where in _PRIMARY_ORDER:
        for c in usable:
            if c.found_in == where and (not lazy or c.url in {x.url for x in lazy} or where != "img@src"):
                return c, [x for x in usable if x is not c]
    if lazy:
        return lazy[0], [x for x in usable if x is not lazy[0]]
    return usable[0], usable[1:]


def build_media(candidates: Iterable[RawCandidate], network: Iterable[NetworkEntry]) -> MediaSet:
    images, videos, embeds = _Collector("image"), _Collector("video"), _Collector("embed")
    out = MediaSet()
    groups: dict[str, list[RawCandidate]] = {}
    blobs: list[str] = []
    dom_urls: set[str] = set()
    for cand in candidates:
        if cand.url.startswith("blob:"):
            if cand.kind == "video":
                blobs.append(cand.url)
            continue
        if not is_http_url(cand.url):
            continue
        cand = cand.model_copy(update={"url": canonicalize_media(cand.url)})
        dom_urls.add(cand.url)
        if cand.kind == "embed":
            embeds.add(cand.url, [cand.found_in], context=cand.context)
        elif cand.group:
            groups.setdefault(cand.group, []).append(cand)
        else:
            (videos if cand.kind == "video" else images).add(cand.url, [cand.found_in], alt=cand.alt,
                                                             context=cand.context, furniture=cand.furniture)
    for members in groups.values():
        kinds = {c.kind for c in members}
        collector = videos if "video" in kinds else images
        if collector is videos:
            for c in members:  # each <source> of a video is a separate rendition
                collector.add(c.url, [c.found_in], context=c.context, furniture=c.furniture)
            continue
        primary, rest = _group_primary(members)
        found = [primary.found_in] + [c.found_in for c in rest if c.url == primary.url]
        variants = list(dict.fromkeys(c.url for c in rest if c.url != primary.url))
        collector.add(primary.url, found, variants, alt=primary.alt, context=primary.context,
                      furniture=all(c.furniture for c in members))

    entries = [e for e in network if is_http_url(e.url) and (e.status is None or e.status in (200, 206))]
    manifests = [e for e in entries if _is_manifest(e)]
    files = [e for e in entries if _is_video_file(e)]
    for e in manifests + files:
        videos.add(canonicalize_media(e.url), ["network"])
    for e in entries:
        url = canonicalize_media(e.url)
        if url in images.by_url:
            images.add(url, ["network"])
    if blobs and not (manifests or files):
        out.unresolved = list(dict.fromkeys(blobs))
    out.images, out.videos, out.embeds = images.values(), videos.values(), embeds.values()
    # a video rendition also listed as an image (poster mix-ups) stays a video
    video_urls = {m.url for m in out.videos}
    out.images = [m for m in out.images if m.url not in video_urls]
    return out
