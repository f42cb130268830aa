"""Rendering whole tables of home Lucky 9: the certified equilibrium (``nine solve --players
N``), per-seat and bank strategy cards (``--card``), the bank's edge by table size and
strategy files evaluated at a table (``nine evaluate --players N``).

A strategy card lists, for one side, what it does on each own total (or holding) in every
situation it can see -- the earlier live seats' choices and how many live seats follow for a
seat, the live seats' choices for the bank -- grouped: a play that never changes is written
once, and a play that changes lists the situations for each action. A mixed play is shown
as a fraction and a percentage with a way to randomise at the table from a clock.

>>> clock_rule(Fraction(32, 65))
"draw if the clock's seconds are below 30 (30/60 = 50.0%)"
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError
from analyzer.present.report.common import fraction_text, json_text, percent, stable_floats, table
from analyzer.present.report.lucky9.algebraic import (
    NO_COSTS,
    ROUNDED,
    VALUES_NOTE,
    closed_edges,
    closed_json,
    closed_size_json,
    closed_status,
    closed_words,
    element_json,
    near,
    rounded_draws,
    rounded_text,
    seat_rows,
)
from analyzer.present.report.lucky9.epsilon import epsilon_json, epsilon_sentence

if TYPE_CHECKING:
    from analyzer.choice.table.solve import TableValues
    from analyzer.choice.table.strategy import Situation
    from analyzer.choice.table.summary import TableSummary

__all__ = ["clock_rule", "render_edges", "render_table_cards", "render_table_evaluation",
           "render_table_summary", "table_evaluation_json", "table_summary_json"]

LEGEND = "T = 10, J, Q or K; A = ace; values are per unit staked"


def _number(value: Fraction, exact: bool = True) -> dict[str, Any]:
    """A value in JSON: ``exact`` only when computed at the shoe asked for."""
    return {"exact" if exact else "value": fraction_text(value), "float": float(value)}


def _optional(value: Fraction | None) -> str | None:
    return None if value is None else fraction_text(value)


def clock_rule(draw: Fraction) -> str:
    """A plain way to draw with probability ``draw`` at the table, from a clock."""
    seconds = round(60 * draw)
    if 1 <= seconds <= 59:
        return (f"draw if the clock's seconds are below {seconds} "
                f"({seconds}/60 = {100 * seconds / 60:.1f}%)")
    within = round(3600 * draw)
    minutes, rest = divmod(within, 60)
    return (f"draw if the clock's minutes and seconds (mm:ss) are below {minutes:02d}:{rest:02d}"
            f" ({within}/3600 = {100 * within / 3600:.2f}%)")


def _action(draw: Fraction, rounded: frozenset[Fraction] = frozenset()) -> str:
    """The play in a card: ``draw``, ``stand``, ``draw p/q (x%)``, or (an irrational
    mixing, in ``rounded``) its decimal said to be rounded."""
    if draw == 1:
        return "draw"
    if draw == 0:
        return "stand"
    if draw in rounded:
        return f"draw {rounded_text(draw)} ({percent(draw, 1)}; {ROUNDED})"
    return f"draw {draw} ({percent(draw, 1)})"


def _draw_text(draw: Fraction, rounded: frozenset[Fraction]) -> str:
    """A draw probability in a file: its fraction, or the decimal it is rounded to."""
    return rounded_text(draw) if draw in rounded else fraction_text(draw)


def _ranges(totals: Sequence[int]) -> str:
    runs: list[list[int]] = []
    for t in sorted(totals):
        if runs and t == runs[-1][-1] + 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _card_lines(situations: Sequence[Situation],
                rounded: frozenset[Fraction] = frozenset()) -> list[str]:
    """One side's card: fixed plays first (by total), then each varying holding's plays
    (``rounded``: the plays shown as decimals said to be rounded)."""
    labels: list[tuple[str, int]] = []
    for label, total, _ in situations[0].draws:
        labels.append((label, total))
    by_label = {label: [s.draws[i][2] for s in situations] for i, (label, _) in
                enumerate(labels)}
    fixed: dict[Fraction, list[tuple[str, int]]] = {}
    varying = []
    for label, total in labels:
        plays = set(by_label[label])
        if len(plays) == 1:
            fixed.setdefault(plays.pop(), []).append((label, total))
        else:
            varying.append((label, total))
    lines = []
    if fixed:
        parts = []
        for draw, members in sorted(fixed.items(), key=lambda item: -item[0]):
            if all(label == str(total) for label, total in members):
                held = _ranges([total for _, total in members])
            else:
                held = ", ".join(label for label, _ in members)
            parts.append(f"{_action(draw, rounded)} on {held}")
        lines.append("Always: " + "; ".join(parts) + ".")
    for label, _ in varying:
        lines.append(f"Holding {label}:")
        groups: dict[Fraction, list[str]] = {}
        for situation, draw in zip(situations, by_label[label], strict=True):
            groups.setdefault(draw, []).append(situation.sees)
        for draw, where in sorted(groups.items(), key=lambda item: -item[0]):
            lines.append(f"  {_action(draw, rounded)} when")
            lines += [f"    - {w}" for w in where]
            if 0 < draw < 1:
                lines.append(f"    (randomise: {clock_rule(draw)})")
    return lines


def _header(summary: TableSummary) -> str:
    t = summary.table
    return (f"{t.title}: {t.players + 1} people ({t.players} player"
            f"{'s' if t.players != 1 else ''} and the bank), {t.shoe}, by {t.by}")


def _certificate(summary: TableSummary) -> str:
    t = summary.table
    if summary.closed is not None:
        return closed_status(summary)
    regret = t.max_regret  # None exactly when not computed at the shoe asked for
    if regret is None:
        return str(t.scope)
    if t.certified:
        return "certified equilibrium: every side's exact regret is 0"
    return (f"NOT certified: largest exact regret {fraction_text(regret)} "
            f"(about {float(regret):.3g}), a certified epsilon")


def render_table_cards(summary: TableSummary, fmt: str = "text") -> str:
    """A strategy card per seat and the bank's card."""
    if fmt not in ("text", "markdown", "csv"):
        raise AnalyzerError(f"--card prints text, markdown or csv, not {fmt}")
    rounded = rounded_draws(summary)
    if fmt == "csv":
        rows = []
        for side, situations in [*((f"seat {i + 1}", s) for i, s in
                                   enumerate(summary.seat_plans)), ("bank", summary.bank_plan)]:
            for situation in situations:
                for label, total, draw in situation.draws:
                    rows.append([side, label, total, situation.context, situation.sees,
                                 _action(draw, rounded), _draw_text(draw, rounded)])
        return str(table(rows, ["side", "holding", "total", "context", "sees", "play",
                                "draw probability"], "csv"))
    heading = "## " if fmt == "markdown" else ""
    t = summary.table
    lines = [f"{'# ' if fmt == 'markdown' else ''}{_header(summary)}", "",
             f"{_scope(summary) or _certificate(summary)}. Legend: {LEGEND}.", ""]
    closed = summary.closed

    def value_text(value: Fraction, of: str, side: int) -> str:
        if closed is not None:  # the element's decimal, not the rounded play's value
            element = (closed.seat_values + (closed.bank_value,))[side]
            return (f"value {element_json(summary, element)['decimal']} (algebraic), about "
                    f"{percent(near(summary, element), 3)} of {of}")
        if t.exact:
            return f"value {fraction_text(value)}, about {percent(value, 3)} of {of}"
        return f"value at the {t.solved_at} about {percent(value, 3)} of {of}"

    for index, situations in enumerate(summary.seat_plans, start=1):
        value = value_text(t.seat_values[index - 1], "the stake", index - 1)
        lines.append(f"{heading}Seat {index} ({value})")
        lines += _card_lines(situations, rounded)
        lines.append("")
    lines.append(f"{heading}The bank ({value_text(t.bank_value, 'one stake', t.players)})")
    lines += _card_lines(summary.bank_plan, rounded)
    if fmt == "markdown":
        lines = [line if not line.startswith(("  ", "Always", "Holding")) else
                 line.replace("    - ", "    * ") for line in lines]
    return "\n".join(lines).rstrip() + "\n"


