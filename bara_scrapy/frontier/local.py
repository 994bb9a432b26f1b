"""The BFS frontier: admission in the exact order of the sequential reference.

The sequential reference pops pages in admission order and admits each
page's children right after rendering it. With concurrency, pages finish in
any order, so `Frontier` keeps finished pages in a reorder buffer and expands
them strictly by `bfs_index`: a page's children are admitted only once every
page admitted before it has been expanded. Completion order can never change
which pages are admitted, nor their `bfs_index`.

The state is plain data (picklable), so it can live in `spider.state` and
survive a `JOBDIR` pause/resume.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Admission:
    """A page admitted to the crawl."""

    url: str
    depth: int
    bfs_index: int
    parent_url: str | None
    # the parent's bfs_index (-1: the seed, or not known: the shared frontier's admissions)
    parent_index: int = field(default=-1, compare=False)
    # the parent's fingerprint (`extraction.template`): the lines its text shares with this page are the site's
    parent_template: str = field(default="", compare=False, repr=False)


@dataclass
class Frontier:
    """In-order BFS admission under a depth limit D and a page budget P."""

    max_depth: int
    max_pages: int
    admitted: list[Admission] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    # finished but not yet expanded: bfs_index -> (children, extra seen URLs, fingerprint)
    pending: dict[int, tuple[list[str], list[str], str]] = field(default_factory=dict)
    next_to_expand: int = 0
    dropped_by_budget: int = 0

    def admit_seed(self, url: str) -> Admission:
        if self.admitted:
            raise RuntimeError("the seed is admitted once, first")
        return self._admit(url, 0, None)

    def _admit(self, url: str, depth: int, parent: Admission | None, template: str = "") -> Admission:
        adm = Admission(url=url, depth=depth, bfs_index=len(self.admitted),
                        parent_url=parent.url if parent else None,
                        parent_index=parent.bfs_index if parent else -1, parent_template=template)
        self.admitted.append(adm)
        self.seen.add(url)
        return adm

    @property
    def budget_exhausted(self) -> bool:
        return len(self.admitted) >= self.max_pages

    @property
    def finished(self) -> bool:
        """Every admitted page has been expanded."""
        return self.next_to_expand >= len(self.admitted)

    def is_completed(self, bfs_index: int) -> bool:
        """Whether page `bfs_index` already finished (expanded, or waiting its turn)."""
        return bfs_index < self.next_to_expand or bfs_index in self.pending

    def unfinished(self) -> list[Admission]:
        """Admitted pages that have not finished: what a resumed crawl must (re)visit."""
        return [a for a in self.admitted if not self.is_completed(a.bfs_index)]

    def complete(
        self, bfs_index: int, children: Iterable[str], also_seen: Iterable[str] = (), template: str = ""
    ) -> list[Admission]:
        """Record that page `bfs_index` finished; return the pages this admits.

        `children` are the page's selected child links (canonical, in DOM
        order, at most W); `also_seen` are URLs the page was reached through
        (redirects), which count as seen from this point of the order on;
        `template` is the page's fingerprint, which the pages it admits carry.
        A page completed twice keeps its first result.
        """
        if not 0 <= bfs_index < len(self.admitted):
            raise ValueError(f"page {bfs_index} was never admitted")
        if bfs_index >= self.next_to_expand and bfs_index not in self.pending:
            self.pending[bfs_index] = (list(children), list(also_seen), template)
        released: list[Admission] = []
        while self.next_to_expand in self.pending:
            released.extend(self._expand(self.next_to_expand))
            self.next_to_expand += 1
        return released

    def _expand(self, index: int) -> list[Admission]:
        children, also_seen, *rest = self.pending.pop(index)  # (a state pickled before fingerprints: 2 fields)
        template = rest[0] if rest else ""
        parent = self.admitted[index]
        self.seen.update(also_seen)
        out: list[Admission] = []
        if parent.depth + 1 > self.max_depth:
            return out
        for url in children:
            if url in self.seen:
                continue
            if self.budget_exhausted:
                self.dropped_by_budget += 1
                continue
            out.append(self._admit(url, parent.depth + 1, parent, template))
        return out
