"""The crawl journal: what a `JOBDIR` crawl must not lose, written as it happens.

Scrapy saves a job's state when the crawl closes; a crawl killed hard (SIGKILL, OOM, power loss)
never closes. The journal is one append-only JSON-lines file, `JOBDIR/bara.journal`, with one
record per event, in the order they happened:

==========================================  ======================================================
record                                      written when
==========================================  ======================================================
``{"job": {...}}``                          a new crawl starts (seed, scope, limits)
``{"seed": url}``                           the seed is admitted (page 0)
``{"c": i, "url": u, "links": [..],         page `i` finished: its selected child links, the
"seen": [..], "t": fp}``                    URLs it was reached through (`Frontier.complete`) and
                                            its fingerprint (`extraction.template`), which the
                                            pages it admits compare their text with
``{"w": i, "feeds": {path: size}}``         page `i`'s item is in the feeds; each local feed's size
                                            after it (the feed and the journal are fsync'ed)
``{"closed": reason}``                      the crawl closed cleanly
==========================================  ======================================================

Admissions are not written: replaying the completions through `Frontier.complete` in journal
order admits the same pages with the same `bfs_index` (`replay`). A resumed crawl visits the
admitted pages whose item was not written, and truncates each feed to its size after the last
written item, so a half-written line (or an item written but not yet journaled, whose page is
visited again) is removed rather than duplicated. A last journal line cut by the kill is dropped;
any other unreadable line is a corrupted journal (`JournalCorrupt`), never a silent fresh start.
"""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .frontier import Frontier

JOURNAL_NAME = "bara.journal"


class JournalCorrupt(ValueError):
    """The journal cannot be read back: the `JOBDIR` is damaged."""


@dataclass(frozen=True)
class Completion:
    bfs_index: int
    url: str
    links: list[str]
    seen: list[str]
    render: list[object] | None = None  # BARA_RENDER=auto: the page's render observation
    template: str = ""  # the page's fingerprint: the pages it admits leave out the lines they share with it


@dataclass
class JournalState:
    """What a journal says about the runs before this one."""

    job: dict[str, Any] | None = None
    seed: str | None = None
    completions: list[Completion] = field(default_factory=list)
    written: set[int] = field(default_factory=set)
    feeds: dict[str, int] = field(default_factory=dict)  # feed path -> size after its last journaled item
    closed: bool = True  # the last run closed cleanly (or there was none)
    valid_bytes: int = 0  # the length of the whole, readable lines
    cut_bytes: int = 0  # bytes of a last line cut by a kill

    @property
    def started(self) -> bool:
        return self.seed is not None


def read_journal(data: bytes) -> JournalState:
    """Read a journal's bytes.

    >>> lines = [{"job": {"seed": "http://a/"}}, {"seed": "http://a/"},
    ...          {"c": 0, "url": "http://a/", "links": ["http://a/x"], "seen": []},
    ...          {"w": 0, "feeds": {"/o.jl": 120}}]
    >>> data = b"".join(json.dumps(r).encode() + b"\\n" for r in lines)
    >>> s = read_journal(data + b'{"c": 1, "ur')
    >>> s.seed, s.written, s.feeds, s.closed, s.cut_bytes, s.valid_bytes == len(data)
    ('http://a/', {0}, {'/o.jl': 120}, False, 12, True)
    >>> read_journal(data + b'{"closed": "finished"}\\n').closed
    True
    >>> read_journal(b"garbage\\n" + data)
    Traceback (most recent call last):
    ...
    bara_scrapy.journal.JournalCorrupt: line 1 of the journal is not a journal record: b'garbage'
    """
    state = JournalState(closed=not data)
    pos = 0
    for n, line in enumerate(data.splitlines(keepends=True), 1):
        if not line.endswith(b"\n"):  # the last line, cut by the kill (records are written whole, newline last)
            state.cut_bytes = len(line)
            break
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError("not an object")
            _apply(state, record)
        except (ValueError, KeyError, TypeError) as exc:
            raise JournalCorrupt(f"line {n} of the journal is not a journal record: {line[:80].strip()!r}") from exc
        pos += len(line)
    state.valid_bytes = pos
    return state


