"""Certified subgame equilibria: the direct solve and the search fallback."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.choice.headsup.solver import solve
from analyzer.choice.table.cfr import cfr_plus
from analyzer.choice.table.indifference import (
    GIVEN_METHOD,
    _search,
    certify_given,
    classify,
    solve_subgame,
)
from analyzer.choice.table.subgame import finite_subgame, infinite_subgame
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.shoe import Shoe


@pytest.mark.parametrize("live", [1, 2, 3])
def test_small_subgames_certify_in_one_round(live: int) -> None:
    found = solve_subgame(infinite_subgame(LUCKY9, live, "total"))
    assert found.certified and found.max_regret == 0 and found.rounds == 1
    assert found.values[-1] == -sum(found.values[:-1], Fraction(0))


def test_three_live_seats_mix_exactly_as_published() -> None:
    found = solve_subgame(infinite_subgame(LUCKY9, 3, "total"))
    assert found.seats[1][0][5] == Fraction(32, 65)  # seat 2 after a stand, holding 5
    assert found.bank[6][0] == Fraction(121635, 146432)  # the bank's 6 after three stands
    assert found.mixed == ((1, 0, 5), (3, 0, 6)) and found.free == ()


def test_the_search_finds_a_support_from_the_cells_nearest_indifference() -> None:
    game = finite_subgame(LUCKY9, Shoe.decks(2).value_counts(), 1, "cards", "2 decks")
    run = cfr_plus(game, 2000, 1e-7)
    pure, mixed, advantages = classify(game, run)
    # Forget what the direct solve would use: pure everywhere, then search.
    for cell in mixed:
        pure[cell] = Fraction(0)
    found = _search(game, run, pure, set(), advantages, 0.0)
    assert found is not None and found.certified
    assert found.values == solve_subgame(game, run=run).values


def test_cfr_path_agrees_with_the_heads_up_solver_at_a_finite_shoe() -> None:
    """Tables solve one live seat at a finite shoe with the heads-up LP; the CFR+ path gives
    the same exact equilibrium."""
    shoe = Shoe.decks(1)
    game = finite_subgame(LUCKY9, shoe.value_counts(), 1, "total", "1 deck")
    found = solve_subgame(game)
    heads_up = solve("lucky9-home", shoe, "total")
    assert found.certified
    assert [found.seats[0][0][i] for i in range(9)] == [p.draw for p in heads_up.player]


def test_given_strategies_are_taken_only_where_they_certify_again() -> None:
    game = infinite_subgame(LUCKY9, 2, "total")
    solution = solve_subgame(game)
    again = certify_given(game, (solution.seats, solution.bank))
    assert again is not None and again.values == solution.values and not any(again.regrets)
    assert again.mixed == solution.mixed and again.method == GIVEN_METHOD
    # the bank always drawing is no equilibrium: refused (a seat gains by standing more)
    always = [[Fraction(1)] * len(row) for row in solution.bank]
    assert certify_given(game, (solution.seats, always)) is None
    # strategies of another subgame's shape do not fit
    assert certify_given(game, (solution.seats[:1], solution.bank)) is None
