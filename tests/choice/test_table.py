"""The exact weights of a table of several players, checked against the heads-up game and
against dealing every card sequence."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from analyzer.choice.game import build_game
from analyzer.choice.plans import (
    BankerPlan,
    banker_from_function,
    banker_from_strategy,
    house_player,
)
from analyzer.choice.responses import (
    banker_best_response,
    dynamics,
    player_best_response,
    regrets,
    seat_values,
)
from analyzer.choice.simulation import play_hand
from analyzer.choice.solver import evaluate_game, solve_game
from analyzer.choice.strategy import banker_vector, load_strategy, player_vector
from analyzer.choice.table import build_table
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS
from analyzer.rules.shoe import Shoe
from tests.choice.conftest import RULES, TINY, random_informed, table


def _heads_up_profile(shoe: Shoe) -> tuple[tuple[Fraction, ...], BankerPlan, Fraction]:
    """The heads-up solver's certified equilibrium as table strategies."""
    game = build_game(RULES, shoe, "cards")
    equilibrium = solve_game(game)
    player = dict.fromkeys(HANDS, Fraction(0))
    for choice, info in zip(equilibrium.player, game.player_sets, strict=True):
        player.update(dict.fromkeys(info.hands, choice.draw))
    banker = {(hand, cell.observation): choice.draw
              for choice, cell in zip(equilibrium.banker, game.banker_cells, strict=True)
              for hand in cell.hands}

    def rule(hand: tuple[int, int], seen: tuple[str, ...]) -> Fraction:
        return banker.get((hand, "drew" if seen[0] == "drew" else "stood"), Fraction(0))

    return tuple(player[h] for h in HANDS), banker_from_function(1, rule), equilibrium.value


@pytest.mark.parametrize("decks", [0, 1])
def test_one_player_gives_the_heads_up_value_exactly(decks: int) -> None:
    shoe = Shoe.infinite() if decks == 0 else Shoe.decks(1)
    game = table(decks, 1)
    heads_up = build_game(RULES, shoe, "cards")
    stand_five = load_strategy("house", "player")
    banker = load_strategy("house", "banker")
    pair = evaluate_game(heads_up, player_vector(stand_five, heads_up),
                         banker_vector(banker, heads_up))
    values = seat_values(game, [house_player()], banker_from_strategy(game, banker))
    assert values.players == (pair.value,) == (Fraction(0),)
    # The banker's best response to the house rule: the heads-up solver's figure.
    _, banker_best = banker_best_response(game, [house_player()])
    assert banker_best == -pair.banker_best_response
    assert banker_best == (Fraction(3584, 371293) if decks == 0
                           else Fraction(1237841, 114516675))
    plan, bank, value = _heads_up_profile(shoe)
    assert seat_values(game, [plan], bank).players[0] == value
    if decks == 0:  # zero regret at the certified equilibrium (one deck: same code, slower)
        found = regrets(game, [plan], bank)
        assert found.players == (0,) and found.banker == 0
        assert dynamics(game, [plan], bank, rounds=3).equilibrium


def _deal_every_sequence(plans: list[Any], bank: BankerPlan) -> tuple[list[int], int]:
    """Both seats' summed results over every ordered deal of nine values from the tiny shoe,
    each played by :func:`play_hand`, and the number of deals (independent of the weights)."""
    counts = Counter(v for v, n in enumerate(TINY.value_counts()) for _ in range(n))
    totals = [0, 0]
    deals = 0

    def deal(sequence: list[int], ways: int) -> None:
        nonlocal deals
        if len(sequence) == 9:
            results, _ = play_hand(sequence, plans, bank, RULES, random.Random(0))
            for seat in range(2):
                totals[seat] += ways * results[seat]
            deals += ways
            return
        for value, left in list(counts.items()):
            if left:
                counts[value] -= 1
                deal([*sequence, value], ways * left)
                counts[value] += 1

    deal([], 1)
    return totals, deals


def test_three_people_match_dealing_every_card_sequence() -> None:
    game = build_table(RULES, TINY, 2)
    rng = random.Random(3)
    plans = [tuple(Fraction(rng.randint(0, 1)) for _ in HANDS) for _ in range(2)]
    bank = BankerPlan(2, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(9))
                               for _ in HANDS))
    values = seat_values(game, plans, bank)
    totals, deals = _deal_every_sequence(plans, bank)
    assert deals == 10 * 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2
    assert values.players == (Fraction(totals[0], deals), Fraction(totals[1], deals))
    assert values.players[0] != values.players[1]  # this banker plan treats seats unequally
    assert values.banker == -sum(values.players)


def test_informed_strategies_match_dealing_every_card_sequence() -> None:
    # Both seats' exact values when seat 2's strategy reads seat 1's natural / drew / stood
    # (exact card removal), checked by playing every deal of the tiny shoe.
    game = build_table(RULES, TINY, 2)
    rng = random.Random(7)
    plans = [tuple(Fraction(rng.randint(0, 1)) for _ in HANDS), random_informed(rng, 1)]
    assert plans[1].uses_earlier_choices
    bank = BankerPlan(2, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(9))
                               for _ in HANDS))
    values = seat_values(game, plans, bank)
    totals, deals = _deal_every_sequence(plans, bank)
    assert values.players == (Fraction(totals[0], deals), Fraction(totals[1], deals))
    # The banker's and seat 1's best responses see seat 2's informed play.
    _, banker_best = banker_best_response(game, plans)
    assert banker_best >= values.banker
    _, first = player_best_response(game, plans, bank, 0)
    assert first >= values.players[0]


def test_exact_tables_have_limits() -> None:
    with pytest.raises(AnalyzerError, match="exact card removal"):
        build_table(RULES, Shoe.decks(1), 3)
    with pytest.raises(AnalyzerError, match="seats 1 to 8"):
        build_table(RULES, Shoe.infinite(), 9)
