"""Advice at the table's own deck from a shipped epsilon-certificate: its play, and the
margins at that shoe in the situation's subgame, exact or in floats with a rounding bound.

From 6 people at one deck no equilibrium is certified; ``nine certify`` ships the best play
found there with its epsilon (no side gains more than that by deviating alone). At 5 people
by total the equilibrium is certified with one irrational subgame: its file's fractions
approximate that subgame's mixing (:func:`algebraic_words` says what advice from it is).
:func:`epsilon_certificate` finds that file for a table size, shoe and information model;
advice (:mod:`analyzer.choice.table.advice`) then plays its strategies and computes what
each choice is worth in the one subgame the situation lies in (its live seats and the
naturals' cards out of the shoe), never in the whole table:

* exactly (residues and CRT, :func:`~analyzer.choice.table.exact.evaluation.exact_counterfactual`
  and the exact reach) up to :data:`EXACT_LIVE` live seats;
* beyond, in float64 (:func:`float_conditional`), each expected result within a rigorous
  bound of the exact one, up to :data:`FLOAT_LIVE` live seats (larger subgames need more
  memory than an answer should take: advice then keeps the infinite deck's answer).

The float bound, per information set ``I`` and action ``a`` (the notation and the lemma of
:mod:`analyzer.choice.table.dealt.rounding`): the walk's counterfactual value is within
``gamma_N c reach(I)`` of the exact ``v(I, a)`` (``c`` = 3 for a seat, ``live`` for the
bank, times the largest net of a win above 1), and the reach -- the same walk with every
result 1, a sum of nonnegative terms -- within ``gamma_N reach(I)`` of the exact ``r``. The
expected result is ``v / r`` (divided exactly from the two floats), and with ``|v| <= e r``
(``e`` = the largest net for a seat, ``live`` times it for the bank)::

    |fl(v) / fl(r) - v / r| = |(fl(v) - v) r - v (fl(r) - r)| / (fl(r) r)
                            <= gamma_N (c + e) r / fl(r) <= gamma_N (c + e) / (1 - gamma_N)

since ``fl(r) >= (1 - gamma_N) r``; a margin (a difference of two) is within twice that.
``N`` is :func:`~analyzer.choice.table.dealt.rounding.roundings` counted with the dense
terminal matrix whether or not it is used (a generous count for both walks). A reach of 0
is exact (a positive reach rounds to a positive float), so "cannot arise" is never a
rounding artefact.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> found = epsilon_certificate(LUCKY9, Shoe.decks(1), 5, "cards")
>>> found is not None and not found.certified and found.people == 6
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzer.choice.table.dealt.game import DealtSubgame
from analyzer.choice.table.dealt.rounding import (
    ROUNDED_PLAY,
    action_weights,
    bound_text,
    gamma,
    roundings,
)
from analyzer.choice.table.exact.ring import Array, Float
from analyzer.choice.table.stored.certificate import (
    Certificate,
    certificate_path,
    read_certificate,
)
from analyzer.choice.table.subgame import class_index, info_classes
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["algebraic_words", "certificate_draw", "EXACT_LIVE", "epsilon_certificate",
           "epsilon_words", "FLOAT_LIVE", "float_conditional", "FloatConditional"]

#: Largest subgame (live seats) whose advice is computed exactly: at 6 people by cards a
#: subgame of 4 live seats costs about 4.5 s of CPU a counterfactual pass and 6 s for the
#: exact reach (an answer about 20 s), one of 5 live seats 43 s for the reach alone.
EXACT_LIVE = 4
#: Largest subgame advice evaluates in floats: 5 live seats cost 13-19 s of CPU an answer
#: (6 people); 6 live seats 65-73 s and 3.4-5.0 GB (7 people), too slow to wait for at a
#: table, so such an answer keeps the infinite deck's play and says so.
FLOAT_LIVE = 5


@lru_cache(maxsize=8)
def epsilon_certificate(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
                        ) -> Certificate | None:
    """The shipped certificate of this table (size, shoe, information model) that is not
    certified -- the best play found there and its epsilon -- as its file states it (its
    SHA-256 checked against its strategies), or None when there is none."""
    if shoe.is_infinite:
        return None
    path = certificate_path(rules.name, players + 1, shoe, by)
    if not path.is_file():
        return None
    found = read_certificate(path, rules, shoe, players + 1, by)
    return None if found.certified and found.algebraic is None else found


def algebraic_words(found: Certificate, key: tuple[object, ...], at: str, model: str,
                    play: str) -> tuple[bool, str, str, Certificate | None]:
    """What advice from a shipped certificate is in a subgame ``key``: (certified, the
    model, the play, the epsilon-certificate to name) -- ``model`` and ``play`` and
    ``found`` itself, not certified, unless certified through its algebraic block. Then,
    outside the irrational subgame, the file's fractions are the certified equilibrium's own
    play, exactly; inside, they are rational approximations of irrational mixing, so
    nothing there is called exact or certified (the values are exact against that
    approximated play only)."""
    block = found.algebraic
    if block is None:
        return False, model, play, found
    name = Path(found.path).name
    if key != block.key:
        return (True, f"the certified equilibrium at {at} by {found.by} (the shipped "
                f"certificate {name}; one other subgame's equilibrium is irrational, "
                "certified in QQ(alpha)); its play here is in fractions, and the values and "
                f"margin are exact at {at}", "equilibrium play", None)
    return (False, f"the certified equilibrium at {at} by {found.by} (the shipped "
            f"certificate {name}) mixes at irrational probabilities in this subgame "
            f"({block.describe()}): the play assumed of every side is its rational "
            f"approximation to {found.approximation_digits} decimals (its largest exact "
            f"regret {bound_text(found.fraction_max_regret or Fraction(0))} of a stake), and "
            "the values and margin are exact against that approximated play, not the "
            "equilibrium's own (irrational) ones",
            ROUNDED_PLAY.format(digits=found.approximation_digits), None)


def epsilon_words(certificate: Certificate) -> str:
    """``no side gains more than 4.2e-06 of a stake by deviating alone``: the epsilon
    rounded up (with its rounding bound added when the file's evaluation is in floats)."""
    floats = "" if certificate.rounding is None else " (float evaluation, its bound added)"
    return (f"no side gains more than {bound_text(certificate.epsilon_at_most)} of a stake "
            f"by deviating alone{floats}")


@dataclass(frozen=True)
class FloatConditional:
    """An information set's expected results in floats (each float exactly as a fraction),
    and the bound on the distance of each from the exact one."""

    stand: Fraction
    draw: Fraction
    house_stand: Fraction
    house_draw: Fraction
    bound: Fraction
    roundings: int


def _pair(values: Any, reach: float) -> tuple[Fraction, Fraction]:
    """(stand, draw) expected results: the float counterfactual values over the float
    reach, divided exactly."""
    stand, draw = (float(v) for v in values)
    if not all(math.isfinite(x) for x in (stand, draw, reach)):
        raise AnalyzerError("the float evaluation overflowed")
    if reach == 0:
        raise AnalyzerError("this situation cannot arise under the play advised")
    return Fraction(stand) / Fraction(reach), Fraction(draw) / Fraction(reach)


def float_conditional(game: DealtSubgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                      bank: Sequence[Sequence[Fraction]], cell: tuple[int, int, int],
                      house_seats: Sequence[Sequence[Sequence[Fraction]]] | None = None,
                      house_bank: Sequence[Sequence[Fraction]] | None = None,
                      ) -> FloatConditional:
    """The expected results of standing and drawing in one information set ``cell``
    (side, context, class; side ``live`` the bank) against ``seats`` and ``bank``, and
    against the house-rule play given for the other sides (``house_bank`` for a seat,
    ``house_seats`` for the bank), in floats with the bound of the module docstring."""
    side, context, cls = cell
    ring = Float()
    seat_w = [action_weights(rows) for rows in seats]
    bank_w = action_weights(bank)
    is_seat = side < game.live
    sides = "seats" if is_seat else "bank"
    net = max(1, math.ceil(game.rules.payoffs.win))
    found: list[Fraction] = []
    try:
        if is_seat:
            seat_reach: list[Array] = game.reach(seat_w)[0]
            reach = float(seat_reach[side][context, cls])
            for bank_rows in (bank_w, action_weights(house_bank or bank)):
                seat_values, _ = game.counterfactual(ring, seat_w, bank_rows, sides)
                found.extend(_pair(seat_values[side][context, cls], reach))
        else:
            for seat_rows in (seat_w, [action_weights(r) for r in (house_seats or seats)]):
                bank_reach: Array = game.reach(seat_rows)[1]
                reach = float(bank_reach[cls, context])
                _, bank_values = game.counterfactual(ring, seat_rows, bank_w, sides)
                found.extend(_pair(bank_values[cls, context], reach))
    finally:
        game.release()
    levels = game.levels
    n = roundings(game.live, len(levels.holdings.hands),
                  max(len(level) for level in levels.compositions), True)
    c, e = (3 * net, net) if is_seat else (game.live * net, game.live * net)
    error = gamma(n)
    stand, draw, house_stand, house_draw = found
    return FloatConditional(stand, draw, house_stand, house_draw,
                            error * (c + e) / (1 - error), n)


def certificate_draw(rules: ChoiceRules, found: Certificate, key: tuple[int, tuple[Any, ...]],
                     side: int, context: int, holding: tuple[int, int]) -> Fraction | None:
    """A certificate's probability of drawing in one information set of its subgame ``key``,
    read from the file (nothing evaluated): ``side`` a live seat's position (``key[0]``: the
    bank), ``context`` the earlier live seats' choices (the bank: every live seat's) as
    bits, drew = 1, first seat highest; None where the file has no such subgame."""
    strategies = found.strategies.get(key)
    if strategies is None:
        return None
    cls = class_index(info_classes(rules, found.by), holding)
    seats, bank = strategies
    return seats[side][context][cls] if side < key[0] else bank[cls][context]
