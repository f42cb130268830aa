"""Exact equilibria of a subgame: the support from CFR+, the indifference equations solved
exactly, every side's exact best response as the certificate.

1. :func:`~analyzer.choice.cfr.cfr_plus` gives floating-point average strategies. An
   information set is taken as *mixed* when its average is strictly inside (1e-4, 1 - 1e-4)
   and its normalised advantage (counterfactual value of drawing minus standing, per unit
   of reach) is below 1e-4; every other one plays its float best action.
2. A mixed bank cell makes the bank indifferent, which is an equation in the seats'
   unknowns only; a mixed seat cell makes that seat indifferent, an equation affine in the
   bank's unknowns once the seats' are known. Every counterfactual value is affine in each
   side's strategy (each side chooses once on any path), so each equation is recovered
   exactly from exact evaluations at 0/1 settings of the unknowns (multilinear
   interpolation, :func:`_bank_equations`). The seats' system is solved by elimination
   (an equation with one unknown left is affine in it), falling back to ``sympy.solve``;
   the bank's is linear. Unknowns the equations leave free (a continuum of equilibria)
   take the simplest fraction within 1/1000 of the CFR+ average: *that* is the equilibrium
   reported.
3. :func:`exact_regrets` computes every side's exact counterfactual values (residues modulo
   primes, :mod:`analyzer.choice.modular`) and its exact regret; ``certified`` means every
   regret is exactly 0. When a round fails (an unknown outside [0, 1], an inconsistent
   equation, a positive regret), the support is repaired -- an out-of-range unknown is
   pinned to its bound, a cell with positive regret joins the unknowns -- and solved again.

>>> from analyzer.choice.subgame import LUCKY9, infinite_subgame
>>> found = solve_subgame(infinite_subgame(LUCKY9, 1, "total"))
>>> found.certified, found.seats[0][0][5], found.bank[6][0]
(True, Fraction(6, 11), Fraction(587, 2288))
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from typing import Any

import numpy as np
import sympy

from analyzer.choice.cfr import METHOD as CFR_METHOD
from analyzer.choice.cfr import CfrRun, cfr_plus
from analyzer.choice.modular import Float, Modular, crt, primes_for
from analyzer.choice.subgame import Subgame

__all__ = ["Cell", "exact_counterfactual", "exact_regrets", "METHOD", "MIXED_ADVANTAGE",
           "MIXED_MARGIN", "solve_subgame", "SubgameSolution"]

MIXED_ADVANTAGE = 1e-4
MIXED_MARGIN = 1e-4
METHOD = (f"{CFR_METHOD} for the support; indifference equations solved exactly; certified "
          "by every side's exact best response")

Cell = tuple[int, int, int]  # (side, context, class): side m is the bank
Strategies = tuple[list[list[list[Fraction]]], list[list[Fraction]]]


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
def _integers(rows: Sequence[Sequence[Fraction]]) -> tuple[np.ndarray, int]:
    """Draw probabilities as integer action weights ``[..., stand, draw]`` over one scale."""
    denominator = reduce(math.lcm, {Fraction(v).denominator for r in rows for v in r}, 1)
    draws = [[v.numerator * (denominator // v.denominator) for v in map(Fraction, r)]
             for r in rows]
    kind: Any = np.int64 if denominator < 2**62 else object
    return np.asarray([[[denominator - v, v] for v in r] for r in draws], dtype=kind), (
        denominator)


@dataclass(frozen=True, eq=False)
class _Integers:
    """A profile as integer action weights, each side over its own scale."""

    seats: list[np.ndarray]
    seat_scales: list[int]
    bank: np.ndarray
    bank_scale: int

    @classmethod
    def of(cls, seats: Sequence[Sequence[Sequence[Fraction]]],
           bank: Sequence[Sequence[Fraction]]) -> _Integers:
        converted = [_integers(rows) for rows in seats]
        bank_array, bank_scale = _integers(bank)
        return cls([a for a, _ in converted], [s for _, s in converted], bank_array,
                   bank_scale)

    def with_bank(self, cell: tuple[int, int], draw: int) -> _Integers:
        """The same profile with one bank cell pure (``draw`` 0 or 1)."""
        bank = self.bank.copy()
        bank[cell[0], cell[1]] = [self.bank_scale * (1 - draw), self.bank_scale * draw]
        return _Integers(self.seats, self.seat_scales, bank, self.bank_scale)


def _evaluate(game: Subgame, profile: _Integers, pick: Any = None,
              ) -> tuple[list[int], list[int]]:
    """Exact counterfactual values as integers: every seat's flattened in order, then the
    bank's (or only the entries ``pick(seat arrays, bank array)`` returns), and the scale
    of each returned entry's side (seats then bank, per entry when picked)."""
    everyone = math.prod(profile.seat_scales) * profile.bank_scale
    moduli = primes_for(max(game.live, 1) * game.base_scale * everyone)
    results = []
    for prime in moduli:
        ring = Modular(prime)
        seat_values, bank_values = game.counterfactual(
            ring, [ring.encode(a) for a in profile.seats], ring.encode(profile.bank))
        if pick is None:
            results.append(np.concatenate([v.reshape(-1) for v in seat_values]
                                          + [bank_values.reshape(-1)]))
        else:
            results.append(np.asarray(pick(seat_values, bank_values), dtype=np.int64))
    seat_scale = [game.base_scale * everyone // s for s in profile.seat_scales]
    bank_scale = game.base_scale * everyone // profile.bank_scale
    return crt(np.stack(results), moduli), [*seat_scale, bank_scale]


def exact_counterfactual(game: Subgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                         bank: Sequence[Sequence[Fraction]],
                         ) -> tuple[list[list[list[list[Fraction]]]], list[list[list[Fraction]]]]:
    """Every information set's exact counterfactual values ``[..., stand, draw]``."""
    flat, scales = _evaluate(game, _Integers.of(seats, bank))
    out_seats = []
    at = 0
    for k in range(game.live):
        shape = (2**k, len(game.seat_classes), 2)
        size = math.prod(shape)
        values = [Fraction(v, scales[k]) for v in flat[at:at + size]]
        out_seats.append(np.asarray(values, dtype=object).reshape(shape).tolist())
        at += size
    bank_values = [Fraction(v, scales[-1]) for v in flat[at:]]
    shape = (len(game.bank_classes), game.vectors, 2)
    return out_seats, np.asarray(bank_values, dtype=object).reshape(shape).tolist()


def exact_regrets(game: Subgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                  bank: Sequence[Sequence[Fraction]],
                  ) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], list[Cell]]:
    """Each side's exact value and regret (seats, then the bank), and the cells where a
    pure deviation gains (the best response differs from the strategy)."""
    seat_cf, bank_cf = exact_counterfactual(game, seats, bank)
    values: list[Fraction] = []
    regrets: list[Fraction] = []
    gaining: list[Cell] = []
    for k, (rows, cf) in enumerate(zip(seats, seat_cf, strict=True)):
        value, best = Fraction(0), Fraction(0)
        for e, (row, cf_row) in enumerate(zip(rows, cf, strict=True)):
            for c, (draw, (stand_v, draw_v)) in enumerate(zip(row, cf_row, strict=True)):
                played = (1 - draw) * stand_v + draw * draw_v
                value += played
                best += max(stand_v, draw_v)
                if max(stand_v, draw_v) > played:
                    gaining.append((k, e, c))
        values.append(value)
        regrets.append(best - value)
    value, best = Fraction(0), Fraction(0)
    for c, (row, cf_row) in enumerate(zip(bank, bank_cf, strict=True)):
        for v, (draw, (stand_v, draw_v)) in enumerate(zip(row, cf_row, strict=True)):
            played = (1 - draw) * stand_v + draw * draw_v
            value += played
            best += max(stand_v, draw_v)
            if max(stand_v, draw_v) > played:
                gaining.append((game.live, v, c))
    values.append(value)
    regrets.append(best - value)
    return tuple(values), tuple(regrets), gaining


