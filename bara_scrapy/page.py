"""One admitted page's state, and the one function that builds its request.

Everything bara knows about a page travels in `request.meta["bara"]` as one
`PageState`: the admission (from `frontier.Admission`), the instructions of
the attempt this request carries out, and the attempt history; what is the
same for every page (seed, scope, the browser's options) components take
from the crawl's `BaraConfig`. The last few fields describe the download in
progress and are filled on the way:

===============  =====================================  ==================================
field            written by                             read by
===============  =====================================  ==================================
started          BrowserMiddleware (first download)     ReflectionMiddleware (attempt seconds)
failure          ReflectionDownloaderMiddleware         the spider
snapshot         BrowserMiddleware                      the spider
outcome          the spider (the attempt's outcome)     ReflectionMiddleware
history          ReflectionMiddleware (diagnosed once)  ReflectionMiddleware, the item's attempts
plan             the frontier (`BARA_RENDER=auto`)      BrowserMiddleware
served           BrowserMiddleware (path and reason)    the spider, the item's `render`
http_snapshot    BrowserMiddleware (probes, audits)     the spider (compared with the rendered one)
signals          BrowserMiddleware (HTTP document)      the spider (the observation)
observation      the spider (first attempt)             FrontierMiddleware (the site's render ledger)
template         the spider (the page's fingerprint)    FrontierMiddleware (the pages it admits)
===============  =====================================  ==================================

The state is plain data (dataclasses and pydantic models), so page requests
pickle for `JOBDIR`. A retry gets a fresh state (`PageState.retry`) with the
same admission, history and observation and new instructions; it has no plan, so it is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scrapy import Request

from .frontier import Admission
from .instructions import Instructions
from .items import Attempt
from .reflection import AttemptOutcome, diagnose
from .render.policy import Observation, Plan
from .render.served import Served
from .snapshot import Fetched, PageSnapshot

if TYPE_CHECKING:
    from .config import BaraConfig

META_KEY = "bara"
# (type, message) of an error the route handler met fetching the document itself (a refused certificate):
# Chromium's own error for the aborted navigation would only say net::ERR_FAILED
DOCUMENT_ERROR_KEY = "bara_document_error"
# The document a page escalated from HTTP already fetched (`ServedDocument`): the route handler serves it to the
# browser instead of fetching it again (`browser/route.py`), once
SERVED_DOCUMENT_KEY = "bara_served_document"
# Error pages reach the callback (and become items); redirects are still followed.
ERROR_STATUSES = list(range(400, 600))
RETRY_PRIORITY = 1  # a retry goes ahead of pages of its own depth


@dataclass(frozen=True)
class ServedDocument:
    """A page's document as Scrapy downloaded it (200 or an error status, not redirected, body decoded): for
    its render, which then does not download it again."""

    url: str
    content_type: str
    body: bytes
    exchange: Fetched | None = None  # the request and response as fetched, for the archive (`BARA_WARC`)
    status: int = 200


@dataclass(frozen=True)
class DownloadFailure:
    """Why a page's download raised (after Scrapy's own retries)."""

    type: str
    message: str = ""
    offsite: str | None = None  # the off-scope URL the scope guard blocked


@dataclass(frozen=True)
class Tried:
    """One finished attempt: what reflection needs, how long it took, and its diagnosis (made once, here)."""

    outcome: AttemptOutcome
    seconds: float = 0.0
    diagnosis: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "diagnosis", tuple(diagnose(self.outcome)))

    def record(self, n: int) -> Attempt:
        """The item's `Attempt` record of this attempt (the `n`th)."""
        ins, out = self.outcome.instructions, self.outcome
        return Attempt(
            n=n, instructions=ins.describe(), actions=ins.actions(), diagnosis=list(self.diagnosis),
            text_chars=out.text_chars, images=out.images, videos=out.videos, links=out.links, error=out.error,
            seconds=self.seconds,
        )


@dataclass
class PageState:
    admission: Admission
    instructions: Instructions
    history: list[Tried] = field(default_factory=list)
    started: float | None = None
    failure: DownloadFailure | None = None
    snapshot: PageSnapshot | None = None
    outcome: AttemptOutcome | None = None  # the attempt the spider reported, not yet in `history`
    plan: Plan | None = None  # BARA_RENDER=auto: how the first attempt fetches the page
    served: Served | None = None
    http_snapshot: PageSnapshot | None = None  # a probe's or an audit's HTTP side (None: none, or it failed)
    signals: tuple[str, ...] = ()  # what the HTTP document showed that only a browser gives
    observation: Observation | None = None  # what the page taught its pattern (made once, first attempt)
    template: str = ""  # the page's fingerprint (`extraction.template`), for the pages it admits

    @property
    def url(self) -> str:
        return self.admission.url

    def record(self, outcome: AttemptOutcome, now: float) -> Tried:
        """Add the attempt the spider reported to the history."""
        tried = Tried(outcome, round(now - (self.started or now), 3))
        self.history.append(tried)
        return tried

    def outcomes(self) -> list[AttemptOutcome]:
        return [t.outcome for t in self.history]

    def attempts(self) -> list[Attempt]:
        return [t.record(n) for n, t in enumerate(self.history, 1)]

    def retry(self, instructions: Instructions) -> PageState:
        """The state of the next attempt: same page, history and observation, new instructions, no plan
        (a retry is rendered), nothing downloaded."""
        return PageState(self.admission, instructions, list(self.history), observation=self.observation)


def page_state(request: Request | Any) -> PageState | None:
    """The page state of a page request (or its response), None for any other request."""
    state = request.meta.get(META_KEY)
    return state if isinstance(state, PageState) else None


def page_request(state: PageState, *, priority: int = 0) -> Request:
    """The request for one attempt at an admitted page.

    `callback=None`: Scrapy calls the spider's `parse`, so components build
    page requests without holding the spider.
    """
    return Request(
        state.url,
        dont_filter=True,
        priority=priority - state.admission.depth,
        meta={META_KEY: state, "depth": state.admission.depth, "handle_httpstatus_list": ERROR_STATUSES},
    )


def first_request(adm: Admission, config: BaraConfig, plan: Plan | None = None) -> Request:
    """The first attempt at an admitted page, under the crawl's `BaraConfig` (and its render `plan`)."""
    return page_request(PageState(adm, config.first_instructions(), plan=plan))


def retry_request(state: PageState, instructions: Instructions) -> Request:
    """The next attempt at a page, to be yielded from the spider output like any request.

    It passes the spider middlewares below reflection: `DepthMiddleware`
    would count it one hop deeper (`depth_reset`; `BrowserMiddleware` puts
    the page's own depth back at download time), and `RefererMiddleware` would
    send the page as its own referer (`no-referrer`, as for any retry).
    """
    request = page_request(state.retry(instructions), priority=RETRY_PRIORITY)
    request.meta.update(depth_reset=True, referrer_policy="no-referrer")
    return request
