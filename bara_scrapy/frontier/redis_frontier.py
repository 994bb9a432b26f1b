"""A site's BFS frontier in Redis, shared by many `scrapy crawl bara` workers.

Thin typed wrapper around the Lua scripts of `redis_scripts.py` (each call is one atomic script);
imported only when `BARA_FRONTIER_URL` is set, so `redis` is needed only then. `RedisFrontier` is
blocking; the crawl uses it through `ThreadedRedisFrontier`, whose calls run on a thread of their own.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import redis

from . import redis_scripts as scripts
from .local import Admission

_T = TypeVar("_T")


class FrontierLost(Exception):
    """Redis is unreachable, or lost this crawl's state (restarted without it)."""


def job_key(seed: str, scope: str, max_depth: int, max_width: int, max_pages: int) -> str:
    """The key prefix of one crawl: same seed and limits, same shared frontier.

    >>> job_key("http://a.test/", "host", 3, 20, 100)
    'bara:{b0c0a7694c1be8f2}'
    """
    signature = json.dumps([seed, scope, max_depth, max_width, max_pages])
    return "bara:{" + hashlib.sha1(signature.encode()).hexdigest()[:16] + "}"


@dataclass(frozen=True)
class FrontierStatus:
    admitted: int
    expanded: int
    delivered: int
    max_pages: int
    queued: int
    leased: int
    dropped: int
    requeued: int

    @property
    def finished(self) -> bool:
        """Every admitted page delivered (so expanded): no worker can admit more."""
        return self.delivered >= self.admitted and self.expanded >= self.admitted

    @property
    def budget_exhausted(self) -> bool:
        return self.admitted >= self.max_pages


@dataclass(frozen=True)
class Unconfirmed:
    """A page whose writer died between COMPLETE and DELIVER: `claim` says who was writing where."""

    bfs_index: int
    claim: str
    url: str
    seconds: float  # since its lease expired


def _admission(index: int, raw: str) -> Admission:
    url, depth, parent = json.loads(raw)
    return Admission(url=url, depth=int(depth), bfs_index=index, parent_url=parent)


