"""Per site and URL pattern, by evidence: render a page, serve it over HTTP, or both and compare.

A pattern (`pattern.url_pattern`) starts `probing`: each of its pages is rendered *and* fetched over
HTTP and the two results compared (`compare`). After `probes` equal pages in a row it goes to `http`;
one difference pins it to `browser` for the rest of the crawl. A failure on either side is
`inconclusive`: it neither counts as equal nor breaks the run. In `http` mode a share of the pages,
picked by a hash of the URL, is audited (rendered as well): an audit difference sends the pattern back
to `browser`. A page served over HTTP that shows a `signals` reason is rendered instead (escalated).

Decisions are reproducible: observations are folded in admission order (`bfs_index`) whatever order
pages finish in, and the plan of a page is made from the state *through its parent's index*, which
BFS has always completed when it admits the page (every earlier page is expanded first). So the same
site gives the same plans at any concurrency and on resume (the ledger is rebuilt from the items).

A page that would be one probe more waits instead (`first`, `decide`) when pages admitted before it are
already comparing enough to settle its pattern (or the site): it is planned once they have finished,
from the ledger through the last of them. Which earlier pages compare is their own first decision, made in
admission order, so the wait is the same at any concurrency too; a page only ever waits for pages before it.
"""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import dataclass, field, replace
from statistics import median
from typing import Literal, cast
from urllib.parse import urlsplit

from .pattern import url_pattern
from .signals import Reference

Mode = Literal["probing", "http", "browser"]
Outcome = Literal["equal", "different", "inconclusive", "rendered", "http"]
OUTCOMES = ("equal", "different", "inconclusive", "rendered", "http")
PROBES = 8
AUDIT_SHARE = 0.1


@dataclass(frozen=True)
class PolicyConfig:
    probes: int = PROBES  # N: equal pages in a row before a pattern goes to HTTP
    audit_share: float = AUDIT_SHARE  # of HTTP-mode pages, also rendered and compared
    # A probe difference on a page whose HTTP document already showed a signal reason is explained: the
    # page would have been escalated in `http` mode anyway, so it says nothing of the pattern's pages
    # without a signal. True (strict): it pins the pattern too.
    explained_differences_pin: bool = False
    # A site whose first `probes` comparisons were all equal, with no unexplained difference anywhere,
    # serves the pages of a pattern still probing over HTTP too (signals and audits still apply).
    site_prior: bool = True

    def explains(self, obs: Observation) -> bool:
        """Whether a difference is explained: the page's HTTP document showed a signal, so `http` mode renders
        it whatever its comparison says (an audited page too)."""
        return obs.signalled and not self.explained_differences_pin


@dataclass(frozen=True)
class Observation:
    """What one finished page taught: how its two results compared (when both were made), and the
    rendered result's size (text chars, child links) for the pattern's reference."""

    outcome: Outcome
    rendered_text_chars: int | None = None
    rendered_links: int | None = None
    signalled: bool = False  # the HTTP document showed a signal reason
    audit: bool = False

    def as_record(self) -> list[object]:
        """A journal's form of it (`from_record` reads it back).

        >>> o = Observation("equal", 120, 4, True, False)
        >>> Observation.from_record(o.as_record()) == o
        True
        """
        return [self.outcome, self.rendered_text_chars, self.rendered_links, self.signalled, self.audit]

    @classmethod
    def from_record(cls, record: list[object]) -> Observation:
        outcome, chars, links, signalled, audit = record
        if outcome not in OUTCOMES:
            raise ValueError(f"not an observation: {record!r}")
        return cls(cast(Outcome, outcome), None if chars is None else int(str(chars)),
                   None if links is None else int(str(links)), bool(signalled), bool(audit))


@dataclass(frozen=True)
class PatternState:
    mode: Mode = "probing"
    equal_run: int = 0
    compared: int = 0
    differences: int = 0
    rendered: tuple[tuple[int, int], ...] = ()  # (text chars, links) of the rendered results seen

    def learn(self, obs: Observation, config: PolicyConfig) -> PatternState:
        """The state after one more observation (pure).

        >>> cfg = PolicyConfig(probes=2)
        >>> s = PatternState().learn(Observation("equal"), cfg)
        >>> s.mode, s.learn(Observation("inconclusive"), cfg).mode, s.learn(Observation("equal"), cfg).mode
        ('probing', 'probing', 'http')
        >>> s.learn(Observation("different"), cfg).mode
        'browser'
        """
        state = self
        if obs.rendered_text_chars is not None and obs.rendered_links is not None:
            state = replace(state, rendered=(*state.rendered, (obs.rendered_text_chars, obs.rendered_links)))
        if obs.outcome == "equal":
            state = replace(state, compared=state.compared + 1, equal_run=state.equal_run + 1)
            if state.mode == "probing" and state.equal_run >= config.probes:
                state = replace(state, mode="http")
        elif obs.outcome == "different":
            state = replace(state, compared=state.compared + 1, differences=state.differences + 1)
            if not config.explains(obs):  # an explained one says nothing of the pages without a signal
                state = replace(state, equal_run=0, mode="browser")
        return state

    def reference(self) -> Reference | None:
        """The medians of the rendered results seen, for `signals`' `below_pattern`."""
        if not self.rendered:
            return None
        return Reference(int(median(t for t, _ in self.rendered)), int(median(n for _, n in self.rendered)))


