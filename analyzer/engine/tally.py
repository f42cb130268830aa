"""Many exact tallies of one tableau fused into one pass over its terms: :class:`TallyPlan`.

A tally (:func:`analyzer.engine.enumeration.compile_tally`) sums, per key, the ordered
6-card ways of the coups under that key. The tallies of one ``odds()`` call (every bet and
the three distributions) read the same term weights; the plan evaluates them together:

* the coup rows are split into *cells*, the common refinement of a group of tallies (each
  cell lies under exactly one key of every tally of its group); tallies join a group while
  it stays under :data:`CELL_LIMIT` cells, so the work never exceeds one entry per coup row
  and group;
* per shoe, each term's weight is ``fill[k] x A[a] x B[b]`` (two half-value tables, as in the
  batch evaluator), each cell sums ``weight x count`` over its (term, count) entries and each
  key sums its cells.

Exact throughout: int64 when the shoe's denominator fits (up to about 27 decks); past it
the same pass in wrapping int64 (exact modulo 2**64, at no cost) beside one prime below
2**31 (enough to 2**95: any deck count up to about 2,700 decks; more primes beyond) with
only the key sums rebuilt as Python integers (:mod:`analyzer.engine.modular`). The numpy
functions here are the reference; the fused loops of :mod:`analyzer.engine.kernels`
(numba) must return identical integers.

>>> from analyzer.rules.profile import load_profile
>>> from analyzer.rules.shoe import Shoe
>>> from analyzer.engine.enumeration import coups
>>> tableau = load_profile("punto-banco").tableau
>>> plan = build_plan(tableau, [(coups(tableau).features["cards_dealt"], None)])
>>> plan.evaluate(Shoe.decks(8))[0][4] + plan.evaluate(Shoe.decks(1000))[0][4] > 0
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.engine import backend
from analyzer.engine.enumeration import (
    INFINITE_BASE,
    INFINITE_VALUE_WEIGHTS,
    INT64_LIMIT,
    SEQUENCE_LENGTH,
    IntArray,
    coups,
    denominator,
    terms,
)
from analyzer.engine.modular import reconstruct_wrapped, wrapped_primes_for
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import Tableau
from analyzer.rules.shoe import Shoe

__all__ = ["CELL_LIMIT", "HALVES", "TallyPlan", "build_plan", "check_plan", "half_patterns",
           "shoe_factors"]

#: A group of tallies stops growing past this many cells (its common refinement).
CELL_LIMIT = 4096
#: The ten point values in two halves; a term's weight is one factor per half and the fill.
HALVES = ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9))
#: multiplicities run 0..6: base-7 digits make a 1-D key of a row of multiplicities
_BASE = SEQUENCE_LENGTH + 1


def half_patterns(multiplicity: IntArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Per half of the values: the distinct multiplicity patterns and each term's pattern.

    Returns ``(index_low, patterns_low, index_high, patterns_high)``; patterns are sorted
    rows (the order ``np.unique(axis=0)`` gives), found by a 1-D base-7 key.
    """
    out: list[IntArray] = []
    for half in HALVES:
        part = multiplicity[:, list(half)]
        key = part @ (_BASE ** np.arange(len(half) - 1, -1, -1, dtype=np.int64))
        unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        out.append(inverse.reshape(-1).astype(np.int64))
        out.append(np.ascontiguousarray(part[first], dtype=np.int64))
    return out[0], out[1], out[2], out[3]


