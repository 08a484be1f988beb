"""The package's modules import each other without a cycle, counting every import in a
module (also those inside functions), and the schema of the per-game arrays sits at the
bottom."""

from __future__ import annotations

import ast
from pathlib import Path

import tradewinds

PACKAGE = Path(tradewinds.__file__).resolve().parent
NAME = "tradewinds"


def module_name(path: Path) -> str:
    return NAME if path.name == "__init__.py" else f"{NAME}.{path.stem}"


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package modules that the module at ``path`` imports (``from . import x`` counts
    as importing submodule ``x`` when there is one, and the package otherwise)."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
    return {m for m in found if m in modules and m != here}


def import_graph() -> dict[str, set[str]]:
    files = sorted(PACKAGE.glob("*.py"))
    modules = {module_name(f) for f in files}
    return {module_name(f): imports_of(f, modules) for f in files}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order, the first repeated at the end),
    or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(graph[module]):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module)
        if cycle:
            return cycle
    return None


def test_the_graph_sees_the_known_imports() -> None:
    graph = import_graph()
    assert "tradewinds._results" in graph["tradewinds.simulation"]
    assert "tradewinds.simulation" in graph["tradewinds.bulk"]
    assert "tradewinds.cli" in graph["tradewinds.__main__"]
    assert NAME in graph["tradewinds.cli"]  # `from . import GAMES, ...`


def test_the_package_has_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_a_cycle_would_be_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_result_schema_imports_no_other_module_of_the_package() -> None:
    assert import_graph()["tradewinds._results"] == set()
