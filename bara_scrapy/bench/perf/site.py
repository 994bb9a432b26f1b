"""One generated site for the speed bench, with its ground truth.

Page 0 is ``/``, page i is ``/p/<i>``; page i links home and to its children
``FANOUT*i+1 .. FANOUT*i+FANOUT``, so breadth-first order is index order. Kinds:

- plain: text only;
- lazy (odd i): two images, the second lazy, alternately ``loading=lazy`` and a
  ``data-src`` that an IntersectionObserver swaps in, below a tall spacer;
- tall (i % 50 == 2): a long page whose only image is a ``data-src`` at the bottom;
- feed (i % 50 == 5): an infinite-scroll feed, 5 items and 3 more batches of 5 on scroll.

>>> perf = build_site(12)
>>> [page_kind(i) for i in range(6)]
['plain', 'lazy', 'tall', 'lazy', 'plain', 'feed']
>>> bfs_paths(6)
['/', '/p/1', '/p/2', '/p/3', '/p/4', '/p/5']
>>> sorted(truth_images(1))
['/img/1-a.png', '/img/1-b.png']
>>> len(truth_images(5))
20
>>> max_depth(12), max_depth(300)
(2, 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from ..media import image_bytes
from ..server import RequestInfo, Route, Site

FANOUT = 4
FEED_FIRST = 5
FEED_BATCHES = 3
FEED_BATCH = 5
_PIXEL = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
_IO_SCRIPT = """<script>
const io = new IntersectionObserver((entries) => { for (const e of entries) if (e.isIntersecting) {
  e.target.src = e.target.dataset.src; io.unobserve(e.target); } });
document.querySelectorAll('img[data-src]').forEach((img) => io.observe(img));
</script>"""
_FEED_SCRIPT = """<script>
let batch = 0;
const feed = document.getElementById('feed');
const more = new IntersectionObserver((entries) => {
  if (!entries.some((e) => e.isIntersecting) || batch >= %(batches)d) return;
  batch += 1;
  for (let k = 0; k < %(size)d; k++) {
    const n = %(first)d + (batch - 1) * %(size)d + k;
    const li = document.createElement('li');
    li.innerHTML = `<p>Feed entry ${n} of page %(page)d, loaded on scroll.</p><img src="/img/%(page)d-f${n}.png">`;
    feed.appendChild(li);
  }
});
more.observe(document.getElementById('more'));
</script>"""


def page_kind(i: int) -> str:
    if i % 50 == 2:
        return "tall"
    if i % 50 == 5:
        return "feed"
    return "lazy" if i % 2 == 1 else "plain"


def page_path(i: int) -> str:
    return "/" if i == 0 else f"/p/{i}"


def bfs_paths(pages: int) -> list[str]:
    return [page_path(i) for i in range(pages)]


def children(i: int, pages: int) -> list[int]:
    return [k for k in range(FANOUT * i + 1, FANOUT * i + FANOUT + 1) if k < pages]


def depth(i: int) -> int:
    d = 0
    while i > 0:
        i = (i - 1) // FANOUT
        d += 1
    return d


def max_depth(pages: int) -> int:
    return depth(pages - 1) if pages > 0 else 0


def truth_images(i: int) -> set[str]:
    """Image paths a complete extraction finds on page i (after scrolling everything in)."""
    kind = page_kind(i)
    if kind == "lazy":
        return {f"/img/{i}-a.png", f"/img/{i}-b.png"}
    if kind == "tall":
        return {f"/img/{i}-bottom.png"}
    if kind == "feed":
        return {f"/img/{i}-f{n}.png" for n in range(FEED_FIRST + FEED_BATCHES * FEED_BATCH)}
    return set()


def _paragraphs(i: int, count: int) -> str:
    return "".join(f"<p>Paragraph {n} of page {i}: text written so that the extractor has something "
                   f"to read, the same kind of prose on every page of this bench site.</p>" for n in range(count))


def render(i: int, pages: int) -> str:
    kind = page_kind(i)
    links = "".join(f'<li><a href="{page_path(k)}">Page {k}</a></li>' for k in children(i, pages))
    body = f"<h1>Page {i}</h1>{_paragraphs(i, 6)}"
    if kind == "lazy":
        lazy = (f'<img loading="lazy" src="/img/{i}-b.png" alt="second">' if (i // 2) % 2 == 0
                else f'<img data-src="/img/{i}-b.png" src="{_PIXEL}" alt="second">')
        body += f'<img src="/img/{i}-a.png" alt="first"><div style="height:2400px"></div>{lazy}{_IO_SCRIPT}'
    elif kind == "tall":
        body += ('<div style="height:9000px">' + _paragraphs(i, 20) + "</div>"
                 + f'<img data-src="/img/{i}-bottom.png" src="{_PIXEL}" alt="bottom">{_IO_SCRIPT}')
    elif kind == "feed":
        first = "".join(f'<li><p>Feed entry {n} of page {i}.</p><img src="/img/{i}-f{n}.png"></li>'
                        for n in range(FEED_FIRST))
        script = _FEED_SCRIPT % {"batches": FEED_BATCHES, "size": FEED_BATCH, "first": FEED_FIRST, "page": i}
        body += f'<ul id="feed">{first}</ul><div id="more" style="height:10px"></div>{script}'
    return (f"<!doctype html><html><head><title>Page {i}</title></head><body><nav><a href=\"/\">Home</a></nav>"
            f"<main>{body}</main><ul class=\"links\">{links}</ul></body></html>")


@dataclass(frozen=True)
class PerfSite:
    pages: int

    def site(self) -> Site:
        site = Site(not_found=Route(handler=_images))
        for i in range(self.pages):
            site.add(page_path(i), render(i, self.pages))
        return site

    def limits(self) -> dict[str, int]:
        """Spider arguments (D, W, P) that cover every page."""
        return {"max_depth": max_depth(self.pages), "max_width": FANOUT + 1, "max_pages": self.pages}


def _images(info: RequestInfo) -> Route:
    path = urlsplit(info.path).path
    if path.startswith("/img/") and path.endswith(".png"):
        return Route(image_bytes("png", path), content_type="image/png")
    return Route("<h1>Not found</h1>", status=404)


def build_site(pages: int) -> PerfSite:
    return PerfSite(pages)

