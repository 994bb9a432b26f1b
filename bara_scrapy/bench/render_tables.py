"""The tables of `render_compare`: every page's two results through `render.signals` and `render.policy`.

Pure over the collected rows (one per page: the rendered result, the HTTP fetch), so the table logic
is tested without a crawl and the same `pages.jsonl` can be re-read with other policy settings.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..extraction.hints import unseen_video_urls
from ..reflection import AttemptOutcome, diagnose
from ..render.compare import PageResult, compare
from ..render.policy import Observation, Outcome, PolicyConfig, RenderPolicy
from ..render.signals import signals
from .render_record import http_side

REFLECTION_KINDS = frozenset({"empty_text", "missing_media"})  # what a retry of an HTTP attempt would render


@dataclass
class PageVerdict:
    site: str
    url: str
    layout: str
    quirks: tuple[str, ...]
    truth: str  # equal | different | inconclusive (either side failed)
    differences: tuple[str, ...]
    reasons: tuple[str, ...]  # signal reasons of the HTTP document (and `reflection`)
    plan: str  # probe | pinned | audit | http
    served: str  # http | browser
    why: str


@dataclass
class Analysis:
    probes: int
    audit_share: float
    strict: bool
    horizon: int | None = None
    pages: list[PageVerdict] = field(default_factory=list)

    def confusion(self) -> dict[tuple[str, str], int]:
        return dict(Counter((p.served, p.truth) for p in self.pages))

    def wrong(self) -> list[PageVerdict]:
        """Pages served over HTTP whose HTTP result differs from the rendered one: must be none."""
        return [p for p in self.pages if p.served == "http" and p.truth == "different"]


def _ok(side: dict[str, Any]) -> bool:
    status = side.get("http_status", side.get("status"))
    return not side.get("error") and isinstance(status, int) and 200 <= status < 300


@functools.lru_cache(maxsize=4096)
def _http_result(url: str, final_url: str, status: int, html: str) -> tuple[Any, dict[str, Any]]:
    """The HTTP path's snapshot and result of one fetched page (cached: analyses re-read the same rows)."""
    return http_side(url, {"final_url": final_url, "status": status, "html": html})


def reflection_reasons(snapshot: Any, text: str, media: list[tuple[str, str]], links: int) -> tuple[str, ...]:
    """`reflection` when the reflection's diagnosis of the HTTP attempt would retry it (in the browser)."""
    video_hints = 0
    if snapshot.markers.empty_videos:
        seen = [c.url for c in snapshot.candidates]
        video_hints = unseen_video_urls(snapshot.html, snapshot.final_url or snapshot.url, seen)
    outcome = AttemptOutcome(
        http_status=snapshot.status, text_chars=len(text), images=sum(k == "image" for k, _ in media),
        videos=sum(k == "video" for k, _ in media), markers=snapshot.markers, links=links, video_hints=video_hints,
    )
    return ("reflection",) if REFLECTION_KINDS & set(diagnose(outcome)) else ()


