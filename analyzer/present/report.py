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

from analyzer.engine.odds import BetOdds, OddsTable
from analyzer.errors import AnalyzerError

__all__ = ["COUNTER_RULE", "draw_text", "DYNAMICS_METHOD", "equilibrium_json", "FORMATS",
           "formula_json", "fraction_text", "odds_json", "payout_json", "payout_text", "percent",
           "removal_json", "render_equilibrium", "render_evaluation", "render_formula",
           "render_junit", "render_odds", "render_payout", "render_profiles", "render_removal",
           "render_session", "render_shoe", "render_strategy_card", "render_table_report",
           "render_verdict", "session_json", "shoe_json", "stable_floats", "summary_rows", "table",
           "table_report_json", "verdict_json"]

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


# -- choice games: equilibria, evaluations, strategy cards --------------------------
def draw_text(draw: Fraction, relevant: bool = True) -> str:
    """A draw probability as a table instruction: ``draw``, ``stand`` or ``draw 7/12``.

    >>> draw_text(Fraction(1)), draw_text(Fraction(0)), draw_text(Fraction(7, 12))
    ('draw', 'stand', 'draw 7/12')
    >>> draw_text(Fraction(0), relevant=False)
    'any'
    """
    if not relevant:
        return "any"
    if draw == 1:
        return "draw"
    if draw == 0:
        return "stand"
    return f"draw {draw}"


def _observation_header(observation: str) -> str:
    if observation in ("drew", "stood"):
        return f"player {observation}"
    return f"third {'T' if observation == '0' else 'A' if observation == '1' else observation}"


def _banker_grid(choices: Sequence[Any]) -> tuple[list[str], list[list[str]]]:
    """Banker choices as rows (own hand) by columns (what the banker saw)."""
    observations: list[str] = []
    rows: dict[str, list[str]] = {}
    totals: dict[str, int] = {}
    for choice in choices:
        if choice.observation not in observations:
            observations.append(choice.observation)
        rows.setdefault(choice.label, []).append(
            draw_text(choice.draw, choice.relevant) + (" (rule)" if choice.forced else ""))
        totals[choice.label] = choice.total
    headers = ["banker hand", "total", *(_observation_header(o) for o in observations)]
    return headers, [[label, str(totals[label]), *cells] for label, cells in rows.items()]


def _player_rows(choices: Sequence[Any], by: str) -> tuple[list[str], list[list[str]]]:
    headers = ["player hand", "total", "play"] if by == "cards" else ["player total", "play"]
    rows = [([c.label, str(c.total)] if by == "cards" else [c.label]) + [draw_text(c.draw)]
            for c in choices]
    return headers, rows


def equilibrium_json(result: Any) -> dict[str, Any]:
    """The JSON document of ``nine solve --format json``."""
    certificate = result.certificate
    return {
        "profile": result.profile,
        "title": result.title,
        "shoe": result.shoe,
        "by": result.by,
        "method": result.method,
        "rules": getattr(result, "rules_note", ""),
        "value": fraction_text(result.value),
        "value_float": float(result.value),
        "certified": certificate.certified,
        "certificate": {
            "value": fraction_text(result.value),
            "certified": certificate.certified,
            "player": fraction_text(certificate.player_best_response),
            "banker": fraction_text(certificate.banker_best_response),
            "gap": fraction_text(certificate.gap),
        },
        "player": {
            "best_response_value": fraction_text(certificate.player_best_response),
            "strategy": [{"hand": c.label, "total": c.total, "hands": list(c.hands),
                          "draw": fraction_text(c.draw)} for c in result.player],
        },
        "banker": {
            "best_response_value": fraction_text(certificate.banker_best_response),
            "strategy": [{"hand": c.label, "total": c.total, "observation": c.observation,
                          "draw": fraction_text(c.draw), "forced": c.forced,
                          "relevant": c.relevant} for c in result.banker],
        },
    }


def _strategy_csv(player: Sequence[Any], banker: Sequence[Any], extra: list[list[str]]) -> str:
    rows = [["player", c.label, str(c.total), "", fraction_text(c.draw), f"{float(c.draw):.6f}"]
            for c in player]
    rows += [["banker", c.label, str(c.total), c.observation,
              fraction_text(c.draw) if c.relevant else "any", f"{float(c.draw):.6f}"]
             for c in banker]
    return table(extra + rows, ["side", "hand", "total", "banker saw", "draw", "draw_float"],
                 "csv")


