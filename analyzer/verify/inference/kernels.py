"""Fused loops for the shoe-aware tallies, compiled by numba and cached on disk.

Loaded only once a process has loaded :mod:`analyzer.engine.kernels` (the shoe-aware model
of a large log; see :func:`analyzer.engine.backend.loaded`), so the independent path never
imports numba. Each kernel has a numpy reference it must match bit for bit:

* :func:`shuffle_shoes` - the sums of
  :meth:`analyzer.verify.inference.shuffle.ShuffleTally._flush`: integer counts, and each
  shoe's run probability mass summed in ascending code order from 0.0 (the order numpy's
  ``bincount`` adds it), so the same float;
* :func:`rank_rows` - :func:`analyzer.verify.inference.moments._conditional` (the same
  quotients ``before / left``) and each shoe's rows summed in row order from 0.0 (as
  numpy's ``sum(axis=0)`` of a C-contiguous array adds them: row after row);
* :func:`run_moments` - :func:`analyzer.verify.inference.moments.run_terms` (each run's
  hands added in row order, each bet's sums over its labels from the first label).

The first call compiles (a few seconds) and writes numba's cache beside this file.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from analyzer.verify.inference.shoesums import POSITION_BINS

__all__ = ["rank_rows", "run_moments", "shuffle_shoes"]

IntArray = npt.NDArray[np.int64]


#: Bits of a digit of :func:`_sorted`'s radix sort.
_DIGIT = 8


@njit(cache=True, nogil=True)
def _sorted(values: Any, n: Any, below: Any, spare: Any,
            buckets: Any) -> Any:  # pragma: no cover - compiled
    """``values[:n]`` (each in ``[0, below)``) in ascending order: a least significant
    digit first radix sort (a shoe's few hundred runs, several times faster than a
    comparison sort), in ``values`` or ``spare`` (the one returned)."""
    source, target = values, spare
    shift = 0
    while (1 << shift) < below:
        buckets[:] = 0
        for i in range(n):
            buckets[(source[i] >> shift) & ((1 << _DIGIT) - 1)] += 1
        total = 0
        for d in range(1 << _DIGIT):
            count = buckets[d]
            buckets[d] = total
            total += count
        for i in range(n):
            d = (source[i] >> shift) & ((1 << _DIGIT) - 1)
            target[buckets[d]] = source[i]
            buckets[d] += 1
        source, target = target, source
        shift += _DIGIT
    return source[:n]


@njit(cache=True, nogil=True)
def _shuffle(cards: Any, starts: Any, stops: Any, category: Any, card_value: Any,
             new_deck_next: Any, run_symbol: Any, run: Any, base: Any, probability: Any,
             size: Any, bins: Any, values: Any, previous: Any, has_previous: Any,
             previous_mass: Any, known: Any, position_table: Any, position_counts: Any,
             position_squares: Any, adjacent_table: Any,
             counters: Any) -> Any:  # pragma: no cover - compiled
    shoes = starts.shape[0]
    codes = probability.shape[0]
    expected = np.empty(shoes, dtype=np.float64)
    filled = 0
    first_blocks = np.empty(0, dtype=np.int64)
    for c in range(previous.shape[0]):
        known[previous[c]] = True
    dealt = np.zeros(bins, dtype=np.int64)
    longest = 0
    for s in range(shoes):
        longest = max(longest, stops[s] - starts[s])
    code = np.empty(max(longest, 1), dtype=np.int64)
    spare = np.empty(max(longest, 1), dtype=np.int64)
    buckets = np.empty(1 << _DIGIT, dtype=np.int64)
    last = previous.copy()
    mass_before = -1.0
    for s in range(shoes):
        a, length = starts[s], stops[s] - starts[s]
        # rank (or value) by position: each card's category in its stretch of the shoe
        dealt[:] = 0
        for j in range(length):
            b = min(j * bins // size, bins - 1)
            position_table[category[cards[a + j]] * bins + b] += 1
            dealt[b] += 1
        for b in range(bins):
            position_counts[b] += dealt[b]
            position_squares[b] += dealt[b] * dealt[b]
        # disjoint adjacent pairs (cards 1-2, 3-4, ...)
        half = length // 2
        counters[0] += half
        counters[1] += half * half
        for i in range(half):
            x, y = cards[a + 2 * i], cards[a + 2 * i + 1]
            adjacent_table[card_value[x] * 10 + card_value[y]] += 1
            if not values:
                if new_deck_next[x] == y:
                    counters[2] += 1
                if y == x or y == (x + 1) % 52:
                    counters[3] += 1
        # runs of `run` symbols at every position, the blocks at 0, run, 2 run, ...
        along = max(length - run + 1, 0)
        blocks = 0
        found = 0
        for p in range(along):
            x = 0
            for i in range(run):
                card = cards[a + p + i]
                x = x * base + (run_symbol[min(card, 51)] if values else card)
            code[p] = x
            if p % run == 0:
                blocks += 1
                if known[x]:
                    found += 1
        counters[4] += found
        if s == 0 and not has_previous:
            first_blocks = np.empty(blocks, dtype=np.int64)
            for k in range(blocks):
                first_blocks[k] = code[k * run]
        else:
            before = mass_before if s > 0 else previous_mass
            expected[filled] = blocks * before
            filled += 1
        # this shoe's distinct runs (ascending) and their mass, summed in that order
        ordered = _sorted(code, along, codes, spare, buckets)
        distinct = 0
        mass = 0.0
        for p in range(along):
            if (p == 0 or ordered[p] != ordered[p - 1]) and ordered[p] < codes:
                ordered[distinct] = ordered[p]
                distinct += 1
                mass += probability[ordered[p]]
        for c in range(last.shape[0]):
            known[last[c]] = False
        last = ordered[:distinct].copy()
        for c in range(distinct):
            known[last[c]] = True
        mass_before = mass
    for c in range(last.shape[0]):
        known[last[c]] = False
    counters[5] += filled
    return expected[:filled], first_blocks, last, mass_before


def shuffle_shoes(cards: IntArray, starts: IntArray, stops: IntArray, tally: Any,
                  known: npt.NDArray[np.bool_], counters: IntArray,
                  previous: IntArray | None, previous_mass: float
                  ) -> tuple[npt.NDArray[np.float64], IntArray, IntArray, float]:
    """Add whole shoes (``cards[starts[s]:stops[s]]``, two cards or more each) to the
    integer sums of ``tally`` (a :class:`~analyzer.verify.inference.shuffle.ShuffleTally`,
    not imported here) and to ``counters`` (pairs, pair squares, the two successions,
    carried runs, carried pairs); ``known``: a scratch table of every run code, all False
    (left so). Returns each shoe's carried-runs null mean term (blocks times the previous
    shoe's mass), the first shoe's blocks when there was no ``previous`` shoe, and the last
    shoe's distinct runs and mass."""
    has_previous = previous is not None
    expected, first, last, mass = _shuffle(
        cards, starts, stops, tally.category, tally.card_value, tally.new_deck_next,
        tally.run_symbol, tally.run, tally.base, tally.probability, tally.size,
        POSITION_BINS, tally.values,
        previous if has_previous else np.zeros(0, dtype=np.int64), has_previous,
        previous_mass, known, tally.position_table, tally.position_counts,
        tally.position_squares, tally.adjacent_table, counters)
    return expected, first, last, float(mass)


