"""LocalFrontier: the BFS frontier in this process, kept across `JOBDIR` runs and kills."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, DontCloseSpider

from ..config import BaraConfig
from ..extensions.journal import CrawlJournalExtension, journal_of
from ..journal import JournalState, completion_record, replay
from ..render.policy import Observation, Plan, PolicyConfig, RenderPolicy
from .local import Admission, Frontier
from .protocol import CLOSE_REASON, Completion, Schedule

logger = logging.getLogger(__name__)

STATE_KEY = "bara_frontier"
JOB_KEY = "bara_job"
MISMATCH_REASON = "bara_resume_mismatch"


class LocalFrontier:
    """`CrawlFrontier` over `Frontier` (see `bara_scrapy.frontier`), in this process.

    The seed is admitted as page 0. A page's selected child links are held until every page
    admitted before it has finished, then admitted in (parent `bfs_index`, DOM position) order
    against the remaining budget; the excess is dropped (`bara/budget/dropped`). When the budget
    was reached, the crawl closes with reason `bara_page_budget` once idle.
    The frontier lives in `spider.state`, so `JOBDIR` resumes keep it; with the crawl journal
    (`CrawlJournalExtension`, on with `JOBDIR`) it is rebuilt from the journal instead, so a crawl
    killed hard resumes too: the seed and each completion are journaled before the pages they admit
    are requested.

    Under `BARA_RENDER=auto` each admitted page gets its render plan here (`RenderPolicy.first`); a page
    whose plan waits for earlier pages still comparing is held back (`bara/render/waited`) and requested
    with the completion that lets it be planned.
    """

    def __init__(self, crawler: Crawler, config: BaraConfig, bfs: Frontier | None = None) -> None:
        self.crawler = crawler
        self.config = config
        self.bfs = bfs or Frontier(max_depth=config.max_depth, max_pages=config.max_pages)
        self.resumed = False
        self.mismatch: str | None = None
        self.journal: CrawlJournalExtension | None = None
        self.yielded: set[int] = set()  # bfs_index of the items this run passed on
        # BARA_RENDER=auto: the site's render ledger, rebuilt from the journal on resume
        self.render = RenderPolicy(PolicyConfig(probes=config.render_probes, audit_share=config.render_audit)) \
            if config.render == "auto" else None
        self._plans: dict[int, Plan] = {}  # bfs_index -> plan, for the pages `complete`/`seed` hand out
        self._waiting: dict[int, tuple[Admission, int]] = {}  # bfs_index -> (page, the index it waits for)
        self._schedule: Schedule = lambda adm: None

    def open(self, spider: Any, schedule: Schedule | None = None) -> None:
        if schedule is not None:
            self._schedule = schedule
        state = getattr(spider, "state", None)
        if not isinstance(state, dict):  # no JOBDIR
            return
        job = self._job_signature()
        self.journal = journal_of(self.crawler)
        journaled = self.journal.state if self.journal is not None and self.journal.state.started else None
        saved = state.get(STATE_KEY)
        if journaled is not None or isinstance(saved, Frontier):
            saved_job = journaled.job if journaled is not None else state.get(JOB_KEY)
            if saved_job != job:
                self.mismatch = (
                    f"JOBDIR holds a crawl of {saved_job}, not {job}: "
                    "resume with the same seed and limits, or use a new JOBDIR"
                )
                logger.error("Refusing to resume: %s", self.mismatch)
                return
            if journaled is not None:
                self.bfs = replay(journaled, self.config.max_depth, self.config.max_pages)
                self._replay_render(journaled)
            elif isinstance(saved, Frontier):  # a JOBDIR saved before the journal: its state, not journaled
                self.bfs, self.journal = saved, None
                if self.render is not None:  # its render ledger was not kept: a browser result is the reference
                    logger.warning("Resuming a JOBDIR without its crawl journal: the render ledger of the earlier "
                                   "run is unknown, so every page of this run is rendered")
                    self.crawler.stats.set_value("bara/render/ledger_unknown", 1)
                    self.render = None
            self.resumed = True
            logger.info("Resuming BFS frontier: %d pages admitted, %d to visit again",
                        len(self.bfs.admitted), len(self._unwritten()))
        state[STATE_KEY] = self.bfs
        state[JOB_KEY] = job
        if self.journal is not None and journaled is None:
            self.journal.record({"job": job})

    def _replay_render(self, journaled: JournalState) -> None:
        if self.render is None:
            return
        for done in journaled.completions:
            if done.render is not None:
                self.render.record(done.bfs_index, done.url, Observation.from_record(done.render))

    def _job_signature(self) -> dict[str, Any]:
        c = self.config
        job: dict[str, Any] = {"seed": c.seed_url, "scope": c.scope, "max_depth": c.max_depth,
                               "max_width": c.max_width, "max_pages": c.max_pages}
        if c.render == "auto":  # the plans depend on the ledger: a resume keeps the mode and its parameters
            job["render"] = {"mode": c.render, "probes": c.render_probes, "audit": c.render_audit}
        return job

    def plan(self, adm: Admission) -> Plan | None:
        """The page's render plan (`_route`), from the ledger through its parent (BFS finished it before
        admitting it), or through the earlier pages it waited for."""
        if self.render is None:
            return None
        return self._plans.pop(adm.bfs_index, None) or self.render.plan(adm.url, adm.parent_index)

    def _route(self, admitted: Sequence[Admission], requested: bool = True) -> list[Admission]:
        """Decide each newly admitted page's plan in admission order; the pages to request now (of those
        `requested`), the others wait for the earlier pages their plan depends on."""
        if self.render is None:
            return list(admitted) if requested else []
        ready: list[Admission] = []
        for adm in admitted:
            decision = self.render.first(adm.url, adm.bfs_index, adm.parent_index)
            if requested:
                ready.extend(self._settle(adm, decision))
        return ready

    def _settle(self, adm: Admission, decision: Plan | int) -> list[Admission]:
        """Plan again through each page waited for that has finished; hold the page while one has not (counted
        once in `bara/render/waited`)."""
        assert self.render is not None
        while isinstance(decision, int) and decision <= self.render.through:
            decision = self.render.decide(adm.url, adm.bfs_index, decision)
        if isinstance(decision, int):
            if adm.bfs_index not in self._waiting:
                self.crawler.stats.inc_value("bara/render/waited")
            self._waiting[adm.bfs_index] = (adm, decision)
            return []
        self._waiting.pop(adm.bfs_index, None)
        self._plans[adm.bfs_index] = decision
        return [adm]

    def _released(self) -> list[Admission]:
        """The held pages whose waits are over, in admission order."""
        if self.render is None or not self._waiting:
            return []
        through = self.render.through
        ready: list[Admission] = []
        for index in sorted(i for i, (_, until) in self._waiting.items() if until <= through):
            ready.extend(self._settle(*self._waiting[index]))
        return ready

    def idle(self) -> None:
        if self.mismatch:
            raise CloseSpider(MISMATCH_REASON)
        if self._waiting:  # the pages they waited for never finished (no page ends without an item): plan now
            logger.error("%d pages waited for pages that never finished; planned from their parents",
                         len(self._waiting))
            for index in sorted(self._waiting):
                self._schedule(self._waiting.pop(index)[0])
            raise DontCloseSpider
        if self.bfs.budget_exhausted and self.bfs.finished:
            raise CloseSpider(CLOSE_REASON)

    def _unwritten(self) -> list[Admission]:
        """The admitted pages a resumed crawl visits: those whose item no earlier run wrote."""
        if self.journal is None or not self.journal.state.started:
            return self.bfs.unfinished()
        written = self.journal.state.written
        return [a for a in self.bfs.admitted if a.bfs_index not in written]

    def _done(self, index: int) -> bool:
        """Whether page `index`'s item was already passed on (this run) or written (an earlier one)."""
        if self.journal is None:
            return self.bfs.is_completed(index)
        return index in self.yielded or index in self.journal.state.written

    async def seed(self, url: str) -> list[Admission]:
        if self.resumed:
            # Pages in flight when the earlier run stopped were dequeued and lost:
            # visit every unfinished page again (a second result is dropped in `complete`).
            # Under auto every page is decided again in admission order, as the first run did.
            if self.render is None:
                return self._unwritten()
            unwritten = {a.bfs_index for a in self._unwritten()}
            ready: list[Admission] = []
            for adm in self.bfs.admitted:
                ready.extend(self._route([adm], requested=adm.bfs_index in unwritten))
            return ready
        if self.bfs.admitted or self.mismatch:  # refused
            return []
        adm = self.bfs.admit_seed(url)
        if self.journal is not None:
            self.journal.record({"seed": adm.url})
        self.crawler.stats.set_value("bara/pages/admitted", 1)
        return self._route([adm])

    async def complete(self, index: int, children: Sequence[str], also_seen: Sequence[str],
                       observation: Observation | None = None, template: str = "") -> Completion:
        if self._done(index):
            # a resumed crawl may visit a page twice: one item per admitted page
            self.crawler.stats.inc_value("bara/pages/duplicate_dropped")
            return Completion(deliver=False)
        first = not self.bfs.is_completed(index)  # a resumed page may have completed before its kill
        url = self.bfs.admitted[index].url
        render = None
        if first and self.render is not None:  # folded before the pages it admits are planned
            observation = observation or Observation("inconclusive")
            self.render.record(index, url, observation)
            render = observation.as_record()
        released = self.bfs.complete(index, children, also_seen=also_seen, template=template)
        if first and self.journal is not None:  # journaled before the pages it admits are requested
            self.journal.record(completion_record(index, url, list(children), list(also_seen), render, template))
        self.yielded.add(index)
        stats = self.crawler.stats
        stats.set_value("bara/pages/admitted", len(self.bfs.admitted))
        stats.set_value("bara/budget/dropped", self.bfs.dropped_by_budget)
        return Completion(deliver=True, admitted=[*self._released(), *self._route(released)])

    async def close(self) -> None:
        return None
