"""Fused loops for the engine's hot paths, compiled by numba and cached on disk.

Imported only through :mod:`analyzer.engine.backend` (importing numba costs about half a
second). Each kernel has a numpy reference it must match:

* :func:`tally_sums` - :meth:`analyzer.engine.tally.TallyPlan.key_sums`: int64 (exact, or
  wrapping: exact modulo 2**64) and residues modulo primes below 2**31, identical integers;
* :func:`batch_values` - :class:`analyzer.engine.evaluator.BatchEvaluator` and the shoe-aware
  evaluator: float64, shoes in blocks of :data:`BLOCK` so every intermediate stays in cache;
* :func:`two_card_probabilities` - the two-card forms of
  :meth:`analyzer.engine.forms.FormSet.evaluate_into`: exact integer ways, each divided
  once, the same floats.

The first call compiles (a few seconds) and writes numba's cache beside this file, or in
numba's user-wide cache directory when the package folder is read-only.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit
from threadpoolctl import threadpool_limits

# The products here are small: a multi-threaded BLAS only adds contention (measured 5-7x
# slower on a loaded 2-core machine, 20x for the shoe-aware columns of lucky-baccarat).
threadpool_limits(limits=1, user_api="blas")

__all__ = ["BLOCK", "batch_values", "grouped_values", "tally_sums",
           "two_card_probabilities"]

#: Shoes evaluated together by :func:`batch_values` (tables of 462 x BLOCK doubles). 64
#: measured 1.4x faster per shoe than 32 (and than 128) on the project's machine (2 MB of L2
#: per core): the weights of a block (terms x BLOCK) and the BLAS product that reads them.
BLOCK = 64


@njit(cache=True, nogil=True, inline="always")
def _reduce(x: Any, p: Any, inverse: Any) -> Any:  # pragma: no cover - compiled
    """``x mod p`` for ``0 <= x < 2**62`` and ``p < 2**31`` without a division: the
    quotient from a float estimate (its error is below 2**-20, so it is off by at most
    one), then one branch-free correction each way in exact int64."""
    r = x - np.int64(float(x) * inverse) * p
    r = r + p if r < 0 else r
    return r - p if r >= p else r


@njit(cache=True, nogil=True)
def _tally(factors: Any, fill: Any, moduli: Any, cards: Any, half_index: Any, low: Any,
           high: Any, entry_term: Any, entry_count: Any, cell_starts: Any, key_cells: Any,
           key_starts: Any) -> Any:  # pragma: no cover - compiled
    terms = cards.shape[0]
    entries = entry_term.shape[0]
    cells = cell_starts.shape[0]
    keys = key_starts.shape[0]
    width = moduli.shape[0]
    out = np.empty((width, keys), dtype=np.int64)
    # every modulus side by side: one pass over the entries serves them all
    # three or four moduli: four columns side by side (the unused ones zero), read as a row
    weights = np.zeros((terms, 4 if 2 < width <= 4 else width), dtype=np.int64)
    cell_sums = np.zeros((cells, width), dtype=np.int64)
    table_low = np.empty((low.shape[0], width), dtype=np.int64)
    table_high = np.empty((high.shape[0], width), dtype=np.int64)
    smallest = 7
    for t in range(terms):
        smallest = min(smallest, cards[t])
    for i in range(width):
        p = moduli[i]
        inverse = 1.0 / p if p else 0.0
        for half in range(2):
            patterns = low if half == 0 else high
            table = table_low if half == 0 else table_high
            for r in range(patterns.shape[0]):
                x = np.int64(1)
                for column in range(5):
                    m = patterns[r, column]
                    if m:  # a value the pattern does not hold contributes 1
                        x = x * factors[i, half * 5 + column, m]
                        if p:
                            x = _reduce(x, p, inverse)
                table[r, i] = x
        if p:
            # fill x low-half factor once per (cards, low pattern): one reduction per term
            fill_low = np.empty((7, low.shape[0]), dtype=np.int64)
            for k in range(smallest, 7):
                for r in range(low.shape[0]):
                    fill_low[k, r] = _reduce(fill[i, k] * table_low[r, i], p, inverse)
            for t in range(terms):
                weights[t, i] = _reduce(fill_low[cards[t], half_index[0, t]]
                                        * table_high[half_index[1, t], i], p, inverse)
        else:
            for t in range(terms):
                weights[t, i] = (fill[i, cards[t]] * table_low[half_index[0, t], i]
                                 * table_high[half_index[1, t], i])
    if width == 1:
        flat = weights[:, 0]
        for c in range(cells):
            stop = cell_starts[c + 1] if c + 1 < cells else entries
            s = np.int64(0)
            for e in range(cell_starts[c], stop):
                s += flat[entry_term[e]] * entry_count[e]
            cell_sums[c, 0] = s
    elif width == 2:
        # wrapping int64 beside one prime: every shoe below 2**95 ways (about 2,700 decks)
        for c in range(cells):
            stop = cell_starts[c + 1] if c + 1 < cells else entries
            s0 = s1 = np.int64(0)
            for e in range(cell_starts[c], stop):
                t = entry_term[e]
                n = entry_count[e]
                s0 += weights[t, 0] * n
                s1 += weights[t, 1] * n
            cell_sums[c, 0] = s0
            cell_sums[c, 1] = s1
    elif width <= 4:
        # up to four moduli (any shoe below about 2**123 ways): four accumulators side by
        # side, the unused ones on zero weights
        for c in range(cells):
            stop = cell_starts[c + 1] if c + 1 < cells else entries
            s0 = s1 = s2 = s3 = np.int64(0)
            for e in range(cell_starts[c], stop):
                row = weights[entry_term[e]]
                n = entry_count[e]
                s0 += row[0] * n
                s1 += row[1] * n
                s2 += row[2] * n
                s3 += row[3] * n
            cell_sums[c, 0] = s0
            cell_sums[c, 1] = s1
            if width > 2:
                cell_sums[c, 2] = s2
            if width > 3:
                cell_sums[c, 3] = s3
    else:
        for c in range(cells):
            stop = cell_starts[c + 1] if c + 1 < cells else entries
            for e in range(cell_starts[c], stop):
                t = entry_term[e]
                n = entry_count[e]
                for i in range(width):
                    cell_sums[c, i] += weights[t, i] * n
    for i in range(width):
        p = moduli[i]
        if p:
            inverse = 1.0 / p
            for c in range(cells):
                cell_sums[c, i] = _reduce(cell_sums[c, i], p, inverse)
    for q in range(keys):
        stop = key_starts[q + 1] if q + 1 < keys else key_cells.shape[0]
        for i in range(width):
            s = np.int64(0)
            for c in range(key_starts[q], stop):
                s += cell_sums[key_cells[c], i]
            p = moduli[i]
            out[i, q] = _reduce(s, p, 1.0 / p) if p else s
    return out


@njit(cache=True, nogil=True)
def _shoe_tables(counts: Any, moduli: Any) -> Any:  # pragma: no cover - compiled
    """Falling-factorial factors and fill of a finite shoe per modulus (as ``shoe_factors``)."""
    width = moduli.shape[0]
    factors = np.ones((width, 10, 7), dtype=np.int64)
    fill = np.ones((width, 7), dtype=np.int64)
    n = np.int64(0)
    for v in range(10):
        n += counts[v]
    for i in range(width):
        p = moduli[i]
        inverse = 1.0 / p if p else 0.0
        for v in range(10):
            for m in range(6):
                step = max(counts[v] - m, 0)
                x = factors[i, v, m] * (step % p if p else step)
                factors[i, v, m + 1] = _reduce(x, p, inverse) if p else x
        for k in range(5, -1, -1):
            x = fill[i, k + 1] * ((n - k) % p if p else n - k)
            fill[i, k] = _reduce(x, p, inverse) if p else x
    return factors, fill


def tally_sums(factors: npt.NDArray[np.int64] | None, fill: npt.NDArray[np.int64] | None,
               moduli: npt.NDArray[np.int64], plan: Any,
               counts: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
    """Per modulus (0: exact int64) the key sums of a plan (an
    :class:`analyzer.engine.tally.TallyPlan`, not imported here): see its ``key_sums``.

    A finite shoe may be given by its ten value ``counts`` instead of its factor tables.
    """
    if counts is not None:
        factors, fill = _shoe_tables(counts, moduli)
    result: npt.NDArray[np.int64] = _tally(
        factors, fill, moduli, plan.cards, plan.half_index, plan.patterns_low,
        plan.patterns_high, plan.entry_term, plan.entry_count, plan.cell_starts,
        plan.key_cells, plan.key_starts)
    return result


@njit(cache=True, nogil=True)
def _batch(counts: Any, payoff: Any, cards: Any, low_index: Any, high_index: Any, low: Any,
           high: Any) -> Any:  # pragma: no cover - compiled
    """Rows padded to a multiple of BLOCK; the same arithmetic, in the same order, as
    ``BatchEvaluator._evaluate_chunk`` (weights ``(fill x A) x B``, then one matrix product
    per block): the two agree to the last bit."""
    # rows are taken as 1-D views once, so the loops over shoes index from zero (no
    # negative-index wraparound per element) and vectorise
    shoes = counts.shape[0]
    columns = payoff.shape[0]
    terms = cards.shape[0]
    out = np.empty((shoes, columns))
    falling = np.empty((10, 7, BLOCK))
    fill = np.empty((7, BLOCK))
    table_low = np.empty((low.shape[0], BLOCK))
    table_high = np.empty((high.shape[0], BLOCK))
    weights = np.empty((terms, BLOCK))
    for start in range(0, shoes, BLOCK):
        for s in range(BLOCK):
            size = 0.0
            for v in range(10):
                c = counts[start + s, v]
                size += c
                f = 1.0
                falling[v, 0, s] = 1.0
                for m in range(1, 7):
                    f *= c - (m - 1)
                    falling[v, m, s] = f
            fill[6, s] = 1.0
            for k in range(5, -1, -1):
                fill[k, s] = fill[k + 1, s] * (size - k)
        for half in range(2):
            patterns = low if half == 0 else high
            table = table_low if half == 0 else table_high
            for r in range(patterns.shape[0]):
                row = table[r]
                first = falling[half * 5, patterns[r, 0]]
                for s in range(BLOCK):
                    row[s] = first[s]
                for column in range(1, 5):
                    other = falling[half * 5 + column, patterns[r, column]]
                    for s in range(BLOCK):
                        row[s] *= other[s]
        for t in range(terms):
            w = weights[t]
            f = fill[cards[t]]
            a = table_low[low_index[t]]
            b = table_high[high_index[t]]
            for s in range(BLOCK):
                w[s] = f[s] * a[s] * b[s]
        res = payoff @ weights
        for s in range(min(BLOCK, shoes - start)):
            for j in range(columns):
                out[start + s, j] = res[j, s] / fill[0, s]
    return out


@cache
def _load_blas() -> None:
    """Load the BLAS numba's matrix products call (scipy's, about 0.15 s to import: only
    :func:`batch_values` multiplies matrices, the verifier's kernels never do), one
    thread as above."""
    import scipy.linalg.cython_blas  # noqa: F401

    threadpool_limits(limits=1, user_api="blas")


def batch_values(counts: npt.NDArray[np.float64], payoff: npt.NDArray[np.float64],
                 cards: npt.NDArray[np.int64], low_index: npt.NDArray[np.int64],
                 high_index: npt.NDArray[np.int64], low: npt.NDArray[np.int64],
                 high: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """``sum_t payoff[j, t] ways_t(shoe) / (N)_6`` for every shoe (rows of ten value counts),
    ``payoff`` being (columns x terms): see ``BatchEvaluator``."""
    rows = np.asarray(counts, dtype=np.float64)
    shoes = rows.shape[0]
    if shoes == 0:
        return np.empty((0, payoff.shape[0]))
    _load_blas()
    padded = np.empty((-(-shoes // BLOCK) * BLOCK, 10))
    padded[:shoes] = rows
    padded[shoes:] = rows[0]
    result: npt.NDArray[np.float64] = _batch(padded, np.ascontiguousarray(payoff), cards,
                                             low_index, high_index, low, high)
    return result[:shoes]


@njit(cache=True, nogil=True)
def _grouped(counts: Any, columns: Any, combine_start: Any, combine_atom: Any,
             group_cards: Any, group_low: Any, group_entry: Any,
             entry_high: Any, entry_column: Any, entry_payoff: Any, low_pair: Any,
             low_triple: Any, high_pair: Any, high_triple: Any,
             triples: Any) -> Any:  # pragma: no cover - compiled
    """:func:`_batch` with the terms grouped by (cards, low half): per group the sum of
    ``payoff x high half`` over the group's nonzero payoffs first (no test per column),
    then times ``fill x low half`` once, so no term weight is stored; only the columns a
    group has entries in are touched (a lucky-baccarat group has entries in 5.5 of its
    12 columns on average). Each half's table
    row is a product of two shared partial products: values (0, 1) and values (2, 3, 4)
    (or 5-6 and 7-9): one multiply per row instead of four (3x faster than five
    gathers a row). A group's entries come by column: each column's run of entries is
    summed in one row, two entries with one load and store of it (1.3x faster), and
    added into the column's sums times the group's weight once. The sums may be of *atoms*
    (combinations of labels), each output column the sum of its atoms' sums before the
    one division. Every term is a nonnegative integer and their total is below 2**53 up
    to :data:`~analyzer.engine.shoe_aware.EXACT_CARDS` cards, so every product and
    partial sum, in any order, is exact: it agrees with :func:`_batch` and the numpy path
    to the last bit there (to rounding above)."""
    shoes = counts.shape[0]
    groups = group_cards.shape[0]
    kinds = triples.shape[0]
    outputs = combine_start.shape[0] - 1
    out = np.empty((shoes, outputs))
    falling = np.empty((10, 7, BLOCK))
    fill = np.empty((7, BLOCK))
    pair = np.empty((2, 49, BLOCK))
    triple = np.empty((2, kinds, BLOCK))
    table_low = np.empty((low_pair.shape[0], BLOCK))
    table_high = np.empty((high_pair.shape[0], BLOCK))
    acc = np.zeros((columns, BLOCK))
    inner = np.empty(BLOCK)
    weight = np.empty(BLOCK)
    for start in range(0, shoes, BLOCK):
        for s in range(BLOCK):
            size = 0.0
            for v in range(10):
                c = counts[start + s, v]
                size += c
                f = 1.0
                falling[v, 0, s] = 1.0
                for m in range(1, 7):
                    f *= c - (m - 1)
                    falling[v, m, s] = f
            fill[6, s] = 1.0
            for k in range(5, -1, -1):
                fill[k, s] = fill[k + 1, s] * (size - k)
        for half in range(2):
            base = half * 5
            for a in range(7):
                for b in range(7 - a):
                    first = falling[base, a]
                    second = falling[base + 1, b]
                    into = pair[half, a * 7 + b]
                    for s in range(BLOCK):
                        into[s] = first[s] * second[s]
            for r in range(kinds):
                f2 = falling[base + 2, triples[r, 0]]
                f3 = falling[base + 3, triples[r, 1]]
                f4 = falling[base + 4, triples[r, 2]]
                into = triple[half, r]
                for s in range(BLOCK):
                    into[s] = f2[s] * f3[s] * f4[s]
        for r in range(low_pair.shape[0]):
            first = pair[0, low_pair[r]]
            second = triple[0, low_triple[r]]
            into = table_low[r]
            for s in range(BLOCK):
                into[s] = first[s] * second[s]
        for r in range(high_pair.shape[0]):
            first = pair[1, high_pair[r]]
            second = triple[1, high_triple[r]]
            into = table_high[r]
            for s in range(BLOCK):
                into[s] = first[s] * second[s]
        acc[:, :] = 0.0
        for g in range(groups):
            f = fill[group_cards[g]]
            w = table_low[group_low[g]]
            for s in range(BLOCK):
                weight[s] = f[s] * w[s]
            e = group_entry[g]
            end = group_entry[g + 1]
            while e < end:
                # one column's run of entries: summed in `inner`, then times the weight
                # into that column alone
                column = entry_column[e]
                row = table_high[entry_high[e]]
                p = entry_payoff[e]
                for s in range(BLOCK):
                    inner[s] = p * row[s]
                e += 1
                while e < end and entry_column[e] == column:
                    row = table_high[entry_high[e]]
                    p = entry_payoff[e]
                    if e + 1 < end and entry_column[e + 1] == column:
                        # two entries at once: one load and store of the run's sums
                        other = table_high[entry_high[e + 1]]
                        q = entry_payoff[e + 1]
                        for s in range(BLOCK):
                            inner[s] += p * row[s] + q * other[s]
                        e += 2
                    else:
                        for s in range(BLOCK):
                            inner[s] += p * row[s]
                        e += 1
                into = acc[column]
                for s in range(BLOCK):
                    into[s] += weight[s] * inner[s]
        for s in range(min(BLOCK, shoes - start)):
            for j in range(outputs):
                total = 0.0
                for k in range(combine_start[j], combine_start[j + 1]):
                    total += acc[combine_atom[k], s]
                out[start + s, j] = total / fill[0, s]
    return out


def grouped_values(counts: npt.NDArray[np.float64], plan: Any) -> npt.NDArray[np.float64]:
    """:func:`batch_values` with the terms grouped (``plan``: an
    :class:`analyzer.engine.shoe_aware.GroupedPlan`, not imported here)."""
    rows = np.asarray(counts, dtype=np.float64)
    shoes = rows.shape[0]
    if shoes == 0:
        return np.empty((0, plan.combine_start.shape[0] - 1))
    padded = np.empty((-(-shoes // BLOCK) * BLOCK, 10))
    padded[:shoes] = rows
    padded[shoes:] = rows[0]
    result: npt.NDArray[np.float64] = _grouped(
        padded, plan.columns, plan.combine_start, plan.combine_atom, plan.group_cards,
        plan.group_low, plan.group_entry, plan.entry_high, plan.entry_column,
        plan.entry_payoff, plan.low_pair, plan.low_triple, plan.high_pair, plan.high_triple,
        plan.triples)
    return result[:shoes]


@njit(cache=True, nogil=True, error_model="numpy")  # (0 / 0: nan, as numpy gives)
def _two_card(counts: Any, class_of: Any, class_start: Any, result_start: Any,
              entry_start: Any, diagonal_start: Any, default: Any, entry: Any,
              diagonal: Any) -> Any:  # pragma: no cover - compiled
    shoes = counts.shape[0]
    forms = class_of.shape[0]
    out = np.empty((shoes, result_start[forms]))
    m = np.empty(class_start[forms])
    ways = np.empty(result_start[forms])
    for s in range(shoes):
        row = counts[s]
        size = 0.0
        for card in range(52):
            size += row[card]
        total = size * (size - 1.0)
        m[:] = 0.0
        for f in range(forms):
            base = class_start[f]
            for card in range(52):
                m[base + class_of[f, card]] += row[card]
        ways[:] = 0.0
        for f in range(forms):
            base, first = class_start[f], result_start[f]
            for e in range(entry_start[f], entry_start[f + 1]):
                ways[first + entry[e, 2]] += m[base + entry[e, 0]] * m[base + entry[e, 1]]
            for e in range(diagonal_start[f], diagonal_start[f + 1]):
                ways[first + diagonal[e, 1]] -= m[base + diagonal[e, 0]]
            others = 0.0
            for r in range(first, result_start[f + 1]):
                others += ways[r]
            ways[first + default[f]] = total - others
        for r in range(result_start[forms]):
            out[s, r] = ways[r] / total
    return out


def two_card_probabilities(counts: npt.NDArray[np.float64], sparse: Any
                           ) -> npt.NDArray[np.float64]:
    """Rows of 52 card counts -> each distinct two-card form's result probabilities, side
    by side (``sparse``: an :class:`analyzer.engine.forms.SparseForms`, not imported
    here): the exact integer ways of :meth:`analyzer.engine.forms.TwoCardForm.quadratic`
    from the forms' nonzero entries, each divided once by ``N (N - 1)``, so the same
    floats."""
    result: npt.NDArray[np.float64] = _two_card(
        counts, sparse.class_of, sparse.class_start, sparse.result_start,
        sparse.entry_start, sparse.diagonal_start, sparse.default, sparse.entry,
        sparse.diagonal)
    return result