def render_equilibrium(result: Any, fmt: str = "text") -> str:
    """Render a certified equilibrium: value, certificate and both sides' draw probabilities."""
    if fmt == "json":
        return json.dumps(equilibrium_json(result), indent=2) + "\n"
    certificate = result.certificate
    if fmt == "csv":
        extra = [["game", "value", "", "", fraction_text(result.value),
                  f"{float(result.value):.10f}"],
                 ["game", "player best response", "", "",
                  fraction_text(certificate.player_best_response),
                  f"{float(certificate.player_best_response):.10f}"],
                 ["game", "banker best response", "", "",
                  fraction_text(certificate.banker_best_response),
                  f"{float(certificate.banker_best_response):.10f}"],
                 ["game", "certified", "", "", str(certificate.certified).lower(), ""]]
        return _strategy_csv(result.player, result.banker, extra)
    title = f"{result.title}: heads-up equilibrium, {result.shoe}, by {result.by}"
    verdict = ("equal: certified equilibrium (zero regret)" if certificate.certified
               else f"NOT equal (gap {certificate.gap}): not certified")
    lines = [
        f"Value for the player, per unit staked: {result.value} ({percent(result.value)})",
        f"Player's best response to the banker's strategy: "
        f"{certificate.player_best_response}",
        f"Banker's best response to the player's strategy: "
        f"{certificate.banker_best_response}",
        f"Certificate: {verdict}",
        f"Method: {result.method}",
        *([f"Rules: {result.rules_note}"] if getattr(result, "rules_note", "") else []),
    ]
    parts = [f"## {title}\n" if fmt == "markdown" else f"{title}\n"]
    parts.append("".join(f"- {line}\n" if fmt == "markdown" else f"{line}\n"
                         for line in lines))
    headers, rows = _player_rows(result.player, result.by)
    parts.append(("### Player\n\n" if fmt == "markdown" else "Player (bank not natural):\n")
                 + table(rows, headers, fmt) + "\n")
    headers, rows = _banker_grid(result.banker)
    parts.append(("### Banker\n\n" if fmt == "markdown" else "Banker:\n")
                 + table(rows, headers, fmt) + "\n")
    return "\n".join(parts)


def render_evaluation(result: Any, fmt: str = "text") -> str:
    """Render ``nine evaluate``: a strategy pair's value, best responses, exploitability."""
    certified = getattr(result, "game_value_certified", True)
    value_label = ("game value (certified equilibrium)" if certified else
                   f"game value (NOT certified: the solver's certificate gap is "
                   f"{fraction_text(result.game_value_gap)})")
    against = "" if certified else " [from an uncertified game value]"
    summary = [
        ["value of the pair", fraction_text(result.value), f"{float(result.value):+.8f}"],
        ["player's best response to the banker", fraction_text(result.player_best_response),
         f"{float(result.player_best_response):+.8f}"],
        ["banker's best response to the player", fraction_text(result.banker_best_response),
         f"{float(result.banker_best_response):+.8f}"],
        [value_label, fraction_text(result.game_value), f"{float(result.game_value):+.8f}"],
        [f"player strategy exploitable by (game value - banker's best response){against}",
         fraction_text(result.player_exploitability),
         f"{float(result.player_exploitability):+.8f}"],
        [f"banker strategy exploitable by (player's best response - game value){against}",
         fraction_text(result.banker_exploitability),
         f"{float(result.banker_exploitability):+.8f}"],
        ["player gains by switching to its best response", fraction_text(result.player_regret),
         f"{float(result.player_regret):+.8f}"],
        ["banker gains by switching to its best response", fraction_text(result.banker_regret),
         f"{float(result.banker_regret):+.8f}"],
    ]
    if fmt == "json":
        return json.dumps({
            "profile": result.profile, "shoe": result.shoe, "by": result.by,
            "value": fraction_text(result.value),
            "player_best_response": fraction_text(result.player_best_response),
            "banker_best_response": fraction_text(result.banker_best_response),
            "game_value": fraction_text(result.game_value),
            "game_value_certified": certified,
            "player_exploitability": fraction_text(result.player_exploitability),
            "banker_exploitability": fraction_text(result.banker_exploitability),
            "player_regret": fraction_text(result.player_regret),
            "banker_regret": fraction_text(result.banker_regret),
            "player_response": [{"hand": c.label, "draw": fraction_text(c.draw)}
                                for c in result.player_response],
            "banker_response": [{"hand": c.label, "observation": c.observation,
                                 "draw": fraction_text(c.draw), "relevant": c.relevant}
                                for c in result.banker_response],
        }, indent=2) + "\n"
    if fmt == "csv":
        return table(summary, ["quantity", "exact", "float"], "csv")
    title = f"{result.profile}: strategy pair on {result.shoe}, by {result.by} (player's values)"
    parts = [f"## {title}\n" if fmt == "markdown" else f"{title}\n",
             table(summary, ["quantity", "exact", "float"], fmt) + "\n"]
    headers, rows = _player_rows(result.player_response, result.by)
    parts.append("Player's best response:\n" + table(rows, headers, fmt) + "\n")
    headers, rows = _banker_grid(result.banker_response)
    parts.append("Banker's best response:\n" + table(rows, headers, fmt) + "\n")
    return "\n".join(parts)


def render_strategy_card(result: Any, fmt: str = "text") -> str:
    """Strategy cards to read at the table: player 'your two cards -> play', banker grid."""
    if fmt == "csv":
        return _strategy_csv(result.player, result.banker, [])
    if fmt not in ("text", "markdown"):
        raise AnalyzerError("strategy cards come in text, markdown or csv")
    parts = []
    heading = f"{result.title} ({result.shoe}, by {result.by}): value {result.value}"
    parts.append(f"## {heading}\n" if fmt == "markdown" else f"{heading}\n")
    headers, rows = _player_rows(result.player, result.by)
    parts.append(("### Player card\n\n" if fmt == "markdown" else "PLAYER CARD\n")
                 + "Your two cards -> what to do (mix p: draw with probability p).\n\n"
                 + table(rows, headers, fmt) + "\n")
    headers, rows = _banker_grid(result.banker)
    parts.append(("### Banker card\n\n" if fmt == "markdown" else "BANKER CARD\n")
                 + "Your two cards x what the player did -> what to do.\n\n"
                 + table(rows, headers, fmt) + "\n")
    return "\n".join(parts)


