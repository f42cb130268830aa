"""The float walk of a wide subgame one subtree of choices at a time: the same floats, a
fraction of the memory.

The breadth-first walk (:mod:`analyzer.choice.table.dealt.kernels`) holds, at its last level,
one float per (choice vector of the ``m`` live seats, composition of their cards, total,
choice): ``Q`` for the bank's side and ``Z`` for the seats'. That is ``2**m x K_m x 20 x 8``
bytes: 2 GB at six live seats, 8.3 GB at seven and 29 GB at eight (nine people, one deck).
Nothing at a level mixes two prefixes of the earlier seats' choices, so the walk splits at
level ``low``: forward to ``low`` for every prefix, then for each prefix ``e`` of the first
``low`` seats' choices forward, terminal step and backward over the ``2**(m - low)`` choice
vectors below it alone, folding the seats' results down to ``low``; last, the seats before
``low`` read the folded arrays of every prefix, as the breadth-first walk would. Every sum
has the same terms in the same order, so every float is the one the breadth-first walk
gives (``tests/choice/table/dealt/test_streamed.py`` checks it bit for bit); only the
terminal step's results tables are computed once per subtree instead of once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.choice.table.dealt import kernels

__all__ = ["STREAM_BYTES", "split_level", "streamed_walk"]

#: A float walk whose last array (``Q`` or ``Z``) would exceed this many bytes is streamed,
#: one subtree at a time, each subtree's last array at most this many bytes. The terminal
#: step's results tables are computed once per subtree, so subtrees must stay wide: the
#: six-seat walk by total (seats' pass, 3 December 2026, load 5) took 37 s of CPU breadth
#: first, 42 s in subtrees of 16 choice vectors and 170 s in subtrees of 2.
STREAM_BYTES = 2**31


def split_level(live: int, last_compositions: int) -> int:
    """The level at which the float walk of ``live`` seats splits (0: not streamed).

    >>> split_level(6, 192_950), split_level(7, 405_350), split_level(8, 710_675)
    (0, 2, 4)
    """
    per_vector = last_compositions * 20 * 8
    low = 0
    while low < live - 1 and (per_vector << (live - low)) > STREAM_BYTES:
        low += 1
    return low


def _below(coef: Any, low: int, prefix: int) -> Any:
    """The action weights of the seats from level ``low`` on, below one prefix of the first
    ``low`` seats' choices, numbered from 0 at every level."""
    live = coef.shape[0]
    out = np.zeros((live, max(1, 1 << (live - 1 - low))) + coef.shape[2:], dtype=coef.dtype)
    for j in range(low, live):
        rows = 1 << (j - low)
        out[j, :rows] = coef[j, prefix * rows:(prefix + 1) * rows]
    return out


def streamed_walk(walk: dict[str, Any], coef: Any, bank_rows: Any, whole: Any, low: int,
                  want_seats: bool, want_bank: bool, unit: bool) -> tuple[list[Any], Any]:
    """Every seat's values ``(2**k, H, 2)`` and the bank's ``U[b, v, a]`` in floats, the walk
    split at level ``low`` (see the module docstring). ``walk`` holds the subgame's arrays:
    ``first``, ``source``, ``holding`` (:func:`~.residues.sources`), ``nxt``, ``starts``,
    ``total``, ``order``, ``usage``, ``falling``, ``compositions`` (the last level's),
    ``counts`` and ``stock``."""
    live = coef.shape[0]
    holdings = walk["nxt"].shape[1]
    starts = walk["starts"]
    pulled = (walk["first"], walk["source"], walk["holding"], starts, walk["total"])
    with_q = want_bank and not unit
    weights, offsets, q = kernels.forward_pulled(*pulled, coef, low, with_q)
    size_low = int(starts[low + 1] - starts[low])
    reach_low = weights[offsets[low]:offsets[low + 1]].reshape(1 << low, size_low)
    q_low = (q.reshape(q.shape[0], q.shape[1], 20) if with_q
             else np.zeros((1 << low, 1, 20), dtype=coef.dtype))
    seats = [np.zeros((1 << k, holdings, 2), dtype=coef.dtype) for k in range(live)]
    bank = np.zeros((holdings, 1 << live, 2), dtype=coef.dtype)
    folded_low = np.zeros((1 << low, size_low, 2, 10), dtype=coef.dtype)
    width = 1 << (live - low)
    for prefix in range(1 << low):
        below = _below(coef, low, prefix)
        sub_weights, sub_offsets, sub_q = kernels.forward_pulled_from(
            *pulled, below, low, live, np.ascontiguousarray(reach_low[prefix]),
            np.ascontiguousarray(q_low[prefix:prefix + 1]), with_q)
        last = sub_weights[sub_offsets[live - low]:sub_offsets[live - low + 1]].reshape(
            width, -1)
        vectors = slice(prefix * width, (prefix + 1) * width)
        z, u = kernels.terminal(walk["compositions"], walk["counts"], walk["usage"],
                                walk["total"], walk["order"], walk["falling"], walk["stock"],
                                np.ascontiguousarray(bank_rows[:, vectors]), sub_q, last, 0,
                                want_seats, want_bank, unit, whole)
        del sub_q
        if want_bank:
            bank[:, vectors] = u
        if not want_seats:
            continue
        flat, folded = kernels.backward_from(low, live, walk["nxt"], starts, walk["total"],
                                             walk["order"], below, z, sub_weights,
                                             sub_offsets, 0, low > 0)
        del z
        at = 0
        for j in range(low, live):
            rows = 1 << (j - low)
            cells = rows * holdings * 2
            seats[j][prefix * rows:(prefix + 1) * rows] = flat[at:at + cells].reshape(
                rows, holdings, 2)
            at += cells
        if low > 0:
            folded_low[prefix] = folded[0]
    if want_seats and low > 0:
        flat, _ = kernels.backward_from(0, low, walk["nxt"], starts, walk["total"],
                                        walk["order"], coef, folded_low, weights, offsets, 0,
                                        False)
        at = 0
        for k in range(low):
            cells = (1 << k) * holdings * 2
            seats[k] = flat[at:at + cells].reshape(1 << k, holdings, 2)
            at += cells
    return (seats if want_seats else []), bank
