"""``import analyzer``: a lazy facade (PEP 562) whose names are the verbs and records a user
needs, each the one its owner module defines, imported on first use."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import analyzer

ROOT = Path(__file__).resolve().parent.parent / "analyzer" / "__init__.py"


def test_every_lazy_name_is_its_owners_and_declared() -> None:
    for name, owner in analyzer._LAZY.items():  # noqa: SLF001
        assert getattr(analyzer, name) is getattr(sys.modules[owner], name), name
    assert set(analyzer._LAZY) <= set(analyzer.__all__) <= set(dir(analyzer))  # noqa: SLF001
    typed = {a.asname or a.name for node in ast.walk(ast.parse(ROOT.read_text("utf-8")))
             if isinstance(node, ast.If) for child in node.body
             if isinstance(child, ast.ImportFrom) for a in child.names}
    assert typed == set(analyzer._LAZY)  # type checkers see every lazy name  # noqa: SLF001


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'no_such_verb'"):
        analyzer.no_such_verb  # type: ignore[attr-defined]  # noqa: B018


def test_importing_the_package_loads_no_verb() -> None:
    code = ("import sys, analyzer\n"
            "print(' '.join(m for m in sys.modules if m.startswith('analyzer')))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert "analyzer.rules.shoe" in loaded
    assert not {m for m in loaded if m.startswith(("analyzer.engine", "analyzer.choice",
                                                   "analyzer.verify", "analyzer.present",
                                                   "analyzer.dealing"))}, loaded


#: The facade's result records.
RECORDS = ("Profile", "OddsTable", "BetOdds", "LineOdds", "Distribution", "BatchEvaluator",
           "Equilibrium", "TableEquilibrium", "Advice", "ParSheet", "SimulationSummary",
           "Verdict")


@pytest.mark.parametrize("name", RECORDS)
def test_every_field_of_a_result_record_has_its_docstring(name: str) -> None:
    """Each field has a ``#:`` comment right above it or after it on its line: the API
    reference's field docs (as Sphinx autodoc reads them), in the record's class or the
    base class that declares it."""
    record = getattr(analyzer, name)
    declared = set()
    for cls in record.__mro__:
        if not dataclasses.is_dataclass(cls):
            continue
        lines = inspect.getsource(cls).splitlines()
        body = ast.parse(inspect.getsource(cls)).body[0]
        assert isinstance(body, ast.ClassDef)
        fields = [node for node in body.body if isinstance(node, ast.AnnAssign)
                  and "ClassVar" not in ast.unparse(node.annotation)]
        declared |= {f.target.id for f in fields if isinstance(f.target, ast.Name)}
        for node in fields:
            above = lines[node.lineno - 2].strip()
            _, mark, after = lines[node.lineno - 1].partition("  #: ")
            assert (above.startswith("#:") and len(above) > 4) or (mark and after.strip()), \
                f"{cls.__name__}.{ast.unparse(node.target)}"
    assert declared == {f.name for f in dataclasses.fields(record)}
