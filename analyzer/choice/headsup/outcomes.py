"""Exact outcome probabilities of a heads-up choice game under a strategy pair.

The solver values a strategy pair by the player's expected net (+1, 0, -1 at even money;
by the profile's payoffs otherwise); a PAR sheet also needs how often the player wins, ties
and loses, and the net's second moment. The same game built to count wins, ties and the
net's square (:func:`analyzer.choice.headsup.game.build_game` with ``score="win"`` or ``"push"``)
gives both as exact fractions under the same behaviour strategies, over every ordered deal
of the shoe; the losses are the rest. The net's mean is the pair's value, which
:func:`equilibrium_outcomes` checks against the certified equilibrium.

>>> from analyzer.choice.headsup.solver import solve
>>> from analyzer.rules.profile import load_profile
>>> from analyzer.rules.shoe import Shoe
>>> rules = load_profile("chemin-de-fer").choice_rules()
>>> result = solve(rules, Shoe.infinite(), "total")
>>> outcomes = equilibrium_outcomes(rules, Shoe.infinite(), result)
>>> outcomes.win - outcomes.lose == result.value, outcomes.win + outcomes.push + outcomes.lose
(True, Fraction(1, 1))
>>> outcomes.ev == result.value, outcomes.variance == outcomes.win + outcomes.lose - result.value**2
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from math import lcm

from analyzer.choice.headsup.game import ChoiceGame, build_game
from analyzer.choice.headsup.solver import Equilibrium
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["equilibrium_outcomes", "Outcomes", "pair_value", "strategy_outcomes"]


@dataclass(frozen=True)
class Outcomes:
    """The player's exact probabilities of winning, tying (``push``: equal totals, which
    the bank takes where ties go to it) and losing, with the exact mean and mean square of
    its net per unit staked by the rules' payoffs (at even money ``win - lose`` and
    ``win + lose``)."""

    win: Fraction
    push: Fraction
    lose: Fraction
    ev: Fraction
    square: Fraction
    tie: Fraction = Fraction(0)

    @property
    def variance(self) -> Fraction:
        """The variance of the player's net per unit staked."""
        return self.square - self.ev**2

    @property
    def win_value(self) -> Fraction:
        """The player's mean net when it wins (1 at even money; more where its natural pays
        more, less a commission)."""
        return (self.ev + self.lose - self.tie * self.push) / self.win if self.win else (
            Fraction(0))

    @property
    def hit_frequency(self) -> Fraction:
        """How often the player's stake wins."""
        return self.win

    @property
    def decided(self) -> Fraction:
        """How often the coup is not a push."""
        return self.win + self.lose


def pair_value(game: ChoiceGame, player: Sequence[Fraction],
               banker: Sequence[Fraction]) -> Fraction:
    """The game's exact expectation under draw probabilities ``player`` (one per player set)
    and ``banker`` (one per banker cell; a forced cell takes the rules' play)."""
    if len(player) != len(game.player_sets) or len(banker) != len(game.banker_cells):
        raise AnalyzerError("strategy sizes do not match the game's information sets")
    banker = [Fraction(fixed) if fixed is not None else draw
              for draw, fixed in zip(banker, game.banker_fixed, strict=True)]
    scale = reduce(lcm, (v.denominator for v in [*player, *banker]), 1)
    x = [int(v * scale) for v in player]
    y = [int(v * scale) for v in banker]
    base0 = [int(v) for v in game.base0.tolist()]
    gain0 = [int(v) for v in game.gain0.tolist()]
    base = [[int(v) for v in row] for row in game.base.tolist()]
    gain = [[int(v) for v in row] for row in game.gain.tolist()]
    total = 0  # times scale**2
    for c, (b0, g0) in enumerate(zip(base0, gain0, strict=True)):
        stand = b0 * scale + sum(xs * base[s][c] for s, xs in enumerate(x) if xs)
        draws = g0 * scale + sum(xs * gain[s][c] for s, xs in enumerate(x) if xs)
        total += stand * scale + y[c] * draws
    return (game.constant + Fraction(total, scale * scale)) / game.denominator


def strategy_outcomes(rules: ChoiceRules, shoe: Shoe, by: str, player: Sequence[Fraction],
                      banker: Sequence[Fraction]) -> Outcomes:
    """The player's exact win, tie and loss probabilities and its net's mean and mean
    square under a strategy pair, each side seeing ``by`` (``"total"`` or ``"cards"``) of
    its own hand."""
    win, push, ev, square = (pair_value(build_game(rules, shoe, by, score), player, banker)
                             for score in ("win", "push", "result", "square"))
    return Outcomes(win, push, 1 - win - push, ev, square, rules.payoffs.tie)


def equilibrium_outcomes(rules: ChoiceRules, shoe: Shoe, equilibrium: Equilibrium) -> Outcomes:
    """The player's exact win, push and loss probabilities when both sides play
    ``equilibrium`` (solved on ``rules`` and ``shoe``); checked against its value."""
    outcomes = strategy_outcomes(rules, shoe, equilibrium.by,
                                 [c.draw for c in equilibrium.player],
                                 [c.draw for c in equilibrium.banker])
    if outcomes.ev != equilibrium.value:
        raise AnalyzerError(f"the equilibrium of {equilibrium.profile!r} on {equilibrium.shoe} "
                            f"does not belong to {rules.name!r} on {shoe.describe()}")
    return outcomes
