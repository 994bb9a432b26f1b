"""The bench's sites, generated: `sites` builds each one, and a "page_budget" site gets a P that binds.

Where P runs out is a fact of the site's ground truth, so this module sits above both `sites` and
`truth` (which derives from `sites`): neither imports the other back.
"""

from __future__ import annotations

from dataclasses import replace

from .sites import Budget, SiteSpec, build_site
from .truth import bfs_depths


def with_binding_page_budget(spec: SiteSpec) -> SiteSpec:
    """Set P so that it runs out in the middle of the deepest level with several pages."""
    depths = bfs_depths(spec, Budget())
    for level in sorted(set(depths), reverse=True):
        width = depths.count(level)
        if width >= 3:
            before = sum(1 for d in depths if d < level)
            return replace(spec, budget=replace(spec.budget or Budget(), max_pages=before + width // 2))
    return spec


def generate_site(index: int, seed: int = 0) -> SiteSpec:
    spec = build_site(index, seed)
    return with_binding_page_budget(spec) if "page_budget" in spec.features else spec


def generate_sites(n: int = 50, seed: int = 0) -> list[SiteSpec]:
    """`n` deterministic sites: the same (n, seed) always gives identical specs.

    >>> [s.site_id for s in generate_sites(2)] == ["s00", "s01"] and generate_sites(2) == generate_sites(2)
    True
    """
    return [generate_site(i, seed) for i in range(n)]
