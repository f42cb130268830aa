"""Rendering the exact odds of a fixed-tableau game (``nine odds``) and the profile list
(``nine profiles``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analyzer.analysis.checks import PaytableWarning
from analyzer.engine.odds import BetOdds, OddsTable
from analyzer.present.report.common import fraction_text, json_text, payout_text, percent, table
from analyzer.rules.conditions import GlossaryEntry
from analyzer.rules.profile import Profile

__all__ = ["odds_json", "render_features", "render_odds", "render_profiles", "summary_rows",
           "warnings_json"]


def _bet_rows(bet: BetOdds) -> list[list[str]]:
    rows = []
    for line in bet.lines:
        rows.append([bet.name, line.name, payout_text(line.pays), str(line.ways),
                     f"{float(line.probability):.10f}", f"{float(line.contribution):+.6f}"])
    rows.append([bet.name, "Loses", "-1", str(bet.lose_ways),
                 f"{float(bet.lose_probability):.10f}", f"{-float(bet.lose_probability):+.6f}"])
    return rows


def warnings_json(warnings: Sequence[PaytableWarning]) -> list[dict[str, Any]]:
    """The ``"warnings"`` of a JSON document (:mod:`analyzer.analysis.checks`)."""
    return [{"kind": w.kind, "bet": w.bet, "lines": list(w.lines), "message": w.message}
            for w in warnings]


def odds_json(result: OddsTable, warnings: Sequence[PaytableWarning] = ()) -> dict[str, Any]:
    """The JSON document of ``nine odds --format json``."""
    return {
        "profile": result.profile,
        "title": result.title,
        "shoe": result.shoe,
        "denominator": str(result.denominator),
        "convention": result.convention,
        "analyzer_version": result.version,
        **({"illustrative": result.illustrative} if result.illustrative else {}),
        "warnings": warnings_json(warnings),
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


def render_odds(result: OddsTable, fmt: str = "text", distributions: bool = True,
                warnings: Sequence[PaytableWarning] = ()) -> str:
    """Render an odds table: its warnings, summary per bet, paytable breakdown, coup
    distributions."""
    if fmt == "json":
        return json_text(odds_json(result, warnings))
    summary_headers = ["bet", "EV", "house edge", "SD", "hit frequency", "EV (exact)"]
    summary = [[bet.name, f"{float(bet.ev):+.6f}", percent(bet.house_edge), f"{bet.sd:.4f}",
                percent(bet.hit_frequency, 3), fraction_text(bet.ev)] for bet in result.bets]
    line_headers = ["bet", "line", "pays", "ways", "probability", "return"]
    lines = [row for bet in result.bets for row in _bet_rows(bet)]
    if fmt == "csv":
        # One row per payline (and one for the losing outcome), with the bet's EV, SD and
        # hit frequency repeated on each row so every row stands alone and diffs stay small.
        rows = []
        for bet in result.bets:
            summary_cells = [fraction_text(bet.ev), f"{float(bet.ev):.12f}", f"{bet.sd:.12f}",
                             fraction_text(bet.hit_frequency)]
            for line in bet.lines:
                rows.append([result.profile, result.shoe, bet.id, line.name, str(line.pays),
                             str(line.ways), str(result.denominator),
                             fraction_text(line.probability), fraction_text(line.contribution),
                             *summary_cells])
            rows.append([result.profile, result.shoe, bet.id, "Loses", "-1",
                         str(bet.lose_ways), str(result.denominator),
                         fraction_text(bet.lose_probability),
                         fraction_text(-bet.lose_probability), *summary_cells])
        headers = ["profile", "shoe", "bet", "line", "pays", "ways", "denominator",
                   "probability", "contribution", "bet_ev", "bet_ev_float", "bet_sd",
                   "bet_hit_frequency"]
        if result.illustrative:
            # Illustrative paytables (NINE & NINES) say so on every row.
            headers.append("illustrative")
            rows = [[*row, result.illustrative] for row in rows]
        return table(rows, headers, "csv")
    title = f"{result.title}: {result.shoe}"
    parts = []
    if fmt == "markdown":
        parts.append(f"## {title}\n")
    elif fmt == "text":
        parts.append(f"{title}\n")
    if result.illustrative:
        parts.append(f"ILLUSTRATIVE: {result.illustrative}\n")
    if warnings:
        parts.append("".join(f"WARNING: {w.message}.\n" for w in warnings))
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


def render_profiles(found: Sequence[Profile], fmt: str = "text") -> str:
    """The list of ``nine profiles``."""
    if fmt == "json":
        return json_text({"profiles": [
            {"name": p.name, "title": p.title, "aliases": list(p.aliases),
             "bets": [b.id for b in p.bets], "source": p.source} for p in found]})
    rows = [[p.name, ", ".join(p.aliases), p.title, str(len(p.bets)), p.source] for p in found]
    return table(rows, ["profile", "aliases", "title", "bets", "source"], fmt) + "\n"


def render_features(entries: Sequence[GlossaryEntry], fmt: str = "text") -> str:
    """``nine features``: every feature a payline condition can read."""
    if fmt == "json":
        return json_text({"features": [{"name": e.name, "type": e.type, "values": e.values,
                                        "needs": e.needs, "meaning": e.meaning,
                                        "example": e.example} for e in entries]})
    rows = [[e.name, e.type, e.values, e.needs, e.meaning] for e in entries]
    body = table(rows, ["feature", "type", "values", "needs", "meaning"], fmt)
    if fmt in ("csv", "latex", "html"):
        return body
    return (f"{body.rstrip()}\n\nA payline's `when` compares features: `winner == banker and "
            "banker_total != 6`, `player_third in 4..7`, `cards_dealt >= 5`, "
            "`player_first_ranks == {K, 9}`; a true-or-false feature stands alone "
            "(`player_pair`); combine with and, or, not and parentheses. \"needs\": "
            "point values only, or the ranks and suits of the first two cards (slower).\n")


def summary_rows(result: OddsTable) -> list[list[str]]:
    """One row per bet: name, EV, house edge, SD, hit frequency, exact EV (as in nine odds).

    >>> from analyzer.engine.odds import odds
    >>> from analyzer.rules.shoe import Shoe
    >>> summary_rows(odds("punto-banco", Shoe.decks(8)))[0][:3]
    ['Banker', '-0.010579', '1.0579%']
    """
    return [[bet.name, f"{float(bet.ev):+.6f}", percent(bet.house_edge), f"{bet.sd:.4f}",
             percent(bet.hit_frequency, 3), fraction_text(bet.ev)] for bet in result.bets]