# -- formulas in the deck count, effects of removal, drift across the shoe ---------

def formula_json(results: Sequence[Any]) -> dict[str, Any]:
    """The JSON document of ``nine formula --format json`` (DeckFormula records)."""
    return {"bets": [{
        "profile": f.profile,
        "bet": f.bet,
        "name": f.bet_name,
        "formula": f.formula,
        "symbol": "d",
        "numerator_coefficients": [fraction_text(c) for c in f.numerator],
        "denominator": "(52*d)*(52*d - 1)*(52*d - 2)*(52*d - 3)*(52*d - 4)*(52*d - 5)",
        "values": [{"decks": d, "ev": fraction_text(ev), "ev_float": float(ev)}
                   for d, ev in f.values],
        "engine": [{"decks": d, "ev": fraction_text(ev), "used_for_fit": d in f.fit_decks}
                   for d, ev in f.engine],
        "fit_decks": list(f.fit_decks),
        "limit": fraction_text(f.limit),
        "limit_float": float(f.limit),
        "infinite_deck_ev": fraction_text(f.infinite_ev),
        "verified": f.verified,
    } for f in results]}


def render_formula(results: Sequence[Any], fmt: str = "text") -> str:
    """Render bets' EV formulas in the number of decks ``d`` with their checks."""
    if fmt == "json":
        return json.dumps(formula_json(results), indent=2) + "\n"
    parts = []
    for f in results:
        engine = dict(f.engine)
        rows = [[str(d), fraction_text(ev), f"{float(ev):+.10f}", percent(-ev),
                 "fit point" if d in f.fit_decks else "yes" if engine.get(d) == ev else "NO"]
                for d, ev in f.values]
        rows.append(["oo", fraction_text(f.limit), f"{float(f.limit):+.10f}", percent(-f.limit),
                     "yes" if f.limit == f.infinite_ev else "NO"])
        heading = f"{f.bet_name} ({f.profile}): EV(d) = {f.formula}"
        if fmt == "markdown":
            heading = f"### {f.bet_name} ({f.profile})\n\n`EV(d) = {f.formula}`"
        if fmt in ("text", "markdown"):
            parts.append(heading + "\n")
        parts.append(table(rows, ["decks", "EV (exact)", "EV", "house edge",
                                  "matches engine"], fmt) + "\n")
        if fmt in ("text", "markdown"):
            fitted = ", ".join(str(d) for d in f.fit_decks)
            checked = ", ".join(str(d) for d in f.checked)
            parts.append(f"Fitted through the exact engine at d = {fitted} (agreement there "
                         f"is by construction); verified against the engine at d = {checked} "
                         f"and against the infinite deck: {'yes' if f.verified else 'NO'}.\n")
    return "\n".join(parts)


def summary_rows(result: OddsTable) -> list[list[str]]:
    """One row per bet: name, EV, house edge, SD, hit frequency, exact EV (as in nine odds).

    >>> from analyzer.engine.odds import odds
    >>> from analyzer.rules.shoe import Shoe
    >>> summary_rows(odds("punto-banco", Shoe.decks(8)))[0][:3]
    ['Banker', '-0.010579', '1.0579%']
    """
    return [[bet.name, f"{float(bet.ev):+.6f}", percent(bet.house_edge), f"{bet.sd:.4f}",
             percent(bet.hit_frequency, 3), fraction_text(bet.ev)] for bet in result.bets]


def payout_json(solution: Any) -> dict[str, Any]:
    """The JSON document of ``nine solve-payout --format json``."""
    return {
        "profile": solution.profile,
        "shoe": solution.shoe,
        "bet": solution.bet_id,
        "line": solution.line + 1,
        "line_name": solution.line_names[solution.line],
        "edge": fraction_text(solution.edge),
        "payout": fraction_text(solution.payout),
        "payout_float": float(solution.payout),
        "feasible": solution.feasible,
        "current_payout": fraction_text(solution.current[solution.line]),
        "current_edge": fraction_text(solution.current_edge),
        "ev_expression": solution.expression,
        "lines": [{"symbol": f"x{i}", "name": name, "pays": fraction_text(pays),
                   "probability": fraction_text(probability)}
                  for i, (name, pays, probability) in enumerate(
                      zip(solution.line_names, solution.current, solution.probabilities,
                          strict=True), start=1)],
        "lose_probability": fraction_text(solution.lose_probability),
        "reordered": solution.reordered,
        **({"illustrative": solution.illustrative} if solution.illustrative else {}),
    }


