"""No import circles among gachapress's modules.

A circle works only as long as nobody reorders the imports or touches a name at import time,
and it hides which module a piece belongs to. The graph is built from the source with ``ast``:
every ``gachapress.*`` import statement of a module is an edge, wherever it stands: at module
level, under ``if TYPE_CHECKING:`` (type checkers and readers follow it all the same), and inside
a function, since an import deferred into a function to dodge a circle still closes it. Deferring
an import is fine (a no-op build loads no pydantic) as long as the imports go one way.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import gachapress

PACKAGE = Path(gachapress.__file__).parent


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__.py``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def import_statements(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, wherever it stands."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The gachapress modules ``name`` imports: for ``from X import y`` the module
    ``X.y`` when it is one, else ``X``."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in import_statements(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                if not is_package:
                    anchor = anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        found.update(t for t in targets if t in modules and t != name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module (Tarjan's
    algorithm, then a shortest path back to the component's first module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)

    found = []
    for component in components:
        start = min(component)
        paths = {start: [start]}
        frontier = [start]
        cycle = None
        while frontier and cycle is None:
            nxt = []
            for node in frontier:
                for succ in sorted(graph[node] & component):
                    if succ == start:
                        cycle = [*paths[node], start]
                        break
                    if succ not in paths:
                        paths[succ] = [*paths[node], succ]
                        nxt.append(succ)
                if cycle:
                    break
            frontier = nxt
        found.append(cycle or sorted(component))
    return sorted(found)


def test_the_finder_sees_a_planted_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_relative_type_checking_and_deferred_imports_are_edges(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n"
        "    from gachapress.pkg.other import Thing\n"
        "def later():\n"
        "    import gachapress.pkg.lazy\n",
        encoding="utf-8",
    )
    modules = dict.fromkeys(
        [
            "gachapress.pkg.mod",
            "gachapress.pkg.sibling",
            "gachapress.pkg.other",
            "gachapress.pkg.lazy",
        ],
        source,
    )
    assert imported_modules("gachapress.pkg.mod", source, modules) == {
        "gachapress.pkg.sibling",
        "gachapress.pkg.other",
        "gachapress.pkg.lazy",
    }


def test_no_import_cycles() -> None:
    graph = import_graph()
    assert "gachapress.assembly.builder" in graph  # the package was found
    found = cycles(graph)
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)