class RedisFrontier:
    def __init__(self, url: str, prefix: str, worker: str, lease_seconds: float) -> None:
        self.url = url
        self.worker = worker
        self.lease_ms = int(lease_seconds * 1000)
        self.keys = [f"{prefix}:{name}" for name in scripts.KEYS]
        self.templates = f"{prefix}:templates"  # page url -> its fingerprint (`extraction.template`), first wins
        self.calls = 0
        self.unconfirmed_waiting = 0  # pages of dead writers to settle, as of the last lease
        self.client: Any = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=5,
                                                decode_responses=True)
        self._scripts = {name: self.client.register_script(getattr(scripts, name))
                         for name in ("SEED", "LEASE", "RENEW", "COMPLETE", "DELIVER", "UNCONFIRMED", "RESOLVE")}

    def _command(self, command: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """One Redis call, counted; a Redis error is a lost frontier."""
        self.calls += 1
        try:
            return command(*args, **kwargs)
        except redis.RedisError as exc:
            raise FrontierLost(f"shared frontier {self.url} failed: {exc}") from exc

    def _run(self, name: str, *args: str | int | float) -> Any:
        result = self._command(self._scripts[name], keys=self.keys, args=list(args))
        if result is None:
            raise FrontierLost(f"shared frontier {self.url} lost this crawl's state (Redis restarted?)")
        return result

    def seed(self, url: str, max_depth: int, max_pages: int, job: str) -> bool:
        """Admit the seed as page 0 unless a worker did; False when it was there already."""
        result = int(self._run("SEED", url, max_depth, max_pages, job))
        if result < 0:
            raise FrontierLost(f"{self.keys[0]} holds another crawl than {job}: set BARA_FRONTIER_KEY")
        return result == 1

    def lease(self, n: int) -> tuple[int, list[Admission]]:
        """Up to `n` pages to render, lowest bfs_index first, each with its parent's fingerprint; and how
        many expired leases went back."""
        requeued, flat, *waiting = self._run("LEASE", self.worker, n, self.lease_ms)
        self.unconfirmed_waiting = int(waiting[0]) if waiting else 0
        admissions = [_admission(int(flat[i]), flat[i + 1]) for i in range(0, len(flat), 2)]
        parents = sorted({a.parent_url for a in admissions if a.parent_url})
        if parents:
            found = dict(zip(parents, self._command(self.client.hmget, self.templates, parents), strict=True))
            admissions = [replace(a, parent_template=found.get(a.parent_url or "") or "") for a in admissions]
        return int(requeued), admissions

    def renew(self, indexes: Iterable[int]) -> int:
        args = list(indexes)
        return int(self._run("RENEW", self.worker, self.lease_ms, *args)) if args else 0

    def complete(self, index: int, children: Sequence[str], also_seen: Sequence[str], claim: str = "",
                 url: str = "", template: str = "") -> bool:
        """Record a finished page (first result wins); True when this worker should deliver its item, which
        `claim` (`claims.writer_claim`) then holds until `deliver`. The page's fingerprint is stored first
        (under its `url`), so that every worker leasing a page it admits finds it."""
        if url and template:
            self._command(self.client.hsetnx, self.templates, url, template)
        deliver, _ = self._run("COMPLETE", index, self.worker, json.dumps([list(children), list(also_seen)]), claim)
        return bool(deliver)

    def deliver(self, index: int) -> bool:
        return bool(self._run("DELIVER", index))

    def unconfirmed(self) -> list[Unconfirmed]:
        """Pages whose writer died between claiming and delivering their item (up to 64)."""
        flat = self._run("UNCONFIRMED")
        return [Unconfirmed(int(flat[i]), flat[i + 1], _admission(int(flat[i]), flat[i + 2]).url if flat[i + 2] else "",
                            int(flat[i + 3]) / 1000) for i in range(0, len(flat), 4)]

    def resolve(self, index: int, written: bool) -> bool:
        """Settle an unconfirmed page: its item is in the dead writer's feed (delivered), or not (queued)."""
        return bool(self._run("RESOLVE", index, 1 if written else 0))

    def status(self) -> FrontierStatus:
        meta, queue, leases = self.keys[0], self.keys[4], self.keys[5]
        pipe = self.client.pipeline(transaction=False)  # queued here, sent by `execute`
        pipe.hmget(meta, "count", "next", "delivered", "max_pages", "dropped", "requeued")
        pipe.zcard(queue)
        pipe.zcard(leases)
        (count, nxt, delivered, max_pages, dropped, requeued), queued, leased = self._command(pipe.execute)
        if count is None:
            raise FrontierLost(f"shared frontier {self.url} lost this crawl's state (Redis restarted?)")
        return FrontierStatus(int(count), int(nxt), int(delivered), int(max_pages), int(queued), int(leased),
                              int(dropped), int(requeued))

    def close(self) -> None:
        self.client.close()


class ThreadedRedisFrontier:
    """`RedisFrontier` for the reactor: each call a coroutine, run on one thread of its own, in order.

    A Redis round trip, or a Redis that stops answering (up to the client's socket timeout), then
    holds only the frontier's calls: the reactor goes on rendering, parsing and writing other pages.
    One thread keeps the calls in the order they were made, as on the reactor before.
    """

    def __init__(self, frontier: RedisFrontier) -> None:
        self.sync = frontier
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bara-redis")

    @property
    def calls(self) -> int:
        return self.sync.calls

    @property
    def unconfirmed_waiting(self) -> int:
        return self.sync.unconfirmed_waiting

    async def _call(self, method: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, method, *args)

    async def seed(self, url: str, max_depth: int, max_pages: int, job: str) -> bool:
        return await self._call(self.sync.seed, url, max_depth, max_pages, job)

    async def lease(self, n: int) -> tuple[int, list[Admission]]:
        return await self._call(self.sync.lease, n)

    async def renew(self, indexes: Iterable[int]) -> int:
        return await self._call(self.sync.renew, list(indexes))

    async def complete(self, index: int, children: Sequence[str], also_seen: Sequence[str], claim: str = "",
                       url: str = "", template: str = "") -> bool:
        return await self._call(self.sync.complete, index, list(children), list(also_seen), claim, url, template)

    async def deliver(self, index: int) -> bool:
        return await self._call(self.sync.deliver, index)

    async def unconfirmed(self) -> list[Unconfirmed]:
        return await self._call(self.sync.unconfirmed)

    async def resolve(self, index: int, written: bool) -> bool:
        return await self._call(self.sync.resolve, index, written)

    async def status(self) -> FrontierStatus:
        return await self._call(self.sync.status)

    async def close(self) -> None:
        try:
            await self._call(self.sync.close)
        finally:
            self._thread.shutdown(wait=False)
