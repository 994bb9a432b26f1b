"""The BFS frontier: admission in sequential-reference order whatever the completion order."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bara_scrapy.frontier import Admission, Frontier

from ..crawl_utils import Ref, reference_bfs

SITE = "http://t.test"


def u(name: str) -> str:
    return f"{SITE}/{name}"


def refs(frontier: Frontier) -> list[Ref]:
    return [Ref(a.url, a.depth, a.parent_url, a.bfs_index) for a in frontier.admitted]


def test_the_seed_is_page_zero_and_admitted_once() -> None:
    f = Frontier(max_depth=2, max_pages=10)
    assert f.admit_seed(u("")) == Admission(u(""), 0, 0, None)
    assert not f.finished
    with pytest.raises(RuntimeError):
        f.admit_seed(u("again"))


def test_completing_a_page_never_admitted_is_an_error() -> None:
    f = Frontier(max_depth=2, max_pages=10)
    f.admit_seed(u(""))
    with pytest.raises(ValueError):
        f.complete(1, [u("a")])
    with pytest.raises(ValueError):
        f.complete(-1, [u("a")])


def test_children_are_released_in_admission_order_whatever_the_completion_order() -> None:
    f = Frontier(max_depth=3, max_pages=100)
    f.admit_seed(u(""))
    assert [a.url for a in f.complete(0, [u("a"), u("b"), u("c")])] == [u("a"), u("b"), u("c")]
    # c and b finish before a: nothing is admitted until a has been expanded
    assert f.complete(3, [u("c1"), u("x")]) == []
    assert f.complete(2, [u("x"), u("b1")]) == []
    assert f.pending.keys() == {2, 3}
    released = f.complete(1, [u("a1"), u("x")])
    assert [(a.url, a.bfs_index, a.parent_url) for a in released] == [
        (u("a1"), 4, u("a")), (u("x"), 5, u("a")), (u("b1"), 6, u("b")), (u("c1"), 7, u("c")),
    ]
    assert not f.pending and f.next_to_expand == 4


def test_depth_limit() -> None:
    f = Frontier(max_depth=1, max_pages=100)
    f.admit_seed(u(""))
    assert [a.depth for a in f.complete(0, [u("a"), u("b")])] == [1, 1]
    assert f.complete(1, [u("deep")]) == []
    assert f.complete(2, [u("deeper")]) == []
    assert f.finished and len(f.admitted) == 3


def test_depth_zero_admits_the_seed_only() -> None:
    f = Frontier(max_depth=0, max_pages=100)
    f.admit_seed(u(""))
    assert f.complete(0, [u("a")]) == []
    assert f.finished and not f.budget_exhausted


def test_budget_cuts_a_level_in_the_middle_and_counts_the_excess() -> None:
    f = Frontier(max_depth=5, max_pages=4)
    f.admit_seed(u(""))
    assert [a.url for a in f.complete(0, [u("a"), u("b")])] == [u("a"), u("b")]
    assert [a.url for a in f.complete(1, [u("a1"), u("a2"), u("a3")])] == [u("a1")]
    assert f.budget_exhausted and f.dropped_by_budget == 2
    assert f.complete(2, [u("b1"), u("a1")]) == []  # a1 is seen: not counted as dropped
    assert f.dropped_by_budget == 3
    assert not f.finished
    f.complete(3, [u("z")])
    assert f.finished and len(f.admitted) == 4


def test_budget_of_one_is_the_seed() -> None:
    f = Frontier(max_depth=5, max_pages=1)
    f.admit_seed(u(""))
    assert f.budget_exhausted
    assert f.complete(0, [u("a")]) == [] and f.dropped_by_budget == 1


def test_seen_urls_are_never_admitted_twice() -> None:
    f = Frontier(max_depth=5, max_pages=100)
    f.admit_seed(u(""))
    assert [a.url for a in f.complete(0, [u(""), u("a"), u("a")])] == [u("a")]
    assert f.complete(1, [u(""), u("a")]) == []


def test_redirect_urls_count_as_seen_from_their_page_on() -> None:
    f = Frontier(max_depth=5, max_pages=100)
    f.admit_seed(u(""))
    f.complete(0, [u("old"), u("b")])
    # old redirected to new; b (expanded after old) links new: already seen
    assert f.complete(1, [u("x")], also_seen=[u("new"), u("old")]) == [Admission(u("x"), 2, 3, u("old"))]
    assert f.complete(2, [u("new"), u("y")]) == [Admission(u("y"), 2, 4, u("b"))]


def test_a_redirect_target_admitted_before_the_redirect_expands_is_kept() -> None:
    f = Frontier(max_depth=5, max_pages=100)
    f.admit_seed(u(""))
    f.complete(0, [u("new"), u("old")])
    f.complete(1, [])
    assert f.complete(2, [u("new")], also_seen=[u("new")]) == []
    assert [a.url for a in f.admitted] == [u(""), u("new"), u("old")]


def test_a_page_completed_twice_keeps_its_first_result() -> None:
    f = Frontier(max_depth=5, max_pages=100)
    f.admit_seed(u(""))
    f.complete(0, [u("a"), u("b")])
    assert f.complete(2, [u("b1")]) == []
    assert f.complete(2, [u("other")]) == []  # pending: still b1
    released = f.complete(1, [u("a1")])
    assert [a.url for a in released] == [u("a1"), u("b1")]
    assert f.complete(1, [u("late")]) == []  # expanded already
    assert f.complete(0, [u("late")]) == []
    assert u("late") not in f.seen


def test_the_frontier_pickles_mid_crawl() -> None:
    f = Frontier(max_depth=5, max_pages=100)
    f.admit_seed(u(""))
    f.complete(0, [u("a"), u("b")])
    f.complete(2, [u("b1")])
    g: Frontier = pickle.loads(pickle.dumps(f))
    assert g == f
    assert [a.url for a in g.complete(1, [u("a1")])] == [u("a1"), u("b1")]


# --------------------------------------------------------------------------- property


@st.composite
def crawl_cases(draw: st.DrawFn) -> tuple[dict[str, list[str]], dict[str, str], int, int, int]:
    n = draw(st.integers(1, 20))
    names = [u(f"n{i}") for i in range(n)]
    nodes = st.sampled_from([*names, u("gone"), u("n0#frag"), u("n1?utm_source=x")])
    failing = draw(st.sets(st.sampled_from(names[1:]), max_size=3)) if n > 1 else set()
    graph = {name: draw(st.lists(nodes, max_size=8)) for name in names if name not in failing}
    redirects: dict[str, str] = {}
    for i in draw(st.sets(st.integers(0, n - 1), max_size=3)):
        if i + 1 < n:  # forward only: no redirect loops
            redirects[names[i]] = names[draw(st.integers(i + 1, n - 1))]
    return graph, redirects, draw(st.integers(0, 4)), draw(st.integers(0, 5)), draw(st.integers(1, 25))


def _selected(links: list[str], width: int) -> list[str]:
    """The first W distinct canonical links (the width middleware's job, done by hand)."""
    out: list[str] = []
    for link in links:
        canon = link.split("#")[0].split("?")[0]
        if canon not in out:
            if len(out) == width:
                break
            out.append(canon)
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=crawl_cases(), data=st.data())
def test_admissions_equal_the_reference_for_any_completion_order(
    case: tuple[dict[str, list[str]], dict[str, str], int, int, int], data: st.DataObject
) -> None:
    graph, redirects, depth, width, pages = case
    f = Frontier(max_depth=depth, max_pages=pages)
    running = [f.admit_seed(u("n0"))]
    done: list[Admission] = []
    while running:
        page = running.pop(data.draw(st.integers(0, len(running) - 1), label="next to finish"))
        chain = [page.url]
        while chain[-1] in redirects:
            chain.append(redirects[chain[-1]])
        children = _selected(graph.get(chain[-1], []), width)
        released = f.complete(page.bfs_index, children, also_seen=chain)
        running += released
        done.append(page)
        if data.draw(st.booleans(), label="complete a finished page again"):
            again = data.draw(st.sampled_from(done))
            assert f.complete(again.bfs_index, [u("intruder")]) == []
    assert f.finished
    assert refs(f) == reference_bfs(graph, u("n0"), depth, width, pages, redirects=redirects)
    assert u("intruder") not in f.seen
