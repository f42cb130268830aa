"""Exact equilibria of a subgame: the support from CFR+, the indifference equations solved
exactly, every side's exact best response as the certificate.

1. :func:`~analyzer.choice.table.cfr.cfr_plus` gives floating-point average strategies. An
   information set is taken as *mixed* when its average is strictly inside (1e-4, 1 - 1e-4)
   and its normalised advantage (counterfactual value of drawing minus standing, per unit
   of reach) is below 1e-4; every other one plays its float best action.
2. A mixed bank cell makes the bank indifferent, which is an equation in the seats'
   unknowns only; a mixed seat cell makes that seat indifferent, an equation affine in the
   bank's unknowns once the seats' are known. Every counterfactual value is affine in each
   side's strategy (each side chooses once on any path), so each equation is recovered
   exactly from exact evaluations at 0/1 settings of the unknowns (multilinear
   interpolation, :mod:`analyzer.choice.table.exact.equations`). The seats' system is
   solved by elimination (an equation with one unknown left is affine in it), falling back
   to ``sympy.solve``;
   the bank's is linear. Unknowns the equations leave free (a continuum of equilibria)
   take the simplest fraction within 1/1000 of the CFR+ average: *that* is the equilibrium
   reported.
3. :func:`~analyzer.choice.table.exact.evaluation.exact_regrets` computes every side's exact
   counterfactual values (residues modulo primes, :mod:`analyzer.choice.table.exact.ring`)
   and its exact regret;
   ``certified`` means every regret is exactly 0. When a round fails (an unknown outside
   [0, 1], an inconsistent equation, a positive regret), the support is repaired -- an
   out-of-range unknown is pinned to its bound, a cell with positive regret joins the
   unknowns -- and solved again; if no round certifies, a search tries small supports among
   the cells nearest indifference (several holdings nearly tied, as by cards at 8 decks).

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.choice.table.subgame import infinite_subgame
>>> found = solve_subgame(infinite_subgame(LUCKY9, 1, "total"))
>>> found.certified, found.seats[0][0][5], found.bank[6][0]
(True, Fraction(6, 11), Fraction(587, 2288))
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.choice.table.cfr import METHOD as CFR_METHOD
from analyzer.choice.table.cfr import CfrRun, cfr_plus
from analyzer.choice.table.exact.equations import (
    bank_equations,
    seat_equations,
    solve_linear,
    solve_polynomials,
)
from analyzer.choice.table.exact.evaluation import Cell, assemble, exact_regrets
from analyzer.choice.table.exact.ring import Float
from analyzer.choice.table.subgame import Subgame

__all__ = ["certify_given", "classify", "GIVEN_METHOD", "METHOD", "MIXED_ADVANTAGE", "MIXED_MARGIN",
           "SEARCH_CELLS", "solve_subgame", "Strategies", "SubgameSolution"]

MIXED_ADVANTAGE = 1e-4
MIXED_MARGIN = 1e-4
METHOD = (f"{CFR_METHOD} for the support; indifference equations solved exactly; certified "
          "by every side's exact best response")


@dataclass(frozen=True, eq=False)
class SubgameSolution:
    """An exact strategy profile of a subgame with its exact values and regrets.

    ``seats[k][e][c]``: live seat ``k``'s draw probability holding class ``c`` after the
    earlier live seats' choices ``e`` (binary, seat order, 1 = drew); ``bank[c][v]``: the
    bank's after the choice vector ``v``. ``values``: each seat's expected result per unit
    staked in this subgame, then the bank's net; ``regrets`` likewise. ``free``: cells whose
    value was chosen among a continuum of equilibria.
    """

    game: Subgame
    seats: tuple[tuple[tuple[Fraction, ...], ...], ...]
    bank: tuple[tuple[Fraction, ...], ...]
    values: tuple[Fraction, ...]
    regrets: tuple[Fraction, ...]
    mixed: tuple[Cell, ...]
    free: tuple[Cell, ...]
    cfr: CfrRun
    rounds: int
    seconds: float
    method: str = METHOD

    @property
    def certified(self) -> bool:
        """Zero exact regret for every side: an exact equilibrium of the subgame."""
        return all(r == 0 for r in self.regrets)

    @property
    def max_regret(self) -> Fraction:
        """The largest side's exact regret (a certified epsilon when not zero)."""
        return max(self.regrets)


