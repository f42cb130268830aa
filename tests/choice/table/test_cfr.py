"""CFR+ finds a near-equilibrium whose float regret is small and shrinks."""

from __future__ import annotations

import numpy as np

from analyzer.choice.table.cfr import CfrState, cfr_plus, float_regrets, uniform
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


def test_a_warm_start_plays_the_start_first_and_keeps_the_best_average() -> None:
    game = infinite_subgame(LUCKY9, 2, "total")
    near = cfr_plus(game, iterations=40)  # a rough start: its regret is not yet small
    start = ([s.copy() for s in near.seats], near.bank.copy())
    begin = max(float_regrets(game, *start))
    state = CfrState(game, start, inertia=0.05)
    state.advance(1)
    # the first iteration plays the start wherever the start reaches (regrets seeded by it)
    first = state.average()
    reach, _ = game.reach(start[0])
    for played, wanted, seen in zip(first[0], start[0], reach, strict=True):
        assert np.allclose(played[seen > 0], wanted[seen > 0])
    run = cfr_plus(game, 60, 1e-12, 5, start, inertia=0.05)
    assert run.iterations == 60 and run.regret < begin / 10
    # nothing to improve: no iteration leaves the start, which is returned as it was
    kept = cfr_plus(game, 0, 1e-12, 5, start, inertia=0.05)
    assert kept.iterations == 0 and kept.regret == begin
    assert all(np.array_equal(a, b) for a, b in zip(kept.seats, start[0], strict=True))
