"""A subgame's counterfactual values as exact polynomials in chosen cells, by interpolation.

Each side chooses once on any path, so a side's counterfactual values are sums over paths of
one action weight per *other* side times chance: affine in each other side's vector of draw
probabilities jointly (a monomial holds at most one cell of each side), and free of the
side's own. With the chosen cells (the *unknowns*) split by side and every other cell fixed,
such a function is determined by its values on the grid where each side's unknowns are all
0 or exactly one of them is 1 (``0`` or ``e_i``): the coefficient of the monomial taking
``e_{i_t}`` on the sides ``T`` is the Moebius sum over ``R`` within ``T`` of
``(-1)**(|T| - |R|) f(e on R)``. :func:`interpolate` evaluates the subgame exactly at those
points (:func:`~analyzer.choice.table.exact.evaluation.exact_counterfactual`) and returns
every cell's advantage (draw less stand) and, when asked, every side's value (which does
involve its own play, still at most one cell per side) as such polynomials.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.choice.table.subgame import infinite_subgame
>>> game = infinite_subgame(LUCKY9, 1, "total")
>>> stand = {cell: Fraction(0) for cell in all_cells(game)}
>>> form = interpolate(game, stand, [(0, 0, 4), (1, 0, 5)])
>>> sorted(form.advantage[(1, 0, 5)])  # the bank's advantage is affine in the seat's cell
[(), (0,)]
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.choice.table.exact.evaluation import (
    Cell,
    assemble,
    exact_counterfactual,
    exact_regrets,
)
from analyzer.choice.table.subgame import Subgame
from analyzer.errors import AnalyzerError

__all__ = ["all_cells", "evaluate_polynomial", "interpolate", "Monomial", "MultilinearForm",
           "Polynomial"]

#: A monomial: indices into the unknowns, ascending, at most one per side.
Monomial = tuple[int, ...]
#: A polynomial: monomial -> exact coefficient (zero coefficients left out).
Polynomial = dict[Monomial, Fraction]
#: A grid point: per side, which of its unknowns is 1 (-1: none of them).
Point = tuple[int, ...]


def all_cells(game: Subgame) -> list[Cell]:
    """Every information set of the subgame, seats (by live position, context, class) then
    the bank's (side ``live``, choice vector, class)."""
    seats = [(k, e, c) for k in range(game.live) for e in range(2**k)
             for c in range(len(game.seat_classes))]
    return seats + [(game.live, v, c) for v in range(game.vectors)
                    for c in range(len(game.bank_classes))]


@dataclass(frozen=True)
class MultilinearForm:
    """The subgame with ``unknowns`` left as variables (``fixed`` giving every other cell):
    each cell's advantage and, when computed, each side's value (seats, then the bank) as
    exact polynomials in the unknowns, indexed by their position in ``unknowns``."""

    unknowns: tuple[Cell, ...]
    fixed: Mapping[Cell, Fraction]
    advantage: dict[Cell, Polynomial]
    values: tuple[Polynomial, ...] | None


def _point_values(game: Subgame, fixed: Mapping[Cell, Fraction], by_side: list[list[Cell]],
                  point: Point, with_values: bool,
                  ) -> tuple[dict[Cell, Fraction], tuple[Fraction, ...]]:
    """Every cell's exact advantage and (``with_values``) every side's value at a grid
    point."""
    values = dict(fixed)
    for side, cells in enumerate(by_side):
        for i, cell in enumerate(cells):
            values[cell] = Fraction(int(point[side] == i))
    seats, bank = assemble(game, values)
    seat_cf, bank_cf = exact_counterfactual(game, seats, bank)
    advantage: dict[Cell, Fraction] = {}
    for k, rows in enumerate(seat_cf):
        for e, row in enumerate(rows):
            for c, (stand, draw) in enumerate(row):
                advantage[(k, e, c)] = draw - stand
    for c, row in enumerate(bank_cf):
        for v, (stand, draw) in enumerate(row):
            advantage[(game.live, v, c)] = draw - stand
    sides = exact_regrets(game, seats, bank)[0] if with_values else ()
    return advantage, sides


def _moebius(point: Point, found: Callable[[Point], Fraction]) -> Fraction:
    """The coefficient of the monomial ``point`` from the values on the grid below it."""
    chosen = [s for s, i in enumerate(point) if i >= 0]
    total = Fraction(0)
    for size in range(len(chosen) + 1):
        for subset in itertools.combinations(chosen, size):
            lower = tuple(i if s in subset else -1 for s, i in enumerate(point))
            sign = -1 if (len(chosen) - size) % 2 else 1
            total += sign * found(lower)
    return total


def interpolate(game: Subgame, fixed: Mapping[Cell, Fraction], unknowns: Sequence[Cell],
                values: bool = False) -> MultilinearForm:
    """The exact multilinear form of the subgame in ``unknowns`` (every other cell's draw
    probability from ``fixed``); ``values``: each side's value too, which needs the whole
    product grid (each side's advantages need only the grid with its own unknowns 0)."""
    order = tuple(sorted(unknowns))
    by_side: list[list[Cell]] = [[c for c in order if c[0] == s] for s in range(game.live + 1)]
    index = {cell: order.index(cell) for cell in order}
    ranges = [range(-1, len(cells)) for cells in by_side]
    if values:
        points = set(itertools.product(*ranges))
    else:  # side s's advantages: its own unknowns at 0
        points = set()
        for side in range(game.live + 1):
            own = [ranges[s] if s != side else range(-1, 0) for s in range(game.live + 1)]
            points.update(itertools.product(*own))
    rest = {c: v for c, v in fixed.items() if c not in index}
    missing = [c for c in all_cells(game) if c not in index and c not in rest]
    if missing:
        raise AnalyzerError(f"no draw probability given for {len(missing)} cells, the first "
                            f"{missing[0]}")
    found = {p: _point_values(game, rest, by_side, p, values) for p in sorted(points)}
    cells = all_cells(game)
    advantage: dict[Cell, Polynomial] = {cell: {} for cell in cells}
    side_values: list[Polynomial] = [{} for _ in range(game.live + 1)]
    for point in sorted(points):
        monomial = tuple(sorted(index[by_side[s][i]] for s, i in enumerate(point) if i >= 0))
        for cell in cells:
            if point[cell[0]] >= 0:
                continue  # a side's advantage does not involve its own play
            coefficient = _moebius(point, functools.partial(_advantage_at, found, cell))
            if coefficient:
                advantage[cell][monomial] = coefficient
        if values:
            for side in range(game.live + 1):
                coefficient = _moebius(point, functools.partial(_value_at, found, side))
                if coefficient:
                    side_values[side][monomial] = coefficient
    return MultilinearForm(order, dict(rest), advantage,
                           tuple(side_values) if values else None)


Found = Mapping[Point, tuple[dict[Cell, Fraction], tuple[Fraction, ...]]]


def _advantage_at(found: Found, cell: Cell, point: Point) -> Fraction:
    return found[point][0][cell]


def _value_at(found: Found, side: int, point: Point) -> Fraction:
    return found[point][1][side]


def evaluate_polynomial(polynomial: Polynomial, at: Sequence[Fraction]) -> Fraction:
    """The polynomial's exact value with unknown ``i`` at ``at[i]``."""
    total = Fraction(0)
    for monomial, coefficient in polynomial.items():
        term = coefficient
        for i in monomial:
            term *= at[i]
        total += term
    return total