@njit(cache=True, nogil=True)
def _rank_rows(start: Any, cards: Any, tested: Any, category: Any,
               lengths: Any) -> Any:  # pragma: no cover - compiled
    k = start.shape[0]
    total = 0
    for a in range(k):
        total += start[a]
    kept = 0
    n = cards.shape[0]
    at = 0
    for s in range(lengths.shape[0]):
        for j in range(lengths[s]):
            if tested[at + j] and total - j > 0:
                kept += 1
        at += lengths[s]
    rows = np.empty((kept, k), dtype=np.float64)
    sums = np.zeros((lengths.shape[0], k), dtype=np.float64)
    bounds = np.empty(lengths.shape[0] + 1, dtype=np.int64)
    before = np.empty(k, dtype=np.int64)
    r = 0
    at = 0
    for s in range(lengths.shape[0]):
        bounds[s] = r
        for a in range(k):
            before[a] = start[a]
        for j in range(lengths[s]):
            left = total - j
            if tested[at + j] and left > 0:
                for a in range(k):
                    q = before[a] / np.float64(left)
                    rows[r, a] = q
                    sums[s, a] += q
                r += 1
            before[category[cards[at + j]]] -= 1
        at += lengths[s]
    bounds[lengths.shape[0]] = r
    assert at == n
    return rows, bounds, sums


def rank_rows(start: IntArray, cards: IntArray, tested: npt.NDArray[np.bool_],
              category: IntArray, lengths: IntArray
              ) -> tuple[npt.NDArray[np.float64], IntArray, npt.NDArray[np.float64]]:
    """Each tested card's category distribution given its shoe's cards before it (rows),
    where each shoe's rows begin (one past the last's at the end), and each shoe's rows
    summed in row order."""
    result: tuple[npt.NDArray[np.float64], IntArray, npt.NDArray[np.float64]] = _rank_rows(
        start, cards, tested, category, lengths)
    return result


@njit(cache=True, nogil=True)
def _run_moments(result: Any, stakes: Any, starts: Any, label: Any, size: Any,
                 expected_at: Any, covariance_at: Any, scalars: Any, net: Any, square: Any,
                 width: Any) -> Any:  # pragma: no cover - compiled
    n = result.shape[0]
    runs = starts.shape[0]
    bets = label.shape[0]
    out = np.zeros((runs, width))
    for r in range(runs):
        stop = starts[r + 1] if r + 1 < runs else n
        row = out[r]
        for h in range(starts[r], stop):
            p = result[h]
            for b in range(bets):
                at, k = label[b], size[b]
                e, c = expected_at[b], covariance_at[b]
                mean = p[at] * net[at]
                second = p[at] * square[at]
                for i in range(1, k):
                    mean = mean + p[at + i] * net[at + i]
                    second = second + p[at + i] * square[at + i]
                for i in range(k):
                    q = p[at + i]
                    row[e + i] += q
                    for j in range(k):
                        row[c + i * k + j] += q * p[at + j]
                variance = second - mean * mean
                stake = stakes[h, b]
                s = scalars + 4 * b
                row[s] += mean
                row[s + 1] += variance
                row[s + 2] += stake * mean
                row[s + 3] += (stake * stake) * variance
        for b in range(bets):
            k, e, c = size[b], expected_at[b], covariance_at[b]
            for i in range(k):
                for j in range(k):
                    row[c + i * k + j] = -row[c + i * k + j]
                row[c + i * k + i] += row[e + i]
    return out


def run_moments(result: npt.NDArray[np.float64], stakes: npt.NDArray[np.float64],
                starts: IntArray, layout: Any) -> npt.NDArray[np.float64]:
    """:func:`analyzer.verify.inference.moments.run_terms` in one pass over the hands
    (``layout``: its ``_Columns``, not imported here): each run's sums start from 0.0 and
    take the hands in row order, as the reference's do: the same floats."""
    terms: npt.NDArray[np.float64] = _run_moments(
        np.ascontiguousarray(result), np.ascontiguousarray(stakes), starts, layout.label,
        layout.size, layout.expected_at, layout.covariance_at, layout.scalars, layout.net,
        layout.square, layout.width)
    return terms
