"""How a page's reveal ends: a finished feed whose sentinel stays is `ok`; a page at its hard deadline
returns what it had collected, `incomplete`, with the reason (docs/faults.md, §4)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.server import RequestInfo, Route

from ..faults import Hostile, hostile_servers, page

BATCHES, PER_BATCH = 4, 3
# Each time the sentinel comes into view, one batch is fetched and appended; after the last one the
# observer is disconnected but the sentinel (a "Loading…" row) is left in the DOM, as many feeds do.
KEPT_SENTINEL = page("A feed that loads four batches of photos, then stops; its sentinel stays.", extra=(
    "<div id=feed></div><div class='feed-sentinel' style='height:40px'>Loading…</div><script>"
    "let n=0,busy=false;const feed=document.getElementById('feed'),s=document.querySelector('.feed-sentinel');"
    f"const io=new IntersectionObserver(async(es)=>{{if(busy||!es.some(e=>e.isIntersecting))return;"
    f"if(n>={BATCHES}){{io.disconnect();return}}busy=true;"
    "const r=await fetch('/api/batch?n='+n);const d=await r.json();n+=1;"
    "for(const src of d){const a=document.createElement('article');a.style.height='30vh';"
    "a.innerHTML='<p>photo '+src+'</p><img alt=photo src=\"'+src+'\">';feed.appendChild(a)}"
    "busy=false;io.unobserve(s);io.observe(s)});io.observe(s);</script>"))

# The batches go into a box of fixed height, so the sentinel under it never moves: its observer calls back
# only when it comes into view again. A reader scrolls away and back; the first crossing alone gives batch 0.
STILL_SENTINEL = page("A feed whose sentinel stays in view while its batches fill a box above it.", extra=(
    "<div style='height:150vh'>intro</div><div id=feed style='height:20vh;overflow:hidden'></div>"
    "<div class='feed-sentinel' style='height:40px'>Loading…</div><script>"
    "let n=0,busy=false;const feed=document.getElementById('feed'),s=document.querySelector('.feed-sentinel');"
    f"const io=new IntersectionObserver(async(es)=>{{if(busy||!es.some(e=>e.isIntersecting))return;"
    f"if(n>={BATCHES}){{io.disconnect();return}}busy=true;"
    "const r=await fetch('/api/batch?n='+n);const d=await r.json();n+=1;"
    "for(const src of d){const a=document.createElement('article');"
    "a.innerHTML='<p>photo '+src+'</p><img alt=photo src=\"'+src+'\">';feed.prepend(a)}"
    "busy=false});io.observe(s);</script>"))


@pytest.fixture
def hostile() -> Iterator[Hostile]:
    yield from hostile_servers()


def _batch(info: RequestInfo) -> Route:
    n = int(info.path.rsplit("=", 1)[1])
    srcs = [f"/photo/{n}-{k}.png" for k in range(PER_BATCH)]
    return Route(str(srcs).replace("'", '"'), content_type="application/json")


def _photo(info: RequestInfo) -> Route:
    return Route(image_bytes("png", info.path), content_type="image/png")


@pytest.mark.browser
def test_a_finished_feed_whose_sentinel_stays_is_ok_in_one_attempt(tmp_path: Path, hostile: Hostile) -> None:
    h = hostile
    h.add("/kept-sentinel", KEPT_SENTINEL)
    h.add("/still-sentinel", STILL_SENTINEL)
    h.add("/api/batch", handler=_batch, link=False)
    for n in range(BATCHES):
        for k in range(PER_BATCH):
            h.add(f"/photo/{n}-{k}.png", handler=_photo, link=False)
    items = h.crawl(tmp_path, args={"max_attempts": 2}, settings={"BARA_PAGE_TIMEOUT": 20}, name="kept sentinel")
    feed = items["/kept-sentinel"]
    assert sorted(m["url"].rsplit("/", 1)[1] for m in feed["images"]) == sorted(
        f"{n}-{k}.png" for n in range(BATCHES) for k in range(PER_BATCH))
    assert (feed["status"], feed["error"], len(feed["attempts"])) == ("ok", None, 1), feed["attempts"]
    still = items["/still-sentinel"]  # every batch, though no batch moved the sentinel
    assert sorted(m["url"].rsplit("/", 1)[1] for m in still["images"]) == sorted(
        f"{n}-{k}.png" for n in range(BATCHES) for k in range(PER_BATCH))
    assert (still["status"], len(still["attempts"])) == ("ok", 1), still["attempts"]
    assert h.server.hits["/api/batch?n=3"] == 2 and "/api/batch?n=4" not in h.server.hits  # once per page


# The first scroll sets off a handler that holds the page's main thread for 8 s: the reveal is still
# waiting when the 6 s deadline fires, after the first collection found the text and both photos.
STUCK_ON_SCROLL = page("A page that freezes for eight seconds when it is scrolled; what it showed before counts.",
                       extra=("<img alt=first src='/photo/stuck-1.png'><img alt=second src='/photo/stuck-2.png'>"
                              "<div style='height:5000px'>tall</div><script>let once=false;"
                              "addEventListener('scroll',()=>{if(once)return;once=true;const t=Date.now();"
                              "while(Date.now()-t<8000){}})</script>"))


@pytest.mark.browser
def test_a_page_at_its_hard_deadline_returns_what_it_had_as_incomplete(tmp_path: Path, hostile: Hostile) -> None:
    h = hostile
    h.add("/stuck-on-scroll", STUCK_ON_SCROLL)
    for k in (1, 2):
        h.add(f"/photo/stuck-{k}.png", handler=_photo, link=False)
    items = h.crawl(tmp_path, args={"max_attempts": 2}, settings={"BARA_PAGE_TIMEOUT": 6}, name="hard deadline")
    stuck = items["/stuck-on-scroll"]
    assert stuck["status"] == "incomplete", stuck["error"]
    assert "hard deadline hit" in stuck["error"] and "returned what was collected" in stuck["error"]
    assert "freezes for eight seconds" in stuck["text"]
    assert sorted(m["url"].rsplit("/", 1)[1] for m in stuck["images"]) == ["stuck-1.png", "stuck-2.png"]
    assert all("timeout" in a["diagnosis"] for a in stuck["attempts"])
