"""`scrapy bara-bench --corpus NAME --corpus-path DIR` on a corpus written here: each page is served at its own URL's
path on the bench's host, with its links to its own site made links to that host (`bench.corpus.localized`), so the
crawl reads a page as it reads it on its site. A "Related:" promo of another story of the site, set between two
paragraphs (`content._without_promos`), leaves the rendered text as it leaves the raw one; served under another
name with links to a host out of reach, the promo was kept."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser

PARAGRAPHS = [
    "The otters came back to the weir this spring after an absence of almost thirty years on the lower river.",
    "Volunteers counted nine animals in March, two of them cubs, along the reach below the old mill race.",
    "The river trust credits the cleaner water that followed the closure of the tannery upstream in 2009.",
    "Anglers say the fish have not suffered, and the trust will publish its own survey before the summer.",
]


def _page(title: str, promo: str, words: list[str]) -> str:
    paragraphs = [f"<p>{p}</p>" for p in words]
    body = "".join(paragraphs[:2]) + promo + "".join(paragraphs[2:])
    return (f"<html><head><title>{title} - River News</title></head><body><nav><a href='https://news.example/'>"
            f"Home</a></nav><main><article><h1>{title}</h1>{body}</article></main></body></html>")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, list[dict]]:  # type: ignore[type-arg]
    root = tmp_path_factory.mktemp("corpus")
    (root / "html").mkdir()
    promo = ("<p>Related: <a href='https://news.example/2024/herons.html'>Herons nest on the mill island again"
             "</a></p>")
    herons = [p.replace("otters", "herons").replace("Otters", "Herons") for p in PARAGRAPHS]
    pages = {"otters": ("https://news.example/2024/otters.html", PARAGRAPHS,
                        _page("Otters return to the weir", promo, PARAGRAPHS)),
             "herons": ("https://news.example/2024/herons.html", herons,
                        _page("Herons nest on the mill island", "", herons))}
    truth = {}
    for key, (url, body, html) in pages.items():
        (root / "html" / f"{key}.html.gz").write_bytes(gzip.compress(html.encode()))
        truth[key] = {"url": url, "articleBody": "\n".join(body)}
    (root / "ground-truth.json").write_text(json.dumps(truth))
    out = root / "out"
    proc = subprocess.run([sys.executable, "-m", "scrapy", "bara-bench", "--sites", "0", "--corpus",
                           "article-extraction-benchmark", "--corpus-path", str(root), "--out", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    figures = json.loads((out / "report.json").read_text())["meta"]["corpus"]
    items = [json.loads(line) for line in
             (out / "items" / "corpus-article-extraction-benchmark" / "corpus.jsonl").read_text().splitlines()]
    return figures, items


def test_a_corpus_page_is_read_as_on_its_own_site(run: tuple[dict, list[dict]]) -> None:  # type: ignore[type-arg]
    figures, items = run
    assert figures["missing_items"] == 0, figures
    otters = next(item for item in items if item["title"].startswith("Otters return"))
    assert urlsplit(otters["url"]).path == "/2024/otters.html", otters["url"]
    assert PARAGRAPHS[0] in otters["text"] and PARAGRAPHS[3] in otters["text"], otters["text"]
    assert "Herons nest on the mill island again" not in otters["text"], otters["text"]
    assert figures["offline"]["bara"]["f1"] <= figures["f1"] + 1e-9, figures  # rendered as good as the raw HTML
