"""Rendering whole tables of home Lucky 9: the certified equilibrium (``nine solve --players
N``), per-seat and bank strategy cards (``--card``), advice (``nine advise``) and strategy
files evaluated at a table (``nine evaluate --players N``).

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
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.choice.table.dealt.rounding import ROUNDED_PLAY, bound_text, upward
from analyzer.errors import AnalyzerError
from analyzer.present.report.common import fraction_text, json_text, percent, stable_floats, table

if TYPE_CHECKING:
    from analyzer.choice.table.advice import Advice
    from analyzer.choice.table.costs import BankEdge
    from analyzer.choice.table.solve import TableEquilibrium, TableValues
    from analyzer.choice.table.stored.certificate import Certificate
    from analyzer.choice.table.strategy import Situation
    from analyzer.choice.table.summary import TableSummary

__all__ = ["advice_json", "advice_sentence", "clock_rule", "play_sentence", "render_advice",
           "render_edges", "rounding_json", "render_table_cards", "render_table_evaluation",
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


def _action(draw: Fraction) -> str:
    if draw == 1:
        return "draw"
    if draw == 0:
        return "stand"
    return f"draw {draw} ({percent(draw, 1)})"


def _ranges(totals: Sequence[int]) -> str:
    runs: list[list[int]] = []
    for t in sorted(totals):
        if runs and t == runs[-1][-1] + 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _card_lines(situations: Sequence[Situation]) -> list[str]:
    """One side's card: fixed plays first (by total), then each varying holding's plays."""
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
            parts.append(f"{_action(draw)} on {held}")
        lines.append("Always: " + "; ".join(parts) + ".")
    for label, _ in varying:
        lines.append(f"Holding {label}:")
        groups: dict[Fraction, list[str]] = {}
        for situation, draw in zip(situations, by_label[label], strict=True):
            groups.setdefault(draw, []).append(situation.sees)
        for draw, where in sorted(groups.items(), key=lambda item: -item[0]):
            lines.append(f"  {_action(draw)} when")
            lines += [f"    - {w}" for w in where]
            if 0 < draw < 1:
                lines.append(f"    (randomise: {clock_rule(draw)})")
    return lines


def _header(summary: TableSummary) -> str:
    t = summary.table
    return (f"{t.title}: {t.players + 1} people ({t.players} player"
            f"{'s' if t.players != 1 else ''} and the bank), {t.shoe}, by {t.by}")


def _certificate(t: TableEquilibrium) -> str:
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
    if fmt == "csv":
        rows = []
        for side, situations in [*((f"seat {i + 1}", s) for i, s in
                                   enumerate(summary.seat_plans)), ("bank", summary.bank_plan)]:
            for situation in situations:
                for label, total, draw in situation.draws:
                    rows.append([side, label, total, situation.context, situation.sees,
                                 _action(draw), fraction_text(draw)])
        return str(table(rows, ["side", "holding", "total", "context", "sees", "play",
                                "draw probability"], "csv"))
    heading = "## " if fmt == "markdown" else ""
    t = summary.table
    lines = [f"{'# ' if fmt == 'markdown' else ''}{_header(summary)}", "",
             f"{_scope(summary) or _certificate(t)}. Legend: {LEGEND}.", ""]

    def value_text(value: Fraction, of: str) -> str:
        if t.exact:
            return f"value {fraction_text(value)}, about {percent(value, 3)} of {of}"
        return f"value at the {t.solved_at} about {percent(value, 3)} of {of}"

    for index, situations in enumerate(summary.seat_plans, start=1):
        lines.append(f"{heading}Seat {index} ({value_text(t.seat_values[index - 1], 'the stake')})")
        lines += _card_lines(situations)
        lines.append("")
    lines.append(f"{heading}The bank ({value_text(t.bank_value, 'one stake')})")
    lines += _card_lines(summary.bank_plan)
    if fmt == "markdown":
        lines = [line if not line.startswith(("  ", "Always", "Holding")) else
                 line.replace("    - ", "    * ") for line in lines]
    return "\n".join(lines).rstrip() + "\n"


def _plan_json(situations: Sequence[Situation]) -> dict[str, Any]:
    base: dict[str, str] = {}
    counts: dict[tuple[str, Fraction], int] = {}
    for situation in situations:
        for label, _, draw in situation.draws:
            counts[(label, draw)] = counts.get((label, draw), 0) + 1
    for label, _, _ in situations[0].draws:
        options = [(n, d) for (lab, d), n in counts.items() if lab == label]
        base[label] = fraction_text(max(options)[1])
    out = []
    for situation in situations:
        changed = {label: fraction_text(draw) for label, _, draw in situation.draws
                   if fraction_text(draw) != base[label]}
        if changed:
            out.append({"context": situation.context, "sees": situation.sees,
                        "draw": changed})
    return {"base": base, "situations": out}


def table_summary_json(summary: TableSummary) -> dict[str, Any]:
    """The JSON document of ``nine solve --players N --format json``: ``certified``,
    ``max_regret`` (null when not computed) and every regret are at ``shoe``, the shoe asked
    for; ``values_at`` names the shoe the values are computed at, ``solved_at`` the shoe the
    strategy was solved at."""
    t = summary.table
    edge = summary.edge
    exact = t.exact
    regrets = t.values.seat_regrets if exact else [None] * t.players
    return {
        "profile": t.profile, "title": t.title, "people": t.players + 1, "players": t.players,
        "shoe": t.shoe, "solved_at": t.solved_at, "values_at": t.values_at, "by": t.by,
        "model": t.model, "scope": _scope(summary) or None, "method": t.method,
        "iterations": t.iterations, "information": summary.information,
        "certified": t.certified, "exact": exact,
        "max_regret": _optional(t.max_regret),
        "max_regret_float": None if t.max_regret is None else float(t.max_regret),
        "equilibrium": t.note,
        "seats": [{"seat": i + 1, "value": fraction_text(v), "value_float": float(v),
                   "regret": _optional(r), "strategy": _plan_json(plan)}
                  for i, (v, r, plan) in enumerate(zip(t.seat_values, regrets,
                                                       summary.seat_plans, strict=True))],
        "banker": {"value": fraction_text(t.bank_value), "value_float": float(t.bank_value),
                   "per_stake": fraction_text(edge.per_stake),
                   "per_stake_float": float(edge.per_stake),
                   "regret": _optional(t.values.bank_regret if exact else None),
                   "strategy": _plan_json(summary.bank_plan)},
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


def _seat_rows(t: TableEquilibrium, fmt: str) -> str:
    """Each side's value, with its exact fraction and regret only when computed at the shoe
    asked for."""
    if not t.exact:
        rows = [[f"seat {i + 1}", percent(v, 4)] for i, v in enumerate(t.seat_values)]
        rows.append(["bank", percent(t.bank_value, 4)])
        return str(table(rows, ["side", f"value at the {t.solved_at}"], fmt))
    rows = [[f"seat {i + 1}", fraction_text(v), percent(v, 4), fraction_text(r)]
            for i, (v, r) in enumerate(zip(t.seat_values, t.values.seat_regrets, strict=True))]
    rows.append(["bank", fraction_text(t.bank_value), percent(t.bank_value, 4),
                 fraction_text(t.values.bank_regret)])
    return str(table(rows, ["side", "value (exact)", "value", "regret"], fmt))


def _edge_rows(t: TableEquilibrium, edge: BankEdge, fmt: str) -> str:
    people = t.players + 1
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


def epsilon_sentence(certificate: Certificate) -> str:
    """A shipped epsilon-certificate in one sentence: what it is, its epsilon, who checks it."""
    name = Path(certificate.path).name
    play = ("the infinite deck's equilibrium played there" if "--infinite-play" in
            certificate.command else "the best play found there")
    return (f"At {certificate.shoe}, {certificate.people} people, by {certificate.by}: the "
            f"shipped certificate {name} (`{certificate.command}`) gives {play}: the "
            f"bank {percent(certificate.bank_value, 4)} per hand; not an equilibrium "
            f"there: no side gains more than {_epsilon_words(certificate)}; figures as the "
            f"file states them, re-derived by `nine certify --check {name}`, not by this "
            "command")


def _epsilon_words(certificate: Certificate) -> str:
    """A certificate's epsilon and how it was computed, in words."""
    if certificate.rounding is not None:
        bound, most = certificate.upper_floats()
        return (f"{most:.3g} of a stake by deviating alone (its largest regret evaluated in "
                f"floats, {float(certificate.max_regret):.4g}, plus the rounding bound "
                f"{bound:.1g}; not exact)")
    return (f"{float(certificate.max_regret):.3g} of a stake by deviating alone (its largest "
            f"exact regret, {fraction_text(certificate.max_regret)})")


