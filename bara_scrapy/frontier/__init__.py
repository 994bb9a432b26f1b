"""The BFS frontier: which pages are admitted, in which order, under the limits D and P.

One protocol (`protocol.CrawlFrontier`: seed, complete, idle, close), two homes for its state, and
one spider middleware (`middleware.FrontierMiddleware`) that drives either and alone builds the
requests of admitted pages:

* `in_process.LocalFrontier` — `local.Frontier` (the pure admission rules) in this process
  (`spider.state`, so `JOBDIR` keeps it, and the crawl journal rebuilds it after a kill);
* `shared.SharedFrontier` — the same admissions as Lua scripts in Redis (`redis_scripts`, called
  through `redis_frontier`), shared by many workers with leases (`BARA_FRONTIER_URL`; imports `redis`,
  so only then). Its calls run on a thread of their own: the reactor never waits for Redis.
"""

from .local import Admission, Frontier

__all__ = ["Admission", "Frontier"]
