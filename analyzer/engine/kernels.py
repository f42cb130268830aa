"""Fused loops for the engine's hot paths, compiled by numba and cached on disk.

Imported only through :mod:`analyzer.engine.backend` (importing numba costs about half a
second). Each kernel has a numpy reference it must match:

* :func:`tally_sums` - :meth:`analyzer.engine.tally.TallyPlan.key_sums`: exact int64 (or
  residues modulo primes below 2**31), identical integers;
* :func:`batch_values` - :class:`analyzer.engine.evaluator.BatchEvaluator` and the shoe-aware
  evaluator: float64, shoes in blocks of :data:`BLOCK` so every intermediate stays in cache.

The first call compiles (a few seconds) and writes numba's cache beside this file, or in
numba's user-wide cache directory when the package folder is read-only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from numba import njit

if TYPE_CHECKING:
    from analyzer.engine.tally import TallyPlan

__all__ = ["BLOCK", "batch_values", "tally_sums"]

#: Shoes evaluated together by :func:`batch_values` (tables of 462 x BLOCK doubles).
BLOCK = 32


@njit(cache=True, nogil=True)
def _tally(factors: Any, fill: Any, moduli: Any, cards: Any, half_index: Any, low: Any,
           high: Any, entry_term: Any, entry_count: Any, cell_starts: Any, key_cells: Any,
           key_starts: Any) -> Any:  # pragma: no cover - compiled
    terms = cards.shape[0]
    entries = entry_term.shape[0]
    cells = cell_starts.shape[0]
    keys = key_starts.shape[0]
    out = np.empty((moduli.shape[0], keys), dtype=np.int64)
    weights = np.empty(terms, dtype=np.int64)
    cell_sums = np.empty(cells, dtype=np.int64)
    table_low = np.empty(low.shape[0], dtype=np.int64)
    table_high = np.empty(high.shape[0], dtype=np.int64)
    for i in range(moduli.shape[0]):
        p = moduli[i]
        for half in range(2):
            patterns = low if half == 0 else high
            table = table_low if half == 0 else table_high
            for r in range(patterns.shape[0]):
                x = np.int64(1)
                for column in range(5):
                    x = x * factors[i, half * 5 + column, patterns[r, column]]
                    if p:
                        x = x % p
                table[r] = x
        for t in range(terms):
            w = fill[i, cards[t]] * table_low[half_index[0, t]]
            if p:
                w = w % p
            w = w * table_high[half_index[1, t]]
            if p:
                w = w % p
            weights[t] = w
        for c in range(cells):
            stop = cell_starts[c + 1] if c + 1 < cells else entries
            s = np.int64(0)
            for e in range(cell_starts[c], stop):
                s += weights[entry_term[e]] * entry_count[e]
            cell_sums[c] = s % p if p else s
        for q in range(keys):
            stop = key_starts[q + 1] if q + 1 < keys else key_cells.shape[0]
            s = np.int64(0)
            for c in range(key_starts[q], stop):
                s += cell_sums[key_cells[c]]
            out[i, q] = s % p if p else s
    return out


def tally_sums(factors: npt.NDArray[np.int64], fill: npt.NDArray[np.int64],
               moduli: npt.NDArray[np.int64], plan: TallyPlan) -> npt.NDArray[np.int64]:
    """Per modulus (0: exact int64) the key sums of a plan: see ``TallyPlan.key_sums``."""
    result: npt.NDArray[np.int64] = _tally(
        factors, fill, moduli, plan.cards, plan.half_index, plan.patterns_low,
        plan.patterns_high, plan.entry_term, plan.entry_count, plan.cell_starts,
        plan.key_cells, plan.key_starts)
    return result


@njit(cache=True, nogil=True)
def _batch(counts: Any, payoff: Any, group_cards: Any, group_low: Any, group_starts: Any,
           term_high: Any, low: Any, high: Any, block: int) -> Any:  # pragma: no cover
    shoes = counts.shape[0]
    columns = payoff.shape[1]
    out = np.empty((shoes, columns))
    falling = np.empty((10, 7, block))
    fill = np.empty((7, block))
    table_low = np.empty((low.shape[0], block))
    table_high = np.empty((high.shape[0], block))
    acc = np.empty((columns, block))
    inner = np.empty((columns, block))
    groups = group_cards.shape[0]
    for start in range(0, shoes, block):
        n = min(block, shoes - start)
        for s in range(n):
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
                for s in range(n):
                    table[r, s] = falling[half * 5, patterns[r, 0], s]
                for column in range(1, 5):
                    row = falling[half * 5 + column, patterns[r, column]]
                    for s in range(n):
                        table[r, s] *= row[s]
        acc[:, :n] = 0.0
        for g in range(groups):
            inner[:, :n] = 0.0
            for t in range(group_starts[g], group_starts[g + 1]):
                b = table_high[term_high[t]]
                for j in range(columns):
                    weight = payoff[t, j]
                    if weight != 0.0:
                        for s in range(n):
                            inner[j, s] += weight * b[s]
            k = group_cards[g]
            a = table_low[group_low[g]]
            for s in range(n):
                scale = fill[k, s] * a[s]
                for j in range(columns):
                    acc[j, s] += scale * inner[j, s]
        for s in range(n):
            for j in range(columns):
                out[start + s, j] = acc[j, s] / fill[0, s]
    return out


def batch_values(counts: npt.NDArray[np.float64], payoff: npt.NDArray[np.float64],
                 group_cards: npt.NDArray[np.int64], group_low: npt.NDArray[np.int64],
                 group_starts: npt.NDArray[np.int64], term_high: npt.NDArray[np.int64],
                 low: npt.NDArray[np.int64], high: npt.NDArray[np.int64]
                 ) -> npt.NDArray[np.float64]:
    """``sum_t payoff[t, j] ways_t(shoe) / (N)_6`` for every shoe (rows of ten value counts).

    Terms come sorted by (cards, low-half pattern) in groups: ``group_starts[g]`` opens group
    ``g`` with ``group_cards[g]`` cards and low pattern ``group_low[g]``; ``term_high[t]``
    is term ``t``'s high-half pattern; ``payoff`` is (terms x columns).
    """
    result: npt.NDArray[np.float64] = _batch(
        np.ascontiguousarray(counts, dtype=np.float64), np.ascontiguousarray(payoff),
        group_cards, group_low, group_starts, term_high, low, high, BLOCK)
    return result
