"""Exact regrets: zero at the equilibrium, positive after any profitable deviation."""

from __future__ import annotations

from fractions import Fraction

from analyzer.choice.table.exact.evaluation import exact_regrets
from analyzer.choice.table.indifference import solve_subgame
from analyzer.choice.table.subgame import infinite_subgame
from analyzer.choice.table.tree import LUCKY9


def test_a_deviation_shows_as_exact_regret() -> None:
    game = infinite_subgame(LUCKY9, 2, "total")
    found = solve_subgame(game)
    seats = [[list(r) for r in rows] for rows in found.seats]
    bank = [list(r) for r in found.bank]
    assert exact_regrets(game, seats, bank)[1] == (0, 0, 0)
    seats[0][0][4] = Fraction(0)  # seat 1 stands on 4
    values, regrets, gaining = exact_regrets(game, seats, bank)
    assert regrets[0] > 0 and (0, 0, 4) in gaining
    assert values[0] < found.values[0]
