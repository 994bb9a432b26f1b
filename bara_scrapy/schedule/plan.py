"""Pure decisions of `scrapy bara-schedule`: read the seeds file, pick a node, spot lost jobs.

No I/O here: the runner feeds these functions what Scrapyd's API answered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..config import SPIDER_ARG_SETTINGS, ConfigError, validate_limit, validate_seed

ACTIVE = ("pending", "running")


@dataclass(frozen=True)
class SiteJob:
    """One line of the seeds file: a seed and its own spider arguments."""

    seed: str
    args: tuple[tuple[str, str], ...] = ()


def parse_seeds(text: str) -> list[SiteJob]:
    """Parse a seeds file: one seed per line, then optional NAME=VALUE spider arguments.

    Blank lines and `#` comments are skipped; limits are checked like `scrapy crawl`'s.

    >>> parse_seeds("# sites\\nhttps://a.test/ max_pages=5\\n\\nhttps://b.test/docs/  max_depth=1 scope=x\\n")
    [SiteJob(seed='https://a.test/', args=(('max_pages', '5'),)), \
SiteJob(seed='https://b.test/docs/', args=(('max_depth', '1'), ('scope', 'x')))]
    >>> parse_seeds("https://a.test/ max_pages")
    Traceback (most recent call last):
    ...
    bara_scrapy.config.ConfigError: line 1: 'max_pages' is not NAME=VALUE
    """
    jobs: list[SiteJob] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):  # whole-line comments only: a URL may hold a '#'
            continue
        seed, *rest = line.split()
        try:
            seed = validate_seed(seed)
        except ConfigError as exc:
            raise ConfigError(f"line {number}: {exc}") from None
        args: list[tuple[str, str]] = []
        for token in rest:
            name, sep, value = token.partition("=")
            if not sep or not name:
                raise ConfigError(f"line {number}: {token!r} is not NAME=VALUE")
            if name in SPIDER_ARG_SETTINGS:
                try:
                    validate_limit(name, value)
                except ConfigError as exc:
                    raise ConfigError(f"line {number}: {exc}") from None
            args.append((name, value))
        jobs.append(SiteJob(seed, tuple(args)))
    return jobs


def merge_args(common: Sequence[tuple[str, str]], own: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Arguments for one job: `-a` ones for every job, the seed's own line wins.

    >>> merge_args([("max_pages", "50"), ("max_depth", "2")], [("max_pages", "5")])
    [('max_pages', '5'), ('max_depth', '2')]
    """
    merged = dict(common)
    merged.update(own)
    return list(merged.items())


@dataclass(frozen=True)
class NodeLoad:
    """What `daemonstatus.json` said about a node (`up` False when it did not answer)."""

    url: str
    up: bool
    pending: int = 0
    running: int = 0


def choose_node(loads: Sequence[NodeLoad], exclude: Sequence[str] = ()) -> str | None:
    """The node for the next job: an up node with no backlog, the least busy first, then list order.

    A node with pending jobs is already fed: keeping jobs back lets faster nodes take more of
    them, and a node that goes away takes fewer with it.

    >>> a, b = NodeLoad("http://a/", True, 0, 2), NodeLoad("http://b/", True, 0, 1)
    >>> choose_node([a, b])
    'http://b/'
    >>> choose_node([a, NodeLoad("http://b/", True, 1, 0)])
    'http://a/'
    >>> choose_node([NodeLoad("http://a/", False), NodeLoad("http://b/", True, 3, 0)]) is None
    True
    """
    free = [n for n in loads if n.up and n.pending == 0 and n.url not in exclude]
    if not free:
        return None
    return min(free, key=lambda n: (n.running, loads.index(n))).url


@dataclass
class Placement:
    """One site's job: where it runs now, and what became of it."""

    site: SiteJob
    node: str = ""
    job: str = ""
    status: str = "queued"  # queued | pending | running | finished | lost | failed
    items: int | None = None
    tries: int = 0
    lost_on: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE


def job_statuses(listjobs: Mapping[str, object]) -> dict[str, str]:
    """Job id -> pending/running/finished, from a `listjobs.json` answer.

    >>> job_statuses({"status": "ok", "pending": [{"id": "j1"}], "running": [], "finished": [{"id": "j0"}]})
    {'j1': 'pending', 'j0': 'finished'}
    """
    out: dict[str, str] = {}
    for state in ("pending", "running", "finished"):
        entries = listjobs.get(state) or []
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and "id" in entry:
                out[str(entry["id"])] = state
    return out


def lost_jobs(placements: Sequence[Placement], up: Mapping[str, bool],
              statuses: Mapping[str, Mapping[str, str]]) -> list[Placement]:
    """Active jobs whose node went away, or came back without them (Scrapyd keeps jobs in memory).

    >>> p = Placement(SiteJob("http://s/"), node="http://a/", job="j1", status="running")
    >>> [x.job for x in lost_jobs([p], {"http://a/": False}, {})]
    ['j1']
    >>> lost_jobs([p], {"http://a/": True}, {"http://a/": {"j1": "running"}})
    []
    >>> [x.job for x in lost_jobs([p], {"http://a/": True}, {"http://a/": {}})]
    ['j1']
    """
    lost = []
    for p in placements:
        if not p.active:
            continue
        if not up.get(p.node, False) or p.job not in statuses.get(p.node, {}):
            lost.append(p)
    return lost
