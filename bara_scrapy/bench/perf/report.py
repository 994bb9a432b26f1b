"""Write the speed bench's results: perf.json, perf.md (the tables of docs/speed.md) and PNG charts.

matplotlib is imported only to draw; without it the charts are skipped with a message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

COLUMNS = (
    ("variant", "variant"), ("concurrency", "c"), ("pages", "pages"), ("pages_per_min", "pages/min"),
    ("pages_per_min_steady", "pages/min steady"),
    ("wall_s_per_page", "wall s/page"), ("cpu_s_per_page", "CPU s/page"), ("peak_pss_mb", "peak PSS MB"),
    ("attempts_per_page", "attempts/page"), ("wasted_attempts", "wasted attempts"),
    ("pages_found", "pages found"), ("image_recall", "image recall"),
)


def _cell(value: Any) -> str:
    return "–" if value is None else str(value)


def table(rows: list[Mapping[str, Any]]) -> str:
    """The Markdown table of all rows, by variant (in the order they ran) then concurrency.

    >>> print(table([{"variant": "http", "concurrency": 1, "pages": 3}]).splitlines()[-1])
    | http | 1 | 3 | – | – | – | – | – | – | – | – | – |
    """
    order: dict[str, int] = {}
    for row in rows:
        order.setdefault(str(row["variant"]), len(order))
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in sorted(rows, key=lambda r: (order[str(r["variant"])], int(r["concurrency"]))):
        lines.append("| " + " | ".join(_cell(row.get(key)) for key, _ in COLUMNS) + " |")
    return "\n".join(lines)


def markdown(data: Mapping[str, Any]) -> str:
    m = data["machine"]
    out = ["# bara-bench --perf", "",
           f"Machine: {m.get('cores')} cores, {m.get('chromium')}, load average at start "
           f"{m.get('loadavg_start')}, at end {m.get('loadavg_end')}.", ""]
    if data["rows"]:
        out += [f"Site: {data['site']['pages']} generated pages on 127.0.0.1 (plain, lazy images, tall, "
                "infinite-scroll feed). pages/min and s/page: whole-run wall time, start-up (imports, Chromium "
                "launch) included; pages/min steady: from the first feed line on disk to the last (feeds are "
                "written in buffered chunks, so on short runs this is rough; `progress` in perf.json has the "
                "feed growth).", "",
                table(data["rows"]), ""]
        t = data.get("targets") or {}
        per_c = ", ".join(f"c={c}: {v}" for c, v in (t.get("bara_over_floor") or {}).items())
        out += ["Targets (pages/min ratios):", "",
                f"- bara full / floor at each concurrency: {per_c or '–'}",
                f"- bara full / floor, best over concurrency: {_cell(t.get('bara_over_floor_best'))}",
                f"- bara full / straightforward spider at c=4: {_cell(t.get('bara_over_spider_c4'))}"]
        if "warc_over_bara" in t:
            out += [f"- with the archive / without (`bara_warc` / `bara`): pages/min "
                    f"{', '.join(f'c={c}: {v}' for c, v in t['warc_over_bara'].items()) or '–'}; CPU s/page "
                    f"{', '.join(f'c={c}: {v}' for c, v in t.get('warc_cpu_over_bara', {}).items()) or '–'}"]
        out += [f"- `{name.removesuffix('_over_floor')}` / floor: "
                f"{', '.join(f'c={c}: {v}' for c, v in ratios.items()) or '–'}"
                for name, ratios in t.items() if name.startswith("bara_auto") and name.endswith("_over_floor")]
        out += [""]
        out += ["Variants:", ""] + [f"- `{k}`: {v}" for k, v in data["notes"].items()] + [""]
    long = data.get("long")
    if long:
        at = ", ".join(f"{k}: {_cell(v)}" for k, v in long["pss_mb_at_pages"].items())
        out += [f"Long crawl ({long.get('variant', 'bara')}, c={long['concurrency']}): {long['pages']} pages "
                f"in {long['wall_s']} s; "
                f"peak PSS (MB) of crawler + browser per stretch of pages, up to {at}; "
                f"overall peak {long['peak_pss_mb']} MB.", ""]
    return "\n".join(out)


def charts(data: Mapping[str, Any], out: Path) -> list[str]:
    """Draw perf.png (pages/min vs concurrency) and perf-long.png (PSS vs pages); messages to print."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ["[perf] matplotlib is not installed: no PNG charts (pip install matplotlib)"]
    written: list[str] = []
    if data["rows"]:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for variant in dict.fromkeys(str(r["variant"]) for r in data["rows"]):
            points = sorted((int(r["concurrency"]), r["pages_per_min"] or 0) for r in data["rows"]
                            if r["variant"] == variant)
            ax.plot([c for c, _ in points], [v for _, v in points], marker="o", label=variant)
        ax.set_xscale("log", base=2)
        levels = sorted({int(r["concurrency"]) for r in data["rows"]})
        ax.set_xticks(levels, [str(c) for c in levels])
        ax.set_xlabel("CONCURRENT_REQUESTS")
        ax.set_ylabel("pages/min")
        ax.set_title(f"{data['site']['pages']} pages, {data['machine'].get('cores')} cores")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "perf.png", dpi=110)
        plt.close(fig)
        written.append(f"[perf] chart: {out / 'perf.png'}")
    long = data.get("long")
    if long and long["series"]:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        ax.plot([s[1] for s in long["series"]], [s[2] for s in long["series"]])
        ax.set_xlabel("pages done")
        ax.set_ylabel("PSS crawler + browser (MB)")
        ax.set_title(f"{long.get('variant', 'bara')}, c={long['concurrency']}, {long['pages']} pages")
        fig.tight_layout()
        fig.savefig(out / "perf-long.png", dpi=110)
        plt.close(fig)
        written.append(f"[perf] chart: {out / 'perf-long.png'}")
    return written


def write_outputs(data: Mapping[str, Any], out: Path, *, chart: bool) -> list[str]:
    """perf.json and perf.md always, the charts when `chart`; lines to print."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "perf.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    text = markdown(data)
    (out / "perf.md").write_text(text + "\n", encoding="utf-8")
    if not chart:
        return []
    return [text, *charts(data, out), f"[perf] report: {out / 'perf.md'}, {out / 'perf.json'}"]
