"""Rendering the choice games: heads-up equilibria and strategy cards (``nine solve``),
strategy pairs (``nine evaluate``) and rotating-bank sessions (``nine session``); whole
tables are :mod:`analyzer.present.report.lucky9`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError
from analyzer.present.report.common import fraction_text, json_text, percent, table

if TYPE_CHECKING:
    from analyzer.choice.headsup.solver import BankerChoice, Equilibrium, Evaluation, PlayerChoice
    from analyzer.choice.play.session import Session

__all__ = ["draw_text", "equilibrium_json", "render_equilibrium", "render_evaluation",
           "render_session", "render_strategy_card", "session_json"]


def draw_text(draw: Fraction, relevant: bool = True) -> str:
    """A draw probability as a table instruction: ``draw``, ``stand`` or ``draw 7/12`` with
    its percentage.

    >>> draw_text(Fraction(1)), draw_text(Fraction(0)), draw_text(Fraction(7, 12))
    ('draw', 'stand', 'draw 7/12 (58.3%)')
    >>> draw_text(Fraction(0), relevant=False)
    'any'
    """
    if not relevant:
        return "any"
    if draw == 1:
        return "draw"
    if draw == 0:
        return "stand"
    return f"draw {draw} ({percent(draw, 1)})"


def _observation_header(observation: str) -> str:
    if observation in ("drew", "stood"):
        return f"player {observation}"
    return f"third {'T' if observation == '0' else 'A' if observation == '1' else observation}"


def _banker_grid(choices: Sequence[BankerChoice]) -> tuple[list[str], list[list[str]]]:
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


def _player_rows(choices: Sequence[PlayerChoice], by: str) -> tuple[list[str], list[list[str]]]:
    headers = ["player hand", "total", "play"] if by == "cards" else ["player total", "play"]
    rows = [([c.label, str(c.total)] if by == "cards" else [c.label]) + [draw_text(c.draw)]
            for c in choices]
    return headers, rows


def equilibrium_json(result: Equilibrium) -> dict[str, Any]:
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


def _strategy_csv(player: Sequence[PlayerChoice], banker: Sequence[BankerChoice],
                  extra: list[list[str]]) -> str:
    rows = [["player", c.label, str(c.total), "", fraction_text(c.draw), f"{float(c.draw):.6f}"]
            for c in player]
    rows += [["banker", c.label, str(c.total), c.observation,
              fraction_text(c.draw) if c.relevant else "any", f"{float(c.draw):.6f}"]
             for c in banker]
    return table(extra + rows, ["side", "hand", "total", "banker saw", "draw", "draw_float"],
                 "csv")


def render_equilibrium(result: Equilibrium, fmt: str = "text") -> str:
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


def render_evaluation(result: Evaluation, fmt: str = "text") -> str:
    """Render ``nine evaluate``: a strategy pair's value, best responses, exploitability."""
    certified = result.game_value_certified
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


def render_strategy_card(result: Equilibrium, fmt: str = "text") -> str:
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


def session_json(result: Session) -> dict[str, Any]:
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


def render_session(result: Session, fmt: str = "text", exact: bool = False) -> str:
    """Render ``nine session``: the ledger, balances, leaders and expected nets (their exact
    fractions too with ``exact``; JSON always has them)."""
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
        if expected.exact and exact:
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
