"""Solving a subgame dealt with exact card removal: a warm start first, CFR+ only as needed.

Each CFR+ iteration on a subgame of three or four live seats at one deck is a pass over
every removed-card composition, and the exact closure (the indifference equations and
the exact best responses, :func:`~analyzer.choice.table.indifference.solve_subgame`) costs
a few passes per prime. So :func:`solve_dealt` spends iterations only where they are
needed:

1. A *warm start* -- the exact equilibrium of a subgame of the same shape (the same live
   seats with other naturals out of the shoe, or the smaller table's subgame without
   naturals) -- is closed directly: its support, read at this subgame's float values,
   goes to the indifference equations; when they certify, no iteration runs.
2. Otherwise CFR+ runs (:class:`~analyzer.choice.table.cfr.CfrState`) from the uniform
   start, or, when there was no warm start, with its first prediction *seeded* (the infinite
   deck's equilibrium by total played per holding): at 5 people by cards the four live
   seats' average then settles on the support in 150 iterations instead of 225, and on a
   support whose exact closure costs half as much. Every
   :data:`CHECK_EVERY` iterations from :data:`FIRST_CHECK` on the support the average
   shows (each cell's pure action or mixed) is compared with the previous check's: when
   it is stable, or the float regret is below :data:`CLOSE_REGRET`, the exact closure is
   tried; the search stops at the first certified closure, and after
   :data:`MAX_ITERATIONS` returns the exact profile with the smallest largest regret (a
   certified epsilon, labelled so by its regrets).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from analyzer.choice.table.cfr import CfrRun, CfrState, float_regrets
from analyzer.choice.table.exact.ring import Array
from analyzer.choice.table.indifference import SubgameSolution, classify, solve_subgame
from analyzer.choice.table.subgame import Subgame

__all__ = ["CHECK_EVERY", "CLOSE_REGRET", "FIRST_CHECK", "MAX_ITERATIONS", "solve_dealt",
           "WARM_METHOD"]

#: Iterations between two looks at the average's support.
CHECK_EVERY = 25
#: The first look.
FIRST_CHECK = 75
#: A float regret below this tries the closure even while the support still moves.
CLOSE_REGRET = 1e-7
#: The most iterations spent on one subgame.
MAX_ITERATIONS = 1500
#: How a warm-started subgame was solved.
WARM_METHOD = ("warm start: the exact equilibrium of a subgame of the same shape (other "
               "naturals out of the shoe, or the smaller table's), its support closed by "
               "the indifference equations solved exactly; certified by every side's exact "
               "best response")

Strategies = tuple[Sequence[Sequence[Sequence[Fraction]]], Sequence[Sequence[Fraction]]]


def _as_run(game: Subgame, start: Strategies) -> CfrRun:
    """Exact strategies as the float "average" the closure reads its support from."""
    seats = [np.stack([1 - np.asarray(rows, dtype=float), np.asarray(rows, dtype=float)],
                      axis=-1) for rows in start[0]]
    bank = np.asarray(start[1], dtype=float)
    bank_array: Array = np.stack([1 - bank, bank], axis=-1)
    regret = max(float_regrets(game, seats, bank_array))
    return CfrRun(tuple(seats), bank_array, 0, regret, 0.0, WARM_METHOD)


def _weights(start: Strategies) -> tuple[list[Array], Array]:
    """Exact draw probabilities as float action weights ``[..., stand, draw]``."""
    seats = [np.asarray(rows, dtype=float) for rows in start[0]]
    bank = np.asarray(start[1], dtype=float)
    return [np.stack([1 - s, s], axis=-1) for s in seats], np.stack([1 - bank, bank], axis=-1)


def _fits(game: Subgame, start: Strategies) -> bool:
    seats, bank = start
    classes = len(game.seat_classes)
    return (len(seats) == game.live and all(
        len(rows) == 2**k and all(len(r) == classes for r in rows)
        for k, rows in enumerate(seats))
        and len(bank) == len(game.bank_classes)
        and all(len(row) == game.vectors for row in bank))


def _support(game: Subgame, run: CfrRun) -> tuple[frozenset[object], frozenset[object]]:
    pure, mixed, _ = classify(game, run)
    return frozenset(pure.items()), frozenset(mixed)


def solve_dealt(game: Subgame, start: Strategies | None = None,
                seed: Strategies | None = None) -> SubgameSolution:
    """The subgame's certified equilibrium (see the module docstring), or the exact profile
    with the smallest largest regret when none certifies within :data:`MAX_ITERATIONS`;
    ``seed``: the CFR+ search's first prediction when ``start`` does not fit."""
    begin = time.perf_counter()
    best: SubgameSolution | None = None
    if start is not None and _fits(game, start):
        best = _close(game, _as_run(game, start), 3, False)
        if best is not None and best.certified:
            return _timed(best, begin, WARM_METHOD)
    # seeded only without a fitting warm start: measured at 5 people by cards, seeding with
    # the smaller table's equilibrium (3 live seats) took 200-250 iterations where the
    # uniform start took 100-125, the infinite deck's seed (4 live seats) 150 for 225
    seeded = seed is not None and _fits(game, seed) and not (start is not None
                                                             and _fits(game, start))
    state = CfrState(game, _weights(seed) if seeded and seed is not None else None)
    previous: tuple[frozenset[object], frozenset[object]] | None = None
    tried: set[tuple[frozenset[object], frozenset[object]]] = set()
    while state.done < MAX_ITERATIONS:
        state.advance(FIRST_CHECK if not state.done else CHECK_EVERY)
        run = state.snapshot()
        support = _support(game, run)
        stable = support == previous or run.regret <= CLOSE_REGRET
        previous = support
        if not stable or support in tried:
            continue
        tried.add(support)
        found = _close(game, run, 6, state.done >= MAX_ITERATIONS)
        if found is not None and (best is None or found.max_regret < best.max_regret):
            best = found
        if found is not None and found.certified:
            break
    if best is None:
        best = solve_subgame(game, run=state.snapshot(), max_rounds=6)
    return _timed(best, begin, best.method)


def _close(game: Subgame, run: CfrRun, rounds: int, search: bool) -> SubgameSolution | None:
    """The exact closure of ``run``'s support, or None when no exact profile could be
    assembled from it (every round left an unknown outside [0, 1])."""
    try:
        return solve_subgame(game, run=run, max_rounds=rounds, search=search)
    except RuntimeError:
        return None


def _timed(found: SubgameSolution, begin: float, method: str) -> SubgameSolution:
    return SubgameSolution(
        game=found.game, seats=found.seats, bank=found.bank, values=found.values,
        regrets=found.regrets, mixed=found.mixed, free=found.free, cfr=found.cfr,
        rounds=found.rounds, seconds=time.perf_counter() - begin, method=method)