# -- the support ----------------------------------------------------------------------------------
def _classify(game: Subgame, run: CfrRun,
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
        normal = advantage / reach if reach > 1e-300 else 0.0
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


def _assemble(game: Subgame, values: dict[Cell, Fraction]) -> Strategies:
    seats = [[[values[(k, e, c)] for c in range(len(game.seat_classes))] for e in range(2**k)]
             for k in range(game.live)]
    bank = [[values[(game.live, v, c)] for v in range(game.vectors)]
            for c in range(len(game.bank_classes))]
    return seats, bank


def _simple(value: float) -> Fraction:
    return Fraction(min(max(value, 0.0), 1.0)).limit_denominator(1000)


def _hint_exact(run: CfrRun, cell: Cell, live: int) -> float:
    side, context, c = cell
    array = run.bank[c, context] if side == live else run.seats[side][context, c]
    return float(array[1])


def _hint(run: CfrRun, cell: Cell, live: int) -> Fraction:
    return _simple(_hint_exact(run, cell, live))


# -- the equations ---------------------------------------------------------------------------
Polynomial = dict[tuple[Cell, ...], Fraction]  # monomial (cells of distinct seats) -> coefficient


def _bank_equations(game: Subgame, known: dict[Cell, Fraction], unknown: Sequence[Cell],
                    cells: Sequence[Cell]) -> dict[Cell, Polynomial]:
    """Each bank cell's indifference (counterfactual value of drawing minus standing) as an
    exact polynomial in the seats' unknowns, by multilinear interpolation."""
    groups: dict[Cell, int] = {}
    for cell in sorted(unknown):
        k, e, _ = cell
        groups[cell] = 1 + sum(1 for other in groups if other[:2] == (k, e))
    sizes = [max((g for cell, g in groups.items() if cell[0] == k), default=0)
             for k in range(game.live)]
    zero_bank = [[Fraction(0)] * game.vectors for _ in game.bank_classes]

    def pick(_: list[np.ndarray], bank_values: np.ndarray) -> list[Any]:
        return [bank_values[c, v, 1] - bank_values[c, v, 0] for _, v, c in cells]

    samples: dict[tuple[int, ...], dict[Cell, Fraction]] = {}
    for pattern in itertools.product(*(range(r + 1) for r in sizes)):
        values = dict(known)
        values.update({cell: Fraction(int(pattern[cell[0]] == g)) for cell, g in groups.items()})
        seats, _ = _assemble(game, values | {(game.live, v, c): Fraction(0)
                                             for v in range(game.vectors)
                                             for c in range(len(game.bank_classes))})
        found, scales = _evaluate(game, _Integers.of(seats, zero_bank), pick)
        samples[pattern] = {cell: Fraction(v, scales[-1])
                            for cell, v in zip(cells, found, strict=True)}
    by_group = {(cell[0], cell[1], g): cell for cell, g in groups.items()}
    out: dict[Cell, Polynomial] = {cell: {} for cell in cells}
    for pattern in samples:
        support = [k for k, o in enumerate(pattern) if o]
        for cell in cells:
            vector = cell[1]
            coefficient = Fraction(0)
            for size in range(len(support) + 1):
                for subset in itertools.combinations(support, size):
                    lower = tuple(o if k in subset else 0 for k, o in enumerate(pattern))
                    coefficient += (-1) ** (len(support) - size) * samples[lower][cell]
            if coefficient == 0:
                continue
            monomial = []
            for k in support:
                context = vector >> (game.live - k)
                member = by_group.get((k, context, pattern[k]))
                if member is None:
                    break
                monomial.append(member)
            else:
                key = tuple(monomial)
                out[cell][key] = out[cell].get(key, Fraction(0)) + coefficient
    return out


def _substitute(poly: Polynomial, known: dict[Cell, Fraction]) -> Polynomial:
    out: Polynomial = {}
    for monomial, coefficient in poly.items():
        rest = []
        for cell in monomial:
            if cell in known:
                coefficient *= known[cell]
            else:
                rest.append(cell)
        if coefficient:
            key = tuple(rest)
            out[key] = out.get(key, Fraction(0)) + coefficient
    return {k: v for k, v in out.items() if v}


def _solve_polynomials(equations: dict[Cell, Polynomial], unknown: Sequence[Cell],
                       hints: dict[Cell, Fraction],
                       ) -> tuple[dict[Cell, Fraction], list[Cell], dict[Cell, Fraction]]:
    """Exact values of the unknowns: elimination, then ``sympy.solve``; free ones take their
    hints. Returns the values, the cells left free, and the equations no setting satisfies
    with their residual (that bank cell is not indifferent: it plays pure, drawing when the
    residual is positive)."""
    known: dict[Cell, Fraction] = {}
    free: list[Cell] = []
    dropped: dict[Cell, Fraction] = {}
    pending = dict(equations)
    while True:
        progress = False
        for cell, poly in list(pending.items()):
            reduced = _substitute(poly, known)
            variables = {c for monomial in reduced for c in monomial}
            if not variables:
                if reduced.get((), Fraction(0)) != 0:
                    dropped[cell] = reduced[()]
                del pending[cell]
                continue
            if len(variables) == 1:
                (variable,) = variables
                slope = reduced.get((variable,), Fraction(0))
                known[variable] = -reduced.get((), Fraction(0)) / slope
                del pending[cell]
                progress = True
        if progress:
            continue
        if not pending:
            break
        solved = _sympy_solve({c: _substitute(p, known) for c, p in pending.items()}, hints)
        if solved:
            known.update(solved)
            continue
        # Underdetermined: fix the unknown that appears in the fewest equations (the latest
        # seat's on ties).
        appearances: dict[Cell, int] = {}
        for p in pending.values():
            for c in {c for m in _substitute(p, known) for c in m}:
                appearances[c] = appearances.get(c, 0) + 1
        chosen = min(appearances, key=lambda c: (appearances[c], -c[0], c))
        known[chosen] = hints[chosen]
        free.append(chosen)
    for cell in unknown:
        if cell not in known:
            known[cell] = hints[cell]
            free.append(cell)
    return known, free, dropped


def _sympy_solve(equations: dict[Cell, Polynomial], hints: dict[Cell, Fraction],
                 ) -> dict[Cell, Fraction]:
    """A rational solution of a small polynomial system nearest the hints, or {}."""
    cells = sorted({c for p in equations.values() for m in p for c in m})
    symbols = {cell: sympy.Symbol(f"z{i}") for i, cell in enumerate(cells)}
    system = [sum((sympy.Rational(v.numerator, v.denominator)
                   * sympy.Mul(*(symbols[c] for c in m)) for m, v in p.items()), sympy.S(0))
              for p in equations.values()]
    if len(system) < len(cells):
        return {}
    try:
        solutions = sympy.solve(system, [symbols[c] for c in cells], dict=True)
    except (NotImplementedError, ValueError):
        return {}
    best: dict[Cell, Fraction] = {}
    distance = math.inf
    for solution in solutions:
        if len(solution) != len(cells) or not all(solution[symbols[c]].is_Rational
                                                  for c in cells):
            continue
        values = {c: Fraction(int(solution[symbols[c]].p), int(solution[symbols[c]].q))
                  for c in cells}
        gap = sum(abs(float(values[c] - hints[c])) for c in cells)
        if gap < distance:
            best, distance = values, gap
    return best


def _solve_linear(rows: list[list[Fraction]], rhs: list[Fraction], hints: list[Fraction],
                  ) -> tuple[list[Fraction], list[int]] | None:
    """``rows . z = rhs`` in fractions; free unknowns take ``hints``; None if inconsistent.
    Returns the solution and the free columns."""
    unknowns = len(hints)
    matrix = [[*row, r] for row, r in zip(rows, rhs, strict=True)]
    pivots: list[int] = []
    for col in range(unknowns):
        pivot = next((r for r in range(len(pivots), len(matrix)) if matrix[r][col] != 0), None)
        if pivot is None:
            continue
        rank = len(pivots)
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        lead = matrix[rank][col]
        matrix[rank] = [v / lead for v in matrix[rank]]
        for r in range(len(matrix)):
            if r != rank and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [v - factor * w for v, w in zip(matrix[r], matrix[rank],
                                                            strict=True)]
        pivots.append(col)
    if any(row[-1] != 0 for row in matrix[len(pivots):]):
        return None
    free = [c for c in range(unknowns) if c not in pivots]
    solution = list(hints)
    for r, col in enumerate(pivots):
        solution[col] = matrix[r][-1] - sum((matrix[r][f] * hints[f] for f in free),
                                            Fraction(0))
    return solution, free


def _seat_equations(game: Subgame, seat_known: dict[Cell, Fraction],
                    bank_known: dict[Cell, Fraction], unknown: Sequence[Cell],
                    cells: Sequence[Cell]) -> tuple[list[list[Fraction]], list[Fraction]]:
    """The seats' indifference at ``cells`` as linear equations in the bank's unknowns
    (each seat's counterfactual values are affine in the bank's strategy)."""
    zero = {cell: Fraction(0) for cell in unknown}
    seats, bank = _assemble(game, seat_known | bank_known | zero)
    base_profile = _Integers.of(seats, bank)

    def pick(seat_values: list[np.ndarray], _: np.ndarray) -> list[Any]:
        return [seat_values[k][e, c, 1] - seat_values[k][e, c, 0] for k, e, c in cells]

    def advantage(profile: _Integers) -> list[Fraction]:
        values, scales = _evaluate(game, profile, pick)
        return [Fraction(v, scales[k]) for v, (k, _, _) in zip(values, cells, strict=True)]

    base = advantage(base_profile)
    columns = [[a - b for a, b in zip(advantage(base_profile.with_bank((c, v), 1)), base,
                                      strict=True)] for _, v, c in unknown]
    rows = [[column[i] for column in columns] for i in range(len(cells))]
    return rows, [-b for b in base]


def solve_subgame(game: Subgame, iterations: int = 20000, tolerance: float = 1e-7,
                  run: CfrRun | None = None, max_rounds: int = 10) -> SubgameSolution:
    """The subgame's exact equilibrium, certified (see the module docstring); when no round
    certifies, the exact profile with the smallest largest regret, which is then a
    certified epsilon."""
    begin = time.perf_counter()
    run = run if run is not None else cfr_plus(game, iterations, tolerance)
    pure, mixed, advantages = _classify(game, run)
    m = game.live
    flips: dict[Cell, int] = {}
    best: SubgameSolution | None = None
    for round_number in range(1, max_rounds + 1):
        hints = {cell: _hint(run, cell, m) for cell in mixed}
        seat_unknown = sorted(c for c in mixed if c[0] < m)
        bank_unknown = sorted(c for c in mixed if c[0] == m)
        seat_pure = {c: v for c, v in pure.items() if c[0] < m}
        bank_pure = {c: v for c, v in pure.items() if c[0] == m}
        equations = _bank_equations(game, seat_pure, seat_unknown, bank_unknown) if (
            bank_unknown) else {}
        seat_values, free, dropped = _solve_polynomials(equations, seat_unknown, hints)
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
        rows, rhs = _seat_equations(game, seat_known, bank_pure, bank_unknown, seat_unknown)
        solved = _solve_linear(rows, rhs, [hints[c] for c in bank_unknown])
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
        seats, bank = _assemble(game, seat_known | bank_pure | bank_values)
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
    searched = _search(game, run, *_classify(game, run), begin)
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
        equations = _bank_equations(game, seat_known, seat_support, bank_support)
        seat_values, free, dropped = _solve_polynomials(equations, seat_support, hints)
        if free or dropped or not all(0 <= v <= 1 for v in seat_values.values()):
            return found
        rows, rhs = _seat_equations(game, seat_known | seat_values, bank_known, bank_support,
                                    seat_support)
        solved = _solve_linear(rows, rhs, [hints[c] for c in bank_support])
        if solved is None or solved[1] or not all(0 <= v <= 1 for v in solved[0]):
            return found
        current = seat_known | seat_values | bank_known | dict(zip(bank_support, solved[0],
                                                                   strict=True))
        seats, bank = _assemble(game, current)
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
