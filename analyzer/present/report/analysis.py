"""Rendering the analyses over the exact engine: EV formulas in the deck count (``nine
formula``), solved payouts (``nine solve-payout``), effects of removal (``nine eor``) and
odds across the shoe (``nine shoe``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.present.report.common import fraction_text, json_text, payout_text, percent, table

if TYPE_CHECKING:
    from analyzer.analysis.drift import ShoeRun
    from analyzer.analysis.formula import DeckFormula
    from analyzer.analysis.payout import PayoutEdge, PayoutEdges, PayoutSolution
    from analyzer.analysis.removal import RemovalGroup, RemovalTable

__all__ = ["COUNTER_RULE", "formula_json", "payout_edges_json", "payout_json", "removal_json",
           "render_formula", "render_payout", "render_payout_edges", "render_removal",
           "render_shoe", "shoe_json"]


def formula_json(results: Sequence[DeckFormula]) -> dict[str, Any]:
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


def render_formula(results: Sequence[DeckFormula], fmt: str = "text") -> str:
    """Render bets' EV formulas in the number of decks ``d`` with their checks."""
    if fmt == "json":
        return json_text(formula_json(results))
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


def _edge_rows(rows: Sequence[PayoutEdge], marks: bool = True) -> list[list[str]]:
    return [[payout_text(r.payout), f"{fraction_text(r.payout)}:1", fraction_text(r.edge),
             percent(r.edge), *([r.mark] if marks else [])] for r in rows]


_EDGE_HEADERS = ["payout", "payout (exact)", "house edge (exact)", "house edge", ""]


def _edges_json(rows: Sequence[PayoutEdge]) -> list[dict[str, Any]]:
    return [{"payout": fraction_text(r.payout), "payout_text": payout_text(r.payout),
             "edge": fraction_text(r.edge), "edge_float": float(r.edge), "mark": r.mark or None}
            for r in rows]


def payout_edges_json(result: PayoutEdges) -> dict[str, Any]:
    """The JSON document of ``nine solve-payout --payouts ... --format json``."""
    return {"profile": result.profile, "shoe": result.shoe, "bet": result.bet_id,
            "line": result.line + 1, "line_name": result.line_name,
            "current_payout": fraction_text(result.current),
            "current_edge": fraction_text(result.current_edge),
            "payouts": _edges_json(result.rows)}


def render_payout_edges(result: PayoutEdges, fmt: str = "text") -> str:
    """``nine solve-payout --payouts``: the bet's exact house edge at each given payout."""
    if fmt == "json":
        return json_text(payout_edges_json(result))
    body = table(_edge_rows(result.rows, marks=False), _EDGE_HEADERS[:-1], fmt)
    if fmt == "csv":
        return body
    return (f"{result.bet_name} ({result.bet_id}), line {result.line + 1}: {result.line_name}; "
            f"{result.profile}, {result.shoe}; now {payout_text(result.current)}, house edge "
            f"{percent(result.current_edge)}\n\n{body}\n")


def payout_json(solution: PayoutSolution) -> dict[str, Any]:
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
        "neighbours": _edges_json(solution.neighbours),
        **({"illustrative": solution.illustrative} if solution.illustrative else {}),
    }


def render_payout(solution: PayoutSolution, fmt: str = "text") -> str:
    """Render a solved payout (:class:`analyzer.analysis.payout.PayoutSolution`) in any format."""
    if fmt == "json":
        return json_text(payout_json(solution))
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
    if solution.neighbours:
        parts.append("Whole and half payouts around it, each with its exact house edge:\n\n"
                     + table(_edge_rows(solution.neighbours), _EDGE_HEADERS, fmt) + "\n")
    parts.append(table(lines, headers, fmt) + "\n")
    return "\n".join(parts)


def _per_card_percent(value: Fraction | float) -> str:
    return f"{float(value) * 100:+.5f}"


def removal_json(result: RemovalTable) -> dict[str, Any]:
    """The JSON document of ``nine eor --format json`` (a RemovalTable)."""
    def groups(items: Sequence[RemovalGroup]) -> list[dict[str, Any]]:
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


def render_removal(result: RemovalTable, fmt: str = "text") -> str:
    """Render effects of removal (per card, percent) and the best linear counts."""
    if fmt == "json":
        return json_text(removal_json(result), digits=10)
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


def shoe_json(result: ShoeRun) -> dict[str, Any]:
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


def render_shoe(result: ShoeRun, fmt: str = "text", every: int = 10) -> str:
    """Render a shoe run: per-bet summary, the windows' protection, EV by hand number."""
    if fmt == "json":
        return json_text(shoe_json(result), digits=10)
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
