"""Rendering the choice games: heads-up equilibria and strategy cards (``nine solve``),
strategy pairs (``nine evaluate``), tables of several players (``nine solve --players N``)
and rotating-bank sessions (``nine session``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.present.report.common import fraction_text, json_text, percent, table

__all__ = ["draw_text", "DYNAMICS_METHOD", "equilibrium_json", "render_equilibrium",
           "render_evaluation", "render_session", "render_strategy_card",
           "render_table_report", "session_json", "table_report_json"]


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
    """The JSON document of ``nine solve --format json``: heads-up, solved and certified at
    the shoe asked for (``solved_at`` and ``values_at`` are ``shoe``)."""
    certificate = result.certificate
    return {
        "profile": result.profile,
        "title": result.title,
        "shoe": result.shoe,
        "solved_at": result.shoe,
        "values_at": result.shoe,
        "exact": True,
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
            "value": fraction_text(-result.value),
            "per_stake": fraction_text(-result.value),
            "strategy": [{"hand": c.label, "total": c.total, "observation": c.observation,
                          "draw": fraction_text(c.draw), "forced": c.forced,
                          "relevant": c.relevant} for c in result.banker],
        },
        # The fields every table size shares (nine solve --players N --format json).
        "max_regret": fraction_text(max(certificate.player_best_response - result.value,
                                        result.value - certificate.banker_best_response)),
        "seats": [{"seat": 1, "value": fraction_text(result.value),
                   "value_float": float(result.value),
                   "strategy": [{"hand": c.label, "total": c.total, "hands": list(c.hands),
                                 "draw": fraction_text(c.draw)} for c in result.player]}],
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
        return json_text(equilibrium_json(result))
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
        return json_text({
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
        })
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
        return json_text(table_report_json(result))
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
                         "choices (docs/rules/lucky9-home.md §7), the banker its own hand and "
                         "every choice. Regrets are over those full information sets.")
        else:
            lines.append("Strategies: players see their own hand only, the banker its own "
                         "hand and every choice. Regrets: a player's best response also sees "
                         "the earlier seats' choices (docs/rules/lucky9-home.md §7); 'within "
                         "own-hand strategies' is the restricted figure.")
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
        return json_text(session_json(result))
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
                        *(f"{float(v):+.4f}" + (f" +/- {float(w):.4f}" + (
                            " (not resolved)" if abs(v) <= w else "")
                            if not expected.exact else "")
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
        if not expected.exact and any(abs(v) <= w for v, w in zip(
                expected.nets, expected.half_widths, strict=False)):
            tail += ("An estimate marked 'not resolved' lies within its 95% interval of 0: the "
                     "simulation cannot tell its sign; the infinite deck is exact.\n")
    return (f"{heading}{note}\n{table(rows, headers, fmt)}\n\n"
            f"{table(summary, ['', *people], fmt)}\n\n{tail}")
