"""Rendering ``nine advise``: the answer as a sentence (the play, then which choice is better
and by how much), what it is based on, and its JSON document.

>>> play_sentence(Fraction(1))
'Draw.'
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analyzer.choice.table.dealt.rounding import ROUNDED_PLAY, bound_text, upward
from analyzer.present.report.common import fraction_text, json_text, percent, stable_floats
from analyzer.present.report.lucky9.epsilon import epsilon_json, epsilon_sentence
from analyzer.present.report.lucky9.table import clock_rule

if TYPE_CHECKING:
    from analyzer.choice.table.advice import Advice

__all__ = ["advice_json", "advice_sentence", "play_sentence", "render_advice"]


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
        "one_deck_certificate_play": None if advice.certificate_draw is None else {
            "action": _action_fraction(advice.certificate_draw),
            "draw_probability": fraction_text(advice.certificate_draw),
            "source": "read from the certificate file; its values here are not computed"},
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
             *([epsilon_sentence(advice.certificate) + "."] if advice.certificate else []),
             *([f"That file's play here: {_action_fraction(advice.certificate_draw)} (read "
                f"from the file; what each choice is worth at {advice.shoe} against it is "
                "not computed for this many live seats)."]
               if advice.certificate_draw is not None else [])]
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

