"""`BARA_RENDER=auto` in the frontier: a page that would be one probe more waits for the earlier pages already
comparing, and is planned once they have finished. The same plans in any completion order and on resume;
every admitted page is requested once; a site whose pages are all equal probes `BARA_RENDER_PROBES` pages."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any, TypeVar

import pytest
from scrapy.exceptions import DontCloseSpider
from scrapy.settings import Settings

from bara_scrapy.config import BaraConfig
from bara_scrapy.frontier import Admission
from bara_scrapy.frontier.in_process import LocalFrontier
from bara_scrapy.journal import completion_record, encode, read_journal, replay
from bara_scrapy.render.policy import Observation, Plan

SITE = "https://uni.example.edu"
T = TypeVar("T")


class Stats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1) -> None:
        self.values[key] += count

    def set_value(self, key: str, value: int) -> None:
        self.values[key] = value


def run(coro: Coroutine[Any, Any, T]) -> T:
    """The result of a frontier coroutine that awaits nothing (the local frontier's never do)."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise AssertionError("the coroutine awaited something")


def links(index: int) -> list[str]:
    """A tree of two patterns: /news/<n> and /people/<n>."""
    return [f"{SITE}/{'people' if c % 4 == 0 else 'news'}/{c}" for c in range(3 * index + 1, 3 * index + 4)]


def compared(url: str, differing: frozenset[str]) -> Observation:
    number = int(url.rsplit("/", 1)[-1] or 0)
    if any(f"/{part}/" in url for part in differing):
        return Observation("different", 100, 3)
    return Observation("inconclusive") if number % 7 == 6 else Observation("equal", 100, 3)


def observation(url: str, plan: Plan | None, differing: frozenset[str]) -> Observation:
    if plan is not None and plan.compare:
        return compared(url, differing)
    return Observation("rendered" if plan is not None and plan.first == "browser" else "http")


def frontier(probes: int = 3) -> LocalFrontier:
    config = BaraConfig.from_settings(Settings({
        "BARA_SEED": f"{SITE}/", "BARA_RENDER": "auto", "BARA_RENDER_PROBES": probes, "BARA_RENDER_AUDIT": 0.1,
        "DEPTH_LIMIT": 4, "BARA_MAX_PAGES": 60}))
    return LocalFrontier(SimpleNamespace(stats=Stats()), config)  # type: ignore[arg-type]


def crawl(fr: LocalFrontier, ready: list[Admission], seed: int, differing: frozenset[str] = frozenset(),
          stop_after: int | None = None, observed: dict[int, Observation] | None = None,
          ) -> dict[int, tuple[str, str, bool]]:
    """Complete requested pages in a random order (`seed`); each page's plan as the frontier gave it (and
    each completed page's observation in `observed`)."""
    rng, plans = random.Random(seed), {}
    observed = {} if observed is None else observed
    in_flight: list[tuple[Admission, Plan | None]] = []

    def request(adms: list[Admission]) -> None:
        for adm in adms:
            assert adm.bfs_index not in plans, f"page {adm.bfs_index} requested twice"
            plan = fr.plan(adm)
            assert plan is not None
            plans[adm.bfs_index] = (plan.pattern, plan.reason, plan.compare)
            in_flight.append((adm, plan))

    request(ready)
    done = 0
    while in_flight and (stop_after is None or done < stop_after):
        adm, plan = in_flight.pop(rng.randrange(len(in_flight)))
        observed[adm.bfs_index] = observation(adm.url, plan, differing)
        completion = run(fr.complete(adm.bfs_index, links(adm.bfs_index), [], observed[adm.bfs_index]))
        request(completion.admitted)
        done += 1
    return plans


def test_a_site_whose_pages_are_all_equal_probes_n_pages_and_the_rest_wait() -> None:
    fr = frontier(probes=3)
    plans = crawl(fr, run(fr.seed(f"{SITE}/")), seed=1)
    assert len(plans) == len(fr.bfs.admitted) == 60 and fr.bfs.finished
    reasons = Counter(reason for _, reason, _ in plans.values())
    # the seed and two of its children compare; page 3 waited for them instead of being a fourth probe
    assert [i for i, (_, reason, _) in sorted(plans.items()) if reason == "probe"] == [0, 1, 2], reasons
    assert fr.crawler.stats.values["bara/render/waited"] >= 1
    assert reasons["probe"] + reasons["audit"] + reasons["site"] + reasons["http"] == 60


@pytest.mark.parametrize("differing", [frozenset(), frozenset({"news"})])
def test_the_same_plans_in_any_completion_order(differing: frozenset[str]) -> None:
    reference = None
    for seed in range(6):
        fr = frontier()
        plans = crawl(fr, run(fr.seed(f"{SITE}/")), seed, differing)
        assert len(plans) == len(fr.bfs.admitted) and fr.bfs.finished and not fr._waiting
        reference = reference or plans
        assert plans == reference
    assert reference is not None
    if differing:  # a difference pins the pattern: its later pages are rendered, never probed again
        news = sorted(i for i, (pattern, _, _) in reference.items() if pattern.endswith("/news/{n}"))
        assert reference[news[-1]][1] == "pinned"


def test_a_resumed_crawl_plans_its_unwritten_pages_as_the_first_run_would() -> None:
    fr = frontier()
    whole = crawl(fr, run(fr.seed(f"{SITE}/")), seed=3)
    first = frontier()
    observed: dict[int, Observation] = {}
    part = crawl(first, run(first.seed(f"{SITE}/")), seed=7, stop_after=2, observed=observed)
    assert first._waiting, "the cut should fall while pages wait"
    # the journal of the first run: the seed, each completion with its observation, each item written
    records: list[dict[str, Any]] = [{"seed": f"{SITE}/"}]
    for index, obs in observed.items():
        url = first.bfs.admitted[index].url
        records += [completion_record(index, url, links(index), [], obs.as_record()), {"w": index, "feeds": {}}]
    state = read_journal(b"".join(encode(r) for r in records))
    again = frontier()
    again.journal = SimpleNamespace(state=state, record=lambda record: None)  # type: ignore[assignment]
    again.bfs = replay(state, 4, 60)
    again._replay_render(state)
    again.resumed = True
    rest = crawl(again, run(again.seed(f"{SITE}/")), seed=5)
    assert set(rest).isdisjoint(state.written)
    assert {**{i: part[i] for i in state.written}, **rest} == whole


def test_pages_still_waiting_when_the_crawl_goes_idle_are_requested_not_lost() -> None:
    """A safety net: every page ends with an item, so a wait always ends; if one did not, the idle crawl
    requests the held pages (planned from their parents) instead of closing without them."""
    fr = frontier()
    scheduled: list[int] = []
    fr.open(SimpleNamespace(), lambda adm: scheduled.append(adm.bfs_index))
    crawl(fr, run(fr.seed(f"{SITE}/")), seed=7, stop_after=2)
    waiting = sorted(fr._waiting)
    assert waiting
    with pytest.raises(DontCloseSpider):
        fr.idle()
    assert scheduled == waiting and not fr._waiting
