"""Scorer of the article-extraction-benchmark (scrapinghub/article-extraction-benchmark).

181 real news/blog pages with a human-written article body each. The metric is
the benchmark's own `evaluate.py`, reproduced exactly: tokens are `\\w+` runs
(case kept: the original regex only sets IGNORECASE, which does not fold case),
4-token shingles, per-page tp/fp/fn over shingle multisets, precision averaged
over pages with a prediction, recall over pages with a truth, F1 from the two
averages.

    python -m bara_scrapy.bench.articles [--corpus PATH] [--limit N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..extraction.content import page_content

PUBLISHED = {
    "trafilatura 2.0.0": (0.958, 0.938, 0.978),
    "readability-lxml": (0.922, 0.913, 0.931),
    "best published": (0.970, None, None),
}

_TOKEN_RE = re.compile(r"\w+", re.UNICODE)
Shingle = tuple[str, ...]
TpFpFn = tuple[float, float, float]
Page = tuple[str, str, str, str]  # key, html, url, truth


_META_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([\w-]+)""", re.I)


def default_corpus(name: str = "article-extraction-benchmark") -> Path:
    """Where corpus `name` is: `$BARA_ARTICLE_CORPUS` (the article corpus only), else
    `$BARA_CORPORA/<name>`, else `corpora/<name>` in the directory beside the checkout's `shared/`
    (the corpora are data kept outside the repository; the tests that need them skip without them)."""
    env = os.environ.get("BARA_ARTICLE_CORPUS")
    if env and name == "article-extraction-benchmark":
        return Path(env)
    corpora = os.environ.get("BARA_CORPORA")
    if corpora:
        return Path(corpora) / name
    repo = Path(__file__).resolve().parents[2]
    return repo.parent / "shared" / "corpora" / name


def decode(raw: bytes) -> str:
    """A page's text: its `<meta charset>`, else UTF-8, else cp1252 (old pages are not UTF-8 throughout).

    >>> decode('<meta charset="iso-8859-1">caf\xe9'.encode("latin-1"))[-4:], decode("café".encode())
    ('café', 'café')
    """
    found = _META_CHARSET.search(raw[:4096])
    for encoding in ([found.group(1).decode("ascii")] if found else []) + ["utf-8", "cp1252"]:
        try:
            return raw.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            continue
    return raw.decode("utf-8", errors="replace")


def load_corpus(path: str | Path, limit: int | None = None) -> list[Page]:
    """(key, html, url, truth) per page, sorted by key (the first `limit`). The truth is the
    entry's `articleBody` (article corpus) or `text` (CleanEval, CleanPortalEval)."""
    root = Path(path)
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    pages: list[Page] = []
    for key in sorted(truth)[:limit]:
        with gzip.open(root / "html" / f"{key}.html.gz", "rb") as f:
            html = decode(f.read())
        entry = truth[key]
        pages.append((key, html, entry.get("url", ""), entry.get("articleBody", entry.get("text", ""))))
    return pages


def tokenize(text: str) -> list[str]:
    """The benchmark's tokens: runs of `\\w`, case kept.

    >>> tokenize("It's 4-word, Shingles!")
    ['It', 's', '4', 'word', 'Shingles']
    """
    return _TOKEN_RE.findall(text or "")


def shingles(text: str, n: int = 4) -> Counter[Shingle]:
    """Multiset of n-token shingles; a text shorter than n yields one short shingle.

    >>> sorted(shingles("a b c d e").items())
    [(('a', 'b', 'c', 'd'), 1), (('b', 'c', 'd', 'e'), 1)]
    >>> shingles("a b")
    Counter({('a', 'b'): 1})
    >>> shingles("")
    Counter()
    """
    tokens = tokenize(text)
    return Counter(tuple(tokens[i : i + n]) for i in range(max(1, len(tokens) - n + 1)) if tokens[i : i + n])