def _plan_json(situations: Sequence[Situation],
               rounded: frozenset[Fraction] = frozenset()) -> dict[str, Any]:
    """A side's plan in JSON: the play per holding in most situations, then the situations
    that differ (a play in ``rounded`` written as its decimal, its holding listed under
    ``rounded``)."""
    base: dict[str, str] = {}
    counts: dict[tuple[str, Fraction], int] = {}
    for situation in situations:
        for label, _, draw in situation.draws:
            counts[(label, draw)] = counts.get((label, draw), 0) + 1
    for label, _, _ in situations[0].draws:
        options = [(n, d) for (lab, d), n in counts.items() if lab == label]
        base[label] = _draw_text(max(options)[1], rounded)
    out = []
    for situation in situations:
        changed = {label: _draw_text(draw, rounded) for label, _, draw in situation.draws
                   if _draw_text(draw, rounded) != base[label]}
        if changed:
            near_only = [label for label, _, draw in situation.draws
                         if label in changed and draw in rounded]
            out.append({"context": situation.context, "sees": situation.sees,
                        "draw": changed, **({"rounded": near_only} if near_only else {})})
    return {"base": base, "situations": out}


def table_summary_json(summary: TableSummary) -> dict[str, Any]:
    """The JSON document of ``nine solve --players N --format json``: ``certified``,
    ``max_regret`` (null when not computed) and every regret are at ``shoe``, the shoe asked
    for; ``values_at`` names the shoe the values are computed at, ``solved_at`` the shoe the
    strategy was solved at. A table certified through an algebraic block has its values as
    decimals with their elements of QQ(alpha) (:func:`closed_json`), no fraction."""
    t = summary.table
    edge = summary.edge
    exact = t.exact
    regrets = t.values.seat_regrets if exact else [None] * t.players
    rounded = rounded_draws(summary)
    document = {
        "profile": t.profile, "title": t.title, "people": t.players + 1, "players": t.players,
        "shoe": t.shoe, "solved_at": t.solved_at, "values_at": t.values_at, "by": t.by,
        "model": t.model, "scope": _scope(summary) or None, "method": t.method,
        "iterations": t.iterations, "information": summary.information,
        "certified": t.certified, "exact": exact,
        "max_regret": _optional(t.max_regret),
        "max_regret_float": None if t.max_regret is None else float(t.max_regret),
        "equilibrium": t.note,
        "seats": [{"seat": i + 1, "value": fraction_text(v), "value_float": float(v),
                   "regret": _optional(r), "strategy": _plan_json(plan, rounded)}
                  for i, (v, r, plan) in enumerate(zip(t.seat_values, regrets,
                                                       summary.seat_plans, strict=True))],
        "banker": {"value": fraction_text(t.bank_value), "value_float": float(t.bank_value),
                   "per_stake": fraction_text(edge.per_stake),
                   "per_stake_float": float(edge.per_stake),
                   "regret": _optional(t.values.bank_regret if exact else None),
                   "strategy": _plan_json(summary.bank_plan, rounded)},
        "played_at_shoe": None if summary.played is None else {
            "shoe": t.shoe, "by": "cards", "bank": _number(summary.played.bank),
            "seats": [{"seat": i + 1, "value": _number(v), "regret": _number(r)}
                      for i, (v, r) in enumerate(zip(summary.played.seats,
                                                     summary.played.seat_regrets,
                                                     strict=True))],
            "bank_regret": _number(summary.played.bank_regret),
            "max_regret": _number(summary.played.max_regret)},
        "one_deck_certificate": epsilon_json(summary.certificate),
        "edge": {"total": _number(edge.total, exact),
                 "per_stake": _number(edge.per_stake, exact),
                 "rotation_banking": _number(edge.rotation_banking, exact),
                 "rotation_net": _number(edge.rotation_net, exact)},
        "rules": [{"rule": c.rule.name, "side": c.rule.side, "value": _number(c.value, exact),
                   "equilibrium": _number(c.equilibrium, exact),
                   "loss": _number(c.loss, exact),
                   "exploitability": _number(c.exploitability, exact)} for c in summary.costs],
        "subgames": [{"shoe": t.solved_at, "live": r.key[0],
                      "naturals_out": [list(h) for h in r.key[1]],
                      "probability": fraction_text(r.probability),
                      "mixed": len(r.solution.mixed), "free": len(r.solution.free),
                      "cfr_iterations": r.solution.cfr.iterations,
                      "rounds": r.solution.rounds, "certified": r.solution.certified,
                      "max_regret": fraction_text(r.solution.max_regret)}
                     for r in t.subgames],
        "alternatives": [{"seed": a.seed, "certified": a.values.max_regret == 0,
                          "shoe": t.solved_at,
                          "seat_differences": [float(d) for d in a.seat_differences],
                          "bank_difference": float(a.bank_difference)}
                         for a in summary.alternatives],
    }
    return document if summary.closed is None else closed_json(summary, document)