# -- exact evaluation ---------------------------------------------------------------------------
# -- the support ----------------------------------------------------------------------------------
def classify(game: Subgame, run: CfrRun,
              ) -> tuple[dict[Cell, Fraction], set[Cell], dict[Cell, float]]:
    """Pure cells with their action, the mixed cells, and every free cell's normalised
    advantage, read off the CFR+ average."""
    seats = list(run.seats)
    seat_cf, bank_cf = game.counterfactual(Float(), seats, run.bank)
    seat_reach, bank_reach = game.reach(seats)
    pure: dict[Cell, Fraction] = {}
    mixed: set[Cell] = set()
    advantages: dict[Cell, float] = {}
    forced_seat, forced_bank = game.seat_forced(), game.bank_forced()

    def judge(cell: Cell, average: float, advantage: float, reach: float,
              forced: int | None) -> None:
        if forced is not None:
            pure[cell] = Fraction(forced)
            return
        if reach <= 0:  # never reached (an impossible holding): any play is a best response
            pure[cell] = Fraction(int(average > 0.5))
            return
        normal = advantage / reach
        advantages[cell] = normal
        if MIXED_MARGIN < average < 1 - MIXED_MARGIN and abs(normal) < (
                MIXED_ADVANTAGE if min(average, 1 - average) < 1e-3 else 100 * MIXED_ADVANTAGE):
            mixed.add(cell)
        elif abs(normal) >= MIXED_ADVANTAGE:
            pure[cell] = Fraction(int(normal > 0))
        else:
            pure[cell] = Fraction(int(average > 0.5))

    for k in range(game.live):
        for e in range(2**k):
            for c in range(len(game.seat_classes)):
                judge((k, e, c), float(seats[k][e, c, 1]),
                      float(seat_cf[k][e, c, 1] - seat_cf[k][e, c, 0]),
                      float(seat_reach[k][e, c]), forced_seat[c])
    for c in range(len(game.bank_classes)):
        for v in range(game.vectors):
            judge((game.live, v, c), float(run.bank[c, v, 1]),
                  float(bank_cf[c, v, 1] - bank_cf[c, v, 0]), float(bank_reach[c, v]),
                  forced_bank[c])
    return pure, mixed, advantages


def _simple(value: float) -> Fraction:
    return Fraction(min(max(value, 0.0), 1.0)).limit_denominator(1000)


def _hint_exact(run: CfrRun, cell: Cell, live: int) -> float:
    side, context, c = cell
    array = run.bank[c, context] if side == live else run.seats[side][context, c]
    return float(array[1])


def _hint(run: CfrRun, cell: Cell, live: int) -> Fraction:
    return _simple(_hint_exact(run, cell, live))


