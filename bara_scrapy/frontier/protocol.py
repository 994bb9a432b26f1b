"""What the frontier middleware asks of a frontier, wherever it lives (this process, or Redis).

Both implementations admit the pages of the sequential reference with the same `bfs_index`
(`local.Frontier`'s rules, or the same rules as Lua scripts); they differ in where the state is and in
how admitted pages come back:

* `in_process.LocalFrontier` answers a completion with the pages it admits (`Completion.admitted`);
* `shared.SharedFrontier` leases pages from the shared queue on a loop of its own and hands each to
  the `schedule` callback it was opened with (its `Completion.admitted` is always empty).

Either way the middleware builds the page requests: a frontier only ever returns `Admission`s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..render.policy import Observation, Plan
from .local import Admission

CLOSE_REASON = "bara_page_budget"

Schedule = Callable[[Admission], None]


@dataclass(frozen=True)
class Completion:
    """What a finished page's result did: whether its item goes on, and which pages it admitted."""

    deliver: bool  # False: another run, worker or attempt already gave this page's item
    admitted: list[Admission] = field(default_factory=list)


class CrawlFrontier(Protocol):
    """One site's BFS frontier, as the frontier middleware drives it."""

    def open(self, spider: Any, schedule: Schedule) -> None:
        """The crawl starts: load saved state (`JOBDIR`, Redis); `schedule` requests a page later on."""

    async def seed(self, url: str) -> list[Admission]:
        """Admit the seed as page 0 unless an earlier run or another worker did; the pages to request now."""

    def plan(self, adm: Admission) -> Plan | None:
        """How to fetch an admitted page under `BARA_RENDER=auto` (None: as the crawl's render mode says)."""

    async def complete(self, index: int, children: Sequence[str], also_seen: Sequence[str],
                       observation: Observation | None = None, template: str = "") -> Completion:
        """Page `index` finished with these child links (canonical, at most W) and redirect URLs,
        (`BARA_RENDER=auto`) what its fetch taught the site's render ledger, and its fingerprint
        (`extraction.template`), which each page it admits carries (`Admission.parent_template`)."""

    def idle(self) -> None:
        """The engine has nothing to do: raise `CloseSpider(reason)` when the crawl is over, or
        `DontCloseSpider` while others may still admit pages; return to let it close."""

    async def close(self) -> None:
        """The crawl closed: final stats, connections closed."""