def _seat_rows(summary: TableSummary, fmt: str) -> str:
    """Each side's value, with its exact fraction and regret only when computed at the shoe
    asked for (a table certified through an algebraic block: its elements' decimals)."""
    t = summary.table
    if summary.closed is not None:
        return seat_rows(summary, fmt)
    if not t.exact:
        rows = [[f"seat {i + 1}", percent(v, 4)] for i, v in enumerate(t.seat_values)]
        rows.append(["bank", percent(t.bank_value, 4)])
        return str(table(rows, ["side", f"value at the {t.solved_at}"], fmt))
    rows = [[f"seat {i + 1}", fraction_text(v), percent(v, 4), fraction_text(r)]
            for i, (v, r) in enumerate(zip(t.seat_values, t.values.seat_regrets, strict=True))]
    rows.append(["bank", fraction_text(t.bank_value), percent(t.bank_value, 4),
                 fraction_text(t.values.bank_regret)])
    return str(table(rows, ["side", "value (exact)", "value", "regret"], fmt))


def _edge_rows(summary: TableSummary, fmt: str) -> str:
    t, edge = summary.table, summary.edge
    people = t.players + 1
    if summary.closed is not None:  # the bank's element, shown as its decimal
        found = closed_edges(summary)
        names = {"total": "per hand, all stakes", "per_stake": "per player stake",
                 "rotation_banking": f"per rotation ({people} hands): each person as the bank",
                 "rotation_net": "per rotation: each person's net (banks once, sits once in "
                                 "every seat)"}
        return str(table([[names[key], element_json(summary, v)["decimal"],
                           percent(near(summary, v), 4)] for key, v in found.items()],
                         ["the bank's edge", "algebraic, in QQ(alpha): decimal", "about"], fmt))
    rows: list[tuple[str, Fraction]] = [
        ("per hand, all stakes", edge.total),
        ("per player stake", edge.per_stake),
        (f"per rotation ({people} hands): each person as the bank", edge.rotation_banking),
        ("per rotation: each person's net (banks once, sits once in every seat)",
         edge.rotation_net)]
    if not t.exact:
        return str(table([[name, percent(v, 4)] for name, v in rows],
                         [f"the bank's edge at the {t.solved_at}", "about"], fmt))
    return str(table([[name, fraction_text(v), percent(v, 4)] for name, v in rows],
                     ["the bank's edge", "exact", "about"], fmt))


