"""Formatting results for people and programs: the one place that renders tables.

Every renderer takes a frozen result record and returns a string in one of the formats
``text``, ``markdown``, ``csv``, ``json``, ``latex`` or ``html``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from tabulate import tabulate

from analyzer.errors import AnalyzerError
from analyzer.odds import BetOdds, OddsTable

FORMATS = ("text", "markdown", "csv", "json", "latex", "html")
_TABLE_FORMATS = {"text": "simple", "markdown": "github", "latex": "latex", "html": "html"}


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


def percent(value: Fraction | float, digits: int = 4) -> str:
    """A fraction as a percentage with ``digits`` decimals."""
    return f"{float(value) * 100:.{digits}f}%"


def table(rows: Sequence[Sequence[Any]], headers: Sequence[str], fmt: str) -> str:
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


def _bet_rows(bet: BetOdds) -> list[list[str]]:
    rows = []
    for line in bet.lines:
        rows.append([bet.name, line.name, payout_text(line.pays), str(line.ways),
                     f"{float(line.probability):.10f}", f"{float(line.contribution):+.6f}"])
    rows.append([bet.name, "Loses", "-1", str(bet.lose_ways),
                 f"{float(bet.lose_probability):.10f}", f"{-float(bet.lose_probability):+.6f}"])
    return rows


def odds_json(result: OddsTable) -> dict[str, Any]:
    """The JSON document of ``nine odds --format json``."""
    return {
        "profile": result.profile,
        "title": result.title,
        "shoe": result.shoe,
        "denominator": str(result.denominator),
        "convention": result.convention,
        "analyzer_version": result.version,
        **({"illustrative": result.illustrative} if result.illustrative else {}),
        "bets": [{
            "id": bet.id,
            "name": bet.name,
            "pay_rule": bet.pay_rule,
            "ev": fraction_text(bet.ev),
            "ev_float": float(bet.ev),
            "house_edge_float": float(bet.house_edge),
            "variance": fraction_text(bet.variance),
            "sd": bet.sd,
            "hit_frequency": fraction_text(bet.hit_frequency),
            "lines": [{
                "name": line.name,
                "when": line.condition,
                "pays": fraction_text(line.pays),
                "ways": line.ways,
                "probability": fraction_text(line.probability),
                "contribution": fraction_text(line.contribution),
            } for line in bet.lines] + [{
                "name": "Loses", "when": "no line holds", "pays": "-1",
                "ways": bet.lose_ways, "probability": fraction_text(bet.lose_probability),
                "contribution": fraction_text(-bet.lose_probability),
            }],
        } for bet in result.bets],
        "distributions": {
            dist.name: [{"value": list(key) if isinstance(key, tuple) else key,
                         "ways": ways} for key, ways in dist.cells]
            for dist in (result.totals, result.naturals, result.cards_dealt)},
    }


def render_odds(result: OddsTable, fmt: str = "text", distributions: bool = True) -> str:
    """Render an odds table: summary per bet, paytable breakdown, coup distributions."""
    if fmt == "json":
        return json.dumps(odds_json(result), indent=2) + "\n"
    summary_headers = ["bet", "EV", "house edge", "SD", "hit frequency", "EV (exact)"]
    summary = [[bet.name, f"{float(bet.ev):+.6f}", percent(bet.house_edge), f"{bet.sd:.4f}",
                percent(bet.hit_frequency, 3), fraction_text(bet.ev)] for bet in result.bets]
    line_headers = ["bet", "line", "pays", "ways", "probability", "return"]
    lines = [row for bet in result.bets for row in _bet_rows(bet)]
    if fmt == "csv":
        out = [table([[result.profile, result.shoe, bet.id, line.name, str(line.pays),
                       str(line.ways), str(result.denominator), fraction_text(line.probability)]
                      for bet in result.bets for line in bet.lines],
                     ["profile", "shoe", "bet", "line", "pays", "ways", "denominator",
                      "probability"], "csv")]
        return "".join(out)
    title = f"{result.title}: {result.shoe}"
    parts = []
    if fmt == "markdown":
        parts.append(f"## {title}\n")
    elif fmt == "text":
        parts.append(f"{title}\n")
    if result.illustrative:
        parts.append(f"ILLUSTRATIVE: {result.illustrative}\n")
    if fmt in ("text", "markdown"):
        parts.append(f"Denominator {result.denominator:,} ({result.convention}).\n")
    parts.append(table(summary, summary_headers, fmt) + "\n")
    parts.append(table(lines, line_headers, fmt) + "\n")
    if distributions:
        dist_rows = [[dist.name, str(key), str(ways), f"{ways / result.denominator:.8f}"]
                     for dist in (result.naturals, result.cards_dealt) for key, ways in dist.cells]
        parts.append(table(dist_rows, ["distribution", "value", "ways", "probability"], fmt)
                     + "\n")
        grid = dict(result.totals.cells)
        grid_rows = [[f"Player {p}", *(f"{grid.get((p, b), 0) / result.denominator:.6f}"
                                       for b in range(10))] for p in range(10)]
        parts.append(table(grid_rows, ["final totals", *(f"Banker {b}" for b in range(10))],
                           fmt) + "\n")
    return "\n".join(parts)


def render_profiles(found: Sequence[Any], fmt: str = "text") -> str:
    """The list of ``nine profiles``."""
    if fmt == "json":
        return json.dumps([{"name": p.name, "title": p.title, "aliases": list(p.aliases),
                            "bets": [b.id for b in p.bets], "source": p.source}
                           for p in found], indent=2) + "\n"
    rows = [[p.name, ", ".join(p.aliases), p.title, str(len(p.bets)), p.source] for p in found]
    return table(rows, ["profile", "aliases", "title", "bets", "source"], fmt) + "\n"
