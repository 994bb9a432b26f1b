"""The synthetic site generator: determinism, variety, and the shape of the default truth."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest

from bara_scrapy.bench.generate import generate_sites
from bara_scrapy.bench.render import render_page, site_resources
from bara_scrapy.bench.sites import (
    LAYOUTS,
    LINK_FEATURES,
    LIST_FEATURES,
    MEDIA_FEATURES,
    PAGE_PARTS,
    PLACEHOLDER_HOSTS,
    Budget,
    SiteSpec,
)
from bara_scrapy.bench.truth import SiteTruth, compute_truth
from bara_scrapy.links import trap_reason


@cache
def default_sites() -> tuple[SiteSpec, ...]:
    return tuple(generate_sites(50, seed=0))


@cache
def default_truths() -> tuple[SiteTruth, ...]:
    return tuple(compute_truth(s, PLACEHOLDER_HOSTS) for s in default_sites())


def site_bytes(specs: list[SiteSpec] | tuple[SiteSpec, ...]) -> list[bytes]:
    out = []
    for spec in specs:
        site, cdn = site_resources(spec, PLACEHOLDER_HOSTS)
        out += [path.encode() + res.body for path, res in sorted(site.items()) + sorted(cdn.items())]
    return out


def test_same_seed_gives_identical_specs_and_bytes() -> None:
    again = generate_sites(50, seed=0)
    assert [s.to_dict() for s in again] == [s.to_dict() for s in default_sites()]
    assert json.dumps([s.to_dict() for s in again]) == json.dumps([s.to_dict() for s in default_sites()])
    assert site_bytes(again[:10]) == site_bytes(default_sites()[:10])


def test_another_seed_gives_other_sites() -> None:
    other = generate_sites(5, seed=1)
    assert [s.to_dict() for s in other] != [s.to_dict() for s in default_sites()[:5]]


def test_sizes_layouts_and_features_vary() -> None:
    specs = default_sites()
    sizes = [len(s.pages) for s in specs]
    assert min(sizes) >= 4 and max(sizes) <= 30 and len(set(sizes)) > 10
    assert {s.layout for s in specs} == set(LAYOUTS)
    features = Counter(f for s in specs for f in s.features)
    assert set(features) == set(LINK_FEATURES) | set(MEDIA_FEATURES) | set(LIST_FEATURES) | set(PAGE_PARTS)
    assert min(features.values()) >= 8  # every failure mode in several sites


def test_default_budget_truth_has_binding_limits_and_modest_size() -> None:
    truths = default_truths()
    total = sum(len(t.pages) for t in truths)
    assert 350 <= total <= 450  # the 50-site x 6-variant run must fit in 15 minutes
    assert sum(t.width_bound for t in truths) >= 5
    assert sum(t.depth_cut > 0 for t in truths) >= 5  # some sites are deeper than D
    budget_bound = [(s, t) for s, t in zip(default_sites(), truths, strict=True) if t.dropped_by_budget]
    assert len(budget_bound) >= 5
    for spec, t in budget_bound:  # P runs out in the middle of a level: that level has pages left out
        unbounded = compute_truth(replace(spec, budget=Budget(max_pages=10_000)), PLACEHOLDER_HOSTS)
        last = t.pages[-1].depth
        kept = sum(p.depth == last for p in t.pages)
        assert len(t.pages) == t.budget.max_pages
        assert 0 < kept < sum(p.depth == last for p in unbounded.pages)


def test_every_quirk_reaches_the_truth() -> None:
    tags: Counter[str] = Counter()
    for t in default_truths():
        for p in t.pages:
            tags.update(p.quirks)
            for m in (*p.images, *p.videos, *p.embeds, *p.bad):
                tags.update(m.quirks)
            for k in p.key_sentences:
                tags.update(k.quirks)
    expected = (set(LINK_FEATURES) | set(MEDIA_FEATURES)) - {"robots", "page_budget", "duplicates", "redirect"}
    expected |= {"duplicate", "redirect", "img", "cdn", "video_src"}
    assert expected <= set(tags), expected - set(tags)


def test_truth_urls_are_canonical_and_never_traps() -> None:
    for t in default_truths():
        for p in t.pages:
            assert trap_reason(p.url) is None
            assert p.url.startswith("http://127.0.0.1:1/")


@pytest.mark.parametrize("mechanism", ["feed", "load_more", "script", "delayed", "overlay"])
def test_dynamic_content_is_not_in_the_served_html(mechanism: str) -> None:
    for spec in default_sites():
        for index, page in enumerate(spec.pages):
            for block in page.blocks:
                if block.mechanism != mechanism or not block.links:
                    continue
                html = render_page(spec, page, PLACEHOLDER_HOSTS, index)
                head, _, script = html.partition("<script>")
                assert block.key[0] not in head  # only the page script (or an API) can reveal it
                if mechanism in ("feed", "load_more"):
                    assert block.key[0] not in script
                return
    pytest.fail(f"no {mechanism} block with links")