def _scope(summary: TableSummary) -> str:
    """What the table is at the shoe asked for, in one sentence ("" when solved there)."""
    t = summary.table
    if summary.played is None:
        return str(t.scope)
    return (f"Solved and certified at the {t.solved_at}; no equilibrium is solved at {t.shoe} "
            f"for {t.players + 1} people: the play is evaluated exactly there (below), not "
            "certified")


def _played_line(summary: TableSummary) -> str:
    """The infinite deck's play at the shoe asked for: exact values and the epsilon."""
    t, played = summary.table, summary.played
    assert played is not None  # only called when the play at the shoe was computed
    worst = max(range(t.players + 1), key=lambda i: (*played.seat_regrets,
                                                      played.bank_regret)[i])
    who = "the bank" if worst == t.players else f"seat {worst + 1}"
    return (f"Played at {t.shoe} (each holding as its total, seen by cards), computed "
            f"exactly there: the bank {percent(played.bank, 4)} per hand "
            f"({fraction_text(played.bank)}); seats "
            f"{', '.join(percent(v, 4) for v in played.seats)}; not an equilibrium there: a "
            f"side gains at most {percent(played.max_regret, 4)} of a stake by deviating "
            f"alone ({who}; exact {fraction_text(played.max_regret)}).")


def render_table_summary(summary: TableSummary, fmt: str = "text") -> str:
    """``nine solve --players N``: certificate, values, edge, rule costs, subgames; a table
    not evaluated at its shoe says so and shows no exact value or regret there."""
    if fmt == "json":
        return json_text(stable_floats(table_summary_json(summary)))
    t = summary.table
    at = "" if t.exact else f" at the {t.solved_at}"
    parts = [_seat_rows(summary, fmt)]
    if fmt == "csv":
        return parts[0]
    parts.append(_edge_rows(summary, fmt))
    if summary.costs:
        parts.append(table([[c.rule.side, c.rule.name, percent(c.value, 4),
                             percent(c.equilibrium, 4), percent(c.loss, 4),
                             percent(c.exploitability, 4)] for c in summary.costs],
                           ["side", f"simple rule{at} (the others at equilibrium)", "value",
                            "equilibrium", "loss", "others' gain by best reply"], fmt))
    parts.append(table([[r.key[0], ", ".join("+".join(map(str, h)) for h in r.key[1]) or "-",
                         percent(r.probability, 3), len(r.solution.mixed),
                         len(r.solution.free), r.solution.cfr.iterations,
                         "yes" if r.solution.certified else "yes (in QQ(alpha))"
                         if summary.closed is not None and r.key == summary.closed.key else
                         f"no ({float(r.solution.max_regret):.3g})"]
                        for r in t.subgames],
                       ["live seats", "naturals out", "played", "mixed cells", "free",
                        "CFR+ iterations", f"certified{at}"], fmt))
    for alternative in summary.alternatives:
        spread = max(abs(float(d)) for d in alternative.seat_differences)
        parts.append(f"Another equilibrium{at} (CFR+ seed {alternative.seed}): "
                     f"{'certified' if alternative.values.max_regret == 0 else 'not certified'}"
                     f"; seat values differ by up to {spread:.3g}, the bank's by "
                     f"{abs(float(alternative.bank_difference)):.3g}\n")
    head, bullet = ("# ", "- ") if fmt == "markdown" else ("", "")
    model = t.model if summary.played is None else t.model.replace(
        "not evaluated at", "played at")
    model, method = closed_words(summary, model, t.method)
    lines = [f"{head}{_header(summary)}", "", f"{bullet}Model: {model}.",
             f"{bullet}Method{at}: {method}.", f"{bullet}Information: {summary.information}.",
             f"{bullet}Certificate: {_scope(summary) or _certificate(summary)}.",
             f"{bullet}Equilibrium{at}: {t.note}.",
             *([f"{bullet}{NO_COSTS}."] if summary.closed is not None else []),
             *([f"{bullet}{_played_line(summary)}"] if summary.played is not None else []),
             *([f"{bullet}{epsilon_sentence(summary.certificate)}."]
               if summary.certificate is not None else []),
             "", ""]
    return "\n".join(lines) + "\n".join(part.rstrip("\n") + "\n" for part in parts)