def tp_fp_fn(pred: str, truth: str, n: int = 4) -> TpFpFn:
    """Shingle-multiset counts, normalised to sum 1 (as the benchmark does)."""
    p, t = shingles(pred, n), shingles(truth, n)
    tp = float(sum((p & t).values()))
    fp = float(sum((p - t).values()))
    fn = float(sum((t - p).values()))
    s = tp + fp + fn
    return (tp / s, fp / s, fn / s) if s > 0 else (tp, fp, fn)


def _precision(tp: float, fp: float, fn: float) -> float:
    if fp == fn == 0:
        return 1.0
    return 0.0 if tp == fp == 0 else tp / (tp + fp)


def _recall(tp: float, fp: float, fn: float) -> float:
    if fp == fn == 0:
        return 1.0
    return 0.0 if tp == fn == 0 else tp / (tp + fn)


def score_page(pred: str, truth: str) -> tuple[float, float]:
    """(precision, recall) of one page.

    >>> score_page("the cat sat on the mat", "the cat sat on the mat")
    (1.0, 1.0)
    >>> score_page("", "the cat sat on the mat")
    (0.0, 0.0)
    """
    counts = tp_fp_fn(pred, truth)
    return _precision(*counts), _recall(*counts)


def metrics(counts: list[TpFpFn]) -> dict[str, float]:
    """Benchmark aggregation: a page without predicted shingles is left out of precision,
    one without true shingles out of recall."""
    precisions = [_precision(*c) for c in counts if c[0] + c[1] > 0]
    recalls = [_recall(*c) for c in counts if c[0] + c[2] > 0]
    precision = statistics.mean(precisions) if precisions else 0.0
    recall = statistics.mean(recalls) if recalls else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"f1": f1, "precision": precision, "recall": recall, "n": float(len(counts))}


def score(preds: Mapping[str, str], truths: Mapping[str, str]) -> dict[str, float]:
    """Benchmark metrics over `truths`' keys; a missing prediction counts as empty."""
    return metrics([tp_fp_fn(preds.get(key, ""), truth) for key, truth in truths.items()])


def run_offline(
    corpus_path: str | Path | None = None,
    *,
    limit: int | None = None,
    extract: Callable[[str, str], str] | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Extract each page's raw HTML (no browser) and score it: by default bara's text without
    readers' comments (`Content.article_text`), which this corpus's article bodies leave out."""
    pages = load_corpus(corpus_path or default_corpus(), limit)
    extract = extract or (lambda html, url: page_content(html, url).article_text())
    preds: dict[str, str] = {}
    truths: dict[str, str] = {}
    started = time.perf_counter()
    for i, (key, html, url, truth) in enumerate(pages, 1):
        preds[key], truths[key] = extract(html, url), truth
        if progress and (i % 50 == 0 or i == len(pages)):
            print(f"  {i}/{len(pages)} pages", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - started
    result: dict[str, Any] = dict(score(preds, truths))
    result["ms_per_page"] = 1000 * seconds / max(1, len(pages))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bara_scrapy.bench.articles", description=__doc__)
    parser.add_argument("--corpus", type=Path, default=None, help="corpus dir (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=None, help="score only the first N pages")
    args = parser.parse_args(argv)
    corpus = args.corpus or default_corpus()
    if not (corpus / "ground-truth.json").is_file():
        print(f"corpus not found: {corpus} (set BARA_ARTICLE_CORPUS or --corpus)", file=sys.stderr)
        return 2
    r = run_offline(corpus, limit=args.limit)
    print(f"{'extractor':<30} {'F1':>6} {'prec':>6} {'recall':>6}")
    print(
        f"{'bara text (offline)':<30} {r['f1']:6.3f} {r['precision']:6.3f} {r['recall']:6.3f}"
        f"   n={int(r['n'])}, {r['ms_per_page']:.0f} ms/page"
    )
    for name, values in PUBLISHED.items():
        cells = " ".join(f"{v:6.3f}" if v is not None else f"{'-':>6}" for v in values)
        print(f"{name + ' (published)':<30} {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