def render_payout(solution: Any, fmt: str = "text") -> str:
    """Render a solved payout (:class:`analyzer.analysis.payout.PayoutSolution`) in any format."""
    if fmt == "json":
        return json.dumps(payout_json(solution), indent=2) + "\n"
    name = solution.line_names[solution.line]
    summary = [
        ["profile", solution.profile], ["shoe", solution.shoe],
        ["bet", f"{solution.bet_name} ({solution.bet_id})"],
        ["line", f"x{solution.line + 1}: {name}"],
        ["target house edge", f"{percent(solution.edge)} ({fraction_text(solution.edge)})"],
        ["payout (exact)", f"{fraction_text(solution.payout)}:1"],
        ["payout", f"{float(solution.payout):.6f}:1" + (
            "" if solution.feasible else " (negative: no payout reaches this edge)")],
        ["current payout", payout_text(solution.current[solution.line])],
        ["current house edge", percent(solution.current_edge)],
        ["EV", solution.latex if fmt == "latex" else solution.expression],
    ]
    lines = [[f"x{i}", line, payout_text(pays) if i - 1 != solution.line else "solved",
              fraction_text(probability), f"{float(probability):.10f}"]
             for i, (line, pays, probability) in enumerate(
                 zip(solution.line_names, solution.current, solution.probabilities,
                     strict=True), start=1)]
    lines.append(["", "Loses", "-1", fraction_text(solution.lose_probability),
                  f"{float(solution.lose_probability):.10f}"])
    headers = ["symbol", "line", "pays", "probability (exact)", "probability"]
    if fmt == "csv":
        return table(summary, ["field", "value"], "csv") + table(lines, headers, "csv")
    if solution.reordered:
        summary.append(["note", "the solved payout changes which line pays (only the highest "
                        "holding line pays); probabilities below are at the solved payout"])
    parts = []
    if solution.illustrative:
        parts.append(f"ILLUSTRATIVE: {solution.illustrative}\n")
    parts.append(table(summary, ["field", "value"], fmt) + "\n")
    parts.append(table(lines, headers, fmt) + "\n")
    return "\n".join(parts)


def _per_card_percent(value: Fraction | float) -> str:
    return f"{float(value) * 100:+.5f}"


def stable_floats(document: Any, digits: int = 10) -> Any:
    """Round every float in a JSON document to ``digits`` significant digits.

    Floats from sampled or summed-in-floating-point figures (correlations, mean EVs across
    simulated shoes) differ in their last bits between BLAS builds and CPUs; published
    tables must not. Exact values are ``"p/q"`` strings and are untouched.

    >>> stable_floats({"r": 0.8877379221210343, "x": [1.0000000000000002, "1/3"]})
    {'r': 0.8877379221, 'x': [1.0, '1/3']}
    """
    if isinstance(document, float):
        return float(f"{document:.{digits}g}")
    if isinstance(document, dict):
        return {key: stable_floats(value, digits) for key, value in document.items()}
    if isinstance(document, list | tuple):
        return [stable_floats(value, digits) for value in document]
    return document


def removal_json(result: Any) -> dict[str, Any]:
    """The JSON document of ``nine eor --format json`` (a RemovalTable)."""
    def groups(items: Sequence[Any]) -> list[dict[str, Any]]:
        return [{"kind": g.kind, "label": g.label,
                 "effects": {bet: fraction_text(e) for bet, e in
                             zip(result.bet_ids, g.effects, strict=True)},
                 "per_card_percent": {bet: float(e) * 100 for bet, e in
                                      zip(result.bet_ids, g.effects, strict=True)}}
                for g in items]
    return {
        "profile": result.profile, "shoe": result.shoe, "decks": result.decks,
        "base_ev": {bet: fraction_text(e) for bet, e in zip(result.bet_ids, result.base_ev,
                                                            strict=True)},
        "ranks": groups(result.ranks),
        "suits": groups(result.suits) if result.reads_suits else [],
        "colours": groups(result.colours) if result.reads_suits else [],
        "counts": [{"bet": c.bet, "tags": list(c.tags), "tags_text": c.describe(),
                    "level": c.level, "balanced": c.balanced,
                    "effect_correlation": c.effect_correlation,
                    "ev_correlation": None if c.ev_correlation != c.ev_correlation
                    else c.ev_correlation,
                    "ideal_ev_correlation": None if c.ideal_ev_correlation
                    != c.ideal_ev_correlation else c.ideal_ev_correlation,
                    "samples": c.samples} for c in result.counts],
    }


def render_removal(result: Any, fmt: str = "text") -> str:
    """Render effects of removal (per card, percent) and the best linear counts."""
    if fmt == "json":
        return json.dumps(stable_floats(removal_json(result)), indent=2) + "\n"
    parts = []
    if fmt in ("text", "markdown"):
        parts.append(f"{result.title}: effects of removing one card from {result.shoe} "
                     "(change in EV per card, percent; exact fractions in JSON)\n")
    groups = list(result.ranks)
    if result.reads_suits:
        groups += list(result.suits) + list(result.colours)
    headers = ["bet", "EV %", *(g.label for g in groups)]
    rows = [[name, _per_card_percent(base), *(_per_card_percent(g.effects[j]) for g in groups)]
            for j, (name, base) in enumerate(zip(result.bet_names, result.base_ev,
                                                 strict=True))]
    parts.append(table(rows, headers, fmt) + "\n")
    count_rows = [[c.name, c.describe(), str(c.level), "yes" if c.balanced else "no",
                   f"{c.effect_correlation:.3f}",
                   "-" if c.ev_correlation != c.ev_correlation else f"{c.ev_correlation:.3f}",
                   "-" if c.ideal_ev_correlation != c.ideal_ev_correlation
                   else f"{c.ideal_ev_correlation:.3f}"] for c in result.counts]
    parts.append(table(count_rows, ["bet", "best linear count (tags)", "level", "balanced",
                                    "corr. with effects", "true count vs exact EV",
                                    "ideal tags vs exact EV"], fmt) + "\n")
    if fmt in ("text", "markdown") and result.counts:
        parts.append(f"Correlations over {result.counts[0].samples:,} seeded depleted shoes "
                     "(10%-85% dealt), true count = running count / decks left.\n")
    return "\n".join(parts)


