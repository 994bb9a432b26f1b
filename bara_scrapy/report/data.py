"""What the report shows, computed from items (pure): compact page records and the summary.

Pages keep what the report displays, not whole items: a text excerpt, media URLs with type, size and
stored path, rejected media with reasons, and the attempt history. A 5,000-page crawl then embeds as a
few megabytes of JSON that the page renders a screenful at a time.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

TEXT_EXCERPT = 600
STATUSES = ("ok", "incomplete", "failed")


@dataclass(frozen=True)
class ReportMeta:
    """What items do not say: the limits, the crawl's clock, where stored media live."""

    source: str = ""
    limits: dict[str, int | None] = field(default_factory=dict)  # max_depth, max_width, max_pages, max_attempts
    started: str | None = None  # ISO 8601; default: the earliest fetched_at
    finished: str | None = None
    elapsed: float | None = None  # seconds; default: finished - started
    files_base: str | None = None  # URL prefix of FILES_STORE for stored copies (file:///... or http(s)://)
    replay_base: str | None = None  # a replay collection of the crawl's WARC/WACZ, e.g. pywb's http://host/coll/


def read_items(path: Path) -> Iterator[dict[str, Any]]:
    """Items of a JSON Lines or JSON (array) feed."""
    with path.open(encoding="utf-8") as fh:
        head = fh.read(1)
        while head.isspace():
            head = fh.read(1)
        if head == "[":
            fh.seek(0)
            yield from json.load(fh)
            return
        fh.seek(0)
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _media(m: Mapping[str, Any]) -> dict[str, Any]:
    out = {"url": m.get("url"), "type": m.get("sniffed_type") or m.get("content_type"), "bytes": m.get("bytes"),
           "path": m.get("path"), "kind": m.get("kind"), "reason": m.get("reason")}
    return {k: v for k, v in out.items() if v is not None}