def epsilon_json(certificate: Certificate | None) -> dict[str, Any] | None:
    """A shipped epsilon-certificate's figures (as its file states them) in JSON."""
    if certificate is None:
        return None
    name = Path(certificate.path).name
    return {"file": name, "people": certificate.people, "shoe": certificate.shoe,
            "by": certificate.by, "solved_at": certificate.shoe,
            "values_at": certificate.shoe, "certified": certificate.certified,
            "max_regret": fraction_text(certificate.max_regret),
            "epsilon": float(certificate.max_regret), **rounding_json(certificate),
            "bank": _value(certificate.bank_value),
            "seats": [_value(v) for v in certificate.seat_values],
            "written_by": certificate.command,
            "checked_by": f"nine certify --check {name} (not by this command)"}


def rounding_json(certificate: Certificate) -> dict[str, Any]:
    """How a certificate's figures were evaluated, in JSON: exactly, or in floats with the
    rounding bound of its epsilon."""
    if certificate.rounding is None:
        return {"evaluation": certificate.evaluation}
    bound, most = certificate.upper_floats()
    return {"evaluation": certificate.evaluation,
            "rounding_bound": fraction_text(certificate.rounding.max_regret),
            "rounding_bound_float": bound, "epsilon_at_most": most}


def _value(value: Fraction) -> dict[str, Any]:
    """A value the reporting command did not compute (the file's): no ``exact`` key."""
    return {"value": fraction_text(value), "float": float(value)}


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
    parts = [_seat_rows(t, fmt)]
    if fmt == "csv":
        return parts[0]
    parts.append(_edge_rows(t, summary.edge, fmt))
    if summary.costs:
        parts.append(table([[c.rule.side, c.rule.name, percent(c.value, 4),
                             percent(c.equilibrium, 4), percent(c.loss, 4),
                             percent(c.exploitability, 4)] for c in summary.costs],
                           ["side", f"simple rule{at} (the others at equilibrium)", "value",
                            "equilibrium", "loss", "others' gain by best reply"], fmt))
    parts.append(table([[r.key[0], ", ".join("+".join(map(str, h)) for h in r.key[1]) or "-",
                         percent(r.probability, 3), len(r.solution.mixed),
                         len(r.solution.free), r.solution.cfr.iterations,
                         "yes" if r.solution.certified else
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
    lines = [f"{head}{_header(summary)}", "", f"{bullet}Model: {model}.",
             f"{bullet}Method{at}: {t.method}.", f"{bullet}Information: {summary.information}.",
             f"{bullet}Certificate: {_scope(summary) or _certificate(t)}.",
             f"{bullet}Equilibrium{at}: {t.note}.",
             *([f"{bullet}{_played_line(summary)}"] if summary.played is not None else []),
             *([f"{bullet}{epsilon_sentence(summary.certificate)}."]
               if summary.certificate is not None else []),
             "", ""]
    return "\n".join(lines) + "\n".join(part.rstrip("\n") + "\n" for part in parts)


def _signed(value: Fraction) -> str:
    return f"{float(value) * 100:+.2f}%"


def _points(margin: Fraction) -> str:
    """A margin in percentage points of a stake: two decimals, or two significant digits
    when smaller than 0.005 points (never a rounded 0.00 for a margin that is not 0)."""
    points = abs(float(margin)) * 100
    return f"{points:.2f}" if points >= 0.005 else f"{points:.2g}"


def _better(margin: Fraction, draw: Fraction, stand: Fraction, stake: str) -> str:
    if margin == 0:
        return (f"Drawing and standing are worth the same here (you expect {_signed(draw)} "
                "either way).")
    return (f"{'Drawing' if margin > 0 else 'Standing'} is better by {_points(margin)} points "
            f"of {stake} (you expect {_signed(draw)} drawing, {_signed(stand)} standing).")


def advice_sentence(advice: Advice) -> str:
    """The answer first, in words: the play, then which choice is better and by how much.

    The margin is always "<play> is better by X" (X >= 0) in percentage points of a stake.
    """
    stake = "your stake" if advice.side == "seat" else "a stake"
    better = _better(advice.margin, advice.ev_draw, advice.ev_stand, stake)
    if advice.play != "equilibrium play":  # a stated play, valued at the shoe
        how = "" if advice.error is None else f" ({_float_words(advice)})"
        return (f"The {advice.play}: {play_sentence(advice.draw)} At {advice.shoe} against "
                f"that play{how}: {better}")
    return f"{play_sentence(advice.draw)} {better}"


def _float_words(advice: Advice) -> str:
    """``float evaluation, error at most X`` (each expected result; the margin twice it)."""
    assert advice.error is not None  # only called for a float evaluation
    return f"float evaluation, error at most {bound_text(advice.error)}"


def play_sentence(draw: Fraction) -> str:
    """The play in words: "Draw.", "Stand." or a mixed play with its clock rule."""
    if draw == 1:
        return "Draw."
    if draw == 0:
        return "Stand."
    return f"Draw {percent(draw, 0)} of the time and stand otherwise: {clock_rule(draw)}."


def advice_json(advice: Advice) -> dict[str, Any]:
    """The JSON document of ``nine advise --format json``: exact fractions always, floats
    beside them, and the answer as a sentence; the expected results and margin are computed
    at ``values_at`` (``shoe`` when ``exact``)."""
    return {
        "side": advice.side, "people": advice.people, "seat": advice.seat,
        "cards": advice.cards, "holding": advice.holding, "total": advice.total,
        "sees": advice.sees, "shoe": advice.shoe, "solved_at": advice.solved_at,
        "values_at": advice.values_at, "by": advice.by, "asked_by": advice.asked_by or None,
        "evaluation": "exact" if advice.exact else advice.error and _float_words(advice),
        "error_bound": None if advice.error is None else fraction_text(advice.error),
        "error_bound_float": None if advice.error is None else upward(advice.error),
        "model": advice.model, "scope": advice.scope or None, "certified": advice.certified,
        "exact": advice.exact, "play": advice.play, "action": advice.action,
        "best_action": advice.best_action, "advice": advice_sentence(advice),
        "draw_probability": fraction_text(advice.draw),
        "draw_probability_float": float(advice.draw),
        "ev_draw": fraction_text(advice.ev_draw), "ev_stand": fraction_text(advice.ev_stand),
        "margin": fraction_text(advice.margin), "ev_draw_float": float(advice.ev_draw),
        "ev_stand_float": float(advice.ev_stand), "margin_float": float(advice.margin),
        "against_house_rule": {"action": advice.house_action,
                               "ev_draw": fraction_text(advice.house_ev_draw),
                               "ev_stand": fraction_text(advice.house_ev_stand)},
        "note": advice.note,
        "one_deck_certificate": epsilon_json(advice.certificate),
    }


def render_advice(advice: Advice, fmt: str = "text", exact: bool = False) -> str:
    """``nine advise``: the answer as a sentence, then what it is based on, in percentages
    of a stake (the exact fractions too with ``exact``), saying at which shoe the values are
    computed when it is not the one asked for."""
    if fmt == "json":
        return json_text(stable_floats(advice_json(advice)))
    if advice.side == "seat":
        who = f"seat {advice.seat} of {advice.people} people"
        house = "a bank playing the house rule (draw on 4 or less)"
        stake = "your stake"
    else:
        who = f"the bank, {advice.people} people"
        house = "seats playing the house rule (draw on 4 or less)"
        stake = "a stake"
    sees = "your total" if advice.by == "total" else "your two cards"
    answered = (f", by {advice.by} (asked: by {advice.asked_by})"
                if advice.asked_by and advice.asked_by != advice.by else "")
    at = ("" if advice.values_at == advice.shoe
          else f"Values at the {advice.solved_at}{answered}: ")
    house_margin = advice.house_ev_draw - advice.house_ev_stand
    if advice.certified:
        status = "Certified equilibrium: no side gains by changing its play alone"
    elif advice.error is not None:
        status = (f"Not certified: {advice.model} ({_float_words(advice)} for each expected "
                  "result, twice that for a margin)")
    elif not advice.exact:
        status = (f"{advice.scope[:1].upper()}{advice.scope[1:]}; the play and these margins "
                  f"are the {advice.solved_at}'s (by {advice.by})")
    else:
        status = f"Not certified: {advice.model}"
    lines = [at + advice_sentence(advice), "",
             f"Your hand: {advice.cards} ({advice.holding}, total {advice.total}); {who}, "
             f"{advice.shoe}, playing by {sees}.",
             f"You see: {advice.sees}.",
             f"Against {house}: {advice.house_action}. "
             + _better(house_margin, advice.house_ev_draw, advice.house_ev_stand, stake),
             status + (f"; {advice.note}." if advice.note else "."),
             *([epsilon_sentence(advice.certificate) + "."] if advice.certificate else [])]
    if exact:
        rounded = advice.play.startswith(ROUNDED_PLAY.split("{")[0])  # never "Exact"
        lines.append((f"As fractions ({_float_words(advice)})" if advice.error is not None
                      else "As fractions (exact against the play rounded as said, not the "
                      "equilibrium's irrational values)" if rounded else "Exact")
                     + f": play {_action_fraction(advice.draw)}; drawing "
                     f"{fraction_text(advice.ev_draw)}, standing "
                     f"{fraction_text(advice.ev_stand)}, margin {fraction_text(advice.margin)}; "
                     f"against the house rule drawing {fraction_text(advice.house_ev_draw)}, "
                     f"standing {fraction_text(advice.house_ev_stand)}.")
    return "\n".join(lines) + "\n"


def _action_fraction(draw: Fraction) -> str:
    """``draw``, ``stand`` or ``draw p/q`` (the exact play)."""
    return "draw" if draw == 1 else "stand" if draw == 0 else f"draw {fraction_text(draw)}"


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


def render_edges(summaries: Sequence[TableSummary], fmt: str = "text") -> str:
    """The bank's edge by table size (one summary per size, smallest first); a size not
    evaluated at the shoe asked for shows its values at the shoe it was solved at, says so
    in a ``values at`` column and a closing sentence, and has no exact value."""
    mixed = any(not s.table.exact for s in summaries)
    rows = [[s.table.players + 1, s.table.players,
             *([s.table.values_at] if mixed else []),
             fraction_text(s.edge.total) if s.table.exact else "not computed",
             percent(s.edge.total, 4), percent(s.edge.per_stake, 4),
             percent(s.table.seat_values[0], 4), percent(s.table.seat_values[-1], 4),
             "yes" if s.table.certified else "no"] for s in summaries]
    headers = ["people", "players", *(["values at"] if mixed else []), "bank per hand (exact)",
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
            for s in summaries]}))
    body = table(rows, headers, fmt)
    if fmt == "csv":
        return str(body)
    unevaluated = [s.table for s in summaries if not s.table.exact]
    scope = (f"\n\n{len(unevaluated)} table size{'s' if len(unevaluated) != 1 else ''} "
             f"({', '.join(str(t.players + 1) for t in unevaluated)} people): "
             f"{unevaluated[0].scope}." if unevaluated else "")
    return (str(body).rstrip("\n") + scope + "\n\nEach person banks once per rotation of "
            "the table: it earns the bank's edge then and gives it back across its hands as a "
            "player, so over whole rotations every person's expected net is 0 when all play "
            "the equilibrium.\n")