#: What ``nine shoe``'s counter knows and how its yield is counted.
COUNTER_RULE = ("bets one unit only when the EV computed from the cards it has seen is "
                "positive (the exposed first card and the previous hands; cards burned face "
                "down stay hidden) and is credited the true EV of the hands it bets")


def shoe_json(result: Any) -> dict[str, Any]:
    """The JSON document of ``nine shoe --format json`` (a ShoeRun)."""
    return {
        "profile": result.profile, "decks": result.decks, "shoes": result.shoes,
        "seed": result.seed, "procedure": result.procedure, "method": result.method,
        "hands_dealt": result.hands_dealt, "seconds": result.seconds,
        "bets": [{
            "bet": b.bet, "name": b.name, "window": b.window,
            "full_shoe_ev": fraction_text(b.full_shoe_ev),
            "mean_ev_all": b.mean_ev_all, "mean_ev_in_window": b.mean_ev_in_window,
            "mean_ev_after_window": b.mean_ev_after_window,
            "counter": {"rule": COUNTER_RULE,
                        "bets_per_shoe": b.counter_bets_per_shoe,
                        "units_per_shoe": b.counter_units_per_shoe,
                        "yield_per_unit": b.counter_yield,
                        "bets_per_shoe_window": b.counter_bets_per_shoe_window,
                        "units_per_shoe_window": b.counter_units_per_shoe_window,
                        "yield_per_unit_window": b.counter_yield_window,
                        "share_removed_by_window": b.protected_share},
            "by_hand": [{"hand": h + 1, "shoes": b.reached[h], "mean": b.mean[h],
                         "p5": b.p5[h], "p50": b.p50[h], "p95": b.p95[h],
                         "share_positive": b.positive[h]} for h in range(len(b.mean))],
        } for b in result.bets],
    }


def render_shoe(result: Any, fmt: str = "text", every: int = 10) -> str:
    """Render a shoe run: per-bet summary, the windows' protection, EV by hand number."""
    if fmt == "json":
        return json.dumps(stable_floats(shoe_json(result)), indent=2) + "\n"
    parts = []
    if fmt in ("text", "markdown"):
        mean_hands = result.hands_dealt / result.shoes
        parts.append(f"{result.title}: {result.shoes:,} shoes of {result.decks} decks, seed "
                     f"{result.seed}; {result.hands_dealt:,} hands ({mean_hands:.1f} per shoe)"
                     f" evaluated exactly before dealing, in {result.seconds:.1f} s.\n"
                     f"Procedure: {result.procedure}.\nEvaluation: {result.method}.\n"
                     f"Counter: {COUNTER_RULE}.\n")
    rows = []
    for b in result.bets:
        window = "-" if b.window is None else str(b.window)
        after = "-" if b.mean_ev_after_window is None else percent(-b.mean_ev_after_window, 3)
        rows.append([b.name, window, percent(-b.full_shoe_ev, 3), percent(-b.mean_ev_all, 3),
                     after, f"{b.counter_bets_per_shoe:.2f}",
                     f"{b.counter_units_per_shoe:+.4f}", f"{b.counter_yield * 100:+.2f}%",
                     f"{b.counter_bets_per_shoe_window:.2f}",
                     f"{b.counter_units_per_shoe_window:+.4f}",
                     f"{b.protected_share * 100:.0f}%" if b.window is not None else "-"])
    parts.append(table(rows, ["bet", "window", "edge full shoe", "edge mean all hands",
                              "edge after window", "seen EV>0 hands/shoe",
                              "counter units/shoe",
                              "counter yield", "seen EV>0 in window", "units in window",
                              "gain removed"], fmt) + "\n")
    windowed = [b for b in result.bets if b.window is not None]
    if windowed and fmt in ("text", "markdown"):
        total = sum(b.counter_units_per_shoe for b in windowed)
        kept = sum(b.counter_units_per_shoe_window for b in windowed)
        flat = sum(b.counter_units_per_shoe for b in result.bets if b.window is None)
        parts.append(
            "What the windows protect: a player who bets one unit on every windowed bet "
            "only when the EV computed from the cards it has seen is positive (the exposed "
            "first card and the previous hands; the cards burned face down stay hidden) "
            f"would expect {total:+.4f} units per shoe without windows and {kept:+.4f} with "
            f"them ({(1 - kept / total) * 100 if total else 0:.0f}% of the advantage "
            "removed), counting the true EV of the hands it bets. A flat bettor's expected "
            "edge barely moves across the shoe (before any cards are seen the next hand is a "
            "uniform draw from the full shoe; the edge columns differ from the full shoe by "
            "sampling noise and, on late hands, by the cut card: a late hand is reached only "
            "when the earlier hands used few cards, which slightly favours some "
            "compositions); what the windows cut off is the late shoe, where the "
            "composition has drifted most and positive-EV hands concentrate, i.e. the "
            "selective (counting) player's gain. "
            f"Unwindowed bets leave {flat:+.4f} units per shoe to the same player.\n")
    by_hand = []
    for b in result.bets:
        for h in range(0, len(b.mean), every):
            by_hand.append([b.name, str(h + 1), str(b.reached[h]), f"{b.mean[h]:+.5f}",
                            f"{b.p5[h]:+.5f}", f"{b.p50[h]:+.5f}", f"{b.p95[h]:+.5f}",
                            f"{b.positive[h] * 100:.1f}%",
                            "open" if b.window is None or h + 1 <= b.window else "closed"])
    parts.append(table(by_hand, ["bet", "hand", "shoes", "mean EV", "5th pct", "median",
                                 "95th pct", "EV > 0", "window"], fmt) + "\n")
    return "\n".join(parts)