def solve_subgame(game: Subgame, iterations: int = 20000, tolerance: float = 1e-7,
                  run: CfrRun | None = None, max_rounds: int = 10,
                  search: bool = True) -> SubgameSolution:
    """The subgame's exact equilibrium, certified (see the module docstring); when no round
    certifies, the exact profile with the smallest largest regret, which is then a
    certified epsilon (``search``: after trying small supports near indifference, which
    costs many exact evaluations)."""
    begin = time.perf_counter()
    run = run if run is not None else cfr_plus(game, iterations, tolerance)
    pure, mixed, advantages = classify(game, run)
    m = game.live
    flips: dict[Cell, int] = {}
    best: SubgameSolution | None = None
    for round_number in range(1, max_rounds + 1):
        hints = {cell: _hint(run, cell, m) for cell in mixed}
        seat_unknown = sorted(c for c in mixed if c[0] < m)
        bank_unknown = sorted(c for c in mixed if c[0] == m)
        seat_pure = {c: v for c, v in pure.items() if c[0] < m}
        bank_pure = {c: v for c, v in pure.items() if c[0] == m}
        equations = bank_equations(game, seat_pure, seat_unknown, bank_unknown) if (
            bank_unknown) else {}
        seat_values, free, dropped = solve_polynomials(equations, seat_unknown, hints)
        for cell, residual in dropped.items():
            mixed.discard(cell)
            pure[cell] = Fraction(int(residual > 0))
            bank_unknown.remove(cell)
            bank_pure[cell] = pure[cell]
        outside = [c for c, v in seat_values.items() if not 0 <= v <= 1]
        if outside:
            for cell in outside:
                mixed.discard(cell)
                pure[cell] = Fraction(int(seat_values[cell] > 1))
            continue
        seat_known = seat_pure | seat_values
        rows, rhs = seat_equations(game, seat_known, bank_pure, bank_unknown, seat_unknown)
        solved = solve_linear(rows, rhs, [hints[c] for c in bank_unknown])
        if solved is None:
            # No bank mix makes every mixed seat indifferent: pin the seat cell closest to
            # a pure play.
            cell = min(seat_unknown, key=lambda c: min(seat_values[c], 1 - seat_values[c]))
            mixed.discard(cell)
            pure[cell] = Fraction(int(seat_values[cell] > Fraction(1, 2)))
            continue
        bank_values = dict(zip(bank_unknown, solved[0], strict=True))
        free += [bank_unknown[i] for i in solved[1]]
        outside = [c for c, v in bank_values.items() if not 0 <= v <= 1]
        if outside:
            for cell in outside:
                mixed.discard(cell)
                pure[cell] = Fraction(int(bank_values[cell] > 1))
            continue
        seats, bank = assemble(game, seat_known | bank_pure | bank_values)
        values, regrets, gaining = exact_regrets(game, seats, bank)
        found = SubgameSolution(
            game=game, seats=tuple(tuple(tuple(r) for r in s) for s in seats),
            bank=tuple(tuple(r) for r in bank), values=values, regrets=regrets,
            mixed=tuple(sorted(mixed)), free=tuple(sorted(free)), cfr=run,
            rounds=round_number, seconds=time.perf_counter() - begin)
        if best is None or found.max_regret < best.max_regret:
            best = found
        if found.certified:
            return found
        for cell in gaining:
            if cell in mixed:
                continue
            flips[cell] = flips.get(cell, 0) + 1
            if flips[cell] > 1 or 1e-6 < float(_hint_exact(run, cell, m)) < 1 - 1e-6:
                mixed.add(cell)
                pure.pop(cell, None)
            else:
                pure[cell] = 1 - pure[cell]
    searched = _search(game, run, *classify(game, run), begin) if search else None
    if searched is not None and (best is None or searched.max_regret < best.max_regret):
        best = searched
    if best is None:
        raise RuntimeError("no exact profile could be assembled from the CFR+ support")
    return best


#: The search tries supports among this many cells of each kind nearest indifference.
SEARCH_CELLS = 8


def _search(game: Subgame, run: CfrRun, pure: dict[Cell, Fraction], mixed: set[Cell],
            advantages: dict[Cell, float], begin: float) -> SubgameSolution | None:
    """Fallback when the direct solve fails (several cells nearly indifferent, as by cards
    at a large shoe): try supports of one or two seat cells and as many bank cells among
    the cells nearest indifference, the other cells pure at their exact best response."""
    m = game.live
    base = dict(pure)
    base.update({cell: Fraction(int(_hint_exact(run, cell, m) > 0.5)) for cell in mixed})
    ranked = sorted(advantages, key=lambda c: abs(advantages[c]))
    seat_cells = [c for c in ranked if c[0] < m][:SEARCH_CELLS]
    bank_cells = [c for c in ranked if c[0] == m][:SEARCH_CELLS]
    hints = {cell: _hint(run, cell, m) for cell in advantages}
    best: SubgameSolution | None = None
    for size in (1, 2):
        pairs = sorted(((s, b) for s in itertools.combinations(seat_cells, size)
                        for b in itertools.combinations(bank_cells, size)),
                       key=lambda p: sum(seat_cells.index(c) for c in p[0])
                       + sum(bank_cells.index(c) for c in p[1]))
        for seat_support, bank_support in pairs:
            found = _try_support(game, run, dict(base), list(seat_support),
                                 list(bank_support), hints, begin)
            if found is not None and (best is None or found.max_regret < best.max_regret):
                best = found
                if found.certified:
                    return found
    return best


