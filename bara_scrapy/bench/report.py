"""The bench report: report.json, report.md (tables per variant and per quirk) and chart.png.

`build_report` turns per-variant site scores into one JSON-able dict;
`write_report` renders it. Rows of the main table are variants, columns are
metrics, so the difference from `full` shows what each component buys.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .score import SiteScore, aggregate

VARIANT_ORDER = ("full", "auto", "no_reflection", "no_verification", "no_scroll", "dfs", "http")
VARIANT_NOTES = {  # the runner's variants; pass meta["variant_notes"] to override
    "full": "everything on",
    "no_reflection": "A=1: no reflection/retry of incomplete pages",
    "no_verification": "media returned without the download check",
    "no_scroll": "no incremental scrolling",
    "dfs": "depth-first order, same P (scored against the BFS truth)",
    "http": "plain HTTP, no browser",
    "auto": "BARA_RENDER=auto",
}
# (column label, section, key); values are rates in [0, 1] unless the key ends with "leaked"
METRICS: tuple[tuple[str, str, str], ...] = (
    ("Page P", "pages", "precision"),
    ("Page R", "pages", "recall"),
    ("Exact sites", "pages", "exact_rate"),
    ("BFS index", "pages", "bfs_agreement"),
    ("Text R", "text", "recall"),
    ("Boiler leak", "boilerplate", "leak_rate"),
    ("Comments R", "comments", "recall"),
    ("Comments P", "comments", "precision"),
    ("Image P", "images", "precision"),
    ("Image R", "images", "recall"),
    ("Video P", "videos", "precision"),
    ("Video R", "videos", "recall"),
    ("Embed R", "embeds", "recall"),
    ("Downloadable", "downloadable", "rate"),
    ("Bad leaked", "bad", "leaked"),
    ("Wasted att.", "attempts", "wasted_rate"),
)
CHART_METRICS = ("Page R", "Exact sites", "BFS index", "Text R", "Image R", "Video R", "Downloadable")


def ordered(variants: Sequence[str]) -> list[str]:
    """Known variants first, in the canonical order, then the others by name.

    >>> ordered(["http", "zzz", "full"])
    ['full', 'http', 'zzz']
    """
    known = [v for v in VARIANT_ORDER if v in variants]
    return known + sorted(v for v in variants if v not in VARIANT_ORDER)


def build_report(
    results: Mapping[str, Sequence[SiteScore]], meta: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """`results`: variant name -> the site scores of that variant's run."""
    return {
        "meta": dict(meta or {}),
        "variants": {
            v: {"summary": aggregate(results[v]), "sites": [s.to_dict() for s in results[v]]}
            for v in ordered(list(results))
        },
    }


def metric(summary: Mapping[str, Any], section: str, key: str) -> float | None:
    value = summary.get(section, {}).get(key)
    return None if value is None else float(value)


def _fmt(value: float | None, key: str) -> str:
    if value is None:
        return "–"
    return str(int(value)) if key == "leaked" else f"{100 * value:.1f}%"


def _delta(full: float | None, other: float | None, key: str) -> str:
    if full is None or other is None:
        return "–"
    if key == "leaked":
        return f"{int(other - full):+d}"
    return f"{100 * (full - other):+.1f} pp"


def render_markdown(report: Mapping[str, Any]) -> str:
    variants: dict[str, Any] = report["variants"]
    names = list(variants)
    meta = dict(report.get("meta", {}))
    notes = {**VARIANT_NOTES, **meta.pop("variant_notes", {})}
    lines = ["# bara-bench report", ""]
    if meta:
        lines += [", ".join(f"**{k}**: {v}" for k, v in meta.items()), ""]
    lines += ["## Summary by variant", "", "| Variant | " + " | ".join(m[0] for m in METRICS) + " |",
              "|---" * (len(METRICS) + 1) + "|"]
    for v in names:
        s = variants[v]["summary"]
        cells = [_fmt(metric(s, sec, key), key) for _, sec, key in METRICS]
        lines.append(f"| {v} | " + " | ".join(cells) + " |")
    if "full" in variants and len(names) > 1:
        full = variants["full"]["summary"]
        lines += ["", "## What each component buys (full minus variant; Bad leaked: variant minus full)", "",
                  "| Variant | What is off | " + " | ".join(m[0] for m in METRICS) + " |",
                  "|---" * (len(METRICS) + 2) + "|"]
        for v in names[1:]:
            s = variants[v]["summary"]
            cells = [_delta(metric(full, sec, key), metric(s, sec, key), key) for _, sec, key in METRICS]
            lines.append(f"| {v} | {notes.get(v, '')} | " + " | ".join(cells) + " |")
    lines += _quirk_tables(variants, names)
    lines += _site_table(variants, names)
    return "\n".join(lines) + "\n"


