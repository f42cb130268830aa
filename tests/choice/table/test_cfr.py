"""CFR+ finds a near-equilibrium whose float regret is small and shrinks."""

from __future__ import annotations

from analyzer.choice.table.cfr import cfr_plus, float_regrets, uniform
from analyzer.choice.table.subgame import infinite_subgame
from analyzer.choice.table.tree import LUCKY9


def test_regret_shrinks_and_the_support_shows() -> None:
    game = infinite_subgame(LUCKY9, 2, "total")
    start = max(float_regrets(game, *uniform(game)))
    run = cfr_plus(game, iterations=300)
    assert run.regret < 1e-6 < start
    # seat 1 mixes on 5 (24/25), seat 2 after a stand stands on 5 and after a draw draws
    assert abs(run.seats[0][0, 5, 1] - 24 / 25) < 1e-3
    assert run.seats[1][0, 5, 1] < 1e-3 < 1 - 1e-3 < run.seats[1][1, 5, 1]


def test_early_stop_at_the_tolerance() -> None:
    run = cfr_plus(infinite_subgame(LUCKY9, 1, "total"), iterations=5000, tolerance=1e-6)
    assert run.iterations < 5000 and run.regret <= 1e-6