@dataclass(frozen=True, eq=False)
class TallyPlan:
    """Tallies of one tableau compiled together (see the module docstring).

    ``keys[j]`` are tally ``j``'s keys; its sums are ``key_sums[key_offsets[j]:...]``.
    """

    cards: IntArray
    half_index: IntArray
    patterns_low: IntArray
    patterns_high: IntArray
    entry_term: IntArray
    entry_count: IntArray
    cell_starts: IntArray
    key_cells: IntArray
    key_starts: IntArray
    key_offsets: IntArray
    keys: tuple[tuple[Hashable, ...], ...]

    @property
    def size(self) -> int:
        """Entries: (cell, term) pairs summed per shoe."""
        return int(self.entry_term.shape[0])

    def key_sums(self, shoe: Shoe, kernel: str | None = None) -> list[int]:
        """Exact ways of every key of every tally on ``shoe``, tallies one after another.

        ``kernel`` is ``"numpy"`` (the reference), ``"numba"`` or None (see
        :mod:`analyzer.engine.backend`).
        """
        bound = denominator(shoe)
        # past int64: wrapping int64 (exact modulo 2**64) beside one or more primes
        primes: tuple[int, ...] = () if bound <= INT64_LIMIT else wrapped_primes_for(bound)
        moduli = (0, *primes)
        if backend.use_kernels(kernel, "tally"):
            from analyzer.engine import kernels

            array = np.array(moduli, dtype=np.int64)
            if shoe.is_infinite:
                residues = kernels.tally_sums(*shoe_factors(shoe, moduli), array, self)
            else:
                residues = kernels.tally_sums(None, None, array, self,
                                              np.array(shoe.value_counts(), dtype=np.int64))
        else:
            factors, fill = shoe_factors(shoe, moduli)
            residues = np.stack([self._numpy_sums(factors[i], fill[i], p)
                                 for i, p in enumerate(moduli)])
        if bound <= INT64_LIMIT:
            return residues[0].tolist()  # type: ignore[no-any-return]
        return reconstruct_wrapped(residues, primes)  # 2**63 to 2**64: no prime at all

    def evaluate(self, shoe: Shoe, kernel: str | None = None) -> list[dict[Hashable, int]]:
        """Per tally, exact ways per key on ``shoe``."""
        sums = self.key_sums(shoe, kernel)
        offsets = self.key_offsets.tolist()
        return [dict(zip(keys, sums[offsets[j]:offsets[j + 1]], strict=True))
                for j, keys in enumerate(self.keys)]

    def weights(self, factors: IntArray, fill: IntArray, p: int) -> IntArray:
        """Each term's weight (mod ``p``; modulus 0: int64, wrapping past it) from one
        shoe's factor tables."""
        tables = []
        for half, patterns in zip(HALVES, (self.patterns_low, self.patterns_high),
                                  strict=True):
            table = np.ones(patterns.shape[0], dtype=np.int64)
            for column, value in enumerate(half):
                table = table * factors[value][patterns[:, column]]
                if p:
                    table %= p
            tables.append(table)
        weights: IntArray = fill[self.cards] * tables[0][self.half_index[0]]
        if p:
            weights %= p
        weights = weights * tables[1][self.half_index[1]]
        if p:
            weights %= p
        return weights

    def _numpy_sums(self, factors: IntArray, fill: IntArray, p: int) -> IntArray:
        weights = self.weights(factors, fill, p)
        # below 2**31 x 720 per product mod p; below the denominator exactly otherwise
        cells = np.add.reduceat(weights[self.entry_term] * self.entry_count, self.cell_starts)
        if p:
            cells %= p
        sums: IntArray = np.add.reduceat(cells[self.key_cells], self.key_starts)
        if p:
            sums %= p
        return sums