def _quirk_tables(variants: Mapping[str, Any], names: list[str]) -> list[str]:
    quirks = sorted({q for v in names for q in variants[v]["summary"]["quirks"]})
    lines = ["", "## Per quirk: recall of everything the quirk produced (pages, sentences, media)", "",
             "| Quirk | Expected | " + " | ".join(names) + " |", "|---" * (len(names) + 2) + "|"]
    bad_lines = ["", "## Per quirk: bad media leaked (lower is better)", "",
                 "| Quirk | Bad media | " + " | ".join(names) + " |", "|---" * (len(names) + 2) + "|"]
    for q in quirks:
        rows = [variants[v]["summary"]["quirks"].get(q, {}) for v in names]
        expected = max((r.get("expected", 0) for r in rows), default=0)
        if expected:
            lines.append(f"| {q} | {expected} | " + " | ".join(_fmt(r.get("recall"), "") for r in rows) + " |")
        bad = max((r.get("bad_expected", 0) for r in rows), default=0)
        if bad:
            bad_lines.append(f"| {q} | {bad} | " + " | ".join(str(r.get("bad_leaked", 0)) for r in rows) + " |")
    return lines + (bad_lines if len(bad_lines) > 5 else []) + _text_table(variants, names, quirks)


def _text_table(variants: Mapping[str, Any], names: list[str], quirks: list[str]) -> list[str]:
    """Text recall (key sentences found) and precision (planted furniture leaked) per quirk."""
    lines = ["", "## Per quirk: text recall / boilerplate leaked (leaked of planted)", "",
             "| Quirk | Key sentences | Planted | " + " | ".join(names) + " |", "|---" * (len(names) + 3) + "|"]
    for q in quirks:
        rows = [variants[v]["summary"]["quirks"].get(q, {}) for v in names]
        keys = max((r.get("text_expected", 0) for r in rows), default=0)
        planted = max((r.get("boiler_planted", 0) for r in rows), default=0)
        if keys or planted:
            cells = [f"{_fmt(r.get('text_recall'), '')} / {r.get('boiler_leaked', 0)}" for r in rows]
            lines.append(f"| {q} | {keys} | {planted} | " + " | ".join(cells) + " |")
    return lines


def _site_table(variants: Mapping[str, Any], names: list[str]) -> list[str]:
    lines = ["", "## Per site: page recall (exact set marked ✓)", "",
             "| Site | Truth pages | " + " | ".join(names) + " |", "|---" * (len(names) + 2) + "|"]
    per_variant = {v: {s["site_id"]: s for s in variants[v]["sites"]} for v in names}
    site_ids = sorted({sid for v in names for sid in per_variant[v]})
    for sid in site_ids:
        cells, truth = [], 0
        for v in names:
            s = per_variant[v].get(sid)
            if s is None:
                cells.append("–")
                continue
            truth = s["pages"]["expected"]
            recall = s["pages"]["found"] / truth if truth else None
            cells.append(_fmt(recall, "") + (" ✓" if s["exact"] else ""))
        lines.append(f"| {sid} | {truth} | " + " | ".join(cells) + " |")
    return lines


NO_MATPLOTLIB = "bara-bench: no chart.png, matplotlib is not installed (pip install 'bara_scrapy[bench]' adds it)"


def have_matplotlib() -> bool:
    """Plots are an optional extra (`bara_scrapy[bench]`); the rest of the report needs nothing more."""
    return importlib.util.find_spec("matplotlib") is not None


def render_chart(report: Mapping[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variants: dict[str, Any] = report["variants"]
    names = list(variants)
    by_label = {m[0]: m for m in METRICS}
    fig, ax = plt.subplots(figsize=(12, 5), dpi=100)
    width = 0.8 / max(1, len(names))
    for i, v in enumerate(names):
        s = variants[v]["summary"]
        values = [100 * (metric(s, by_label[c][1], by_label[c][2]) or 0.0) for c in CHART_METRICS]
        ax.bar([x + i * width for x in range(len(CHART_METRICS))], values, width, label=v)
    ax.set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(CHART_METRICS))], CHART_METRICS)
    ax.set_ylim(0, 105)
    ax.set_ylabel("%")
    ax.set_title("bara-bench: what each component buys")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=len(names), fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_report(report: Mapping[str, Any], out_dir: str | Path) -> dict[str, Path]:
    """Write report.json, report.md and chart.png (with matplotlib) under `out_dir`; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "report.json", "md": out / "report.md", "chart": out / "chart.png"}
    paths["json"].write_text(json.dumps(report, indent=2, sort_keys=False, default=str) + "\n")
    paths["md"].write_text(render_markdown(report))
    if report.get("variants") and have_matplotlib():  # a corpus-only run has no variant to chart
        render_chart(report, paths["chart"])
    else:
        if report.get("variants"):
            print(NO_MATPLOTLIB, file=sys.stderr)
        del paths["chart"]
    return paths
