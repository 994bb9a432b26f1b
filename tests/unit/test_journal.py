"""The crawl journal: replayed completions rebuild the frontier; a cut last line is dropped; damage is refused."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bara_scrapy.frontier import Frontier
from bara_scrapy.journal import (
    JOURNAL_NAME,
    completion_record,
    encode,
    jobdir_problem,
    read_journal,
    replay,
)
from bara_scrapy.render.policy import Observation, Outcome, PolicyConfig, RenderPolicy

SITE = "http://t.test"


def _links(index: int, fanout: int) -> list[str]:
    return [f"{SITE}/{(index * 7 + k * 3) % 40}" for k in range(fanout)]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded machine is no failure
@given(st.lists(st.integers(0, 5), min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_replaying_the_journaled_completions_gives_the_live_frontier(fanouts: list[int], rng: object) -> None:
    """Pages finish in any order; each completion is journaled as it happens; the replay admits the same."""
    live = Frontier(max_depth=4, max_pages=25)
    journal = [encode({"seed": live.admit_seed(f"{SITE}/0").url})]
    todo = [0]
    while todo:
        index = todo.pop(rng.randrange(len(todo)))  # type: ignore[attr-defined]
        url = live.admitted[index].url
        links = _links(index, fanouts[index % len(fanouts)])
        released = live.complete(index, links)
        journal.append(encode(completion_record(index, url, links, [])))
        todo += [a.bfs_index for a in released]
    state = read_journal(b"".join(journal))
    again = replay(state, max_depth=4, max_pages=25)
    assert again.admitted == live.admitted and again.next_to_expand == live.next_to_expand
    assert again.finished


def test_a_cut_last_line_is_dropped_and_the_rest_kept() -> None:
    whole = encode({"seed": f"{SITE}/"}) + encode({"w": 0, "feeds": {"/f.jl": 10}})
    cut = encode({"c": 0, "url": f"{SITE}/", "links": [], "seen": []})[:-5]
    state = read_journal(whole + cut)
    assert (state.valid_bytes, state.cut_bytes, state.written, state.closed) == (len(whole), len(cut), {0}, False)


def _jobdir(tmp_path: Path, *records: dict[str, object]) -> Path:
    job = tmp_path / "job"
    job.mkdir()
    (job / JOURNAL_NAME).write_bytes(b"".join(encode(r) for r in records))
    return job


def test_a_sound_jobdir_has_no_problem(tmp_path: Path) -> None:
    feed = tmp_path / "items.jsonl"
    feed.write_text('{"url": 1}\n{"url": 2}\n')
    job = _jobdir(tmp_path, {"job": {}}, {"seed": f"{SITE}/"}, {"w": 0, "feeds": {str(feed): 11}})
    with (job / "spider.state").open("wb") as fh:
        pickle.dump({"bara_job": {}}, fh)
    assert jobdir_problem(job) is None
    assert jobdir_problem(tmp_path / "new") is None


def test_a_damaged_journal_line_is_refused(tmp_path: Path) -> None:
    job = _jobdir(tmp_path, {"job": {}}, {"seed": f"{SITE}/"})
    data = (job / JOURNAL_NAME).read_bytes()
    (job / JOURNAL_NAME).write_bytes(data.replace(b'"seed"', b'"se\x00d'))
    problem = jobdir_problem(job)
    assert problem and "damaged" in problem and "line 2" in problem and "new JOBDIR" in problem


def test_a_completion_of_a_page_never_admitted_is_refused(tmp_path: Path) -> None:
    job = _jobdir(tmp_path, {"seed": f"{SITE}/"}, completion_record(3, f"{SITE}/x", [], []))
    assert "never admitted" in (jobdir_problem(job) or "")


def test_a_truncated_spider_state_is_refused(tmp_path: Path) -> None:
    job = _jobdir(tmp_path, {"job": {}})
    (job / "spider.state").write_bytes(pickle.dumps({"bara_job": {"seed": SITE}}, protocol=4)[:-7])
    assert "spider.state cannot be read" in (jobdir_problem(job) or "")


def test_a_feed_shorter_than_the_journal_says_is_refused(tmp_path: Path) -> None:
    feed = tmp_path / "items.jsonl"
    feed.write_text(json.dumps({"url": 1}) + "\n")
    job = _jobdir(tmp_path, {"seed": f"{SITE}/"}, {"w": 0, "feeds": {str(feed): 500}})
    assert "items of the earlier runs are missing" in (jobdir_problem(job) or "")


OUTCOMES: tuple[Outcome, ...] = ("equal", "different", "inconclusive", "rendered", "http")


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 4), min_size=1, max_size=40), st.lists(st.integers(0, 4), min_size=1),
       st.randoms(use_true_random=False))
def test_the_journaled_render_observations_rebuild_the_same_plans(fanouts: list[int], outcomes: list[int],
                                                                  rng: object) -> None:
    """`BARA_RENDER=auto`: each completion journals the page's observation; the replayed ledger plans every
    admitted page as the live one did (from its parent's index), whatever order the pages finished in."""
    live, ledger = Frontier(max_depth=5, max_pages=30), RenderPolicy(PolicyConfig(probes=2, audit_share=0.2))
    journal = [encode({"seed": live.admit_seed(f"{SITE}/0").url})]
    plans = {0: ledger.plan(f"{SITE}/0", -1)}
    todo = [0]
    while todo:
        index = todo.pop(rng.randrange(len(todo)))  # type: ignore[attr-defined]
        url = live.admitted[index].url
        obs = Observation(OUTCOMES[outcomes[index % len(outcomes)]], 100 + index, 3)
        ledger.record(index, url, obs)
        links = [f"{SITE}/s{index % 3}/{n}" for n in _links(index, fanouts[index % len(fanouts)])]
        released = live.complete(index, links)
        journal.append(encode(completion_record(index, url, links, [], obs.as_record())))
        plans.update({a.bfs_index: ledger.plan(a.url, a.parent_index) for a in released})
        todo += [a.bfs_index for a in released]
    state = read_journal(b"".join(journal))
    again = RenderPolicy(PolicyConfig(probes=2, audit_share=0.2))
    for done in state.completions:
        assert done.render is not None
        again.record(done.bfs_index, done.url, Observation.from_record(done.render))
    assert {a.bfs_index: again.plan(a.url, a.parent_index) for a in replay(state, 5, 30).admitted} == plans