def table_evaluation_json(result: TableValues) -> dict[str, Any]:
    """The JSON document of ``nine evaluate --players N --format json``."""
    return {"seats": [{"seat": i + 1, "value": fraction_text(v), "value_float": float(v),
                       "regret": fraction_text(r), "regret_float": float(r)}
                      for i, (v, r) in enumerate(zip(result.seats, result.seat_regrets,
                                                     strict=True))],
            "banker": {"value": fraction_text(result.bank), "value_float": float(result.bank),
                       "regret": fraction_text(result.bank_regret),
                       "regret_float": float(result.bank_regret)},
            "max_regret": fraction_text(result.max_regret),
            "certified": result.max_regret == 0}


def render_table_evaluation(result: TableValues, fmt: str = "text") -> str:
    """``nine evaluate --players N``: each side's exact value and regret."""
    if fmt == "json":
        return json_text(stable_floats(table_evaluation_json(result)))
    rows = [[f"seat {i + 1}", fraction_text(v), percent(v, 4), fraction_text(r),
             percent(r, 4)] for i, (v, r) in enumerate(zip(result.seats, result.seat_regrets,
                                                           strict=True))]
    rows.append(["bank", fraction_text(result.bank), percent(result.bank, 4),
                 fraction_text(result.bank_regret), percent(result.bank_regret, 4)])
    body = table(rows, ["side", "value (exact)", "value", "regret (exact)", "regret"], fmt)
    if fmt == "csv":
        return body
    verdict = ("an exact equilibrium: no side gains by deviating" if result.max_regret == 0
               else f"not an equilibrium: a side gains up to {percent(result.max_regret, 4)}")
    return body + f"\n{verdict}\n"


