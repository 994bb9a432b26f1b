"""The BFS frontier: which pages are admitted, in which order, under the limits D and P.

Two homes for one frontier, each behind its spider middleware (the add-on picks one):

* `local` — `Frontier`, in this process (`spider.state`, so `JOBDIR` keeps it), behind
  `local_middleware.PageBudgetMiddleware`;
* `redis_frontier` — the same admissions as Lua scripts in Redis (`redis_scripts`), shared by many
  workers with leases, behind `redis_middleware.SharedFrontierMiddleware` (`BARA_FRONTIER_URL`; imports
  `redis`, so only then). Its calls run on a thread of their own: the reactor never waits for Redis.
"""

from .local import Admission, Frontier

__all__ = ["Admission", "Frontier"]
