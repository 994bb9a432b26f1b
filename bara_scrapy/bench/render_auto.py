"""The 50-site bench under `BARA_RENDER=auto` against `always` (`full`), page by page.

    scrapy bara-bench --sites 50 --variants full,auto --out bench-out/auto
    python -m bara_scrapy.bench.render_auto bench-out/auto

Reads both variants' items and prints: whether each site's pages and `bfs_index` are the same; the
confusion table (the path `auto` served each page by, against whether its item equals the `always` item:
the same status, normalised text and verified media); the share served over HTTP per layout and per quirk;
the reasons; and every page served over HTTP whose item differs (which must be none).
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..render.compare import normalise_text
from .generate import generate_sites
from .render_compare import page_quirks
from .runner import read_items
from .truth import site_path


def local(url: str | None) -> str | None:
    """A URL without its scheme and host: two bench runs serve the same sites on other ports.

    >>> local("http://127.0.0.1:4711/s01/post/a?x=1"), local(None)
    ('/s01/post/a?x=1', None)
    """
    if url is None:
        return None
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def essentials(item: dict[str, Any]) -> tuple[object, ...]:
    """What must not change with the path: status, text, the verified media."""
    media = sorted((m["kind"], local(m["url"])) for key in ("images", "videos", "embeds")
                   for m in item.get(key) or [] if m.get("verified") or key == "embeds")
    return item["status"], normalise_text(item.get("text") or ""), tuple(media)


def ref(item: dict[str, Any]) -> tuple[object, ...]:
    return local(item["url"]), item["bfs_index"], item["depth"], local(item["parent_url"])


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f} %)" if whole else "0/0"


def compare_runs(out: Path, sites: int, seed: int) -> list[str]:
    specs = {s.site_id: s for s in generate_sites(sites, seed)}
    lines: list[str] = []
    confusion: Counter[tuple[str, str]] = Counter()
    reasons: Counter[str] = Counter()
    by_layout: dict[str, Counter[str]] = defaultdict(Counter)
    by_quirk: dict[str, Counter[str]] = defaultdict(Counter)
    wrong: list[str] = []
    exact = 0
    for site_id, spec in sorted(specs.items()):
        always = {local(i["url"]): i for i in _items(out / "items" / "full" / f"{site_id}.jsonl")}
        auto = {local(i["url"]): i for i in _items(out / "items" / "auto" / f"{site_id}.jsonl")}
        exact += sorted(map(ref, always.values())) == sorted(map(ref, auto.values()))
        for url, item in auto.items():
            render = item.get("render") or {}
            path = render.get("path", "?")
            same = url in always and essentials(always[url]) == essentials(item)
            confusion[(path, "equal" if same else "different")] += 1
            reasons[render.get("reason", "?")] += 1
            by_layout[spec.layout][path] += 1
            for quirk in page_quirks(spec, spec.page_at(site_path(item.get("final_url") or item["url"]))) or ["(none)"]:
                by_quirk[quirk][path] += 1
            if path == "http" and not same:
                wrong.append(f"- {site_id} {item['url']}: {render}")
    total = sum(confusion.values())
    lines += [f"Sites with the same pages and bfs_index as always: {exact}/{len(specs)}", "",
              "| served by | item equal to always | item different |", "|---|---|---|"]
    for path in ("http", "browser"):
        lines.append(f"| {path} | {confusion[(path, 'equal')]} | {confusion[(path, 'different')]} |")
    http = sum(n for (p, _), n in confusion.items() if p == "http")
    lines += ["", f"Served over HTTP: {_pct(http, total)}", "", "| reason | pages |", "|---|---|"]
    lines += [f"| {r} | {n} |" for r, n in reasons.most_common()]
    lines += ["", *_share("layout", by_layout), "", *_share("quirk", by_quirk)]
    lines += ["", f"Served over HTTP but different from always: {len(wrong)}", *wrong]
    return lines


def _share(label: str, table: dict[str, Counter[str]]) -> list[str]:
    rows = [f"| {label} | over HTTP |", "|---|---|"]
    rows += [f"| {key} | {_pct(c['http'], sum(c.values()))} |" for key, c in sorted(table.items())]
    return rows


def _items(path: Path) -> Iterable[dict[str, Any]]:
    return read_items(path) if path.exists() else []


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bara_scrapy.bench.render_auto", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="the bench's --out directory (variants full and auto)")
    parser.add_argument("--sites", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print("\n".join(compare_runs(args.out, args.sites, args.seed)))


if __name__ == "__main__":
    main()
