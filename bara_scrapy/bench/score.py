"""Scoring a crawl's items against the ground truth: link discovery apart from extraction.

Link discovery: precision, recall and exact-set accuracy of the admitted
pages, and `bfs_index` agreement. Extraction, on the pages found: recall of
key sentences; image, video and embed precision/recall (a returned URL
matches an expected medium when it equals its URL or one of its variants);
the downloadable rate of returned images and videos, re-fetched here with a
plain ranged GET and a magic-byte check; bad media leaked (on any page). Every
expectation carries quirk tags, so each number is also broken down per quirk.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..urls import DenyPolicy, canonicalize, in_scope
from ..verify.sniff import sniff as _product_sniff
from .perf.figures import wasted_attempts
from .sites import COMMENT_LAYOUTS, SiteSpec
from .truth import ExpectedMedia, SiteTruth, robots_allowed, site_path

_BENCH_NAMES = {"mpegts": "ts", "mkv": "webm", "mov": "mp4"}

Checker = Callable[[str, str], bool]  # (url, kind) -> downloadable
CATEGORIES = ("pages", "text", "images", "videos", "embeds", "bad")
IMAGE_TYPES = frozenset({"png", "jpeg", "gif", "webp"})
VIDEO_TYPES = frozenset({"mp4", "webm", "ts", "hls", "dash"})


def sniff(data: bytes) -> str | None:
    """The bench's name for the file type the first bytes announce (the product's sniffer).

    >>> sniff(b"\\x89PNG\\r\\n\\x1a\\n...."), sniff(b"\\x00\\x00\\x00\\x18ftypisom"), sniff(b"<html>")
    ('png', 'mp4', None)
    """
    name = _product_sniff(data)
    return _BENCH_NAMES.get(name, name) if name and name != "html" else None


class HttpChecker:
    """Plain ranged GET (redirects followed) plus a magic-byte check; one fetch per URL."""

    def __init__(self, timeout: float = 10.0) -> None:
        self.timeout = timeout
        self.cache: dict[str, str | None] = {}

    def sniffed(self, url: str) -> str | None:
        if url not in self.cache:
            self.cache[url] = self._fetch(url)
        return self.cache[url]

    def _fetch(self, url: str) -> str | None:
        if not url.startswith(("http://", "https://")):
            return None
        req = urllib.request.Request(url, headers={"Range": "bytes=0-1023", "User-Agent": "bara-bench-scorer"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                if resp.status not in (200, 206):
                    return None
                return sniff(resp.read(1024))
        except (urllib.error.URLError, OSError, ValueError):
            return None

    def __call__(self, url: str, kind: str) -> bool:
        found = self.sniffed(url)
        return found in (IMAGE_TYPES if kind == "image" else VIDEO_TYPES)


@dataclass
class Counts:
    expected: int = 0  # expectations
    found: int = 0  # expectations met
    returned: int = 0  # URLs returned (precision denominator)
    correct: int = 0  # returned URLs that meet an expectation

    def add(self, other: Counts) -> None:
        self.expected += other.expected
        self.found += other.found
        self.returned += other.returned
        self.correct += other.correct

    @property
    def recall(self) -> float | None:
        return self.found / self.expected if self.expected else None

    @property
    def precision(self) -> float | None:
        return self.correct / self.returned if self.returned else None


@dataclass
class SiteScore:
    site_id: str
    pages: Counts = field(default_factory=Counts)  # expected = truth pages, returned = distinct item URLs
    exact: bool = False
    bfs_agree: int = 0  # truth pages returned with the same bfs_index
    duplicate_items: int = 0
    text: Counts = field(default_factory=Counts)
    boilerplate: Counts = field(default_factory=Counts)  # expected = planted sentences, found = leaked into text
    # expected = readers' comments' key sentences (`COMMENT_LAYOUTS`), found = those in the item's `comments`;
    # returned = key sentences of any kind in `comments`, correct = the comments' among them
    comments: Counts = field(default_factory=Counts)
    images: Counts = field(default_factory=Counts)
    videos: Counts = field(default_factory=Counts)
    embeds: Counts = field(default_factory=Counts)
    media_checked: int = 0  # distinct image/video URLs returned on pages found
    media_downloadable: int = 0
    bad_expected: int = 0
    bad_leaked: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    attempts: int = 0  # attempts over the returned pages (items' `attempts`)
    wasted_attempts: int = 0  # of those, attempts that added no text, links or media (perf.figures)
    extra_pages: dict[str, int] = field(default_factory=dict)  # returned, not in truth: why
    quirks: dict[str, dict[str, Counts]] = field(default_factory=dict)  # quirk -> category -> counts

    def tag(self, quirks: Iterable[str], category: str, expected: int, found: int) -> None:
        for q in quirks:
            counts = self.quirks.setdefault(q, {}).setdefault(category, Counts())
            counts.expected += expected
            counts.found += found

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _urls(item: Mapping[str, Any], key: str) -> list[str]:
    return [str(m["url"]) for m in item.get(key) or [] if isinstance(m, Mapping) and "url" in m]


def _match(expected: Sequence[ExpectedMedia], returned: list[str], score: SiteScore, name: str) -> Counts:
    counts = Counts(expected=len(expected), returned=len(set(returned)))
    for exp in expected:
        hit = any(exp.matches(u) for u in returned)
        counts.found += hit
        score.tag(exp.quirks, name, 1, int(hit))
    counts.correct = sum(1 for u in set(returned) if any(e.matches(u) for e in expected))
    return counts


def extra_reason(spec: SiteSpec, truth: SiteTruth, url: str) -> str:
    """Why a returned page is not in the truth: the rule the crawl broke, or `not_admitted`."""
    try:
        if url != canonicalize(url):
            return "not_canonical"
    except ValueError:
        return "invalid"
    if not in_scope(url, truth.seed_url):
        return "offsite"
    if DenyPolicy().is_denied(url):
        return "denied"
    if not robots_allowed(spec, url):
        return "robots"
    path = site_path(url)
    if spec.page_at(path) is None and spec.redirect_target(path) is None:
        return "missing_page"
    return "not_admitted"  # a real page the reference leaves out (W, D, P or order)


def score_site(
    spec: SiteSpec, truth: SiteTruth, items: Sequence[Mapping[str, Any]], *, checker: Checker | None = None
) -> SiteScore:
    """Score one site's items (PageItem dicts) against its truth.

    `checker(url, kind)` says whether a returned URL really downloads as that
    kind; by default a fresh `HttpChecker` (pass a shared one to cache across
    sites and variants).
    """
    check = checker or HttpChecker()
    score = SiteScore(spec.site_id)
    by_url: dict[str, Mapping[str, Any]] = {}
    for item in items:
        url = str(item.get("url", ""))
        if url in by_url:
            score.duplicate_items += 1
            continue
        by_url[url] = item
    score.statuses = dict(Counter(str(i.get("status", "?")) for i in by_url.values()))
    score.attempts = sum(len(i.get("attempts") or ()) for i in by_url.values())
    score.wasted_attempts = sum(wasted_attempts(i.get("attempts") or ()) for i in by_url.values())
    truth_urls = {p.url for p in truth.pages}
    score.pages = Counts(len(truth_urls), len(truth_urls & by_url.keys()), len(by_url),
                         len(truth_urls & by_url.keys()))
    score.exact = truth_urls == by_url.keys()
    score.extra_pages = dict(Counter(extra_reason(spec, truth, u) for u in by_url.keys() - truth_urls))
    bad_urls = {b.url: b for p in truth.pages for b in p.bad}
    score.bad_expected = len(bad_urls)
    checked: dict[tuple[str, str], bool] = {}
    for page in truth.pages:
        got = by_url.get(page.url)
        score.tag(page.quirks or ("plain",), "pages", 1, int(got is not None))
        if got is None:
            continue
        score.bfs_agree += got.get("bfs_index") == page.bfs_index
        text = _norm(str(got.get("text") or ""))
        comments = _norm(" ".join(str(c.get("text") or "") for c in got.get("comments") or () if isinstance(c, dict)))
        for key in page.key_sentences:
            sentence = _norm(key.text)
            hit = sentence in text
            score.text.expected += 1
            score.text.found += hit
            score.tag(key.quirks, "text", 1, int(hit))
            comment, held = bool(COMMENT_LAYOUTS.intersection(key.quirks)), sentence in comments
            score.comments.add(Counts(int(comment), int(comment and held), int(held), int(comment and held)))
        for planted in page.boilerplate:
            leak = _norm(planted.text) in text
            score.boilerplate.expected += 1
            score.boilerplate.found += leak
            score.tag(planted.quirks, "leak", 1, int(leak))
        for name, expected in (("images", page.images), ("videos", page.videos), ("embeds", page.embeds)):
            getattr(score, name).add(_match(expected, _urls(got, name), score, name))
        for name, kind in (("images", "image"), ("videos", "video")):
            for url in _urls(got, name):
                if (url, kind) not in checked:
                    checked[(url, kind)] = check(url, kind)
    score.media_checked = len(checked)
    score.media_downloadable = sum(checked.values())
    leaked: dict[str, None] = {}
    for item in by_url.values():
        for url in _urls(item, "images") + _urls(item, "videos"):
            if url in bad_urls:
                leaked[url] = None
    score.bad_leaked = list(leaked)
    for url, bad in bad_urls.items():
        score.tag(bad.quirks, "bad", 1, int(url in leaked))
    return score


def _rate(num: int, den: int) -> float | None:
    return num / den if den else None


def _counts_dict(c: Counts) -> dict[str, Any]:
    return {**asdict(c), "precision": c.precision, "recall": c.recall}


def aggregate(scores: Sequence[SiteScore]) -> dict[str, Any]:
    """Micro-averaged totals over sites (plus macro page precision/recall), and per quirk."""
    totals = {name: Counts() for name in ("pages", "text", "boilerplate", "comments", "images", "videos", "embeds")}
    quirks: dict[str, dict[str, Counts]] = {}
    statuses: Counter[str] = Counter()
    extra: Counter[str] = Counter()
    for s in scores:
        extra.update(s.extra_pages)
        for name, counts in totals.items():
            counts.add(getattr(s, name))
        statuses.update(s.statuses)
        for q, cats in s.quirks.items():
            for cat, c in cats.items():
                quirks.setdefault(q, {}).setdefault(cat, Counts()).add(c)
    pages = totals["pages"]
    macro_p = [s.pages.precision for s in scores if s.pages.precision is not None]
    macro_r = [s.pages.recall for s in scores if s.pages.recall is not None]
    checked = sum(s.media_checked for s in scores)
    bad_expected = sum(s.bad_expected for s in scores)
    leaked = sum(len(s.bad_leaked) for s in scores)
    per_quirk: dict[str, Any] = {}
    for q, cats in sorted(quirks.items()):
        good = [c for cat, c in cats.items() if cat not in ("bad", "leak")]
        expected, found = sum(c.expected for c in good), sum(c.found for c in good)
        bad, leak, text = cats.get("bad", Counts()), cats.get("leak", Counts()), cats.get("text", Counts())
        per_quirk[q] = {
            "expected": expected, "found": found, "recall": _rate(found, expected),
            "bad_expected": bad.expected, "bad_leaked": bad.found, "leak_rate": _rate(bad.found, bad.expected),
            "text_expected": text.expected, "text_recall": text.recall,
            "boiler_planted": leak.expected, "boiler_leaked": leak.found,
            "boiler_leak_rate": _rate(leak.found, leak.expected),
            "by_category": {cat: _counts_dict(c) for cat, c in sorted(cats.items())},
        }
    return {
        "sites": len(scores),
        "pages": {
            **_counts_dict(pages),
            "exact_sites": sum(s.exact for s in scores),
            "exact_rate": _rate(sum(s.exact for s in scores), len(scores)),
            "bfs_agree": sum(s.bfs_agree for s in scores),
            "bfs_agreement": _rate(sum(s.bfs_agree for s in scores), pages.expected),
            "macro_precision": sum(macro_p) / len(macro_p) if macro_p else None,
            "macro_recall": sum(macro_r) / len(macro_r) if macro_r else None,
            "duplicate_items": sum(s.duplicate_items for s in scores),
        },
        "text": _counts_dict(totals["text"]),
        "comments": _counts_dict(totals["comments"]),
        "boilerplate": {"planted": totals["boilerplate"].expected, "leaked": totals["boilerplate"].found,
                        "leak_rate": _rate(totals["boilerplate"].found, totals["boilerplate"].expected)},
        "images": _counts_dict(totals["images"]),
        "videos": _counts_dict(totals["videos"]),
        "embeds": _counts_dict(totals["embeds"]),
        "downloadable": {
            "checked": checked,
            "ok": sum(s.media_downloadable for s in scores),
            "rate": _rate(sum(s.media_downloadable for s in scores), checked),
        },
        "bad": {"expected": bad_expected, "leaked": leaked, "leak_rate": _rate(leaked, bad_expected)},
        "statuses": dict(sorted(statuses.items())),
        "attempts": {
            "total": sum(s.attempts for s in scores),
            "wasted": sum(s.wasted_attempts for s in scores),
            "wasted_rate": _rate(sum(s.wasted_attempts for s in scores), sum(s.attempts for s in scores)),
        },
        "extra_pages": dict(sorted(extra.items())),
        "quirks": per_quirk,
    }


def score_variant(
    specs: Sequence[SiteSpec],
    truths: Mapping[str, SiteTruth],
    items: Mapping[str, Sequence[Mapping[str, Any]]],
    *,
    checker: Checker | None = None,
) -> list[SiteScore]:
    """Score one variant's run: `items` maps site_id to that site's items (missing = nothing returned)."""
    check = checker or HttpChecker()
    return [score_site(s, truths[s.site_id], items.get(s.site_id, []), checker=check) for s in specs]
