"""Render the report: a static summary, the page data as embedded JSON, and the script that shows it.

The file is self-contained (inline CSS and JavaScript, no network) and works from `file://`. The tree,
the filtered list (50 rows a page) and the page detail are built client-side from the JSON, so the
browser only ever lays out a screenful, whatever the number of pages.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from .assets import CSS, JS


def embed_json(data: Any) -> str:
    """JSON safe inside `<script type="application/json">` (no `</script>`, no `<!--`).

    >>> embed_json({"t": "</script><!--"})
    '{"t":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _num(value: Any) -> str:
    return "–" if value is None else escape(str(value))


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    s = round(seconds)
    return f"{s // 60}m {s % 60}s" if s >= 60 else f"{s}s"


def _rows(pairs: list[tuple[str, Any]], stat_prefix: str) -> str:
    return "".join(
        f'<tr><td>{escape(k)}</td><td data-stat="{stat_prefix}{escape(k)}">{_num(v)}</td></tr>' for k, v in pairs
    )


def summary_html(s: dict[str, Any]) -> str:
    """The summary cards (static HTML: readable even with scripts off)."""
    limits = s["limits"] or {}
    lim = ", ".join(f"{k[4:] if k.startswith('max_') else k} {_num(v)}" for k, v in limits.items()) or "not recorded"
    rejected_total = sum(n for reasons in s["rejected"].values() for n in reasons.values())
    rejected_rows = "".join(
        f'<tr><td>{escape(kind)}: {escape(reason)}</td><td data-stat="rejected-{escape(kind)}-{escape(reason)}">'
        f"{n}</td></tr>"
        for kind, reasons in s["rejected"].items() for reason, n in reasons.items()
    )
    refl = s["reflection"]
    diag = ", ".join(f"{escape(k)} {n}" for k, n in refl["diagnoses"].items()) or "none"
    return f"""
<div class="card"><h2>Pages</h2><div class="big" data-stat="pages">{s["pages"]}</div>
<table>{_rows(list(s["by_status"].items()), "status-")}</table>
<div class="muted">deepest level {s["max_depth_seen"]}</div></div>
<div class="card"><h2>Media verified</h2><table>
<tr><td>images</td><td data-stat="images">{s["images"]}</td></tr>
<tr><td>videos</td><td data-stat="videos">{s["videos"]}</td></tr>
<tr><td>embeds</td><td data-stat="embeds">{s["embeds"]}</td></tr>
<tr><td>stored</td><td data-stat="stored">{s["stored"]}</td></tr></table></div>
<div class="card"><h2>Rejected media</h2><div class="big" data-stat="rejected">{rejected_total}</div>
<table>{rejected_rows}</table></div>
<div class="card"><h2>Reflection</h2><table>
<tr><td>attempts</td><td data-stat="attempts">{refl["attempts"]}</td></tr>
<tr><td>pages retried</td><td data-stat="retried">{refl["pages_retried"]}</td></tr>
<tr><td>recovered (ok after a retry)</td><td data-stat="recovered">{refl["recovered"]}</td></tr>
<tr><td>media found by retries</td><td data-stat="media-gained">{refl["media_gained"]}</td></tr></table>
<div class="muted">diagnoses: {diag}</div></div>
<div class="card"><h2>Time</h2><table>
<tr><td>started</td><td>{_num(s["started"])}</td></tr><tr><td>finished</td><td>{_num(s["finished"])}</td></tr>
<tr><td>elapsed</td><td data-stat="elapsed">{_duration(s["elapsed"])}</td></tr>
<tr><td>pages/min</td><td data-stat="pages-per-min">{_num(s["pages_per_min"])}</td></tr></table></div>
<div class="card"><h2>Limits</h2><div>{lim}</div></div>"""


def render_html(data: dict[str, Any]) -> str:
    s = data["summary"]
    seed = escape(s["seed"] or "")
    title = f"bara crawl report: {seed}" if seed else "bara crawl report"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src * file: data:; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{title}</title><style>{CSS}</style></head>
<body>
<header><h1>{title}</h1><div>seed <a href="{seed}">{seed}</a> · {s["pages"]} pages · source
{escape(str(data["meta"].get("source") or ""))}</div></header>
<section id="summary">{summary_html(s)}</section>
<div id="app">
<nav class="panel" id="tree-panel"><h2>BFS tree</h2><div id="tree"></div></nav>
<section class="panel" id="list-panel"><h2>Pages</h2>
<div id="filters">
<select id="f-status" aria-label="status"><option value="">all statuses</option><option>ok</option>
<option>incomplete</option><option>failed</option></select>
<select id="f-media" aria-label="media"><option value="">any media</option><option value="media">with media</option>
<option value="images">with images</option><option value="videos">with videos</option>
<option value="none">no media</option><option value="rejected">with rejected media</option></select>
<select id="f-depth" aria-label="depth"><option value="">all depths</option></select>
<input id="f-search" type="search" placeholder="search url, title, text"></div>
<div id="count" class="muted"></div>
<table id="pages"><thead><tr><th>#</th><th>depth</th><th>status</th><th>title</th><th>img</th><th>vid</th>
<th>rej</th><th>att</th></tr></thead><tbody id="rows"></tbody></table>
<div class="pager"><button id="prev">prev</button><span id="pageno"></span><button id="next">next</button></div>
</section>
<section class="panel" id="detail"></section>
</div>
<script id="bara-data" type="application/json">{embed_json(data)}</script>
<script>{JS}</script>
</body></html>
"""


def write_report(data: dict[str, Any], path: Path) -> int:
    """Write the report; return its size in bytes."""
    html = render_html(data).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(html)
    return len(html)