def shoe_factors(shoe: Shoe, moduli: Sequence[int] = (0,)) -> tuple[IntArray, IntArray]:
    """Per modulus (0: int64, exact or wrapping modulo 2**64): ``factors[i, v, m]`` and
    ``fill[i, k]`` of a shoe.

    ``factors[v, m]`` is what ``m`` cards of value ``v`` contribute to a term's weight
    (falling factorial of the count, or the infinite deck's weight power) and ``fill[k]``
    the ways to fill the 6 - k unused positions.
    """
    if shoe.is_infinite:
        table = [[w**m for m in range(_BASE)] for w in INFINITE_VALUE_WEIGHTS]
        rest = [INFINITE_BASE ** (SEQUENCE_LENGTH - k) for k in range(_BASE)]
        factors = np.array([[[x % p if p else x for x in row] for row in table]
                            for p in moduli], dtype=np.int64)
        fill = np.array([[x % p if p else x for x in rest] for p in moduli], dtype=np.int64)
        return factors, fill
    counts = shoe.value_counts()
    n = sum(counts)
    steps = np.arange(SEQUENCE_LENGTH, dtype=np.int64)
    # factor m + 1 of value v is (c_v - m), of the fill from k cards (N - k); both >= 0
    value_steps = np.maximum(np.array(counts, dtype=np.int64)[:, None] - steps, 0)
    fill_steps = n - steps[::-1]
    factors = np.ones((len(moduli), 10, _BASE), dtype=np.int64)
    fill = np.ones((len(moduli), _BASE), dtype=np.int64)
    for i, p in enumerate(moduli):
        if not p:  # int64 that wraps past 2**63 (exact modulo 2**64): no warning wanted
            with np.errstate(over="ignore"):
                _wrapping_tables(factors[i], fill[i], value_steps, fill_steps)
            continue
        row = value_steps % p
        extra = fill_steps % p
        for m in range(SEQUENCE_LENGTH):
            # below 2**62 before a reduction; with modulus 0, exact up to about 27 decks and
            # wrapping (exact modulo 2**64) past it
            factors[i, :, m + 1] = factors[i, :, m] * row[:, m]
            fill[i, SEQUENCE_LENGTH - m - 1] = fill[i, SEQUENCE_LENGTH - m] * extra[m]
            factors[i, :, m + 1] %= p
            fill[i, SEQUENCE_LENGTH - m - 1] %= p
    return factors, fill


def _wrapping_tables(factors: IntArray, fill: IntArray, value_steps: IntArray,
                     fill_steps: IntArray) -> None:
    """Falling factorials in int64, exact up to 2**63 and modulo 2**64 past it."""
    for m in range(SEQUENCE_LENGTH):
        factors[:, m + 1] = factors[:, m] * value_steps[:, m]
        fill[SEQUENCE_LENGTH - m - 1] = fill[SEQUENCE_LENGTH - m] * fill_steps[m]


