"""The figures of the speed bench, as pure functions.

**Wasted attempt.** A page's attempts are compared in order on the counters they record —
``text_chars``, ``images``, ``videos`` and ``links`` (a missing counter is 0; bara's attempt
records hold no link count, so for bara a retry that only found links counts as wasted). An
attempt is *wasted* when none of its counters exceeds the largest value of that counter over the
page's earlier attempts, the baseline before the first attempt being 0 for every counter. So a
first attempt is wasted only when it found nothing at all (a timeout, an empty page), and a
reflection retry is wasted when it found nothing the earlier attempts had not already found more
of. Variants without retries have one attempt per page, built from the page's record.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

COUNTERS = ("text_chars", "images", "videos", "links")


def wasted_attempts(attempts: Sequence[Mapping[str, Any]]) -> int:
    """How many of these attempts added nothing over the earlier ones.

    >>> wasted_attempts([{"text_chars": 900, "images": 1}, {"text_chars": 900, "images": 2}])
    0
    >>> wasted_attempts([{"text_chars": 900, "images": 2}, {"text_chars": 800, "images": 2}])
    1
    >>> wasted_attempts([{"error": "Timeout"}, {"text_chars": 10}])
    1
    >>> wasted_attempts([])
    0
    """
    best = dict.fromkeys(COUNTERS, 0)
    wasted = 0
    for attempt in attempts:
        values = {key: int(attempt.get(key) or 0) for key in COUNTERS}
        if not any(values[key] > best[key] for key in COUNTERS):
            wasted += 1
        best = {key: max(best[key], values[key]) for key in COUNTERS}
    return wasted


def page_attempts(record: Mapping[str, Any]) -> list[dict[str, int]]:
    """The attempt counters of one feed record: bara's `attempts`, else the record itself.

    >>> page_attempts({"text_chars": 5, "images": ["a", "b"], "links": ["c"]})
    [{'text_chars': 5, 'images': 2, 'videos': 0, 'links': 1}]
    >>> page_attempts({"attempts": [{"n": 1, "text_chars": 5, "images": 1, "videos": 0}]})
    [{'text_chars': 5, 'images': 1, 'videos': 0, 'links': 0}]
    """
    if "attempts" in record:
        return [{key: int(a.get(key) or 0) for key in COUNTERS} for a in record["attempts"]]
    return [{
        "text_chars": int(record.get("text_chars") or len(record.get("text") or "")),
        "images": len(record.get("images") or []),
        "videos": len(record.get("videos") or []),
        "links": len(record.get("links") or []),
    }]


def media_urls(record: Mapping[str, Any], kind: str = "images") -> set[str]:
    """Media URLs of a record: plain strings (bench spiders) or bara `Media` dicts.

    >>> sorted(media_urls({"images": ["u1", {"url": "u2", "kind": "image"}]}))
    ['u1', 'u2']
    """
    return {m["url"] if isinstance(m, Mapping) else str(m) for m in record.get(kind) or []}


def quality(records: Iterable[Mapping[str, Any]], truth: Mapping[str, set[str]]) -> dict[str, Any]:
    """Pages found (distinct truth URLs in the feed) and image recall against `truth` (url -> images).

    >>> truth = {"/": set(), "/p/1": {"a", "b"}}
    >>> quality([{"url": "/"}, {"url": "/p/1", "images": ["a"]}, {"url": "/p/1", "images": ["b"]}], truth)
    {'pages_found': 2, 'pages_expected': 2, 'images_found': 2, 'images_expected': 2, 'image_recall': 1.0}
    """
    found: dict[str, set[str]] = {}
    for record in records:
        if record.get("url") in truth:
            found.setdefault(str(record["url"]), set()).update(media_urls(record))
    expected = sum(len(images) for images in truth.values())
    hits = sum(len(found.get(url, set()) & images) for url, images in truth.items())
    return {"pages_found": len(found), "pages_expected": len(truth), "images_found": hits,
            "images_expected": expected, "image_recall": round(hits / expected, 4) if expected else 1.0}


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """`numerator / denominator`, None when either is missing or the denominator is 0.

    >>> ratio(30, 60), ratio(1, 0), ratio(None, 2)
    (0.5, None, None)
    """
    if numerator is None or not denominator:
        return None
    return round(numerator / denominator, 3)


def targets(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The headline ratios of pages/min: bara/floor per concurrency, best over concurrency, bara/spider at 4,
    and each `bara_auto*` variant over the floor per concurrency.

    >>> rows = [{"variant": "floor", "concurrency": 1, "pages_per_min": 100.0},
    ...         {"variant": "bara", "concurrency": 1, "pages_per_min": 50.0},
    ...         {"variant": "floor", "concurrency": 4, "pages_per_min": 200.0},
    ...         {"variant": "bara", "concurrency": 4, "pages_per_min": 150.0},
    ...         {"variant": "spider", "concurrency": 4, "pages_per_min": 75.0}]
    >>> targets(rows)
    {'bara_over_floor': {1: 0.5, 4: 0.75}, 'bara_over_floor_best': 0.75, 'bara_over_spider_c4': 2.0}
    >>> auto = {"variant": "bara_auto_2c", "concurrency": 4, "pages_per_min": 330.0}
    >>> targets([*rows, auto])["bara_auto_2c_over_floor"]
    {4: 1.65}
    """
    rate = median_rates(rows)
    levels = sorted({c for _, c in rate})

    def best(variant: str) -> float | None:
        values = [v for (name, _), v in rate.items() if name == variant and v]
        return max(values) if values else None

    return {
        "bara_over_floor": {c: ratio(rate.get(("bara", c)), rate.get(("floor", c))) for c in levels
                            if ("bara", c) in rate and ("floor", c) in rate},
        "bara_over_floor_best": ratio(best("bara"), best("floor")),
        "bara_over_spider_c4": ratio(rate.get(("bara", 4)), rate.get(("spider", 4))),
        **(_warc_costs(rows, rate, levels) if any(name == "bara_warc" for name, _ in rate) else {}),
        **{f"{auto}_over_floor": {c: ratio(rate.get((auto, c)), rate.get(("floor", c))) for c in levels
                                  if (auto, c) in rate and ("floor", c) in rate}
           for auto in sorted({name for name, _ in rate if name.startswith("bara_auto")})},
    }


