"""A subgame's values and regrets in floats, with a rigorous bound on their rounding errors.

Where an exact evaluation (residues and CRT, 8-9 primes a pass) is not affordable -- 8 people
at one deck -- :func:`float_evaluation` runs the walk of
:mod:`analyzer.choice.table.dealt.kernels` once in float64 (the seats' pass, then the bank's:
holding ``Z`` and ``Q`` at once would double the memory) and bounds the error of every
figure it gives, so the epsilon it reports is "at most X, within B" -- never exact.

The bound (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., SIAM 2002,
ch. 3: Lemma 3.1 and section 3.1's inner products; ch. 4 for sums in any order): with unit
roundoff ``u = 2**-53`` every operation gives ``fl(a op b) = (a op b)(1 + delta)``,
``|delta| <= u`` (no overflow; no subnormal arises, see below). A counterfactual value is a
sum of products of the walk's leaves (strategy weights, the deal's falling factorials and
orders, the integer results of the third cards), each term passing through at most ``N``
roundings (conversions of the leaves to floats, products, and the additions of every sum it
enters, whatever their order -- numba's loops, a BLAS product, with or without fused
multiply-adds); so the computed value is ``sum of terms (1 + theta)``, ``|theta| <= gamma_N
= N u / (1 - N u)``, and ``|fl(v) - v| <= gamma_N A``, ``A`` the same sum over the terms'
absolute values (Higham's ``|fl(x^T y) - x^T y| <= gamma_n |x|^T |y|`` nested).
:func:`roundings` counts ``N`` generously from the walk's shape.

``A`` in closed form: every leaf but the results is nonnegative, and a result is a count of
ordered pairs of third cards, each won or lost, so it is at most ``S (S - 1)`` in absolute
value (``S`` the stock) -- the unit the walk divides by. A seat's cell ``(I, a)`` meets the
results as ``whole x stand + draw x (drawing - standing)`` (at most three units: the bank's
two weights add to 1), the bank's as the seats' ``Q`` summed over ``live`` seats (at most
``live`` units). So ``A(I, a) <= c reach(I)``, ``reach`` the chance of reaching ``I`` under
the others' play and the deal, ``c`` = 3 for a seat, ``live`` for the bank (times the
largest net of a win when it exceeds 1); and a side acts once a deal, so its reaches add to
1. A side's value is ``sum over I, a of sigma(I, a) v(I, a)`` and its regret ``sum over I
of max_a v(I, a)`` less that; computed exactly from the float ``v`` (each float is a
fraction), their errors are at most

``value: gamma_N c``, ``regret: 2 gamma_N c``

(``|max fl - max| <= max |error|``). Subnormals: every leaf is 0 or at least ``2**-100``
times an integer (strategy weights below that are refused) and a term multiplies at most
``live + 1`` strategy weights, so nothing falls below ``2**-1022``.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.choice.table.dealt.game import dealt_subgame
>>> game = dealt_subgame(LUCKY9, (16, 4, 4, 4, 4, 4, 4, 4, 4, 4), 2, "total", "1 deck")
>>> seats = [[[Fraction(1, 2)] * 9 for _ in range(2**k)] for k in range(2)]
>>> bank = [[Fraction(1, 3)] * 4 for _ in range(9)]
>>> found = float_evaluation(game, seats, bank)
>>> 0 < max(found.regret_bounds) < Fraction(1, 10**10)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.choice.table.exact.ring import Array, Float
from analyzer.errors import AnalyzerError

__all__ = ["action_weights", "bound_text", "FloatEvaluation", "float_evaluation", "gamma",
           "ROUNDED_PLAY", "roundings", "SMALLEST", "UNIT", "upward"]

#: The play advice names in an irrational subgame (its fractions approximations, not exact).
ROUNDED_PLAY = ("certified equilibrium's play rounded to {digits} decimals (this subgame's "
                "mixing is irrational)")

#: Unit roundoff of float64 (round to nearest).
UNIT = Fraction(1, 2**53)
#: The smallest nonzero strategy weight evaluated (no subnormal can then arise).
SMALLEST = Fraction(1, 2**100)


def gamma(n: int) -> Fraction:
    """Higham's ``gamma_n = n u / (1 - n u)`` (eq. 3.8), exactly."""
    if n * UNIT >= 1:
        raise AnalyzerError(f"{n} roundings: no float bound")
    return n * UNIT / (1 - n * UNIT)


