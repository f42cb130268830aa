"""Shared formatting: exact fractions, payouts, percentages and the tables of every format.

The renderers of :mod:`analyzer.present.report` build on these; nothing here knows a result
record.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TypeAlias

from tabulate import tabulate

from analyzer import __version__
from analyzer.errors import AnalyzerError

__all__ = ["decimal_text", "FORMATS", "fraction_text", "JSON", "json_text", "payout_text",
           "percent", "stable_floats", "table", "totals_text"]

#: A JSON document as :func:`json.dumps` writes it: objects, arrays, strings, numbers,
#: booleans and null (exact values are ``"p/q"`` strings).
JSON: TypeAlias = Mapping[str, "JSON"] | Sequence["JSON"] | str | int | float | bool | None

FORMATS = ("text", "markdown", "csv", "json", "latex", "html")
_TABLE_FORMATS = {"text": "simple", "markdown": "github", "latex": "latex", "html": "html"}


def json_text(document: JSON, digits: int | None = None) -> str:
    """A JSON output: indented, newline-terminated, stating the analyzer's version; with
    ``digits``, every float rounded to that many significant digits (:func:`stable_floats`).

    Every JSON document a command prints says which analyzer made it
    (``analyzer.__version__``, the one home of the version) unless it already does.

    >>> print(json_text({"ev": "-1/4"}), end="")
    {
      "ev": "-1/4",
      "analyzer_version": "0.1.0"
    }
    >>> json_text([0.8877379221210343], digits=3).split()
    ['[', '0.888', ']']
    """
    if digits is not None:
        document = stable_floats(document, digits)
    if isinstance(document, Mapping) and "analyzer_version" not in document:
        document = {**document, "analyzer_version": __version__}
    return json.dumps(document, indent=2) + "\n"


def fraction_text(value: Fraction) -> str:
    """An exact fraction as ``"p/q"`` (``"p"`` when whole).

    >>> fraction_text(Fraction(-1, 4)), fraction_text(Fraction(3))
    ('-1/4', '3')
    """
    return str(value)


def payout_text(pays: Fraction) -> str:
    """A payout as people write it: ``8:1``, ``0.95:1``, ``push``.

    >>> payout_text(Fraction(19, 20)), payout_text(Fraction(0)), payout_text(Fraction(1, 3))
    ('0.95:1', 'push', '1/3:1')
    """
    if pays == 0:
        return "push"
    if pays.denominator == 1:
        return f"{pays.numerator}:1"
    decimal = pays.numerator * 10**6 // pays.denominator
    if Fraction(decimal, 10**6) == pays:
        return f"{float(pays):g}:1"
    return f"{pays}:1"


def decimal_text(value: Fraction | float, digits: int = 10) -> str:
    """A value as a decimal of ``digits`` significant figures.

    >>> decimal_text(Fraction(1, 3), 4)
    '0.3333'
    """
    return f"{float(value):.{digits}g}"


def percent(value: Fraction | float, digits: int = 4) -> str:
    """A fraction as a percentage with ``digits`` decimals."""
    return f"{float(value) * 100:.{digits}f}%"


def table(rows: Sequence[Sequence[object]], headers: Sequence[str], fmt: str) -> str:
    """Render rows in a tabular format (text, markdown, latex, html or csv)."""
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return out.getvalue()
    if fmt not in _TABLE_FORMATS:
        raise AnalyzerError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    return str(tabulate(rows, headers=list(headers), tablefmt=_TABLE_FORMATS[fmt],
                        disable_numparse=True))


def stable_floats(document: JSON, digits: int = 10) -> JSON:
    """Round every float in a JSON document to ``digits`` significant digits.

    Floats from sampled or summed-in-floating-point figures (correlations, mean EVs across
    simulated shoes) differ in their last bits between BLAS builds and CPUs; published
    tables must not. Exact values are ``"p/q"`` strings and are untouched.

    >>> stable_floats({"r": 0.8877379221210343, "x": [1.0000000000000002, "1/3"]})
    {'r': 0.8877379221, 'x': [1.0, '1/3']}
    """
    if isinstance(document, float):
        return float(f"{document:.{digits}g}")
    if isinstance(document, Mapping):
        return {key: stable_floats(value, digits) for key, value in document.items()}
    if isinstance(document, list | tuple):
        return [stable_floats(value, digits) for value in document]
    return document


def totals_text(values: frozenset[int], word: str) -> str:
    """Totals as people write them: ``8 or 9``, ``0-5``, ``0-2 and 9``.

    >>> totals_text(frozenset({8, 9}), "or"), totals_text(frozenset(range(6)), "and")
    ('8 or 9', '0-5')
    """
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    parts = [part for run in runs
             for part in ([f"{run[0]}-{run[-1]}"] if len(run) > 2 else map(str, run))]
    if not parts:
        return "no total"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {word} {parts[-1]}"
