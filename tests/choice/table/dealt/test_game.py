"""The walk over removed-card compositions against a brute-force deal of every card sequence
(the whole table's extensive form on a tiny shoe, 4 people) and against the certified
3-person equilibrium at one deck."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from analyzer.choice.table.dealt.game import dealt_subgame
from analyzer.choice.table.exact.evaluation import exact_counterfactual, exact_regrets
from analyzer.choice.table.exact.ring import Float
from analyzer.choice.table.solve import Pattern, evaluate_profile, solve_table
from analyzer.choice.table.subgame import finite_subgame, info_classes
from analyzer.choice.table.tree import LUCKY9, table_tree, tree_best_response, tree_values
from analyzer.errors import AnalyzerError
from analyzer.rules.cards import parse_cards
from analyzer.rules.choice_rules import hand_label
from analyzer.rules.shoe import Shoe

#: Three point values (0, 4, 5; 4+5 is a natural), twelve cards: every deal of 4 people.
SMALL = Shoe.from_cards(parse_cards("TS TH TD TC 4S 4H 4D 4C 5S 5H 5D 5C"), "small shoe")


def _draw(rng: random.Random, memo: dict[Any, Fraction], key: Any) -> Fraction:
    if key not in memo:
        memo[key] = rng.choice([Fraction(0), Fraction(1), Fraction(1, 3), Fraction(5, 7)])
    return memo[key]


@pytest.mark.parametrize("by", ["total", "cards"])
def test_four_people_on_a_small_shoe_match_every_deal(by: str) -> None:
    """Values and every side's regret of a random mixed profile: the evaluator (subgames,
    compositions, residues and CRT) equals the brute force on the whole game tree."""
    players = 3
    rng = random.Random(21)
    memo: dict[Any, Fraction] = {}
    labels = [c.label for c in info_classes(LUCKY9, by)]

    def seen(pattern: Pattern) -> str:
        return "".join(f"N({hand_label(h)})" if isinstance(h, tuple) else "-"
                       for h in pattern.seats)

    def seat_rule(pattern: Pattern, seat: int, position: int, earlier: int,
                  cls: int) -> Fraction:
        choices = "".join("SD"[earlier >> (position - 1 - i) & 1] for i in range(position))
        return _draw(rng, memo, (f"seat {seat + 1}", labels[cls], seen(pattern), choices))

    def bank_rule(pattern: Pattern, vector: int, cls: int) -> Fraction:
        live = len(pattern.live)
        choices = "".join("SD"[vector >> (live - 1 - i) & 1] for i in range(live))
        return _draw(rng, memo, ("bank", labels[cls], seen(pattern), choices))

    found = evaluate_profile(LUCKY9, SMALL, players, by, seat_rule, bank_rule)
    tree = table_tree(LUCKY9, SMALL, players, by)
    profile = [{key: memo.get(key, Fraction(0)) for key in tree.infosets(side)}
               for side in range(players + 1)]
    assert all(key in memo for side in profile for key in side)  # the same information sets
    values = tree_values(tree, profile)
    assert found.seats == values[:players] and found.bank == values[-1]
    regrets = [tree_best_response(tree, profile, side)[0] - values[side]
               for side in range(players + 1)]
    assert found.seat_regrets == tuple(regrets[:players])
    assert found.bank_regret == regrets[-1] > 0


@pytest.mark.parametrize("by", ["cards"])
def test_three_people_at_one_deck_reproduce_the_certified_equilibrium(by: str) -> None:
    """Every subgame of the certified 3-person table, evaluated by the walk instead of the
    joint tables: the same exact values and zero regret."""
    table = solve_table(LUCKY9, Shoe.decks(1), 2, by)
    assert table.certified
    for result in table.subgames:
        solution = result.solution
        game = solution.game
        walked = dealt_subgame(LUCKY9, _counts(game.shoe, result.key[1]), game.live, by, "1 deck")
        values, regrets, _ = exact_regrets(walked, solution.seats, solution.bank)
        assert values == solution.values and regrets == (0,) * (game.live + 1)


def _counts(_: str, naturals: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    counts = list(Shoe.decks(1).value_counts())
    for a, b in naturals:
        counts[a] -= 1
        counts[b] -= 1
    return tuple(counts)


def test_float_pass_agrees_with_the_exact_one_at_three_live_seats() -> None:
    game = dealt_subgame(LUCKY9, (10,) + (3,) * 9, 3, "total", "37 cards")
    rng = np.random.default_rng(3)
    seats = [[[Fraction(int(rng.integers(0, 6)), 5) for _ in game.seat_classes]
              for _ in range(2**k)] for k in range(3)]
    bank = [[Fraction(int(rng.integers(0, 3)), 2) for _ in range(8)] for _ in game.bank_classes]
    exact_seats, exact_bank = exact_counterfactual(game, seats, bank)
    float_seats, float_bank = game.counterfactual(
        Float(), [np.array([[[1 - float(x), float(x)] for x in row] for row in rows])
                  for rows in seats],
        np.array([[[1 - float(y), float(y)] for y in row] for row in bank]))
    for exact_k, float_k in zip(exact_seats, float_seats, strict=True):
        assert np.allclose(np.array(exact_k, dtype=float), float_k, atol=1e-14)
    assert np.allclose(np.array(exact_bank, dtype=float), float_bank, atol=1e-14)
    reach_seats, reach_bank = game.reach(
        [np.array([[[1 - float(x), float(x)] for x in row] for row in rows]) for rows in seats])
    assert float(game.seat_reach(seats, 2, 3, 4)) == pytest.approx(reach_seats[2][3, 4])
    assert float(game.bank_reach(seats, 6, 1)) == pytest.approx(reach_bank[1, 6])


def test_the_joint_tables_and_the_walk_agree_at_two_live_seats() -> None:
    counts = tuple(Shoe.decks(1).value_counts())
    joint = finite_subgame(LUCKY9, counts, 2, "cards", "1 deck")
    walked = dealt_subgame(LUCKY9, counts, 2, "cards", "1 deck")
    assert joint.base_scale == walked.base_scale
    seats = [[[Fraction(c % 3, 2 + k) for c in range(50)] for _ in range(2**k)] for k in range(2)]
    bank = [[Fraction((c + v) % 2) for v in range(4)] for c in range(50)]
    assert exact_counterfactual(joint, seats, bank) == exact_counterfactual(walked, seats, bank)


def test_a_shoe_too_small_for_the_table_is_refused() -> None:
    with pytest.raises(AnalyzerError, match="too few cards"):
        dealt_subgame(LUCKY9, (4, 2, 0, 0, 0, 0, 0, 0, 0, 0), 3, "total", "six cards")