def _try_support(game: Subgame, run: CfrRun, current: dict[Cell, Fraction],
                 seat_support: list[Cell], bank_support: list[Cell],
                 hints: dict[Cell, Fraction], begin: float) -> SubgameSolution | None:
    """Solve with exactly these mixed cells, every other cell at its exact best response
    (iterated a few times); None when the equations have no solution in [0, 1]."""
    m = game.live
    found: SubgameSolution | None = None
    for round_number in range(1, 5):
        seat_known = {c: v for c, v in current.items() if c[0] < m and c not in seat_support}
        bank_known = {c: v for c, v in current.items() if c[0] == m and c not in bank_support}
        equations = bank_equations(game, seat_known, seat_support, bank_support)
        seat_values, free, dropped = solve_polynomials(equations, seat_support, hints)
        if free or dropped or not all(0 <= v <= 1 for v in seat_values.values()):
            return found
        rows, rhs = seat_equations(game, seat_known | seat_values, bank_known, bank_support,
                                    seat_support)
        solved = solve_linear(rows, rhs, [hints[c] for c in bank_support])
        if solved is None or solved[1] or not all(0 <= v <= 1 for v in solved[0]):
            return found
        current = seat_known | seat_values | bank_known | dict(zip(bank_support, solved[0],
                                                                   strict=True))
        seats, bank = assemble(game, current)
        values, regrets, gaining = exact_regrets(game, seats, bank)
        found = SubgameSolution(
            game=game, seats=tuple(tuple(tuple(r) for r in s) for s in seats),
            bank=tuple(tuple(r) for r in bank), values=values, regrets=regrets,
            mixed=tuple(sorted(seat_support + bank_support)), free=(), cfr=run,
            rounds=round_number, seconds=time.perf_counter() - begin,
            method=METHOD + "; support found by search among the cells nearest indifference")
        if found.certified:
            return found
        flipped = [c for c in gaining if c not in seat_support and c not in bank_support]
        if not flipped:
            return found
        for cell in flipped:
            current[cell] = 1 - current[cell]
    return found


#: A subgame's strategies: the seats' ``[k][earlier][class]`` and the bank's ``[class][vector]``
#: draw probabilities.
Strategies = tuple[Sequence[Sequence[Sequence[Fraction]]], Sequence[Sequence[Fraction]]]
#: How a subgame taken from strategies found earlier was checked.
GIVEN_METHOD = ("an equilibrium found earlier (published by nine tables), certified again "
                "by every side's exact best response")


def certify_given(game: Subgame, strategies: Strategies, method: str = GIVEN_METHOD,
                  origin: str = "none: strategies given",
                  zero: bool = True) -> SubgameSolution | None:
    """The subgame at ``strategies`` (found earlier, e.g. published), certified again by
    every side's exact best response; None where they do not fit it or (with ``zero``) a
    regret is not 0 -- without ``zero`` the regrets are kept as found (an epsilon)."""
    begin = time.perf_counter()
    seats = [[list(row) for row in rows] for rows in strategies[0]]
    bank = [list(row) for row in strategies[1]]
    classes = len(game.seat_classes)
    if (len(seats) != game.live or any(len(rows) != 2**k or any(len(r) != classes for r in rows)
                                       for k, rows in enumerate(seats))
            or len(bank) != len(game.bank_classes)
            or any(len(row) != game.vectors for row in bank)
            or any(not 0 <= v <= 1 for rows in seats for r in rows for v in r)
            or any(not 0 <= v <= 1 for row in bank for v in row)):
        return None
    values, regrets, _ = exact_regrets(game, seats, bank)
    if zero and any(regrets):
        return None
    mixed = [(k, e, c) for k, rows in enumerate(seats) for e, r in enumerate(rows)
             for c, v in enumerate(r) if 0 < v < 1]
    mixed += [(game.live, v, c) for c, row in enumerate(bank) for v, x in enumerate(row)
              if 0 < x < 1]
    return SubgameSolution(
        game=game, seats=tuple(tuple(tuple(r) for r in rows) for rows in seats),
        bank=tuple(tuple(r) for r in bank), values=values, regrets=regrets,
        mixed=tuple(sorted(mixed)), free=(),
        cfr=CfrRun((), np.zeros(0), 0, 0.0, 0.0, origin), rounds=1,
        seconds=time.perf_counter() - begin, method=method)
