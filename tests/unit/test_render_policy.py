"""The per-pattern render policy: probing, HTTP after N equal pages, pinned on a difference, audits,
and the same decisions whatever order pages finish in."""

from __future__ import annotations

import random

import pytest

from bara_scrapy.render.policy import Observation, PatternState, PolicyConfig, RenderPolicy, audited

SITE = "https://uni.example.edu"
EQUAL = Observation("equal", 3000, 40)
DIFFERENT = Observation("different", 3000, 40)
FAILED = Observation("inconclusive")


def article(i: int) -> str:
    return f"{SITE}/news/2024/05/story-number-{i}"


def run(observations: list[Observation], config: PolicyConfig | None = None) -> RenderPolicy:
    policy = RenderPolicy(config or PolicyConfig(probes=3, audit_share=0.0))
    for i, obs in enumerate(observations):
        policy.record(i, article(i), obs)
    return policy


def mode_after(observations: list[Observation], config: PolicyConfig | None = None) -> str:
    policy = run(observations, config)
    return policy.state("uni.example.edu/news/{n}/{n}/{slug}", policy.through).mode


@pytest.mark.parametrize(("observations", "mode"), [
    ([], "probing"),
    ([EQUAL, EQUAL], "probing"),
    ([EQUAL, EQUAL, EQUAL], "http"),
    ([EQUAL, FAILED, EQUAL, FAILED, EQUAL], "http"),  # a failure on either side is inconclusive
    ([FAILED] * 10, "probing"),
    ([EQUAL, EQUAL, DIFFERENT], "browser"),
    ([DIFFERENT, EQUAL, EQUAL, EQUAL, EQUAL], "browser"),  # pinned for good
    ([EQUAL, EQUAL, EQUAL, Observation("http"), Observation("http")], "http"),
    ([EQUAL, EQUAL, EQUAL, Observation("different", 10, 1, audit=True)], "browser"),  # an audit difference
    ([EQUAL, EQUAL, EQUAL, Observation("equal", 10, 1, audit=True)], "http"),
])
def test_pattern_modes(observations: list[Observation], mode: str) -> None:
    assert mode_after(observations) == mode


def test_an_explained_difference_pins_only_in_strict_mode() -> None:
    """A difference on a page whose HTTP document showed a signal: HTTP mode would render it anyway."""
    explained = Observation("different", 3000, 40, signalled=True)
    assert mode_after([EQUAL, explained, EQUAL, EQUAL]) == "http"
    strict = PolicyConfig(probes=3, audit_share=0.0, explained_differences_pin=True)
    assert mode_after([EQUAL, explained, EQUAL, EQUAL], strict) == "browser"
    unexplained = Observation("different", 3000, 40)
    assert mode_after([EQUAL, unexplained, EQUAL, EQUAL, EQUAL]) == "browser"
    # an audited page with a signal would have been rendered anyway: its difference is explained too
    assert mode_after([EQUAL, EQUAL, EQUAL, Observation("different", 1, 1, signalled=True, audit=True)]) == "http"


def test_patterns_are_independent() -> None:
    policy = RenderPolicy(PolicyConfig(probes=1, audit_share=0.0))
    policy.record(0, f"{SITE}/", EQUAL)
    policy.record(1, article(1), DIFFERENT)
    policy.record(2, f"{SITE}/people/jane-q-public", EQUAL)
    assert [policy.plan(u, 2).reason for u in (f"{SITE}/", article(9), f"{SITE}/people/john-doe-smith")] == \
        ["http", "pinned", "http"]
    assert policy.plan(f"{SITE}/about", 2).reason == "probe"


def test_a_plan_uses_the_state_through_the_parent_only() -> None:
    policy = run([EQUAL, EQUAL, EQUAL, EQUAL])
    assert policy.plan(article(10), 1).reason == "probe"  # admitted by page 1: two equal pages then
    assert policy.plan(article(10), 2).reason == "http"
    assert policy.plan(article(10), -1).reason == "probe"  # the seed: nothing learnt yet
    with pytest.raises(ValueError, match="not all finished"):
        policy.plan(article(10), 4)


def test_the_same_admission_order_gives_the_same_choices_in_any_completion_order() -> None:
    rng = random.Random(7)
    urls = [article(i) if i % 3 else f"{SITE}/people/person-{i}-x" for i in range(60)]
    outcomes = [rng.choice([EQUAL, EQUAL, EQUAL, FAILED, DIFFERENT, Observation("http")]) for _ in urls]
    parents = [max(-1, i // 2 - 1) for i in range(len(urls))]
    config = PolicyConfig(probes=2, audit_share=0.2)

    def plans(order: list[int]) -> list[tuple[str, str, bool]]:
        policy, decided = RenderPolicy(config), {}
        pending = list(order)
        while pending:  # plan each page as soon as its parent's prefix is done, then let it finish
            for i in list(pending):
                if i not in decided and parents[i] <= policy.through:
                    plan = policy.plan(urls[i], parents[i])
                    decided[i] = (plan.pattern, plan.reason, plan.compare)
            i = next(j for j in pending if j in decided)
            pending.remove(i)
            policy.record(i, urls[i], outcomes[i])
        return [decided[i] for i in range(len(urls))]

    in_order = plans(list(range(len(urls))))
    for seed in range(5):
        shuffled = list(range(len(urls)))
        random.Random(seed).shuffle(shuffled)
        assert plans(shuffled) == in_order


def test_audits_are_a_hash_of_the_url_at_the_given_share() -> None:
    urls = [f"{SITE}/news/{i}" for i in range(2000)]
    picked = [u for u in urls if audited(u, 0.05)]
    assert 70 <= len(picked) <= 130 and picked == [u for u in urls if audited(u, 0.05)]
    assert set(picked) <= {u for u in urls if audited(u, 0.10)}


def test_recording_a_page_twice_is_refused() -> None:
    policy = run([EQUAL])
    with pytest.raises(ValueError, match="already recorded"):
        policy.record(0, article(0), EQUAL)


def test_the_reference_is_the_median_of_the_rendered_results() -> None:
    state = PatternState()
    for chars, links in ((100, 10), (5000, 30), (3000, 20)):
        state = state.learn(Observation("rendered", chars, links), PolicyConfig())
    ref = state.reference()
    assert ref is not None and (ref.text_chars, ref.links) == (3000, 20)
    assert PatternState().reference() is None


def test_a_site_whose_comparisons_were_all_equal_serves_a_new_pattern_over_http() -> None:
    policy = RenderPolicy(PolicyConfig(probes=2, audit_share=0.0))
    for i in range(2):
        policy.record(i, f"https://a.org/news/{i}", EQUAL)
    assert policy.plan("https://a.org/people/ann", 0).reason == "probe"  # one equal page is not enough
    plan = policy.plan("https://a.org/people/ann", 1)
    assert (plan.first, plan.compare, plan.reason) == ("http", False, "site")
    policy.record(2, "https://a.org/shop/9", Observation("different", 10, 1, signalled=True))  # explained
    assert policy.plan("https://a.org/people/bob", 2).reason == "site"
    policy.record(3, "https://a.org/shop/10", Observation("different", 10, 1))  # unexplained: withdrawn
    assert policy.plan("https://a.org/people/cy", 3).reason == "probe"
    assert policy.plan("https://a.org/people/cy", 2).reason == "site"  # planned from the pages before it
    strict = RenderPolicy(PolicyConfig(probes=2, audit_share=0.0, site_prior=False))
    for i in range(3):
        strict.record(i, f"https://a.org/news/{i}", EQUAL)
    assert strict.plan("https://a.org/people/ann", 2).reason == "probe"
