"""Every reference in the docs and the code resolves inside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKDOWN = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SOURCES = sorted({*ROOT.glob("bara_scrapy/**/*.py"), *ROOT.glob("tests/**/*.py")} - {Path(__file__)})
# files that used to live beside the repository, and issue numbers, which a clone cannot follow
OUTSIDE = re.compile(r"DESIGN\.md|RELIABILITY|shared/item\.schema|/work/|\b[Ii]ssues? #?\d+")


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading.

    >>> anchor("BFS semantics (exact, testable)")
    'bfs-semantics-exact-testable'
    >>> anchor("Reports, progress, stored media, feeds")
    'reports-progress-stored-media-feeds'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(m[1]) for m in re.finditer(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.MULTILINE)}


def links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```|`[^`\n]*`", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves(path: Path) -> None:
    for target in links(path):
        file, _, fragment = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        assert resolved.exists() and ROOT in (resolved, *resolved.parents), (path.name, target)
        if fragment and resolved.suffix == ".md":
            assert fragment in anchors(resolved), (path.name, target)


def test_nothing_points_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in [*MARKDOWN, *SOURCES]
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert found == []
