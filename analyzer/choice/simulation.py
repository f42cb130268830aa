"""Home Lucky 9 with several players, hand by hand: dealing one hand, and seeded estimates.

:func:`play_hand` deals one hand from a sequence of card values (docs/rules/lucky9-home.md §3-§6)
and settles every seat; sessions (:mod:`analyzer.choice.session`) and the independent checks
of the exact tables use it. Finite-shoe tables larger than exact card removal covers
(:data:`~analyzer.choice.table.EXACT_FINITE_PLAYERS`) are dealt by seeded simulation
(:func:`estimate_seat_values`); those figures are labelled *estimate* with 95% confidence
intervals.

>>> from analyzer.choice.plans import (
...     LUCKY9_RULES, banker_from_strategy, house_banker, house_player)
>>> rules = LUCKY9_RULES()
>>> bank = banker_from_strategy(1, house_banker(), rules)
>>> # the player holds T+3 and draws a 5 (8), the banker A+2 and draws a 4 (7)
>>> play_hand([0, 2, 3, 1, 5, 4], [house_player()], bank, rules, random.Random(0))
([1], [3, 11])
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from analyzer.choice.plans import DREW, NATURAL, STOOD, BankerPlan, InformedPlan, SeatPlan
from analyzer.rules.choice_rules import HANDS, ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["Estimate", "estimate_seat_values", "play_hand"]


@dataclass(frozen=True)
class Estimate:
    """A simulated per-seat figure: mean and 95% confidence half-width (an estimate)."""

    mean: float
    half_width: float
    hands: int
    label: str = "estimate"


def play_hand(cards: Sequence[int], plans: Sequence[SeatPlan],
              banker: BankerPlan,
              rules: ChoiceRules, rng: random.Random) -> tuple[list[int], list[int]]:
    """Deal one hand from point values in shoe order; each player's result and what it held.

    Deal: two rounds from the banker's right, banker last; then third cards in seat order,
    the banker's last.
    """
    players = len(plans)
    position = 0
    hands: list[list[int]] = [[] for _ in range(players + 1)]  # last = banker
    for _ in range(2):
        for seat in range(players + 1):
            hands[seat].append(cards[position])
            position += 1
    index = [HANDS.index((min(h), max(h))) for h in hands]
    totals = [sum(h) % 10 for h in hands]
    bank_total = totals[-1]
    results = [0] * players
    if bank_total in rules.naturals:
        for seat in range(players):
            results[seat] = 0 if totals[seat] in rules.naturals else -1
        return results, index
    vector = []
    finals = list(totals)
    for seat in range(players):
        if totals[seat] in rules.naturals:
            vector.append(NATURAL)
            continue
        plan = plans[seat]
        draw = (plan.at(index[seat], vector) if isinstance(plan, InformedPlan)
                else plan[index[seat]])
        forced = (1 if totals[seat] in rules.player_draws else
                  0 if totals[seat] in rules.player_stands else None)
        took = forced if forced is not None else int(rng.random() < draw)
        vector.append(DREW if took else STOOD)
        if took:
            finals[seat] = (finals[seat] + cards[position]) % 10
            position += 1
    draw = banker.at(index[-1], vector)
    forced = (1 if bank_total in rules.banker_draws else
              0 if bank_total in rules.banker_stands else None)
    if (forced if forced is not None else int(rng.random() < draw)):
        finals[-1] = (finals[-1] + cards[position]) % 10
    for seat in range(players):
        if vector[seat] == NATURAL:
            results[seat] = 1
        else:
            results[seat] = (finals[seat] > finals[-1]) - (finals[seat] < finals[-1])
    return results, index


def estimate_seat_values(rules: ChoiceRules, shoe: Shoe, plans: Sequence[SeatPlan],
                         banker: BankerPlan, hands: int = 20000, seed: int = 1
                         ) -> list[Estimate]:
    """Seeded simulation of each seat's value (a fresh shuffled shoe every hand): estimates."""
    rng = random.Random(seed)
    values = [v for v, n in enumerate(shoe.value_counts()) for _ in range(n)]
    players = len(plans)
    sums = [0] * players
    squares = [0] * players
    needed = 2 * (players + 1) + players + 1
    for _ in range(hands):
        cards = rng.sample(values, needed)
        results, _ = play_hand(cards, plans, banker, rules, rng)
        for seat, r in enumerate(results):
            sums[seat] += r
            squares[seat] += r * r
    out = []
    for seat in range(players):
        mean = sums[seat] / hands
        variance = max(squares[seat] / hands - mean * mean, 0.0)
        out.append(Estimate(mean, 1.96 * math.sqrt(variance / hands), hands))
    return out
