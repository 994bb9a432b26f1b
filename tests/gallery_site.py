"""A generated gallery site of N pages for reports, progress and stored media (tests and measurements).

Page i links to pages FANOUT*i+1 .. FANOUT*i+FANOUT (and home), so with W > FANOUT the BFS admits
them in index order. Every 37th page (i % 37 == 20) is missing (404): a failed item whose children are
never admitted. Every 13th page (i % 13 == 6) shows one more image only after a click on "Load more":
the first attempt misses it, reflection's rewritten attempt clicks and recovers it. Pages carry real
images (some `loading=lazy`, some lazy `data-src`), every 5th page an MP4, every 11th an HLS manifest
(its segments are never needed to verify or store it), every 7th a broken image (404).

    python -m tests.gallery_site 300    # serve 300 pages on 127.0.0.1 until Ctrl-C
"""

from __future__ import annotations

import sys
import threading

from bara_scrapy.bench.media import hls_manifest, image_bytes, mp4_bytes
from bara_scrapy.bench.server import Site, SiteServer

FANOUT = 6
WORDS = ("harbour", "lantern", "granite", "meadow", "orchard", "ridge", "delta", "glacier", "canyon", "atlas")


def page_path(i: int) -> str:
    return "/" if i == 0 else f"/p/{i}"


def images_of(i: int) -> list[str]:
    return [f"/img/{i}-{j}.png" for j in range(i % 3 + 1)]


def has_video(i: int) -> bool:
    return i % 5 == 1


def has_hls(i: int) -> bool:
    return i % 11 == 3


def is_missing(i: int) -> bool:
    return i % 37 == 20


def has_load_more(i: int) -> bool:
    return i % 13 == 6


LOAD_MORE = (
    "<div id='more'></div><button id='load-more' type='button'>Load more</button><script>"
    "document.getElementById('load-more').addEventListener('click', function () {"
    " var i = document.createElement('img'); i.alt = 'more'; i.src = this.dataset.src;"
    " document.getElementById('more').appendChild(i); this.remove(); });</script>"
)


def has_broken(i: int) -> bool:
    return i % 7 == 2


def page_html(i: int, n: int) -> str:
    word = WORDS[i % len(WORDS)]
    children = [c for c in range(FANOUT * i + 1, FANOUT * i + FANOUT + 1) if c < n]
    links = "".join(f'<li><a href="{page_path(c)}">Gallery {c}</a></li>' for c in children)
    imgs = []
    for j, src in enumerate(images_of(i)):
        if j == 1:
            imgs.append(f'<img src="{src}" loading="lazy" alt="{word} {j}" width="160" height="120">')
        elif j == 2:
            imgs.append(f'<img class="lazy" src="/img/blank.gif" data-src="{src}" alt="{word} {j}">')
        else:
            imgs.append(f'<img src="{src}" alt="{word} {j}" width="160" height="120">')
    if has_broken(i):
        imgs.append(f'<img src="/img/missing-{i}.png" alt="missing">')
    video = f'<video controls src="/vid/{i}.mp4"></video>' if has_video(i) else ""
    if has_hls(i):
        video += f'<video controls src="/vid/{i}.m3u8"></video>'
    if has_load_more(i):
        video += LOAD_MORE.replace("type='button'", f"type='button' data-src='/img/{i}-more.png'")
    text = " ".join(f"The {word} gallery {i} shows picture {k} of the collection, with notes on light and place."
                    for k in range(4))
    return (
        f"<!doctype html><html><head><title>Gallery {i}: {word}</title></head><body>"
        f"<nav><a href=\"/\">Home</a></nav><main><h1>Gallery {i}: {word}</h1><p>{text}</p>"
        f"{''.join(imgs)}{video}<ul>{links}</ul></main>"
        "<script>document.querySelectorAll('img.lazy').forEach((img) => new IntersectionObserver((es, o) => {"
        " if (es[0].isIntersecting) { img.src = img.dataset.src; o.disconnect(); } }).observe(img));</script>"
        "</body></html>"
    )


def build_gallery_site(n: int) -> Site:
    """The site of `n` pages (routes only; serve it with `SiteServer`)."""
    site = Site()
    site.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    site.add("/img/blank.gif", image_bytes("gif", "blank", (1, 1)), content_type="image/gif")
    for i in range(n):
        if is_missing(i):
            continue
        site.add(page_path(i), page_html(i, n))
        for src in images_of(i):
            site.add(src, image_bytes("png", src, (64, 48)), content_type="image/png")
        if has_load_more(i):
            site.add(f"/img/{i}-more.png", image_bytes("png", f"{i}-more", (64, 48)), content_type="image/png")
        if has_video(i):
            site.add(f"/vid/{i}.mp4", mp4_bytes(f"v{i}"), content_type="video/mp4")
        if has_hls(i):
            segments = [f"/vid/{i}-{k}.ts" for k in range(3)]  # never served: a manifest is stored as is
            site.add(f"/vid/{i}.m3u8", hls_manifest(segments), content_type="application/vnd.apple.mpegurl")
    return site


def main(argv: list[str]) -> None:  # pragma: no cover - a manual helper
    n = int(argv[0]) if argv else 300
    with SiteServer(build_gallery_site(n)) as server:
        print(server.url("/"), flush=True)
        threading.Event().wait()


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
