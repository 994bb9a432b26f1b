"""Spread one job per site over Scrapyd nodes, follow them, re-run lost ones, summarise.

The loop polls: each round it asks every node for its load (`daemonstatus.json`) and its jobs
(`listjobs.json`), re-queues jobs whose node went away (`plan.lost_jobs`), and hands queued
sites to nodes without a backlog (`plan.choose_node`).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .plan import NodeLoad, Placement, SiteJob, choose_node, job_statuses, lost_jobs, merge_args
from .scrapyd_api import NodeDown, ScrapydAPI


@dataclass(frozen=True)
class ScheduleOptions:
    nodes: tuple[str, ...]
    args: tuple[tuple[str, str], ...] = ()
    settings: tuple[str, ...] = ()
    project: str = "bara_scrapy"
    spider: str = "bara"
    poll: float = 1.0
    max_tries: int = 3
    timeout: float = 0.0  # 0 = no limit


class Scheduler:
    def __init__(self, options: ScheduleOptions, api: ScrapydAPI | None = None,
                 out: Callable[[str], None] = print) -> None:
        self.options = options
        self.api = api or ScrapydAPI()
        self.out = out

    def run(self, sites: Sequence[SiteJob]) -> list[Placement]:
        placements = [Placement(site) for site in sites]
        started = time.monotonic()
        opts = self.options
        while any(p.status in ("queued", "pending", "running") for p in placements):
            loads = [self.api.load(node) for node in opts.nodes]
            up = {n.url: n.up for n in loads}
            statuses = self._poll(placements, up)
            for p in lost_jobs(placements, up, statuses):
                p.lost_on.append(p.node)
                self._say(p, f"lost on {p.node}")
                p.status = "queued" if p.tries < opts.max_tries else "failed"
            self._dispatch(placements, loads)
            if opts.timeout and time.monotonic() - started > opts.timeout:
                for p in placements:
                    if p.status in ("queued", "pending", "running"):
                        p.status = "timeout"
                break
            if any(p.status in ("queued", "pending", "running") for p in placements):
                time.sleep(opts.poll)
        return placements

    def _poll(self, placements: list[Placement], up: dict[str, bool]) -> dict[str, dict[str, str]]:
        statuses: dict[str, dict[str, str]] = {}
        for node in {p.node for p in placements if p.active}:
            if not up.get(node):
                continue
            try:
                jobs = self.api.list_jobs(node, self.options.project)
            except NodeDown:
                up[node] = False
                continue
            statuses[node] = job_statuses(jobs)
            finished = {str(j.get("id")): j for j in jobs.get("finished", []) if isinstance(j, dict)}
            for p in placements:
                if p.node != node or not p.active:
                    continue
                state = statuses[node].get(p.job)
                if state == "finished":
                    p.items = self.api.count_items(node, _items_url(finished[p.job]))
                if state and state != p.status:
                    p.status = state
                    self._say(p, state + (f", {p.items} items" if state == "finished" else ""))
        return statuses

    def _dispatch(self, placements: list[Placement], loads: list[NodeLoad]) -> None:
        for p in placements:
            if p.status != "queued":
                continue
            node = choose_node(loads)
            if node is None:
                return
            opts = self.options
            p.node, p.job, p.status, p.tries = node, uuid.uuid4().hex, "pending", p.tries + 1
            try:
                self.api.schedule(node, opts.project, opts.spider, p.job,
                                  [("seed", p.site.seed), *merge_args(opts.args, p.site.args)], opts.settings)
            except NodeDown as exc:
                # maybe scheduled all the same: the next poll finds the job id, or counts it lost
                self.out(f"no answer scheduling {p.site.seed} on {node} as {p.job}: {exc}")
                loads[:] = [n if n.url != node else NodeLoad(node, up=False) for n in loads]
                continue
            # count it at once: the next site goes elsewhere unless this node is still the least busy
            loads[:] = [n if n.url != node else NodeLoad(node, True, n.pending + 1, n.running) for n in loads]
            self._say(p, f"scheduled on {node} as {p.job}" + (f" (try {p.tries})" if p.tries > 1 else ""))

    def _say(self, p: Placement, what: str) -> None:
        self.out(f"[{time.strftime('%H:%M:%S')}] {p.site.seed}: {what}")


def _items_url(entry: dict[str, Any]) -> str | None:
    url = entry.get("items_url")
    return str(url) if url else None


def summary(placements: Sequence[Placement]) -> str:
    """The closing table: per site its node, job id, status, items (and nodes it was lost on)."""
    rows = [("site", "node", "job", "status", "items", "lost on")]
    for p in placements:
        items = "-" if p.items is None else str(p.items)
        rows.append((p.site.seed, p.node, p.job, p.status, items, " ".join(p.lost_on)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows)
