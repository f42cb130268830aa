"""The package's shape: imports point one way through the layers, no cycles, small modules.

Layers, lowest first: ``errors`` < ``rules`` < ``engine`` < ``dealing`` < ``analysis`` and
``choice`` (side by side, neither imports the other) < ``verify`` < ``present`` < ``cli``.
Every import counts, including one written inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
LAYERS = {"errors": 0, "inputs": 0, "outputs": 0, "rules": 1, "engine": 2, "dealing": 3,
          "analysis": 4, "choice": 4, "verify": 5, "present": 6, "cli": 7}
MAX_LINES = 600


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path) -> set[str]:
    """Every ``analyzer`` module this file imports, anywhere in it."""
    found: set[str] = set()
    modules = _modules()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("analyzer"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(
                "analyzer"):
            found.add(node.module)
            # ``from analyzer.engine import odds`` imports the module analyzer.engine.odds
            found.update(f"{node.module}.{a.name}" for a in node.names
                         if f"{node.module}.{a.name}" in modules)
    return found


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def import_graph() -> nx.DiGraph:
    """Module -> module it imports, for every module of the package."""
    graph = nx.DiGraph()
    for name, path in _modules().items():
        graph.add_node(name)
        for target in _imports(path):
            if target != name:
                graph.add_edge(name, target)
    return graph


def test_imports_point_down_the_layers() -> None:
    wrong = []
    for source, target in import_graph().edges:
        low, high = _layer(target), _layer(source)
        if low is None or high is None:
            continue  # the package root (version, public names) and __main__
        if low > high or (low == high == 4 and source.split(".")[1] != target.split(".")[1]):
            wrong.append(f"{source} imports {target}")
    assert wrong == []


def test_the_package_root_imports_only_the_lowest_layers() -> None:
    root = _imports(PACKAGE / "__init__.py")
    assert all(_layer(m) is not None and _layer(m) <= 1 for m in root), root


def test_no_import_cycles() -> None:
    graph = import_graph()
    # a package's __init__ importing its own modules is not a cycle of the design
    graph.remove_edges_from([(s, t) for s, t in list(graph.edges) if t.startswith(s + ".")])
    assert list(nx.simple_cycles(graph)) == []


@pytest.mark.parametrize("name", sorted(_modules()))
def test_every_module_is_small_documented_and_declares_its_names(name: str) -> None:
    path = _modules()[name]
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    assert len(text.splitlines()) <= MAX_LINES
    assert ast.get_docstring(tree), f"{name} has no docstring saying what it owns"
    if path.name != "__main__.py":
        assert any(isinstance(target, ast.Name) and target.id == "__all__"
                   for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                   for target in (node.targets if isinstance(node, ast.Assign)
                                  else [node.target])), f"{name} has no __all__"


def test_the_layering_check_catches_an_upward_import(tmp_path: Path) -> None:
    """The check itself can fail: an engine module importing the CLI is reported."""
    assert _layer("analyzer.engine.odds") == 2 and _layer("analyzer.cli.commands") == 7
    source = tmp_path / "x.py"
    source.write_text("def f():\n    from analyzer.cli.commands import main\n")
    assert _imports(source) == {"analyzer.cli.commands"}
