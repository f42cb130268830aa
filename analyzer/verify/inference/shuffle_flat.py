"""The shuffle sums of many whole shoes laid end to end, worked out as flat arrays.

:meth:`~analyzer.verify.inference.shuffle.ShuffleTally.add_shoes` (the column-wise path
without numba) adds a run of whole shoes here, a batch of them at a time: the same sums as
:meth:`~analyzer.verify.inference.shuffle.ShuffleTally._flush` (the reference, a matrix of
shoes padded to the longest), bit for bit, with no padded matrix: every card's stretch of
the shoe, the disjoint pairs and the blocks of the carried-runs test are indexed straight
into the cards. Each shoe's distinct runs are found by one sort of (shoe, run code) keys,
so their probability mass is still summed in ascending code order from 0.0 (the same
float), and a block of a shoe is looked up among the previous shoe's runs by a binary
search of the keys (its needles sorted first: the count of matches does not depend on
their order). Cards, run codes and keys are int32 (a batch of :data:`KEY_LIMIT` / run
codes shoes at most; int64 beyond): half the memory traffic of int64, and numpy sorts
int32 about three times faster.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.verify.inference.shoesums import POSITION_BINS

__all__ = ["add_flat", "KEY_LIMIT"]

IntArray = npt.NDArray[np.int64]
Ints = npt.NDArray[np.signedinteger[Any]]
#: (shoe, run code) keys of a batch are int32 below this, else int64.
KEY_LIMIT = 1 << 31


def add_flat(tally: Any, cards: IntArray, starts: IntArray, stops: IntArray) -> None:
    """Add whole shoes ``cards[starts[s]:stops[s]]`` (in order, two cards or more each) to
    the sums of ``tally`` (a :class:`~analyzer.verify.inference.shuffle.ShuffleTally`, not
    imported here), as its ``_flush`` of those shoes would (see the module docstring)."""
    count = len(starts)
    if count == 0:
        return
    lengths = stops - starts
    if int(starts[0]) == 0 and int(stops[-1]) == len(cards) and \
            bool((starts[1:] == stops[:-1]).all()):
        sequence, first_of = cards, starts
    else:
        first_of = np.cumsum(lengths) - lengths
        sequence = cards[np.repeat(starts - first_of, lengths) + np.arange(int(lengths.sum()))]
    kind: type[np.signedinteger[Any]] = np.int32 if count * (tally.codes + 1) < KEY_LIMIT \
        else np.int64
    sequence = sequence.astype(kind)
    shoe_ids: Ints = np.arange(count, dtype=kind)
    # -- rank (or value) by position: each stretch of each shoe, as the reference's bins
    width = int(lengths.max())
    bins = np.minimum(np.arange(width) * POSITION_BINS // tally.size, POSITION_BINS - 1)
    first = np.searchsorted(bins, np.arange(POSITION_BINS))
    last = np.append(first[1:], width)
    dealt = np.clip(lengths[:, None], first, last) - first
    tally.position_counts += dealt.sum(axis=0)
    tally.position_squares += (dealt * dealt).sum(axis=0)
    stretch: Ints = np.repeat(np.tile(np.arange(POSITION_BINS, dtype=kind), count), dealt.ravel())
    stretch += tally.category.astype(kind).take(sequence) * POSITION_BINS
    tally.position_table += np.bincount(stretch, minlength=tally.categories * POSITION_BINS)
    # -- disjoint adjacent pairs (cards 1-2, 3-4, ...)
    halves = lengths // 2
    opening = np.repeat(first_of - 2 * (np.cumsum(halves) - halves), halves) + \
        2 * np.arange(int(halves.sum()))
    x, y = sequence.take(opening), sequence.take(opening + 1)
    values = tally.card_value.astype(kind)
    tally.adjacent_table += np.bincount(values.take(x) * 10 + values.take(y), minlength=100)
    tally.pairs += int(halves.sum())
    tally.pair_squares += int((halves * halves).sum())
    if not tally.values:
        tally.successions[0] += int(np.count_nonzero(tally.new_deck_next.take(x) == y))
        tally.successions[1] += int(np.count_nonzero((y == x) | (y == (x + 1) % 52)))
    _carry(tally, sequence, first_of, lengths, shoe_ids)


def _carry(tally: Any, sequence: Ints, first_of: IntArray, lengths: IntArray,
           shoe_ids: Ints) -> None:
    """The carried-runs sums of the shoes (see the module docstring)."""
    run, count, total, kind = tally.run, len(lengths), sequence.size, sequence.dtype
    symbols = tally.run_symbol.astype(kind).take(sequence) if tally.values else sequence
    along = max(total - run + 1, 0)
    code = symbols[:along]
    for i in range(1, run):
        code = code * kind.type(tally.base) + symbols[i:along + i]
    # a run at every position but a shoe's last run - 1 (its cards would leave the shoe)
    held = np.ones(along, dtype=bool)
    for j in range(1, run):
        end = first_of + lengths - j
        held[end[(lengths >= j) & (end < along)]] = False
    runs = np.maximum(lengths - run + 1, 0)
    stride = kind.type(tally.codes + 1)
    key_shoe = np.repeat(shoe_ids, runs)
    keys = key_shoe * stride + code[held]
    keys.sort()  # shoe-major: each shoe's runs in ascending code order
    fresh = np.ones(keys.size, dtype=bool)
    fresh[1:] = keys[1:] != keys[:-1]
    distinct = keys[fresh]
    distinct_shoe = key_shoe[fresh]
    distinct_code = distinct - distinct_shoe * stride
    mass = np.bincount(distinct_shoe, weights=tally.probability.take(distinct_code),
                       minlength=count)
    # the blocks at 0, k, 2k, ... of each shoe, looked up among the previous shoe's runs
    blocks = lengths // run
    at = np.repeat(first_of - run * (np.cumsum(blocks) - blocks), blocks) + \
        run * np.arange(int(blocks.sum()))
    block_code = code.take(at)
    opening = int(blocks[0])
    wanted = np.repeat(shoe_ids, blocks)[opening:] * stride + block_code[opening:] - stride
    if distinct.size and wanted.size:
        wanted.sort()
        found = np.minimum(np.searchsorted(distinct, wanted), distinct.size - 1)
        tally.carry_runs += int(np.count_nonzero(distinct[found] == wanted))
    tally.carry_over(block_code[:opening].astype(np.int64), blocks, mass,
                     distinct_code[distinct_shoe == count - 1].astype(np.int64))