def _site_rows(rows: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    by_site: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_site[row["site"]].append(row)
    return {site: sorted(rs, key=lambda r: r["bfs_index"]) for site, rs in sorted(by_site.items())}


def analyse(rows: Iterable[dict[str, Any]], *, probes: int, audit_share: float, strict: bool = True,
            horizon: int | None = None) -> Analysis:
    """Run signals and the policy over every site's pages in admission order, as the crawl would.

    A page is planned from the pages through its parent's index (what BFS has always finished when it
    admits it) or, with `horizon` H, through its own index minus H if that is later (the crawl then
    holds page k's request until page k - H has finished).
    """
    config = PolicyConfig(probes=probes, audit_share=audit_share, explained_differences_pin=strict)
    out = Analysis(probes, audit_share, strict, horizon)
    for site, site_rows in _site_rows(rows).items():
        policy = RenderPolicy(config)
        for row in site_rows:
            index = row["bfs_index"]
            while policy.through + 1 < index:  # a page without an item (none expected): learn nothing
                policy.record(policy.through + 1, f"{row['seed']}#missing", Observation("inconclusive"))
            rendered_side, http = row["rendered"], row["http"]
            rendered = PageResult.of(rendered_side["links"], rendered_side["text"],
                                     [tuple(m) for m in rendered_side["media"]], seed=row["seed"])
            parent = -1 if row["parent_index"] is None else row["parent_index"]
            plan = policy.plan(row["url"], max(parent, index - horizon) if horizon else parent)
            reasons: tuple[str, ...] = ()
            http_result: PageResult | None = None
            if _ok(http) and http.get("html"):
                snapshot, result = _http_result(row["url"], http["final_url"], http["status"], http["html"])
                http_result = PageResult.of(result["links"], result["text"], result["media"], seed=row["seed"])
                reasons = signals(http["html"], snapshot, text_chars=len(http_result.text),
                                  links=len(http_result.links), reference=plan.reference)
                reasons += reflection_reasons(snapshot, result["text"], result["media"], len(http_result.links))
            comparison = None
            if http_result is not None and rendered_side.get("status") == "ok":  # ok: nothing failed
                comparison = compare(http_result, rendered)
            truth: Outcome = "inconclusive" if comparison is None else "equal" if comparison.equal else "different"
            if http_result is None and plan.first == "http" and not plan.compare:
                served, why = "browser", "http_failed"
            else:
                served, why = plan.serve(reasons)
            compared = plan.compare or why.startswith("escalated")
            rendered_ok = rendered_side.get("status") == "ok"
            chars = len(rendered.text) if rendered_ok and (served == "browser" or plan.compare) else None
            links = len(rendered.links) if chars is not None else None
            if served == "http":
                obs = Observation("http")
            elif compared:
                obs = Observation(truth, chars, links, signalled=bool(reasons), audit=plan.reason == "audit")
            else:
                obs = Observation("rendered", chars, links)
            policy.record(index, row["url"], obs)
            out.pages.append(PageVerdict(site, row["url"], row["layout"], tuple(row["quirks"]), truth,
                                         comparison.differences if comparison else (), reasons, plan.reason,
                                         served, why))
    return out


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "–"


def share_table(pages: list[PageVerdict], key: Callable[[PageVerdict], Iterable[str]]) -> list[str]:
    """Markdown rows: per group, pages, served over HTTP, their share, and those served wrongly."""
    groups: dict[str, list[PageVerdict]] = defaultdict(list)
    for page in pages:
        for name in key(page):
            groups[name].append(page)
    lines = ["| group | pages | differ | served over HTTP | share | HTTP but different |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for name, ps in sorted(groups.items()):
        http = [p for p in ps if p.served == "http"]
        lines.append(f"| {name} | {len(ps)} | {sum(p.truth == 'different' for p in ps)} | {len(http)} | "
                     f"{_pct(len(http), len(ps))} | {sum(p.truth == 'different' for p in http)} |")
    return lines


def reason_table(pages: list[PageVerdict]) -> list[str]:
    """Per reason: pages it fires on, of which differ; pages it escalated (plan http, served browser)."""
    fired: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    for page in pages:
        for reason in page.reasons:
            fired[reason] += 1
            differ[reason] += page.truth == "different"
    escalated = Counter(p.why.split(":", 1)[1] for p in pages if p.why.startswith("escalated:"))
    lines = ["| reason | fires on pages | of which differ | escalated (first reason) |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {r} | {fired[r]} | {differ[r]} | {escalated[r]} |" for r in sorted(fired)]
    missed = [p for p in pages if p.truth == "different" and not p.reasons]
    lines.append(f"| (none: differ with no reason) | {len(missed)} | {len(missed)} | – |")
    return lines


def tables(analysis: Analysis) -> list[str]:
    """Every table of one analysis, as Markdown lines."""
    pages, conf = analysis.pages, analysis.confusion()
    lines = [f"## N = {analysis.probes}, audit share {analysis.audit_share:g}, "
             f"{'every difference pins' if analysis.strict else 'explained differences do not pin'}, planned "
             + (f"through max(parent, k - {analysis.horizon})" if analysis.horizon else "through the parent"), "",
             f"{len(pages)} pages, {len({p.site for p in pages})} sites; served over HTTP "
             f"{sum(p.served == 'http' for p in pages)} ({_pct(sum(p.served == 'http' for p in pages), len(pages))})",
             "", "| served \\ HTTP result vs rendered | equal | different | inconclusive |",
             "| --- | ---: | ---: | ---: |"]
    for served in ("http", "browser"):
        lines.append(f"| {served} | " + " | ".join(str(conf.get((served, t), 0))
                                                  for t in ("equal", "different", "inconclusive")) + " |")
    lines += ["", "Why each page took its path:", "", "| why | pages |", "| --- | ---: |"]
    lines += [f"| {w} | {n} |" for w, n in sorted(Counter(p.why.split(":")[0] for p in pages).items())]
    lines += ["", "Per layout:", "", *share_table(pages, lambda p: [p.layout])]
    lines += ["", "Per quirk:", "", *share_table(pages, lambda p: p.quirks or ("(none)",))]
    lines += ["", "Escalation reasons:", "", *reason_table(pages)]
    wrong = analysis.wrong()
    lines += ["", f"Served over HTTP but different: {len(wrong)}"]
    lines += [f"- {p.site} {p.url} quirks {', '.join(p.quirks)}: {', '.join(p.differences)}" for p in wrong]
    return lines


def sweep_table(analyses: Iterable[Analysis]) -> list[str]:
    """One row per analysis (per N): pages served over HTTP, the wrong cell, and why pages were rendered."""
    lines = ["| N | served over HTTP | share | HTTP but different | rendered: probe / pinned / audit / escalated / "
             "http_failed |", "| ---: | ---: | ---: | ---: | --- |"]
    for a in analyses:
        http = sum(p.served == "http" for p in a.pages)
        why = Counter(p.why.split(":")[0] for p in a.pages)
        lines.append(f"| {a.probes} | {http} | {_pct(http, len(a.pages))} | {len(a.wrong())} | "
                     + " / ".join(str(why[w]) for w in ("probe", "pinned", "audit", "escalated", "http_failed"))
                     + " |")
    return lines


def print_tables(analysis: Analysis, print_line: Callable[[str], None]) -> None:
    for line in tables(analysis):
        print_line(line)
    print_line("")