def _compact(code: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    values, inverse = np.unique(np.asarray(code, dtype=np.int64).reshape(-1),
                                return_inverse=True)
    return values, inverse.reshape(-1).astype(np.int64)


def build_plan(tableau: Tableau,
               tallies: Sequence[tuple[npt.ArrayLike, Sequence[Hashable] | None]]) -> TallyPlan:
    """Compile tallies (per coup row an integer code, and ``labels[code]`` naming each code,
    or None for the code itself) into one :class:`TallyPlan`."""
    table = coups(tableau)
    term_set = terms(tableau)
    size = term_set.size
    compacted = []
    for codes, labels in tallies:
        values, inverse = _compact(codes)
        if inverse.shape[0] != len(table):
            raise AnalyzerError("a tally needs one code per coup")
        keys = tuple(labels[int(v)] if labels is not None else int(v) for v in values)
        compacted.append((keys, inverse))
    # greedy groups: each tally joins the current group while its refinement stays small
    groups: list[tuple[IntArray, list[int]]] = []
    for j, (keys, inverse) in enumerate(compacted):
        if groups:
            cell, members = groups[-1]
            _, refined = _compact(cell * len(keys) + inverse)
            if int(refined.max()) < CELL_LIMIT:
                groups[-1] = (refined, [*members, j])
                continue
        groups.append((inverse, [j]))
    entry_terms: list[IntArray] = []
    entry_counts: list[IntArray] = []
    cell_starts: list[IntArray] = []
    # per tally: its cells ordered by key (global cell numbers) and where each key starts
    by_key: dict[int, tuple[IntArray, IntArray]] = {}
    cells_so_far = entries_so_far = 0
    for cell, members in groups:
        combined = cell * size + term_set.of_coup
        unique, inverse = np.unique(combined, return_inverse=True)
        count = np.bincount(inverse.reshape(-1), weights=table.arrangements,
                            minlength=unique.shape[0]).astype(np.int64)
        entry_cell = unique // size
        entry_terms.append((unique % size).astype(np.int64))
        entry_counts.append(count)
        starts = np.flatnonzero(np.r_[True, entry_cell[1:] != entry_cell[:-1]])
        cell_starts.append(starts + entries_so_far)
        cells = int(cell.max()) + 1
        for j in members:
            key_of_cell = np.zeros(cells, dtype=np.int64)
            key_of_cell[cell] = compacted[j][1]
            order = np.argsort(key_of_cell, kind="stable")
            ordered = key_of_cell[order]
            first = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
            by_key[j] = (order + cells_so_far, first)
        cells_so_far += cells
        entries_so_far += unique.shape[0]
    all_key_cells: list[IntArray] = []
    key_starts: list[IntArray] = []
    offsets = [0]
    position = 0
    for j, (keys, _) in enumerate(compacted):
        ordered, first = by_key[j]
        all_key_cells.append(ordered)
        key_starts.append(first + position)
        position += ordered.shape[0]
        offsets.append(offsets[-1] + len(keys))
    low_index, low, high_index, high = half_patterns(term_set.multiplicity)
    return TallyPlan(term_set.cards.astype(np.int64), np.stack([low_index, high_index]),
                     low, high, np.concatenate(entry_terms), np.concatenate(entry_counts),
                     np.concatenate(cell_starts), np.concatenate(all_key_cells),
                     np.concatenate(key_starts), np.array(offsets, dtype=np.int64),
                     tuple(keys for keys, _ in compacted))


def check_plan(plan: TallyPlan) -> None:
    """Every index and offset of a plan within bounds and consistent (a plan read from disk
    is checked before any kernel indexes with it); AnalyzerError otherwise."""
    terms_ = plan.cards.shape[0]
    shapes_ok = (
        plan.half_index.shape == (2, terms_) and plan.patterns_low.ndim == 2
        and plan.patterns_low.shape[1] == len(HALVES[0]) and plan.patterns_high.ndim == 2
        and plan.patterns_high.shape[1] == len(HALVES[1])
        and all(a.ndim == 1 for a in (plan.cards, plan.entry_term, plan.entry_count,
                                      plan.cell_starts, plan.key_cells, plan.key_starts,
                                      plan.key_offsets))
        and plan.entry_count.shape == plan.entry_term.shape
        and plan.key_offsets.shape[0] == len(plan.keys) + 1
        and plan.key_offsets.tolist() == [0, *np.cumsum([len(k) for k in plan.keys])]
        and int(plan.key_offsets[-1]) == plan.key_starts.shape[0]
        and plan.cell_starts.size > 0 and int(plan.cell_starts[0]) == 0
        and plan.key_starts.size > 0 and int(plan.key_starts[0]) == 0
        and bool(np.all(np.diff(plan.cell_starts) > 0))
        and bool(np.all(np.diff(plan.key_starts) > 0)))
    if not shapes_ok:
        raise AnalyzerError("compiled tally plan has inconsistent shapes or offsets")
    checks: list[tuple[Any, int]] = [
        (plan.cards, SEQUENCE_LENGTH + 1), (plan.half_index[0], plan.patterns_low.shape[0]),
        (plan.half_index[1], plan.patterns_high.shape[0]), (plan.entry_term, terms_),
        (plan.entry_count, 1 << 20),
        (plan.patterns_low, _BASE), (plan.patterns_high, _BASE),
        (plan.cell_starts, plan.entry_term.shape[0]),
        (plan.key_cells, plan.cell_starts.shape[0]),
        (plan.key_starts, plan.key_cells.shape[0])]
    for array, limit in checks:
        if array.size and (int(array.min()) < 0 or int(array.max()) >= limit):
            raise AnalyzerError("compiled tally plan has an index out of range")
