"""The renderers: one package, one module per family of results, one set of public names."""

from __future__ import annotations

import ast
import importlib
from fractions import Fraction
from pathlib import Path

import pytest

import analyzer.present.report as report
from analyzer.engine.odds import odds
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

MODULES = ("common", "odds", "analysis", "choice", "lucky9", "verify")


def test_the_package_offers_every_renderer_of_its_modules() -> None:
    names: set[str] = set()
    for module_name in MODULES:
        module = importlib.import_module(f"analyzer.present.report.{module_name}")
        assert not names & set(module.__all__), module_name  # each name lives in one module
        names |= set(module.__all__)
        for name in module.__all__:
            assert getattr(report, name) is getattr(module, name)
    assert names == set(report.__all__)


def test_every_table_format_and_an_unknown_one() -> None:
    rows, headers = [["a", "1/2"]], ["x", "y"]
    assert report.table(rows, headers, "csv") == "x,y\na,1/2\n"
    for fmt in ("text", "markdown", "latex", "html"):
        assert "1/2" in report.table(rows, headers, fmt)
    with pytest.raises(AnalyzerError, match="unknown format 'yaml'"):
        report.table(rows, headers, "yaml")


def test_odds_render_in_every_format() -> None:
    result = odds("punto-banco", Shoe.decks(1))
    for fmt in report.FORMATS:
        text = report.render_odds(result, fmt)
        assert "Banker" in text or "banker" in text
    assert report.render_odds(result, "text", distributions=False).count("\n") < \
        report.render_odds(result, "text").count("\n")
    assert report.percent(Fraction(1, 8), 2) == "12.50%"


def test_every_lazy_renderer_is_its_modules_declared_and_typed() -> None:
    """The report package's names (PEP 562, as ``import analyzer``'s): each its module's,
    each in ``__all__``, each named for type checkers."""
    home = report._HOME  # noqa: SLF001
    for name, module in home.items():
        assert getattr(report, name) is getattr(
            importlib.import_module(f"analyzer.present.report.{module}"), name), name
    assert set(home) == set(report.__all__)
    source = Path(report.__file__).read_text(encoding="utf-8")
    typed = {a.asname or a.name for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.If) for child in node.body
             if isinstance(child, ast.ImportFrom) for a in child.names}
    assert typed == set(home)
