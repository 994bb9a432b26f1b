"""`bench.render_auto`: the page-by-page comparison of an `auto` bench run with `always`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bara_scrapy.bench.generate import generate_sites
from bara_scrapy.bench.render_auto import compare_runs


def _item(url: str, index: int, text: str, path: str = "browser", reason: str = "always") -> dict[str, Any]:
    return {"url": url, "bfs_index": index, "depth": min(index, 1), "parent_url": None if index == 0 else "/",
            "status": "ok", "text": text, "images": [{"kind": "image", "url": f"{url}i.png", "verified": True}],
            "videos": [], "embeds": [], "render": {"path": path, "reason": reason}}


def _write(out: Path, variant: str, items: list[dict[str, Any]]) -> None:
    folder = out / "items" / variant
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "s00.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))


def test_a_page_served_over_http_with_another_text_is_named(tmp_path: Path) -> None:
    base = generate_sites(1, 0)[0].pages[0].path
    pages = [(f"http://s00.test{base}", "Home page."), ("http://s00.test/a", "Page a."),
             ("http://s00.test/b", "Page b.")]
    _write(tmp_path, "full", [_item(u, n, t) for n, (u, t) in enumerate(pages)])
    _write(tmp_path, "auto", [_item(pages[0][0], 0, "Home  page.", "browser", "probe"),
                              _item(pages[1][0], 1, "Page a.", "http", "http"),
                              _item(pages[2][0], 2, "Page b, changed.", "http", "http")])
    lines = compare_runs(tmp_path, 1, 0)
    assert lines[0] == "Sites with the same pages and bfs_index as always: 1/1"
    assert "| http | 1 | 1 |" in lines and "| browser | 1 | 0 |" in lines  # whitespace is not a difference
    assert "Served over HTTP but different from always: 1" in lines
    assert lines[-1].startswith("- s00 http://s00.test/b:")