def _edge_figures(summary: TableSummary) -> tuple[Fraction, ...]:
    """The bank per hand and per player stake, seat 1's and the last seat's values, for
    percentages (a table certified through an algebraic block: its elements' decimals)."""
    t, closed = summary.table, summary.closed
    if closed is None:
        return (summary.edge.total, summary.edge.per_stake, t.seat_values[0],
                t.seat_values[-1])
    edges = closed_edges(summary)
    return tuple(near(summary, v) for v in (edges["total"], edges["per_stake"],
                                            closed.seat_values[0], closed.seat_values[-1]))


def render_edges(summaries: Sequence[TableSummary], fmt: str = "text") -> str:
    """The bank's edge by table size (one summary per size, smallest first); a size not
    evaluated at the shoe asked for shows its values at the shoe it was solved at, says so
    in a ``values at`` column and a closing sentence, and has no exact value; a size
    certified through an algebraic block shows its decimals, marked ``(in QQ(alpha))``."""
    mixed = any(not s.table.exact for s in summaries)
    rows = [[s.table.players + 1, s.table.players,
             *([s.table.values_at] if mixed else []),
             (f"{element_json(s, closed_edges(s)['total'])['decimal']} (in QQ(alpha))"
              if s.closed is not None else fraction_text(s.edge.total) if s.table.exact
              else "not computed"),
             *(percent(v, 4) for v in _edge_figures(s)),
             "yes" if s.certified else "no"] for s in summaries]
    algebraic = [s.table.players + 1 for s in summaries if s.closed is not None]
    headers = ["people", "players", *(["values at"] if mixed else []),
               "bank per hand (exact" + ("; a decimal where in QQ(alpha))" if algebraic else ")"),
               "bank per hand", "bank per player stake", "seat 1", "last seat", "certified"]
    if fmt == "json":
        return json_text(stable_floats({"sizes": [
            {"people": s.table.players + 1, "players": s.table.players,
             "shoe": s.table.shoe, "solved_at": s.table.solved_at,
             "values_at": s.table.values_at, "exact": s.table.exact,
             "total": _number(s.edge.total, s.table.exact),
             "per_stake": _number(s.edge.per_stake, s.table.exact),
             "seats": [_number(v, s.table.exact) for v in s.table.seat_values],
             "certified": s.table.certified, "max_regret": _optional(s.table.max_regret)}
            if s.closed is None else closed_size_json(s) for s in summaries]}))
    body = table(rows, headers, fmt)
    if fmt == "csv":
        return str(body)
    unevaluated = [s.table for s in summaries if not s.table.exact]
    scope = (f"\n\n{len(unevaluated)} table size{'s' if len(unevaluated) != 1 else ''} "
             f"({', '.join(str(t.players + 1) for t in unevaluated)} people): "
             f"{unevaluated[0].scope}." if unevaluated else "")
    if algebraic:
        scope += (f"\n\n{', '.join(map(str, algebraic))} people: certified with one subgame's "
                  f"equilibrium irrational: {VALUES_NOTE}, not fractions.")
    return (str(body).rstrip("\n") + scope + "\n\nEach person banks once per rotation of "
            "the table: it earns the bank's edge then and gives it back across its hands as a "
            "player, so over whole rotations every person's expected net is 0 when all play "
            "the equilibrium.\n")
