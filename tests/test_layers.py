"""The package's shape: imports point one way through the layers, no cycles, small modules.

Layers, lowest first: ``errors`` < ``rules`` < ``engine`` < ``dealing`` < ``analysis`` and
``choice`` (side by side, neither imports the other) < ``verify`` < ``present`` < ``cli``;
inside ``choice``: ``strategy`` < ``headsup`` < ``table`` < ``play``. Every import counts,
including one written inside a function. A folder holds at most :data:`MAX_MODULES` modules,
so the line cap makes folders that name their ideas rather than prefixes.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "analyzer"
LAYERS = {"errors": 0, "inputs": 0, "outputs": 0, "processes": 0, "interrupts": 0,
          "rules": 1, "engine": 2, "dealing": 3, "analysis": 4, "choice": 4, "verify": 5,
          "present": 6, "cli": 7}
MAX_LINES = 600
#: Most modules in one folder (its ``__init__`` not counted).
MAX_MODULES = 12
#: The order inside ``choice``: each part imports only the parts before it.
CHOICE = {"strategy": 0, "headsup": 1, "table": 2, "play": 3}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
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


@functools.cache
def _edges() -> tuple[tuple[str, str], ...]:
    return tuple((name, target) for name, path in _modules().items()
                 for target in sorted(_imports(path)) if target != name)


def import_graph() -> nx.DiGraph:
    """Module -> module it imports, for every module of the package (parsed once per run;
    a fresh graph each call)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(_modules())
    graph.add_edges_from(_edges())
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


def test_choice_parts_point_one_way() -> None:
    wrong = []
    for source, target in import_graph().edges:
        s, t = source.split("."), target.split(".")
        if len(s) > 2 and len(t) > 2 and s[1] == t[1] == "choice" and CHOICE[t[2]] > CHOICE[s[2]]:
            wrong.append(f"{source} imports {target}")
    assert wrong == []
    assert {p.stem for p in (PACKAGE / "choice").iterdir()
            if p.suffix == ".py" or p.is_dir()} - {"__init__", "__pycache__"} == set(CHOICE)


def test_no_folder_holds_more_than_a_dozen_modules() -> None:
    crowded = {}
    for folder in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir())]:
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(modules) > MAX_MODULES:
            crowded[str(folder.relative_to(PACKAGE.parent))] = len(modules)
    assert crowded == {}


def test_the_package_root_imports_only_the_lowest_layers() -> None:
    """At run time; its lazy names (PEP 562) are imported on first use, and named for type
    checkers under ``if TYPE_CHECKING:``, which is left out here."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    tree.body = [node for node in tree.body if not (
        isinstance(node, ast.If) and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING")]
    root = {node.module for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            and node.module.startswith("analyzer")}
    assert root and all(_layer(m) is not None and _layer(m) <= 1 for m in root), root


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
