"""CFR+ finds a near-equilibrium whose float regret is small and shrinks."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.choice.table.cfr import CfrRun, CfrState, cfr_plus, float_regrets, uniform
from analyzer.choice.table.subgame import infinite_subgame
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError


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


class _Cut(Exception):
    """The run was stopped (a session's end) right after a check."""


class _Kept:
    """A checkpoint in memory that stops the run after its ``cut_after``-th save."""

    def __init__(self, cut_after: int | None) -> None:
        self.arrays: dict[str, np.ndarray] | None = None
        self.saves, self.cut_after = 0, cut_after

    def load(self) -> dict[str, np.ndarray] | None:
        return None if self.arrays is None else {k: v.copy() for k, v in self.arrays.items()}

    def save(self, arrays: dict[str, np.ndarray]) -> None:
        self.arrays = {k: np.array(v) for k, v in arrays.items()}
        self.saves += 1
        if self.saves == self.cut_after:
            raise _Cut


def _same(one: CfrRun, other: CfrRun) -> bool:
    return (one.iterations == other.iterations and one.regret == other.regret
            and np.array_equal(one.bank, other.bank)
            and all(np.array_equal(a, b) for a, b in zip(one.seats, other.seats, strict=True)))


def test_a_run_cut_after_a_check_resumes_there_with_the_same_floats() -> None:
    game = infinite_subgame(LUCKY9, 2, "total")
    near = cfr_plus(game, iterations=40)
    start = ([s.copy() for s in near.seats], near.bank.copy())
    whole = cfr_plus(game, 15, 0.0, 5, start, inertia=0.05)
    kept = _Kept(cut_after=1)
    with pytest.raises(_Cut):
        cfr_plus(game, 15, 0.0, 5, start, inertia=0.05, checkpoint=kept)
    assert kept.arrays is not None and int(kept.arrays["done"][0]) == 5
    kept.cut_after, kept.saves = None, 0
    resumed = cfr_plus(game, 15, 0.0, 5, start, inertia=0.05, checkpoint=kept)
    assert kept.saves == 2  # the checks at 10 and 15 only: iterations 1-5 were not run again
    assert _same(resumed, whole) and whole.iterations == 15
    # the warm start's own regret, measured once and carried through the cut
    assert resumed.start_regret == whole.start_regret == max(float_regrets(game, *start))
    # a state that does not fit the subgame is refused, not played
    other = infinite_subgame(LUCKY9, 3, "total")
    with pytest.raises(AnalyzerError, match="kept CFR\\+ state: .* of another shape"):
        cfr_plus(other, 15, 0.0, 5, checkpoint=kept)


def test_a_run_cut_after_reaching_its_tolerance_stops_when_resumed() -> None:
    game = infinite_subgame(LUCKY9, 2, "total")
    tolerance = cfr_plus(game, 10, 0.0, 5).regret  # reached at the second check
    whole = cfr_plus(game, 500, tolerance, 5)
    assert whole.iterations == 10
    kept = _Kept(cut_after=2)
    with pytest.raises(_Cut):
        cfr_plus(game, 500, tolerance, 5, checkpoint=kept)
    kept.cut_after, kept.saves = None, 0
    resumed = cfr_plus(game, 500, tolerance, 5, checkpoint=kept)
    assert kept.saves == 0 and _same(resumed, whole)
