"""Other equilibria of a table: CFR+ from seeded random starts, where the indifference
equations left a continuum, and how far each seat's value is from the reported one's.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> from analyzer.choice.table.solve import solve_table
>>> [a.bank_difference for a in alternatives(solve_table(LUCKY9, Shoe.infinite(), 2, "total"))]
[Fraction(0, 1), Fraction(0, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.choice.table.cfr import cfr_plus, uniform
from analyzer.choice.table.indifference import SubgameSolution, solve_subgame
from analyzer.choice.table.solve import (
    SubgameKey,
    TableEquilibrium,
    TableValues,
    combine,
)

__all__ = ["Alternative", "alternatives"]


@dataclass(frozen=True)
class Alternative:
    """Another equilibrium of the same table, reached by CFR+ from a random start: its
    values, regrets, and how far each seat's value is from the reported equilibrium's."""

    seed: int
    values: TableValues
    seat_differences: tuple[Fraction, ...]
    bank_difference: Fraction


def alternatives(table: TableEquilibrium, starts: int = 2, seed: int = 1,
                 iterations: int = 3000) -> tuple[Alternative, ...]:
    """Re-solve every subgame the equations left a continuum in, from ``starts`` random CFR+
    starts (seeded, at most ``iterations`` each), and compare the seats' values with the
    reported equilibrium's (the bank's stays the same across such a continuum; the check
    confirms it). An alternative whose ``values.max_regret`` is not 0 did not certify: its
    differences bound nothing."""
    rng = np.random.default_rng(seed)
    found = []
    for index in range(starts):
        state = int(rng.integers(2**31))
        solved: dict[SubgameKey, SubgameSolution] = {}
        for result in table.subgames:
            if not result.solution.free:
                solved[result.key] = result.solution
                continue
            game = result.solution.game
            start_rng = np.random.default_rng(state + index)
            seats, bank = uniform(game)
            start = ([start_rng.random(s.shape) for s in seats], start_rng.random(bank.shape))
            run = cfr_plus(game, iterations, 1e-7, start=start)
            solved[result.key] = solve_subgame(game, run=run, max_rounds=3)

        def lookup(key: SubgameKey, solved: dict[SubgameKey, SubgameSolution] = solved,
                   ) -> tuple[Sequence[Fraction], Sequence[Fraction]]:
            return solved[key].values, solved[key].regrets

        values = combine(table.patterns, table.players, lookup, table.payoffs)
        found.append(Alternative(state, values,
                                 tuple(a - b for a, b in zip(values.seats, table.seat_values,
                                                             strict=True)),
                                 values.bank - table.bank_value))
    return tuple(found)
