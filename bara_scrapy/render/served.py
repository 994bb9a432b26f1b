"""How one page was served (`BARA_RENDER=auto`): which path gave its item, why, and what it taught.

A page's `Plan` (from `policy.RenderPolicy`, made at admission) says what to fetch; the browser
middleware carries it out and writes the `Served` record; the spider extracts what was fetched (both
sides of a probe or an audit, through the same extractor) and turns it into the `Observation` the
frontier folds into the site's ledger when the page completes. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..extraction.base import Extraction
from ..urls import DenyPolicy
from .compare import PageResult, compare
from .policy import Observation, Outcome, Plan

Path = Literal["browser", "http"]


@dataclass
class Served:
    """The path that gives a page's item and why (`always`, `never`, `probe`, `audit`, `pinned`, `http`,
    `site`, `escalated:<signal>`, `retry`), and for probes and audits how the two results compared."""

    path: Path
    reason: str
    compared: str | None = None  # equal | different | inconclusive (probes and audits)
    differences: tuple[str, ...] = ()

    def record(self) -> dict[str, object]:
        """The item's `render` field."""
        out: dict[str, object] = {"path": self.path, "reason": self.reason}
        if self.compared is not None:
            out["compared"] = self.compared
        if self.differences:
            out["differences"] = list(self.differences)
        return out


def result_of(links: Iterable[str], extraction: Extraction, *, seed: str, scope: str,
              policy: DenyPolicy | None) -> PageResult:
    """What a page contributes to the crawl, from one side's links and extraction."""
    media = [(m.kind, m.url) for group in (extraction.images, extraction.videos, extraction.embeds) for m in group]
    return PageResult.of(links, extraction.text, media, seed=seed, scope=scope, policy=policy)


def observe(plan: Plan, served: Served, rendered: PageResult | None, http: PageResult | None,
            signalled: bool, rendered_chars: int = 0) -> Observation:
    """What a finished page teaches its pattern; `rendered`/`http` are None where that side failed.

    `rendered_chars` is the rendered document's body text length: with its child links, the pattern's
    reference that an HTTP document's own (`signals` `below_pattern`) is held against.

    >>> from bara_scrapy.render.policy import Plan
    >>> page = PageResult(("https://a.org/1",), "Text.")
    >>> probe = Plan("/p", "probing", "browser", True, "probe")
    >>> s = Served("browser", "probe")
    >>> o = observe(probe, s, page, page, False); (o.outcome, s.compared, o.rendered_links)
    ('equal', 'equal', 1)
    >>> o = observe(probe, s, page, PageResult(), False); (o.outcome, s.differences)
    ('different', ('links', 'text'))
    >>> observe(probe, Served("browser", "probe"), page, None, False).outcome
    'inconclusive'
    >>> observe(Plan("/p", "http", "http", False, "http"), Served("http", "http"), None, page, False).outcome
    'http'
    """
    chars, links = (rendered_chars, len(rendered.links)) if rendered is not None else (None, None)
    audit = plan.reason == "audit"
    if plan.compare:
        if rendered is None or http is None:
            served.compared = "inconclusive"
            return Observation("inconclusive", chars, links, signalled=signalled, audit=audit)
        comparison = compare(http, rendered)
        served.differences = comparison.differences
        outcome: Outcome = "equal" if comparison.equal else "different"
        served.compared = outcome
        return Observation(outcome, chars, links, signalled=signalled, audit=audit)
    if served.path == "http":
        return Observation("http")
    return Observation("rendered", chars, links, signalled=signalled)