def _warc_costs(rows: Sequence[Mapping[str, Any]], rate: Mapping[tuple[str, int], float | None],
                levels: Sequence[int]) -> dict[str, dict[int, float | None]]:
    """The archive's cost per concurrency: pages/min and CPU s/page of `bara_warc` over `bara` (medians).

    >>> rows = [{"variant": "bara", "concurrency": 4, "pages_per_min": 200.0, "cpu_s_per_page": 0.3},
    ...         {"variant": "bara_warc", "concurrency": 4, "pages_per_min": 190.0, "cpu_s_per_page": 0.33}]
    >>> _warc_costs(rows, median_rates(rows), [4])
    {'warc_over_bara': {4: 0.95}, 'warc_cpu_over_bara': {4: 1.1}}
    """
    cpu = median_rates(rows, "cpu_s_per_page")
    both = [c for c in levels if ("bara", c) in rate and ("bara_warc", c) in rate]
    return {"warc_over_bara": {c: ratio(rate.get(("bara_warc", c)), rate.get(("bara", c))) for c in both},
            "warc_cpu_over_bara": {c: ratio(cpu.get(("bara_warc", c)), cpu.get(("bara", c))) for c in both}}


def median_rates(rows: Sequence[Mapping[str, Any]], key: str = "pages_per_min") -> dict[tuple[str, int], float | None]:
    """`key` per (variant, concurrency), the median over repeated runs (`--perf-repeat`); runs without it are left out.

    >>> median_rates([{"variant": "bara", "concurrency": 4, "pages_per_min": v} for v in (90.0, 120.0, 100.0)])
    {('bara', 4): 100.0}
    """
    values: dict[tuple[str, int], list[float]] = {}
    for row in rows:
        cell = values.setdefault((str(row["variant"]), int(row["concurrency"])), [])
        if row.get(key) is not None:
            cell.append(float(row[key]))
    return {k: (statistics.median(v) if v else None) for k, v in values.items()}


def pss_at_pages(samples: Sequence[tuple[int, int]], milestones: Sequence[int]) -> dict[int, int | None]:
    """Peak PSS (kB) in each stretch of the crawl up to a page count; samples are (pages done, pss kB).

    The stretch of milestone m runs from the previous milestone (exclusive; 0 inclusive, start-up
    included) to m: a peak per stretch shows growth without hanging on one sample (the feed is
    written in buffered chunks, and the last lines land while the crawl shuts down).

    >>> pss_at_pages([(0, 100), (400, 300), (510, 350), (990, 500)], [500, 1000, 1500])
    {500: 300, 1000: 500, 1500: None}
    """
    out: dict[int, int | None] = {}
    previous = -1
    for milestone in milestones:
        stretch = [pss for pages, pss in samples if previous < pages <= milestone and pss > 0]
        out[milestone] = max(stretch) if stretch else None
        previous = milestone
    return out


def milestones(pages: int, step: int = 500) -> list[int]:
    """Page counts at which the long crawl reports PSS: every `step`, or quarters of a short crawl.

    >>> milestones(2000), milestones(40)
    ([500, 1000, 1500, 2000], [10, 20, 30, 40])
    """
    if pages >= step:
        return list(range(step, pages + 1, step))
    return sorted({max(1, pages * k // 4) for k in range(1, 5)})


def steady_pages_per_min(samples: Sequence[tuple[float, int]]) -> float | None:
    """Pages/min between the first page out and the last (start-up and shutdown left out).

    Samples are (seconds, pages done so far); None with fewer than two pages.

    >>> steady_pages_per_min([(0.0, 0), (2.0, 0), (3.0, 1), (9.0, 7), (10.0, 7)])
    60.0
    >>> steady_pages_per_min([(0.0, 0), (3.0, 1)]) is None
    True
    """
    out = [(t, n) for t, n in samples if n > 0]
    if not out or out[-1][1] < 2:
        return None
    first = out[0]
    last = next((t, n) for t, n in out if n == out[-1][1])
    if last[0] <= first[0]:
        return None
    return round(60 * (last[1] - first[1]) / (last[0] - first[0]), 2)