# -- tables of several players, sessions ---------------------------------
def _exact_cell(value: Fraction) -> list[str]:
    return [fraction_text(value), f"{float(value):+.8f}"]


#: How :func:`analyzer.choice.table.dynamics` moves (it is not Brown's fictitious play).
DYNAMICS_METHOD = ("sequential best responses (seats in order to the newest responses, then "
                   "the banker to all of them), each side then moving to the running average "
                   "of its responses; exact regrets")


def table_report_json(result: Any) -> dict[str, Any]:
    """The JSON document of ``nine solve --players N`` (N >= 2)."""
    document: dict[str, Any] = {
        "profile": result.title, "shoe": result.shoe, "model": result.model,
        "players": result.players, "by": result.by, "start": result.start,
    }
    if result.estimates:
        document["estimate"] = True
        document["seat_values"] = [{"seat": i + 1, "estimate": e.mean,
                                    "ci95_half_width": e.half_width, "hands": e.hands}
                                   for i, e in enumerate(result.estimates)]
        return document
    document["estimate"] = False
    document["seat_values"] = [{"seat": i + 1, "value": fraction_text(v)}
                               for i, v in enumerate(result.values.players)]
    document["banker_value"] = fraction_text(result.values.banker)
    document["banker_best_response_value"] = fraction_text(result.banker_best_response)
    found = result.dynamics
    document["dynamics"] = {
        "method": DYNAMICS_METHOD,
        "strategies": ("players: own hand and the earlier seats' choices" if found.informed
                       else "players: own hand only") + "; banker: own hand and every choice",
        "players_informed": found.informed,
        "player_strategies_use_earlier_choices": [
            bool(getattr(p, "uses_earlier_choices", False)) for p in found.plans],
        "regrets_over": "full information sets (players: own hand and the earlier seats' "
                        "choices; banker: own hand and every choice)",
        "rounds": found.rounds,
        "equilibrium": found.equilibrium,
        "seat_values": [fraction_text(v) for v in found.values.players],
        "banker_value": fraction_text(found.values.banker),
        "player_regrets": [fraction_text(r) for r in found.regrets.players],
        "player_regrets_own_hand_only": ([fraction_text(r) for r in found.regrets.own_hand]
                                         if found.regrets.own_hand else None),
        "banker_regret": fraction_text(found.regrets.banker),
        "largest_regret": fraction_text(found.regrets.largest),
        "history": [fraction_text(h) for h in found.history],
    }
    return document


def render_table_report(result: Any, fmt: str = "text") -> str:
    """Render ``nine solve --players N``: seat values, banker's best response, dynamics."""
    if fmt == "json":
        return json.dumps(table_report_json(result), indent=2) + "\n"
    headers = ["quantity", "exact", "float"]
    if result.estimates:
        rows = [[f"seat {i + 1} value (estimate)", f"{e.mean:+.5f} +/- {e.half_width:.5f}",
                 f"{e.mean:+.8f}"] for i, e in enumerate(result.estimates)]
        banker = -sum(e.mean for e in result.estimates)
        rows.append(["banker net (estimate, minus the seats' sum)", f"{banker:+.5f}",
                     f"{banker:+.8f}"])
        headers = ["quantity", "estimate +/- 95% half-width", "float"]
    else:
        rows = [[f"seat {i + 1} value (start)", *_exact_cell(v)]
                for i, v in enumerate(result.values.players)]
        rows.append(["banker net (start)", *_exact_cell(result.values.banker)])
        rows.append(["banker's best response net", *_exact_cell(result.banker_best_response)])
        found = result.dynamics
        rows += [[f"seat {i + 1} value (dynamics)", *_exact_cell(v)]
                 for i, v in enumerate(found.values.players)]
        rows.append(["banker net (dynamics)", *_exact_cell(found.values.banker)])
        rows += [[f"seat {i + 1} regret (own hand + earlier choices)", *_exact_cell(r)]
                 for i, r in enumerate(found.regrets.players)]
        rows += [[f"seat {i + 1} regret within own-hand strategies", *_exact_cell(r)]
                 for i, r in enumerate(found.regrets.own_hand)]
        rows.append(["banker regret", *_exact_cell(found.regrets.banker)])
    if fmt == "csv":
        return table(rows, headers, "csv")
    title = (f"{result.title}: {result.players} players and the banker, {result.shoe}, "
             f"by {result.by} ({result.model})")
    lines = [f"Start: {result.start}", "Values are each player's result per unit staked; "
             "the banker covers every stake."]
    if result.dynamics is not None:
        found = result.dynamics
        verdict = ("zero regret for every side over its full information sets: an exact "
                   "equilibrium" if found.equilibrium
                   else f"not an equilibrium: largest regret {found.regrets.largest} "
                        f"({float(found.regrets.largest):.3g})")
        lines.append(f"Dynamics: {DYNAMICS_METHOD}; {found.rounds} round(s); {verdict}")
        if found.informed:
            lines.append("Strategies: players see their own hand and the earlier seats' "
                         "choices (RULES.md section 4), the banker its own hand and every "
                         "choice. Regrets are over those full information sets.")
        else:
            lines.append("Strategies: players see their own hand only, the banker its own "
                         "hand and every choice. Regrets: a player's best response also sees "
                         "the earlier seats' choices (RULES.md section 4); 'within own-hand "
                         "strategies' is the restricted figure.")
    else:
        lines.append("ESTIMATE: seeded simulation with 95% confidence intervals, not exact")
    heading = f"## {title}\n" if fmt == "markdown" else f"{title}\n"
    body = "".join(f"- {line}\n" if fmt == "markdown" else f"{line}\n" for line in lines)
    return f"{heading}{body}\n{table(rows, headers, fmt)}\n"