@dataclass(frozen=True)
class SiteState:
    """What the whole site's comparisons said so far: equal ones, and differences no signal explained."""

    equal: int = 0
    unexplained: int = 0

    def learn(self, obs: Observation, config: PolicyConfig) -> SiteState:
        if obs.outcome == "equal":
            return replace(self, equal=self.equal + 1)
        if obs.outcome == "different" and not config.explains(obs):
            return replace(self, unexplained=self.unexplained + 1)
        return self

    def settled(self, config: PolicyConfig) -> bool:
        """Enough equal comparisons and no unexplained difference: the site serves what it has not probed.

        >>> cfg = PolicyConfig(probes=2)
        >>> SiteState(2, 0).settled(cfg), SiteState(1, 0).settled(cfg), SiteState(5, 1).settled(cfg)
        (True, False, False)
        """
        return self.equal >= max(config.probes, 1) and self.unexplained == 0


def audited(url: str, share: float) -> bool:
    """Whether a page is in the audit share: a hash of its URL's path and query, not a random draw (the same
    on every run, and for the same site on another host or port: a staging copy, a test server).

    >>> audited("https://a.org/x", 0.0), audited("https://a.org/x", 1.0)
    (False, True)
    >>> sum(audited(f"https://a.org/p/{i}", 0.1) for i in range(1000))
    110
    >>> audited("http://127.0.0.1:8001/p/7?a=1", 0.5) == audited("https://a.org/p/7?a=1", 0.5)
    True
    """
    parts = urlsplit(url)
    digest = hashlib.sha256(f"{parts.path or '/'}?{parts.query}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < share * 2**64


@dataclass(frozen=True)
class Plan:
    """How to fetch a page: `first` is what to fetch before any signal is read; `compare`: fetch both."""

    pattern: str
    mode: Mode
    first: Literal["http", "browser"]
    compare: bool
    reason: str  # probe | pinned | audit | http | site
    reference: Reference | None = None

    def serve(self, reasons: tuple[str, ...] = ()) -> tuple[Literal["http", "browser"], str]:
        """Which result the item takes, and why, once the HTTP document's `signals` reasons are known.

        >>> Plan("p", "http", "http", False, "http").serve(("load_more",))
        ('browser', 'escalated:load_more')
        >>> Plan("p", "http", "http", False, "http").serve(), Plan("p", "probing", "browser", True, "probe").serve()
        (('http', 'http'), ('browser', 'probe'))
        >>> Plan("p", "probing", "http", False, "site").serve()
        ('http', 'site')
        """
        if self.first == "http" and not self.compare:
            return ("browser", f"escalated:{reasons[0]}") if reasons else ("http", self.reason)
        return "browser", self.reason


@dataclass
class RenderPolicy:
    """The ledger of one site: observations by `bfs_index`, folded per pattern in admission order."""

    config: PolicyConfig = field(default_factory=PolicyConfig)
    _pending: dict[int, tuple[str, Observation]] = field(default_factory=dict)
    _through: int = -1  # every observation up to this index is folded
    _history: dict[str, list[tuple[int, PatternState]]] = field(default_factory=dict)
    _site: list[tuple[int, SiteState]] = field(default_factory=list)  # the site's counts after each page
    _decided: int = -1  # first decisions made for pages 0..this (`first`)
    _compares: list[int] = field(default_factory=list)  # pages whose first decision compares, in order
    _compares_of: dict[str, list[int]] = field(default_factory=dict)  # ... by pattern

    def record(self, index: int, url: str, obs: Observation) -> None:
        """A finished page's observation, in any order; folded once every earlier page has finished."""
        if index <= self._through or index in self._pending:
            raise ValueError(f"page {index} is already recorded")
        self._pending[index] = (url_pattern(url), obs)
        while self._through + 1 in self._pending:
            self._through += 1
            pattern, ob = self._pending.pop(self._through)
            history = self._history.setdefault(pattern, [])
            state = history[-1][1] if history else self.initial()
            history.append((self._through, state.learn(ob, self.config)))
            site = self._site[-1][1] if self._site else SiteState()
            self._site.append((self._through, site.learn(ob, self.config)))

    @property
    def through(self) -> int:
        """The last index of the contiguous finished prefix (-1: none yet)."""
        return self._through

    def state(self, pattern: str, through: int) -> PatternState:
        """A pattern's state after the observations of pages 0..`through`."""
        if through > self._through:
            raise ValueError(f"pages up to {through} have not all finished (only up to {self._through})")
        history = self._history.get(pattern, [])
        at = bisect.bisect_right(history, through, key=lambda entry: entry[0])
        return history[at - 1][1] if at else self.initial()

    def site(self, through: int) -> SiteState:
        """The site's counts after the observations of pages 0..`through`."""
        at = bisect.bisect_right(self._site, through, key=lambda entry: entry[0])
        return self._site[at - 1][1] if at else SiteState()

    def initial(self) -> PatternState:
        """A new pattern's state: probing (probes=0: none, it starts on HTTP, signals and audits alone)."""
        return PatternState(mode="http" if self.config.probes <= 0 else "probing")

    def plan(self, url: str, through: int) -> Plan:
        """The plan of a page admitted once pages 0..`through` had finished (its parent's index; -1 = seed)."""
        pattern = url_pattern(url)
        state = self.state(pattern, through)
        site = self.site(through)
        if state.mode == "probing" and not (self.config.site_prior and site.settled(self.config)):
            return Plan(pattern, state.mode, "browser", True, "probe", state.reference())
        if state.mode == "browser":
            return Plan(pattern, state.mode, "browser", False, "pinned", state.reference())
        if audited(url, self.config.audit_share):
            return Plan(pattern, state.mode, "browser", True, "audit", state.reference())
        reason = "site" if state.mode == "probing" else "http"  # the site's evidence, or the pattern's own
        return Plan(pattern, state.mode, "http", False, reason, state.reference())

    def first(self, url: str, index: int, parent: int) -> Plan | int:
        """A newly admitted page's first decision (`decide` through its parent), made in admission order:
        a plan, or the index to wait for. Pages whose first decision compares are remembered: later pages
        count them as comparisons under way."""
        if index <= self._decided:
            raise ValueError(f"page {index} is decided already (pages are decided in admission order)")
        decision = self.decide(url, index, parent)
        self._decided = index
        if isinstance(decision, Plan) and decision.compare:
            self._compares.append(index)
            self._compares_of.setdefault(decision.pattern, []).append(index)
        return decision

    def decide(self, url: str, index: int, through: int) -> Plan | int:
        """Page `index`'s plan from the ledger through `through`; or, when that plan is one probe more but
        pages in (`through`, `index`) whose first decision compares are enough to settle the pattern (`probes`
        equal ones in a row) or the site (`site_prior`), the index of the page to wait for: plan again
        through it.

        >>> policy = RenderPolicy(PolicyConfig(probes=2, audit_share=0.0))
        >>> [policy.first(f"https://a.org/p/{i}", i, -1) for i in range(3)][2]
        1
        >>> policy.record(0, "https://a.org/p/0", Observation("equal")); policy.decide("https://a.org/p/2", 2, 0)
        1
        >>> policy.record(1, "https://a.org/p/1", Observation("equal")); policy.decide("https://a.org/p/2", 2, 1).reason
        'http'
        """
        plan = self.plan(url, through)
        if plan.reason != "probe":
            return plan
        waits = [_nth_after(self._compares_of.get(plan.pattern, []), through,
                            self.config.probes - self.state(plan.pattern, through).equal_run, index)]
        site = self.site(through)
        if self.config.site_prior and site.unexplained == 0:
            waits.append(_nth_after(self._compares, through, max(self.config.probes, 1) - site.equal, index))
        found = [w for w in waits if w is not None]
        return min(found) if found else plan


def _nth_after(indices: list[int], after: int, n: int, before: int) -> int | None:
    """The `n`-th of the sorted `indices` above `after`, if it is below `before`.

    >>> _nth_after([1, 3, 5, 8], 2, 2, 9), _nth_after([1, 3, 5, 8], 2, 2, 5), _nth_after([1, 3], 0, 0, 9)
    (5, None, None)
    """
    if n < 1:
        return None
    at = bisect.bisect_right(indices, after) + n - 1
    return indices[at] if at < len(indices) and indices[at] < before else None
