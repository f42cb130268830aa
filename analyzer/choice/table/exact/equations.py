"""The indifference equations of a subgame's mixed cells, built and solved exactly.

A mixed bank cell makes the bank indifferent: an equation in the seats' unknowns only. A
mixed seat cell makes that seat indifferent: an equation affine in the bank's unknowns once
the seats' are known. Every counterfactual value is affine in each side's strategy (each
side chooses once on any path), so the bank's equations are exact polynomials recovered from
exact evaluations at 0/1 settings of the seats' unknowns by multilinear interpolation
(:func:`bank_equations`), and the seats' are linear (:func:`seat_equations`, one evaluation
per unknown). :func:`solve_polynomials` eliminates (an equation with one unknown left is
affine in it) and falls back to ``sympy.solve``; :func:`solve_linear` is Gaussian
elimination in fractions. Unknowns the equations leave free take given hints.

>>> solve_linear([[Fraction(1), Fraction(1)]], [Fraction(1)], [Fraction(1, 4)] * 2)
([Fraction(3, 4), Fraction(1, 4)], [1])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.choice.headsup.solver import solve_linear
from analyzer.choice.table.exact.evaluation import (
    Cell,
    Integers,
    assemble,
    evaluate,
    evaluate_banks,
)
from analyzer.choice.table.subgame import Subgame

__all__ = ["bank_equations", "Polynomial", "seat_equations", "solve_linear",
           "solve_polynomials"]

Polynomial = dict[tuple[Cell, ...], Fraction]  # monomial (cells of distinct seats) -> coefficient


def bank_equations(game: Subgame, known: dict[Cell, Fraction], unknown: Sequence[Cell],
                    cells: Sequence[Cell]) -> dict[Cell, Polynomial]:
    """Each bank cell's indifference (counterfactual value of drawing minus standing) as an
    exact polynomial in the seats' unknowns, by multilinear interpolation."""
    groups: dict[Cell, int] = {}
    for cell in sorted(unknown):
        k, e, _ = cell
        groups[cell] = 1 + sum(1 for other in groups if other[:2] == (k, e))
    sizes = [max((g for cell, g in groups.items() if cell[0] == k), default=0)
             for k in range(game.live)]
    vectors = sorted({v for _, v, _ in cells})
    samples: dict[tuple[int, ...], dict[Cell, Fraction]] = {}
    for pattern in itertools.product(*(range(r + 1) for r in sizes)):
        values = dict(known)
        values.update({cell: Fraction(int(pattern[cell[0]] == g)) for cell, g in groups.items()})
        seats, _ = assemble(game, values | {(game.live, v, c): Fraction(0)
                                             for v in range(game.vectors)
                                             for c in range(len(game.bank_classes))})
        advantages = _bank_advantages(game, seats, vectors)
        samples[pattern] = {cell: advantages[cell[1]][cell[2]] for cell in cells}
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


#: Bank advantages :func:`_bank_advantages` remembers per subgame (seat plays times vectors).
REMEMBERED_ADVANTAGES = 1024
_ADVANTAGES = "bank advantages"


def _bank_advantages(game: Subgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                     vectors: Sequence[int]) -> dict[int, list[Fraction]]:
    """Every bank class's exact advantage (drawing less standing) after each choice vector
    of ``vectors`` against the seats' play, remembered per subgame: the support's repair
    rounds pin an unknown and sample again, mostly at seat plays sampled before."""
    remembered = game._cache.setdefault(_ADVANTAGES, {})
    content = tuple((*(v.numerator for v in row), *(v.denominator for v in row))
                    for rows in seats for row in rows)
    missing = [v for v in vectors if (content, v) not in remembered]
    if missing:
        classes = len(game.bank_classes)
        zero_bank = [[Fraction(0)] * game.vectors for _ in game.bank_classes]

        def pick(_: list[np.ndarray], bank_values: np.ndarray) -> list[Any]:
            return [bank_values[c, v, 1] - bank_values[c, v, 0] for v in missing
                    for c in range(classes)]

        found, scales = evaluate(game, Integers.of(seats, zero_bank), pick, "bank", missing)
        for i, v in enumerate(missing):
            remembered[(content, v)] = [Fraction(x, scales[-1])
                                        for x in found[i * classes:(i + 1) * classes]]
        while len(remembered) > REMEMBERED_ADVANTAGES:
            del remembered[next(iter(remembered))]
    return {v: remembered[(content, v)] for v in vectors}


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


def solve_polynomials(equations: dict[Cell, Polynomial], unknown: Sequence[Cell],
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
    import sympy  # ~0.3 s to import; only systems elimination leaves need it

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


def seat_equations(game: Subgame, seat_known: dict[Cell, Fraction],
                    bank_known: dict[Cell, Fraction], unknown: Sequence[Cell],
                    cells: Sequence[Cell]) -> tuple[list[list[Fraction]], list[Fraction]]:
    """The seats' indifference at ``cells`` as linear equations in the bank's unknowns
    (each seat's counterfactual values are affine in the bank's strategy)."""
    zero = {cell: Fraction(0) for cell in unknown}
    seats, bank = assemble(game, seat_known | bank_known | zero)
    base_profile = Integers.of(seats, bank)

    def pick(seat_values: list[np.ndarray], _: np.ndarray) -> list[Any]:
        return [seat_values[k][e, c, 1] - seat_values[k][e, c, 0] for k, e, c in cells]

    banks = [base_profile.bank] + [base_profile.with_bank((c, v), 1).bank
                                   for _, v, c in unknown]
    found, scales = evaluate_banks(game, base_profile, banks, pick)
    base, *changed = [[Fraction(v, scales[k]) for v, (k, _, _) in zip(values, cells,
                                                                        strict=True)]
                      for values in found]
    columns = [[a - b for a, b in zip(values, base, strict=True)] for values in changed]
    rows = [[column[i] for column in columns] for i in range(len(cells))]
    return rows, [-b for b in base]