def session_json(result: Any) -> dict[str, Any]:
    """The JSON document of ``nine session``."""
    expected = result.expectation
    return {
        "people": list(result.people), "rotations": result.rotations, "seed": result.seed,
        "stake": result.stake, "shoe": result.shoe,
        "ledger": [{"hand": line.hand, "banker": line.banker, "results": list(line.results),
                    "balances": list(line.balances)} for line in result.ledger],
        "balances": list(result.balances), "leaders": list(result.leaders),
        "expected": None if expected is None else {
            "label": expected.label, "model": expected.model,
            "nets": [fraction_text(v) if expected.exact else float(v) for v in expected.nets],
            "ci95_half_widths": [float(w) for w in expected.half_widths]
            if not expected.exact else None},
    }


def render_session(result: Any, fmt: str = "text") -> str:
    """Render ``nine session``: the ledger, balances, leaders and expected nets."""
    if fmt == "json":
        return json.dumps(session_json(result), indent=2) + "\n"
    people = list(result.people)
    headers = ["hand", "banker", *people]
    rows = [[str(line.hand), line.banker,
             *(f"{r:+d} ({b:+d})" for r, b in zip(line.results, line.balances, strict=True))]
            for line in result.ledger]
    if fmt == "csv":
        rows = [[str(line.hand), line.banker, *(str(r) for r in line.results)]
                for line in result.ledger]
        rows.append(["total", "", *(str(b) for b in result.balances)])
        return table(rows, headers, "csv")
    expected = result.expectation
    summary = [["balance", *(f"{b:+d}" for b in result.balances)]]
    if expected is not None:
        summary.append([f"expected net ({expected.label})",
                        *(f"{float(v):+.4f}" + (f" +/- {float(w):.4f}" if not expected.exact
                                                 else "")
                          for v, w in zip(expected.nets, expected.half_widths
                                          or expected.nets, strict=True))])
        if expected.exact:
            summary.append(["expected net, exact", *(fraction_text(v) for v in expected.nets)])
    title = (f"Session: {len(people)} people, {result.rotations} rotation(s) "
             f"({len(result.ledger)} hands), {result.shoe}, seed {result.seed}, stake "
             f"{result.stake}")
    heading = f"## {title}\n" if fmt == "markdown" else f"{title}\n"
    note = ("Ledger: each person's result for the hand (running balance); the bank passes "
            "to the right after every hand.\n")
    leaders = ", ".join(result.leaders)
    tail = f"Leader{'s share' if len(result.leaders) > 1 else ''}: {leaders}\n"
    if expected is not None:
        tail += f"Expected nets: {expected.model}\n"
    return (f"{heading}{note}\n{table(rows, headers, fmt)}\n\n"
            f"{table(summary, ['', *people], fmt)}\n\n{tail}")


