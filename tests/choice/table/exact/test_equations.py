"""The indifference equations: exact polynomials and linear systems."""

from __future__ import annotations

from fractions import Fraction

from analyzer.choice.table.exact.equations import bank_equations, solve_linear, solve_polynomials
from analyzer.choice.table.subgame import infinite_subgame
from analyzer.choice.table.tree import LUCKY9


def test_heads_up_bank_indifference_is_affine_in_the_players_mix() -> None:
    game = infinite_subgame(LUCKY9, 1, "total")
    known = {(0, 0, c): Fraction(int(c <= 4)) for c in range(9) if c != 5}
    cell = (1, 0, 6)  # the bank holding 6 after a stand
    equations = bank_equations(game, known, [(0, 0, 5)], [cell])
    assert set(equations[cell]) <= {(), ((0, 0, 5),)}
    values, free, dropped = solve_polynomials(equations, [(0, 0, 5)], {(0, 0, 5): Fraction(1)})
    assert values == {(0, 0, 5): Fraction(6, 11)} and not free and not dropped


def test_linear_systems_free_columns_take_their_hints() -> None:
    rows = [[Fraction(1), Fraction(1)], [Fraction(2), Fraction(2)]]
    solution = solve_linear(rows, [Fraction(1), Fraction(2)], [Fraction(1, 3)] * 2)
    assert solution == ([Fraction(2, 3), Fraction(1, 3)], [1])
    assert solve_linear(rows, [Fraction(1), Fraction(3)], [Fraction(0)] * 2) is None