def _apply(state: JournalState, record: dict[str, Any]) -> None:
    if "job" in record:
        state.job = dict(record["job"])
    elif "seed" in record:
        state.seed = str(record["seed"])
    elif "c" in record:
        state.completions.append(Completion(int(record["c"]), str(record["url"]),
                                            [str(u) for u in record["links"]], [str(u) for u in record["seen"]],
                                            record.get("r"), str(record.get("t", ""))))
    elif "w" in record:
        state.written.add(int(record["w"]))
        state.feeds.update({str(k): int(v) for k, v in record["feeds"].items()})
    elif "closed" in record:
        state.closed = True
        return
    else:
        raise KeyError("unknown record")
    state.closed = False


def replay(state: JournalState, max_depth: int, max_pages: int) -> Frontier:
    """The frontier the journaled completions built, in the same order.

    >>> s = JournalState(seed="http://a/", completions=[
    ...     Completion(0, "http://a/", ["http://a/x", "http://a/y"], []),
    ...     Completion(2, "http://a/y", ["http://a/z"], []), Completion(1, "http://a/x", [], [])])
    >>> f = replay(s, max_depth=3, max_pages=10)
    >>> [(a.url, a.bfs_index) for a in f.admitted], f.next_to_expand
    ([('http://a/', 0), ('http://a/x', 1), ('http://a/y', 2), ('http://a/z', 3)], 3)
    >>> replay(JournalState(seed="http://a/", completions=[Completion(1, "http://a/q", [], [])]), 3, 10)
    Traceback (most recent call last):
    ...
    bara_scrapy.journal.JournalCorrupt: the journal completes page 1 (http://a/q), which it never admitted
    """
    frontier = Frontier(max_depth=max_depth, max_pages=max_pages)
    if state.seed is None:
        return frontier
    frontier.admit_seed(state.seed)
    for done in state.completions:
        admitted = frontier.admitted
        if not 0 <= done.bfs_index < len(admitted) or admitted[done.bfs_index].url != done.url:
            raise JournalCorrupt(
                f"the journal completes page {done.bfs_index} ({done.url}), which it never admitted")
        frontier.complete(done.bfs_index, done.links, also_seen=done.seen, template=done.template)
    return frontier


def completion_record(bfs_index: int, url: str, links: Iterable[str], seen: Iterable[str],
                      render: list[object] | None = None, template: str = "") -> dict[str, Any]:
    record: dict[str, Any] = {"c": bfs_index, "url": url, "links": list(links), "seen": list(seen)}
    if render is not None:  # BARA_RENDER=auto: the page's observation (`Observation.as_record`)
        record["r"] = render
    if template:  # the page's fingerprint, for the pages it admits
        record["t"] = template
    return record


def encode(record: dict[str, Any]) -> bytes:
    """One journal line.

    >>> encode({"w": 3, "feeds": {}})
    b'{"w":3,"feeds":{}}\\n'
    """
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def jobdir_problem(jobdir: str | os.PathLike[str]) -> str | None:
    """Why a `JOBDIR` cannot be resumed (its journal, its saved state or a journaled feed is damaged), or None.

    A journaled feed shorter than the journal says lost items the earlier runs wrote: refused too.
    """
    path = Path(jobdir)
    hint = f"start fresh with a new JOBDIR (or remove {path})"
    journal = path / JOURNAL_NAME
    try:
        state = read_journal(journal.read_bytes()) if journal.exists() else JournalState()
        if state.started:
            replay(state, max_depth=1 << 30, max_pages=1 << 30)
    except JournalCorrupt as exc:
        return f"JOBDIR {path} is damaged: {exc}; {hint}"
    saved = path / "spider.state"
    if saved.exists():
        try:
            with saved.open("rb") as fh:
                pickle.load(fh)  # the user's own JOBDIR, loaded as Scrapy's SpiderState loads it
        except Exception as exc:  # any unpickling failure means the same: damaged
            return f"JOBDIR {path} is damaged: spider.state cannot be read ({type(exc).__name__}); {hint}"
    for feed, size in state.feeds.items():
        on_disk = os.path.getsize(feed) if os.path.exists(feed) else 0
        if on_disk < size:
            return (f"JOBDIR {path} says {feed} holds {size} bytes of items, but it has {on_disk}: the items of "
                    f"the earlier runs are missing; put the feed back, or {hint}")
    return None
