"""Tables of several players dealt hand by hand: seeded estimates for larger finite shoes."""

from __future__ import annotations

import random

from analyzer.choice.plans import banker_from_strategy, house_banker, house_player
from analyzer.choice.simulation import estimate_seat_values, play_hand
from analyzer.choice.table_report import table_report
from analyzer.rules.choice_rules import HANDS
from analyzer.rules.shoe import Shoe
from tests.choice.conftest import RULES


def test_larger_finite_tables_are_estimates() -> None:
    report = table_report(RULES, Shoe.decks(1), 3, hands=2000, seed=5)
    assert report.values is None and len(report.estimates) == 3
    assert all(e.label == "estimate" and abs(e.mean) < 4 * e.half_width + 0.05
               for e in report.estimates)


def test_estimates_are_seeded_and_cover_the_exact_value() -> None:
    # Two players at one deck, house rule on both sides: every seat's exact value is 0
    # (tests/choice/test_responses.py); the seeded estimate is reproducible and covers it.
    plans = [house_player()] * 2
    bank = banker_from_strategy(2, house_banker(), RULES)
    first = estimate_seat_values(RULES, Shoe.decks(1), plans, bank, hands=3000, seed=4)
    assert first == estimate_seat_values(RULES, Shoe.decks(1), plans, bank, hands=3000, seed=4)
    assert first != estimate_seat_values(RULES, Shoe.decks(1), plans, bank, hands=3000, seed=5)
    assert all(e.label == "estimate" and e.hands == 3000 and abs(e.mean) < 4 * e.half_width
               for e in first)


def test_play_hand_settles_every_seat_and_reports_the_holdings() -> None:
    # A natural 9 for the banker settles the hand: a player's 9 pushes, anything else loses.
    plans = [house_player()] * 2
    bank = banker_from_strategy(2, house_banker(), RULES)
    results, held = play_hand([4, 3, 0, 5, 9, 9, 1, 1], plans, bank, RULES, random.Random(0))
    assert results == [0, -1]
    assert [HANDS[i] for i in held] == [(4, 5), (3, 9), (0, 9)]