def roundings(live: int, holdings: int, compositions: int, dense: bool) -> int:
    """An upper bound on the roundings any term of a counterfactual value passes through in
    the float walk of ``live`` seats over ``holdings`` live holdings, at most
    ``compositions`` compositions a level, with the dense terminal matrix or not (every sum
    counted at its number of terms, every product once, every leaf's conversion once):

    * forward, per level: the strategy weight, its product with the earlier weight, a sum of
      at most one term per holding and the carried ``Q`` term: ``live (holdings + 3)``;
    * the deal's weight: its order and ten falling factorials converted and multiplied (21);
      the seats' terminal sums over the bank's holdings, standing and drawing (``2 holdings
      + 8``); the bank's: 20 terms of ``Q`` times results, times the weight, summed over the
      compositions (``compositions + 22``);
    * backward, per folded level: a weight, a product and at most two terms per holding
      (``(live - 1)(2 holdings + 2)``), then the seat's own sum over the compositions
      (``compositions + 2``);
    * the sum into classes (``holdings``), the division by the scale (2);
    * the dense matrix: its sums over the holdings of a class (``holdings + 22``), the
      seats' product with the bank's play (``2 holdings``), the bank's over every
      (composition, choice, total): ``20 compositions``.
    """
    n = (live * (holdings + 3) + 21 + 2 * holdings + 8 + compositions + 22
         + (live - 1) * (2 * holdings + 2) + compositions + 2 + holdings + 2)
    if dense:
        n += holdings + 22 + 2 * holdings + 20 * compositions
    return n


@dataclass(frozen=True)
class FloatEvaluation:
    """Each side's value and regret (seats, then the bank) as the float walk gave them
    (each float exactly), and bounds on their distance from the exact ones."""

    values: tuple[Fraction, ...]
    regrets: tuple[Fraction, ...]
    value_bounds: tuple[Fraction, ...]
    regret_bounds: tuple[Fraction, ...]
    roundings: int
    seconds: float


def action_weights(rows: Sequence[Sequence[Fraction]]) -> Array:
    """Draw probabilities as float action weights ``[..., stand, draw]``, each converted once
    from its exact value (``1 - d`` too: correctly rounded, not ``1 - fl(d)``)."""
    out = np.zeros((len(rows), len(rows[0]) if rows else 0, 2))
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            d = Fraction(value)
            if not 0 <= d <= 1 or 0 < d < SMALLEST or 0 < 1 - d < SMALLEST:
                raise AnalyzerError(f"a draw probability {d} outside 0..1 or within 2^-100 "
                                    "of 0 or 1 (not evaluated in floats)")
            out[i, j] = float(1 - d), float(d)
    return out


def _side(values: Array, strategy: Sequence[Sequence[Fraction]]) -> tuple[Fraction, Fraction]:
    """A side's value and regret, exactly from its float counterfactual values ``[..., 2]``
    (rows as ``strategy``'s)."""
    flat = np.asarray(values, dtype=float).reshape(-1, 2)
    draws = [Fraction(v) for row in strategy for v in row]
    if not np.all(np.isfinite(flat)):
        raise AnalyzerError("the float evaluation overflowed")
    played = best = Fraction(0)
    for (stand, draw), d in zip(flat.tolist(), draws, strict=True):
        s, w = Fraction(stand), Fraction(draw)
        played += (1 - d) * s + d * w
        best += max(s, w)
    return played, best - played


def float_evaluation(game: Any, seats: Sequence[Sequence[Sequence[Fraction]]],
                     bank: Sequence[Sequence[Fraction]]) -> FloatEvaluation:
    """Every side's value and regret in the dealt subgame ``game``
    (:class:`~analyzer.choice.table.dealt.game.DealtSubgame`) at the exact strategies given,
    by the float walk, with bounds on their rounding errors (see the module docstring)."""
    begin = time.perf_counter()
    seat_weights = [action_weights(rows) for rows in seats]
    bank_weights = action_weights(bank)
    ring = Float()
    seat_values, _ = game.counterfactual(ring, seat_weights, bank_weights, "seats")
    _, bank_values = game.counterfactual(ring, seat_weights, bank_weights, "bank")
    dense = game.dense() is not None
    game.release()
    levels = game.levels
    n = roundings(game.live, len(levels.holdings.hands),
                  max(len(level) for level in levels.compositions), dense)
    net = max(1, math.ceil(game.rules.payoffs.win))
    units = [3 * net] * game.live + [game.live * net]
    found = [_side(v, rows) for v, rows in zip(seat_values, seats, strict=True)]
    # the bank's values run [class, vector, a], its strategy [class][vector]
    found.append(_side(bank_values, bank))
    error = gamma(n)
    return FloatEvaluation(
        tuple(v for v, _ in found), tuple(r for _, r in found),
        tuple(error * c for c in units), tuple(2 * error * c for c in units), n,
        time.perf_counter() - begin)


def bound_text(value: Fraction) -> str:
    """A positive bound with two significant digits, rounded up (``3.3e-10``): the printed
    figure is never below the bound."""
    if value <= 0:
        return "0"
    exponent = math.floor(math.log10(value))
    unit = Fraction(10) ** (exponent - 1)
    digits = math.ceil(value / unit)
    if digits >= 100:  # log10 rounded down a power of ten, or 9.95.. rounded up
        exponent, digits = exponent + 1, math.ceil(Fraction(digits, 10))
    return f"{digits // 10}.{digits % 10}e{exponent:+03d}"


def upward(value: Fraction) -> float:
    """``value`` as a float no smaller than it (a bound stays a bound when printed)."""
    found = float(value)
    return found if Fraction(found) >= value else math.nextafter(found, math.inf)
