"""Evidence that a sourceless `<video>` can still get a source: a video URL in the page's scripts.

A `<video>` with no `src`, no `<source>` and nothing in the network log is
only worth another attempt when a script on the page names a video file or
manifest the attempt did not see (a player that sets its source late). Without
such a URL, no scroll or wait can produce one (reflection's `video_hints`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urljoin

MAX_SCRIPT_CHARS = 2_000_000
_SCRIPT = re.compile(r"<script\b[^>]*>(.*?)</script>", re.I | re.S)
# a quoted absolute, protocol-relative or rooted path ending in a video file or manifest suffix
_VIDEO_URL = re.compile(
    r"""["'`]((?:https?:)?//[^"'`\s<>]+?|/[^"'`\s<>]+?)\.(mp4|m4v|webm|mov|ogv|m3u8|mpd)(\?[^"'`\s<>]*)?["'`]""",
    re.I,
)


def script_video_urls(html: str, base_url: str) -> list[str]:
    """Absolute video URLs quoted inside `<script>` elements, in order, without repeats.

    >>> script_video_urls('<script>play({src: "/v/clip.mp4?x=1"})</script><p>"/no.mp4"</p>', "http://a.test/p")
    ['http://a.test/v/clip.mp4?x=1']
    >>> script_video_urls('<script>var s = "//cdn.test/live.m3u8";</script>', "https://a.test/")
    ['https://cdn.test/live.m3u8']
    """
    urls: dict[str, None] = {}
    for body in _SCRIPT.findall(html[:MAX_SCRIPT_CHARS]):
        for stem, ext, query in _VIDEO_URL.findall(body):
            urls.setdefault(urljoin(base_url, f"{stem}.{ext}{query or ''}"), None)
    return list(urls)


def unseen_video_urls(html: str, base_url: str, seen: Iterable[str]) -> int:
    """How many script-named video URLs the attempt did not find as candidates or in the network log.

    >>> unseen_video_urls('<script>x("/a.mp4"); y("/b.webm")</script>', "http://a.test/", ["http://a.test/a.mp4"])
    1
    """
    known = set(seen)
    return sum(1 for url in script_video_urls(html, base_url) if url not in known)
