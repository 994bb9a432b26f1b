"""The sequential BFS of docs/design.md ("BFS semantics"): the one reference every check compares against.

Pop pages in admission order; render one (its redirect chain becomes seen,
its selected child links come back in DOM order, at most W); admit each
child not yet seen, one hop deeper, while the depth limit D and the page
budget P allow. What "render" and "select" mean is the caller's: the bench
derives them from a site spec (`truth.compute_truth`), the tests from a known
link graph (`tests/crawl_utils.reference_bfs`). The crawl itself reaches the
same order concurrently (`frontier.Frontier`); this loop is what it must equal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Visit:
    """An admitted page: canonical URL, depth, parent URL, admission index, tags of the link that admitted it."""

    url: str
    depth: int
    parent: str | None
    bfs_index: int
    via: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rendered:
    """What rendering a page gave: URLs it was reached through, and its selected children (URL, tags)."""

    seen: Sequence[str] = ()
    children: Sequence[tuple[str, tuple[str, ...]]] = ()


@dataclass
class BfsRun:
    visits: list[Visit] = field(default_factory=list)
    dropped_by_budget: int = 0  # selected, unseen children refused because P pages were admitted
    depth_cut: int = 0  # pages at depth D with an unseen selected child


def sequential_bfs(
    seed: str, render: Callable[[Visit], Rendered], max_depth: int, max_pages: int
) -> BfsRun:
    """Admit pages from `seed` (canonical) in sequential BFS order.

    >>> graph = {"/": ["/a", "/b"], "/a": ["/", "/c"], "/b": ["/c", "/d"]}
    >>> run = sequential_bfs("/", lambda v: Rendered((v.url,), [(c, ()) for c in graph.get(v.url, [])]), 2, 4)
    >>> [(v.url, v.depth, v.parent, v.bfs_index) for v in run.visits], run.dropped_by_budget
    ([('/', 0, None, 0), ('/a', 1, '/', 1), ('/b', 1, '/', 2), ('/c', 2, '/a', 3)], 1)
    """
    run = BfsRun([Visit(seed, 0, None, 0)])
    seen = {seed}
    position = 0
    while position < len(run.visits):
        page = run.visits[position]
        position += 1
        rendered = render(page)
        seen.update(rendered.seen)
        if page.depth + 1 > max_depth:
            run.depth_cut += any(child not in seen for child, _ in rendered.children)
            continue
        for child, tags in rendered.children:
            if child in seen:
                continue
            if len(run.visits) >= max_pages:
                run.dropped_by_budget += 1
                continue
            seen.add(child)
            run.visits.append(Visit(child, page.depth + 1, page.url, len(run.visits), tags))
    return run