# -- nine verify ---------------------------------------------------------------------------
def _p_text(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"


def verdict_json(verdict: Any) -> dict[str, Any]:
    """The JSON document of ``nine verify --format json`` (a ``Verdict``)."""

    def issue(item: Any) -> dict[str, Any]:
        return {"file": item.source, "line": item.line, "shoe": item.shoe, "hand": item.hand,
                "kind": item.kind, "message": item.message}

    return {
        "status": verdict.status,
        "exit_code": verdict.exit_code,
        "profile": verdict.profile,
        "decks": verdict.decks,
        "model": verdict.model,
        "alpha": verdict.alpha,
        "detect": verdict.detect,
        "files": list(verdict.sources),
        "hands": verdict.hands,
        "shoes": verdict.shoes,
        "whole_shoes": verdict.whole_shoes,
        "shoe_aware_hands": verdict.shoe_aware_hands,
        "malformed": {"count": verdict.malformed_count,
                      "listed": [issue(i) for i in verdict.malformed]},
        "violations": {"count": verdict.violation_count,
                       "by_kind": dict(verdict.violation_kinds),
                       "listed": [issue(i) for i in verdict.violations]},
        "tests": [{"name": t.name, "bet": t.bet, "method": t.method, "statistic": t.statistic,
                   "df": t.df, "p_value": t.p_value, "holm_adjusted_p": t.adjusted,
                   "passed": t.passed, **({"note": t.note} if t.note else {})}
                  for t in verdict.tests],
        "bets": [{"id": b.id, "name": b.name, "hands": b.hands, "basis": b.basis,
                  "rtp": b.rtp, "expected_rtp": b.expected_rtp, "z": b.z,
                  "confidence_interval": [b.ci_low, b.ci_high],
                  "detectable_rtp_error": b.detectable_error, "hands_needed": b.hands_needed,
                  "underpowered": b.underpowered,
                  "results": [{"result": name, "observed": n,
                               "expected": None if e != e else e}  # NaN: not modelled
                              for name, n, e in b.lines]}
                 for b in verdict.bets],
        "underpowered": verdict.underpowered,
        "unsupported": list(verdict.unsupported),
        "notes": list(verdict.notes),
    }


def render_verdict(verdict: Any, fmt: str = "text") -> str:
    """Render the outcome of ``nine verify`` as text, markdown or JSON."""
    if fmt == "json":
        return json.dumps(verdict_json(verdict), indent=2) + "\n"
    if fmt not in ("text", "markdown"):
        raise AnalyzerError(f"nine verify renders text, markdown or json, not {fmt!r}")
    heading = (f"nine verify: {verdict.status.upper()} (exit {verdict.exit_code}) - "
               f"{verdict.profile}, {verdict.decks} decks, {verdict.model} model")
    parts = [f"## {heading}\n" if fmt == "markdown" else f"{heading}\n"]
    parts.append(f"{verdict.hands:,} hands in {verdict.shoes:,} shoes "
                 f"({verdict.whole_shoes:,} whole) from {len(verdict.sources)} file(s); "
                 f"alpha {verdict.alpha:g} (Holm across {len(verdict.tests)} tests); "
                 f"detect target {verdict.detect:g} RTP.\n")
    for label, count, items in (("Malformed records", verdict.malformed_count,
                                 verdict.malformed),
                                ("Rule and payout violations", verdict.violation_count,
                                 verdict.violations)):
        if not count:
            parts.append(f"{label}: none.\n")
            continue
        shown = f" (first {len(items)} listed)" if len(items) < count else ""
        parts.append(f"{label}: {count:,}{shown}.\n")
        rows = [[i.where(), i.kind, i.message] for i in items]
        parts.append(table(rows, ["where", "kind", "problem"], fmt) + "\n")
    if verdict.violation_kinds:
        parts.append("Violations by kind: " + ", ".join(
            f"{k} {n:,}" for k, n in verdict.violation_kinds) + "\n")
    if verdict.tests:
        rows = [[t.bet or "cards", t.name, t.method, f"{t.statistic:.4g}",
                 "" if t.df is None else str(t.df), _p_text(t.p_value), _p_text(t.adjusted),
                 "pass" if t.passed else "FAIL"] for t in verdict.tests]
        parts.append(table(rows, ["bet", "test", "method", "statistic", "df", "p",
                                  "Holm p", "verdict"], fmt) + "\n")
    if verdict.bets:
        rows = [[b.name, f"{b.hands:,}", b.basis, percent(b.rtp, 3), percent(b.expected_rtp, 3),
                 f"{b.z:+.2f}", f"{percent(b.ci_low, 3)} .. {percent(b.ci_high, 3)}",
                 percent(b.detectable_error, 3), f"{b.hands_needed:,}",
                 "UNDERPOWERED" if b.underpowered else "ok"] for b in verdict.bets]
        parts.append(table(rows, ["bet", "hands", "RTP from", "RTP", "exact RTP", "z",
                                  f"{(1 - verdict.alpha) * 100:g}% CI", "detectable error",
                                  "hands needed", "power"], fmt) + "\n")
    for item in verdict.unsupported:
        parts.append(f"Not checked (input cannot support it): {item}\n")
    for note in verdict.notes:
        parts.append(f"Note: {note}\n")
    return "\n".join(parts)


def render_junit(verdict: Any) -> str:
    """A JUnit XML report of ``nine verify``: one test case per check, for CI dashboards."""
    from xml.sax.saxutils import quoteattr

    cases: list[str] = []

    def case(name: str, failure: str = "", skipped: str = "") -> None:
        body = ""
        if failure:
            body = f"<failure message={quoteattr(failure)}/>"
        elif skipped:
            body = f"<skipped message={quoteattr(skipped)}/>"
        cases.append(f'    <testcase classname="nine.verify" name={quoteattr(name)}>'
                     f"{body}</testcase>")

    case("input", f"{verdict.malformed_count} malformed record(s); first: "
                  f"{verdict.malformed[0].where()} {verdict.malformed[0].message}"
         if verdict.malformed else ("no hands" if verdict.hands == 0 else ""))
    case("replay", f"{verdict.violation_count} violation(s); first: "
                   f"{verdict.violations[0].where()} {verdict.violations[0].message}"
         if verdict.violations else "")
    for t in verdict.tests:
        case(f"{t.bet or 'cards'}: {t.name}",
             "" if t.passed else f"{t.method}: statistic {t.statistic:.4g}, p {t.p_value:.3g}, "
                                 f"Holm p {t.adjusted:.3g} < alpha {verdict.alpha:g}")
    for b in verdict.bets:
        message = (f"detectable RTP error {b.detectable_error:.4%} > target "
                   f"{verdict.detect:.4%}; needs {b.hands_needed:,} hands")
        if b.underpowered and verdict.require_power:
            case(f"{b.id}: power", message)
        else:
            case(f"{b.id}: power", skipped=message if b.underpowered else "")
    failures = sum("<failure" in c for c in cases)
    skipped = sum("<skipped" in c for c in cases)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuite name="nine verify" tests="{len(cases)}" failures="{failures}" '
            f'skipped="{skipped}" errors="0">\n' + "\n".join(cases) + "\n</testsuite>\n")
