"""The package layout of docs/design.md: the runtime apart from the lab, no cycles, public names only."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bara_scrapy"
LAB = ("bara_scrapy.bench", "bara_scrapy.demo")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> Iterator[tuple[str, str]]:
    """(module, name) for every `from module import name` and `import module`, local imports included."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, "") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            yield from ((module, alias.name) for alias in node.names)


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for module, imported in imports(path):
            target = f"{module}.{imported}" if f"{module}.{imported}" in modules else module
            if target in modules and target != name:
                targets.add(target)
        edges[name] = targets
    return edges


def test_the_runtime_never_imports_the_lab_or_the_tests() -> None:
    for name, targets in graph().items():
        if not name.startswith(LAB):
            assert not {t for t in targets if t.startswith(LAB)}, name
    for path in PACKAGE.rglob("*.py"):
        assert not [m for m, _ in imports(path) if m == "tests" or m.startswith("tests.")], path


def test_the_bench_uses_only_public_names_of_the_runtime() -> None:
    private = [
        f"{module_name(path)}: {module}.{name}"
        for path in (PACKAGE / "bench").rglob("*.py")
        for module, name in imports(path)
        if module.startswith("bara_scrapy") and not module.startswith(LAB) and name.startswith("_")
    ]
    assert private == []


def test_no_import_cycle() -> None:
    edges, done, path = graph(), set[str](), list[str]()

    def visit(node: str) -> None:
        assert node not in path, " -> ".join([*path[path.index(node):], node])
        if node in done:
            return
        path.append(node)
        for target in sorted(edges[node]):
            visit(target)
        path.pop()
        done.add(node)

    for node in sorted(edges):
        visit(node)