def compact_page(item: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an item the report shows.

    >>> p = compact_page({"url": "http://a/", "bfs_index": 0, "depth": 0, "status": "ok", "text": "x" * 700,
    ...     "images": [{"url": "http://a/i.png", "sniffed_type": "png", "bytes": 90}], "attempts": [{"n": 1}]})
    >>> len(p["text"]), p["text_chars"], p["images"], [a["n"] for a in p["attempts"]]
    (600, 700, [{'url': 'http://a/i.png', 'type': 'png', 'bytes': 90}], [1])
    """
    text = item.get("text") or ""
    return {
        "i": int(item.get("bfs_index", 0)), "url": item.get("url"), "final_url": item.get("final_url"),
        "depth": int(item.get("depth", 0)), "parent_url": item.get("parent_url"),
        "status": item.get("status", "failed"), "http_status": item.get("http_status"),
        "title": item.get("title") or "", "text": text[:TEXT_EXCERPT], "text_chars": len(text),
        "images": [_media(m) for m in item.get("images") or []],
        "videos": [_media(m) for m in item.get("videos") or []],
        "embeds": [_media(m) for m in item.get("embeds") or []],
        "rejected": [_media(m) for m in item.get("rejected_media") or []],
        "attempts": [
            {"n": a.get("n"), "diagnosis": list(a.get("diagnosis") or []), "instructions": a.get("instructions", ""),
             "images": a.get("images", 0), "videos": a.get("videos", 0), "text_chars": a.get("text_chars", 0),
             "error": a.get("error"), "seconds": a.get("seconds", 0.0)}
            for a in item.get("attempts") or []
        ],
        "error": item.get("error"), "extractor": item.get("extractor"), "fetched_at": item.get("fetched_at"),
    }


def _seconds_between(start: str | None, end: str | None) -> float | None:
    if not start or not end:
        return None
    try:
        a, b = (datetime.fromisoformat(t.replace("Z", "+00:00")) for t in (start, end))
    except ValueError:
        return None
    return max((b - a).total_seconds(), 0.0)


def _reflection(pages: list[dict[str, Any]]) -> dict[str, Any]:
    """What reflection did: retried pages, those that ended ok, media the later attempts added."""
    retried = [p for p in pages if len(p["attempts"]) > 1]
    gained = 0
    for p in retried:
        first, last = p["attempts"][0], p["attempts"][-1]
        gained += max(0, (last["images"] + last["videos"]) - (first["images"] + first["videos"]))
    diagnoses = Counter(k for p in pages for a in p["attempts"] for k in a["diagnosis"])
    return {
        "attempts": sum(len(p["attempts"]) for p in pages), "pages_retried": len(retried),
        "recovered": sum(p["status"] == "ok" for p in retried), "media_gained": gained,
        "diagnoses": dict(diagnoses.most_common()),
    }


def summarize(pages: list[dict[str, Any]], meta: ReportMeta) -> dict[str, Any]:
    """Counts for the summary panel.

    >>> pages = [compact_page({"url": "http://a/", "bfs_index": 0, "status": "ok", "attempts": [
    ...     {"n": 1, "diagnosis": ["missing_media"], "images": 0}, {"n": 2, "images": 2}],
    ...     "images": [{"url": "u1"}, {"url": "u2"}], "rejected_media": [{"url": "u3", "kind": "image",
    ...     "reason": "http_404"}]}), compact_page({"url": "http://a/b", "bfs_index": 1, "status": "failed"})]
    >>> s = summarize(pages, ReportMeta(elapsed=60.0))
    >>> s["pages"], s["by_status"], s["images"], s["rejected"], s["pages_per_min"]
    (2, {'ok': 1, 'incomplete': 0, 'failed': 1}, 2, {'image': {'http_404': 1}}, 2.0)
    >>> s["reflection"]
    {'attempts': 2, 'pages_retried': 1, 'recovered': 1, 'media_gained': 2, 'diagnoses': {'missing_media': 1}}
    """
    stamps = sorted(p["fetched_at"] for p in pages if p.get("fetched_at"))
    started = meta.started or (stamps[0] if stamps else None)
    finished = meta.finished or (stamps[-1] if stamps else None)
    elapsed = meta.elapsed if meta.elapsed is not None else _seconds_between(started, finished)
    by_status = {s: 0 for s in STATUSES} | Counter(p["status"] for p in pages)
    rejected: dict[str, Counter[str]] = {}
    for p in pages:
        for m in p["rejected"]:
            rejected.setdefault(m.get("kind") or "media", Counter())[m.get("reason") or "unknown"] += 1
    seed = min(pages, key=lambda p: p["i"])["url"] if pages else None
    return {
        "seed": seed, "limits": meta.limits, "pages": len(pages), "by_status": dict(by_status),
        "max_depth_seen": max((p["depth"] for p in pages), default=0),
        "images": sum(len(p["images"]) for p in pages), "videos": sum(len(p["videos"]) for p in pages),
        "embeds": sum(len(p["embeds"]) for p in pages),
        "stored": sum(1 for p in pages for m in p["images"] + p["videos"] if m.get("path")),
        "rejected": {k: dict(v.most_common()) for k, v in sorted(rejected.items())},
        "reflection": _reflection(pages), "started": started, "finished": finished, "elapsed": elapsed,
        "pages_per_min": round(60.0 * len(pages) / elapsed, 1) if elapsed else None,
    }


def replay_url(base: str, url: str, fetched_at: str | None) -> str:
    """The page's replay in a wayback-style collection (pywb, `/coll/<timestamp>/<url>`): the capture
    closest to when the page was fetched.

    >>> replay_url("http://127.0.0.1:8080/coll", "http://a/p?q=1", "2026-12-02T18:25:26Z")
    'http://127.0.0.1:8080/coll/20261202182526/http://a/p?q=1'
    >>> replay_url("http://w/coll/", "http://a/", None)
    'http://w/coll/*/http://a/'
    """
    stamp = "".join(ch for ch in (fetched_at or "") if ch.isdigit())[:14] or "*"
    return f"{base.rstrip('/')}/{stamp}/{url}"


def link_parents(pages: list[dict[str, Any]]) -> None:
    """Set each page's `parent` to its parent's bfs_index (the tree), None for the seed or an unknown parent."""
    index = {p["url"]: p["i"] for p in pages}
    for p in pages:
        p["parent"] = index.get(p["parent_url"]) if p["parent_url"] else None


def build_report_data(items: Iterable[Mapping[str, Any]], meta: ReportMeta | None = None) -> dict[str, Any]:
    """Everything the HTML embeds: {"meta", "summary", "pages"} (pages sorted by bfs_index)."""
    meta = meta or ReportMeta()
    pages = sorted((dict(p) if "text_chars" in p else compact_page(p) for p in items), key=lambda p: p["i"])
    link_parents(pages)
    if meta.replay_base:
        for p in pages:
            if p["status"] != "failed":
                p["replay"] = replay_url(meta.replay_base, p["final_url"] or p["url"], p["fetched_at"])
    return {"meta": asdict(meta), "summary": summarize(pages, meta), "pages": pages}
