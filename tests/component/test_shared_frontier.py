"""The Redis frontier's scripts against a real redis-server: same admissions as `Frontier`, leases."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from scrapy.utils.misc import build_from_crawler

from bara_scrapy.frontier import Admission, Frontier
from bara_scrapy.frontier.redis_frontier import FrontierLost, RedisFrontier

from ..service_utils import RedisServer, wait_for


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


def random_graph(rng: random.Random, n: int) -> dict[str, list[str]]:
    urls = [f"http://s.test/{i}" for i in range(n)]
    return {u: [rng.choice(urls) for _ in range(rng.randint(0, 6))] for u in urls}


@pytest.mark.parametrize("case", range(6))
def test_redis_frontier_admits_exactly_what_the_in_process_frontier_admits(
    redis_server: RedisServer, case: int
) -> None:
    """Random graphs, random completion orders, pages completed twice: same admissions, same bfs_index."""
    rng = random.Random(case)
    graph = random_graph(rng, 40)
    D, P = rng.choice([(1, 50), (2, 12), (3, 25), (5, 100)])  # noqa: N806
    seed = "http://s.test/0"
    local = Frontier(max_depth=D, max_pages=P)
    local.admit_seed(seed)
    shared = RedisFrontier(redis_server.url, f"bara:{{case{case}}}", "w1", lease_seconds=60)
    assert shared.seed(seed, D, P, "job") is True
    assert shared.seed(seed, D, P, "job") is False  # a second worker joins
    leased: list[Admission] = []
    while True:
        _, got = shared.lease(rng.randint(1, 4))
        leased += got
        if not leased:
            break
        page = leased.pop(rng.randrange(len(leased)))  # finish in any order
        children = graph[page.url]
        local.complete(page.bfs_index, children)
        assert shared.complete(page.bfs_index, children, [page.url]) is True
        assert shared.complete(page.bfs_index, ["http://s.test/other"], []) is True  # kept first result
        assert shared.deliver(page.bfs_index) is True
        assert shared.deliver(page.bfs_index) is False
    status = shared.status()
    assert status.finished
    assert status.admitted == len(local.admitted) and status.dropped == local.dropped_by_budget
    assert shared.lease(10) == (0, [])  # nothing is leased twice
    assert len(local.admitted) > 3


def test_a_dead_workers_lease_expires_and_its_page_goes_to_another_worker(redis_server: RedisServer) -> None:
    dead = RedisFrontier(redis_server.url, "bara:{lease}", "dead", lease_seconds=0.3)
    alive = RedisFrontier(redis_server.url, "bara:{lease}", "alive", lease_seconds=60)
    dead.seed("http://s.test/", 2, 10, "job")
    _, [seed_page] = dead.lease(5)
    assert alive.lease(5) == (0, [])  # leased: not handed out twice
    pages = wait_for(lambda: alive.lease(5)[1], "the expired lease", timeout=30)
    assert pages == [seed_page]
    assert dead.complete(0, ["http://s.test/a"], []) is False  # the late worker must not deliver
    assert alive.complete(0, ["http://s.test/b"], []) is True  # first result kept: /a was admitted
    assert alive.lease(5)[1][0].url == "http://s.test/a"
    assert alive.deliver(0) is True
    assert alive.status().requeued == 1


def test_renewed_leases_do_not_expire(redis_server: RedisServer) -> None:
    worker = RedisFrontier(redis_server.url, "bara:{renew}", "w", lease_seconds=0.5)
    other = RedisFrontier(redis_server.url, "bara:{renew}", "o", lease_seconds=0.5)
    worker.seed("http://s.test/", 1, 5, "job")
    worker.lease(1)

    def redis_seconds() -> float:
        sec, usec = worker.client.time()
        return float(sec) + usec / 1e6

    start = redis_seconds()
    while redis_seconds() - start < 1.5:  # three lease lengths, renewed all along
        assert worker.renew([0]) == 1
        assert other.lease(1)[1] == []
        time.sleep(0.05)  # pacing, not synchronisation: the loop ends on Redis's clock
    assert worker.complete(0, [], []) is True


def test_a_restarted_redis_is_reported_as_a_lost_frontier(redis_server: RedisServer) -> None:
    worker = RedisFrontier(redis_server.url, "bara:{restart}", "w", lease_seconds=5)
    worker.seed("http://s.test/", 1, 5, "job")
    redis_server.restart()
    with pytest.raises(FrontierLost, match="lost this crawl's state"):
        worker.lease(1)
    redis_server.stop()
    with pytest.raises(FrontierLost, match="failed"):
        worker.status()


def test_the_frontier_middleware_drives_redis_only_when_a_frontier_url_is_set() -> None:
    from bara_scrapy.frontier.in_process import LocalFrontier
    from bara_scrapy.frontier.middleware import FrontierMiddleware
    from bara_scrapy.frontier.shared import SharedFrontier

    from .test_middlewares import make_crawler

    plain = build_from_crawler(FrontierMiddleware, make_crawler())
    shared = build_from_crawler(FrontierMiddleware, make_crawler(BARA_FRONTIER_URL="redis://127.0.0.1:1/0"))
    assert isinstance(plain.frontier, LocalFrontier) and isinstance(shared.frontier, SharedFrontier)


def test_redis_is_imported_only_when_the_shared_frontier_is_on() -> None:
    code = ("import sys; from scrapy.settings import Settings; from bara_scrapy.addon import Addon; "
            "import bara_scrapy.spiders.bara; Addon().update_settings(Settings()); "
            "assert 'redis' not in sys.modules, 'redis imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_leased_page_carries_its_parents_fingerprint_whichever_worker_completed_the_parent(
    redis_server: RedisServer,
) -> None:
    """The fingerprint is stored before the completion admits the children (first stored wins, like the
    completion): a worker leasing a child finds it, whoever completed the parent."""
    one = RedisFrontier(redis_server.url, "bara:{tpl}", "one", lease_seconds=60)
    two = RedisFrontier(redis_server.url, "bara:{tpl}", "two", lease_seconds=60)
    assert one.seed("http://s.test/", 2, 10, "job")
    _, [seed] = one.lease(1)
    assert seed.parent_template == ""
    assert one.complete(0, ["http://s.test/a", "http://s.test/b"], [], url=seed.url, template="QUJD")
    assert one.complete(0, ["http://s.test/a"], [], url=seed.url, template="WFla")  # a second result: ignored
    _, children = two.lease(5)
    assert [(a.url, a.parent_url, a.parent_template) for a in children] == [
        ("http://s.test/a", "http://s.test/", "QUJD"), ("http://s.test/b", "http://s.test/", "QUJD")]
    assert two.complete(1, ["http://s.test/a/x"], [], url="http://s.test/a")  # no fingerprint: none stored
    _, [grandchild] = one.lease(5)
    assert grandchild.parent_template == ""
