"""The seat-by-seat walk over removed-card compositions, compiled by numba.

One code for two arithmetics: float64 (``p == 0``, the CFR+ search) and residues modulo a
prime ``p < 2**31`` in int64 (exact work, one pass per prime, rebuilt by CRT). Arrays:

* ``coef[j, e, h, d]`` -- live seat ``j``'s action weight for holding ``h`` and choice ``d``
  after the earlier choices ``e``, times the holding's order; ``bank[b, v, a]`` the bank's;
* ``P`` (flat, level ``j`` at ``offsets[j]``, ``[e, c]``) -- the weight of every way the
  first ``j`` seats hold the composition ``c`` and chose ``e``;
* ``Q[v, c, t, d]`` -- the same weight summed over the seats ``k`` whose total is ``t`` and
  whose choice is ``d`` (what the bank's result needs: its net is minus the seats' sum);
* ``Z[v, c, d, t]`` -- for a seat of total ``t`` choosing ``d``, the result summed over the
  bank's holding and play, weighted by the deal of the bank's hand and the falling factorials
  of the whole composition; the backward pass carries it to earlier seats.

A seat's and the bank's third cards are a uniformly random ordered pair of distinct cards
of the stock ``r`` left after the deal (nobody sees a third card before the showdown), so
each result is an integer over ``S (S - 1)``, ``S`` the stock's size (:func:`_results`).
In residue arithmetic every product of two residues is reduced at once; sums of a residue
times a result (below ``2**12 * 2**31``) are reduced once per composition.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["backward", "backward_from", "forward", "forward_pulled", "forward_pulled_from",
           "terminal"]


@njit(cache=True, nogil=True, inline="always")
def _mul(a: Any, b: Any, p: Any, inverse: Any) -> Any:  # pragma: no cover - compiled
    """``a b`` (floats) or ``a b mod p`` for residues: the quotient from a float estimate,
    corrected once each way."""
    x = a * b
    if p == 0:
        return x
    r = x - np.int64(float(x) * inverse) * p
    r = r + p if r < 0 else r
    return r - p if r >= p else r


@njit(cache=True, nogil=True, inline="always")
def _add(a: Any, b: Any, p: Any) -> Any:  # pragma: no cover - compiled
    x = a + b
    if p == 0:
        return x
    return x - p if x >= p else x


@njit(cache=True, nogil=True, inline="always")
def _fix(x: Any, p: Any, inverse: Any) -> Any:  # pragma: no cover - compiled
    """A signed int64 sum below ``2**62`` in absolute value brought into ``0 .. p - 1``
    (floats unchanged): the truncated float quotient is off by at most one."""
    if p == 0:
        return x
    r = x - np.int64(float(x) * inverse) * p
    r = r + p if r < 0 else r
    return r - p if r >= p else r


@njit(cache=True, nogil=True)
def forward(nxt: Any, starts: Any, total: Any, coef: Any, live: int, p: int,
            with_q: bool) -> Any:  # pragma: no cover - compiled
    """``P`` for every level (flat) with its offsets, and ``Q`` at the last level."""
    inverse = 1.0 / p if p else 0.0
    sizes = starts[1:] - starts[:-1]
    offsets = np.zeros(live + 2, dtype=np.int64)
    for j in range(live + 1):
        offsets[j + 1] = offsets[j] + (1 << j) * sizes[j]
    holdings = nxt.shape[1]
    weights = np.zeros(offsets[live + 1], dtype=coef.dtype)
    weights[0] = 1
    q = np.zeros((1, sizes[0], 10, 2), dtype=coef.dtype)
    for j in range(live):
        here, there = sizes[j], sizes[j + 1]
        q_next = np.zeros(((2 << j) if with_q else 1, there if with_q else 1, 10, 2),
                          dtype=coef.dtype)
        for e in range(1 << j):
            for c in range(here):
                x = weights[offsets[j] + e * here + c]
                carried = False
                if with_q:
                    for t in range(10):
                        if q[e, c, t, 0] != 0 or q[e, c, t, 1] != 0:
                            carried = True
                if x == 0 and not carried:
                    continue
                for h in range(holdings):
                    to = nxt[starts[j] + c, h]
                    if to < 0:
                        continue
                    for d in range(2):
                        s = coef[j, e, h, d]
                        if s == 0:
                            continue
                        y = _mul(x, s, p, inverse)
                        at = offsets[j + 1] + (2 * e + d) * there + to
                        weights[at] = _add(weights[at], y, p)
                        if with_q:
                            row = 2 * e + d
                            if carried:
                                for t in range(10):
                                    for dd in range(2):
                                        q_next[row, to, t, dd] = _add(
                                            q_next[row, to, t, dd],
                                            _mul(q[e, c, t, dd], s, p, inverse), p)
                            q_next[row, to, total[h], d] = _add(q_next[row, to, total[h], d],
                                                                y, p)
        q = q_next
    return weights, offsets, q


@njit(cache=True, nogil=True, inline="always")
def _sign(x: Any) -> Any:  # pragma: no cover - compiled
    return 1 if x > 0 else (-1 if x < 0 else 0)


@njit(cache=True, nogil=True, inline="always")
def _results(out: Any, remaining: Any, bank_total: int, stock: int,
             unit: bool) -> None:  # pragma: no cover - compiled
    """``out[t, d, a]``: a seat of two-card total ``t`` choosing ``d`` against the bank of
    total ``bank_total`` playing ``a``, summed over the ordered pairs of distinct third
    cards from ``remaining`` (``stock`` cards): an integer over ``stock (stock - 1)``."""
    pairs = stock * (stock - 1)
    if unit:
        out[:, :, :] = pairs
        return
    bank_final = np.zeros(10, dtype=np.int64)
    for y in range(10):
        bank_final[(bank_total + y) % 10] += remaining[y]
    # g[z]: third cards of the bank below a final seat total z, less those above
    g = np.zeros(10, dtype=np.int64)
    for z in range(10):
        for w in range(10):
            if w < z:
                g[z] += bank_final[w]
            elif w > z:
                g[z] -= bank_final[w]
    for t in range(10):
        out[t, 0, 0] = _sign(t - bank_total) * pairs
        out[t, 0, 1] = g[t] * (stock - 1)
        alone = 0
        both = 0
        for x in range(10):
            if remaining[x] == 0:
                continue
            final = (t + x) % 10
            alone += remaining[x] * _sign(final - bank_total)
            same = (bank_total + x) % 10  # both drew the same value: one card fewer
            both += remaining[x] * (g[final] - _sign(final - same))
        out[t, 1, 0] = alone * (stock - 1)
        out[t, 1, 1] = both


@njit(cache=True, nogil=True, inline="always")
def _left(remaining: Any, counts: Any, compositions: Any, usage: Any, c: int,
          b: int) -> bool:  # pragma: no cover - compiled
    """The stock left (into ``remaining``) once composition ``c`` of the seats' cards and the
    bank's holding ``b`` are dealt; False when they do not fit in ``counts``."""
    fits = True
    for v in range(10):
        remaining[v] = counts[v] - compositions[c, v] - usage[b, v]
        if remaining[v] < 0:
            fits = False
    return fits


@njit(cache=True, nogil=True)
def terminal(compositions: Any, counts: Any, usage: Any, total: Any, order: Any, falling: Any,
             stock: int, bank: Any, q: Any, last: Any, p: int, seats: bool, banker: bool,
             unit: bool, whole: Any) -> Any:  # pragma: no cover - compiled
    """Every bank holding against every composition of the seats' cards: ``Z`` (for the
    seats) and the bank's counterfactual values ``U[b, v, a]``. ``last[v, c]`` is ``P`` at
    the last level (the bank's reach when ``unit``). ``whole``: the bank's two action
    weights' sum when it is the same in every cell (else negative): then a seat's result
    is ``whole`` times the standing bank's plus the drawing weight times the difference,
    one product per cell instead of two, none where the bank stands."""
    inverse = 1.0 / p if p else 0.0
    size, holdings = compositions.shape[0], usage.shape[0]
    vectors = bank.shape[1]
    z = np.zeros((vectors if seats else 1, size if seats else 1, 20), dtype=bank.dtype)
    u = np.zeros((holdings, vectors, 2), dtype=bank.dtype)
    remaining = np.zeros(10, dtype=np.int64)
    table = np.zeros((10, 2, 2), dtype=np.int64)
    stand = np.zeros(20, dtype=np.int64)  # [d, t]: against a standing bank
    delta = np.zeros(20, dtype=np.int64)  # drawing less standing
    by_action = np.zeros((2, 20), dtype=np.int64)  # [a, (t, d)], as Q is laid out
    base = np.zeros(20, dtype=bank.dtype)
    for c in range(size):
        base[:] = 0
        for b in range(holdings):
            if not _left(remaining, counts, compositions, usage, c, b):
                continue
            w = order[b]
            for v in range(10):
                w = _mul(w, falling[v, compositions[c, v] + usage[b, v]], p, inverse)
            _results(table, remaining, total[b], stock, unit)
            for d in range(2):
                for t in range(10):
                    stand[10 * d + t] = table[t, d, 0]
                    delta[10 * d + t] = table[t, d, 1] - table[t, d, 0]
                    by_action[0, 2 * t + d] = table[t, d, 0]
                    by_action[1, 2 * t + d] = table[t, d, 1]
            if seats and whole >= 0:
                yd = _mul(whole, w, p, inverse)
                for i in range(20):
                    base[i] += yd * stand[i]
                for v in range(vectors):
                    y1 = _mul(bank[b, v, 1], w, p, inverse)
                    if y1 == 0:
                        continue
                    for i in range(20):
                        z[v, c, i] += y1 * delta[i]
            elif seats:
                for v in range(vectors):
                    y0 = _mul(bank[b, v, 0], w, p, inverse)
                    y1 = _mul(bank[b, v, 1], w, p, inverse)
                    for i in range(20):
                        z[v, c, i] += y0 * stand[i] + y1 * (stand[i] + delta[i])
            if banker:
                for v in range(vectors):
                    for a in range(2):
                        acc = 0 * w
                        if unit:
                            acc = last[v, c] * table[0, 0, a]
                        else:
                            for t in range(10):
                                for d in range(2):
                                    acc += q[v, c, t, d] * by_action[a, 2 * t + d]
                            acc = -acc
                        u[b, v, a] = _add(u[b, v, a], _mul(_fix(acc, p, inverse), w, p, inverse), p)
        if seats:
            for v in range(vectors):
                for i in range(20):
                    z[v, c, i] = _fix(z[v, c, i] + base[i], p, inverse)
    return z.reshape((z.shape[0], z.shape[1], 2, 10)), u


@njit(cache=True, nogil=True)
def backward(live: int, nxt: Any, starts: Any, total: Any, order: Any, coef: Any, z: Any,
             weights: Any, offsets: Any, p: int) -> Any:  # pragma: no cover - compiled
    """Every live seat's counterfactual values ``[e, h, d]``, flat (seat 0 first): the
    later seats' play folded in level by level from ``Z``, met with ``P`` at the seat's
    level. Each level is folded once for every seat, both halves of ``Z`` (stood, drew)
    carried: a seat below reads the half of its own choice. A seat's sums run over the
    same terms in the same order as folding for that seat alone would (so its floats are
    the same)."""
    out, _ = backward_from(0, live, nxt, starts, total, order, coef, z, weights, offsets, p,
                           False)
    return out


@njit(cache=True, nogil=True)
def backward_from(low: int, live: int, nxt: Any, starts: Any, total: Any, order: Any,
                  coef: Any, z: Any, weights: Any, offsets: Any, p: int,
                  fold_low: bool) -> Any:  # pragma: no cover - compiled
    """:func:`backward` for the seats of levels ``low .. live - 1`` below one prefix of the
    first ``low`` seats' choices (``coef``, ``weights`` and ``offsets`` numbered as
    :func:`forward_pulled_from` numbers them; ``z`` is ``F`` at level ``live``, ``[row, c,
    b, t]``), and ``F`` folded down to level ``low`` when ``fold_low`` (what the seats
    before ``low`` read). Every sum is the one :func:`backward` makes."""
    inverse = 1.0 / p if p else 0.0
    sizes = starts[1:] - starts[:-1]
    holdings = nxt.shape[1]
    size = 0
    for k in range(live - low):
        size += (1 << k) * holdings * 2
    out = np.zeros(size, dtype=z.dtype)
    later = z  # F at level j + 1: [row, c, b, t]
    at = size
    for j in range(live - 1, low - 1, -1):
        level = j - low
        here = sizes[j]
        at -= (1 << level) * holdings * 2
        for e in range(1 << level):
            for c in range(here):
                x = weights[offsets[level] + e * here + c]
                if x == 0:
                    continue
                for h in range(holdings):
                    to = nxt[starts[j] + c, h]
                    if to < 0:
                        continue
                    y = _mul(x, order[h], p, inverse)
                    for d in range(2):
                        i = at + (e * holdings + h) * 2 + d
                        out[i] = _add(out[i], _mul(y, later[2 * e + d, to, d, total[h]], p,
                                                   inverse), p)
        if j == 0 or (j == low and not fold_low):
            break
        folded = np.zeros((1 << level, here, 2, 10), dtype=z.dtype)
        for v in range(1 << level):
            for c in range(here):
                for h in range(holdings):
                    to = nxt[starts[j] + c, h]
                    if to < 0:
                        continue
                    for d in range(2):
                        s = coef[j, v, h, d]
                        if s == 0:
                            continue
                        row = 2 * v + d
                        for b in range(2):
                            for t in range(10):
                                folded[v, c, b, t] = _add(
                                    folded[v, c, b, t], _mul(s, later[row, to, b, t], p,
                                                             inverse), p)
        later = folded
    return out, later


@njit(cache=True, nogil=True)
def forward_pulled(first: Any, source: Any, holding: Any, starts: Any, total: Any, coef: Any,
                   live: int, with_q: bool) -> Any:  # pragma: no cover - compiled
    """:func:`forward` in floats, pulled: every composition gathers from the (composition,
    holding) pairs below that reach it (``first``, ``source``, ``holding``:
    :func:`~analyzer.choice.table.dealt.residues.sources`), so its sums stay in
    registers. The pairs come in the order :func:`forward` pushes them (composition, then
    holding), so every sum is the same float."""
    start = np.ones(1, dtype=coef.dtype)
    return forward_pulled_from(first, source, holding, starts, total, coef, 0, live, start,
                               np.zeros((1, 1, 20), dtype=coef.dtype), with_q)


@njit(cache=True, nogil=True)
def forward_pulled_from(first: Any, source: Any, holding: Any, starts: Any, total: Any,
                        coef: Any, low: int, live: int, start: Any, start_q: Any,
                        with_q: bool) -> Any:  # pragma: no cover - compiled
    """:func:`forward_pulled` from level ``low`` up, below one prefix of the first ``low``
    seats' choices: ``start`` is that prefix's ``P`` at level ``low`` and ``start_q`` its
    ``Q`` (``[1, c, 2 t + d]``); ``coef[j, e]`` numbers the prefixes ``e`` of level ``j``
    below it (``2**(j - low)`` of them), and so do the weights returned (offsets by ``j -
    low``). Every sum is the one :func:`forward_pulled` makes for the same prefix."""
    sizes = starts[1:] - starts[:-1]
    levels = live - low
    offsets = np.zeros(levels + 2, dtype=np.int64)
    for i in range(levels + 1):
        offsets[i + 1] = offsets[i] + (1 << i) * sizes[low + i]
    weights = np.zeros(offsets[levels + 1], dtype=coef.dtype)
    weights[:sizes[low]] = start
    q = start_q  # [e, c, 2 t + d]
    acc = np.zeros(20, dtype=coef.dtype)
    for i in range(levels):
        j = low + i
        here, there = sizes[j], sizes[j + 1]
        q_next = np.zeros(((2 << i) if with_q else 1, there if with_q else 1, 20),
                          dtype=coef.dtype)
        for e in range(1 << i):
            for d in range(2):
                row = 2 * e + d
                for to in range(there):
                    g = starts[j + 1] + to
                    total_weight = 0.0
                    if with_q:
                        acc[:] = 0.0
                    for k in range(first[g], first[g + 1]):
                        h = holding[k]
                        s = coef[j, e, h, d]
                        if s == 0:
                            continue
                        c = source[k]
                        x = weights[offsets[i] + e * here + c]
                        y = x * s
                        total_weight += y
                        if with_q:
                            for m in range(20):
                                acc[m] += q[e, c, m] * s
                            acc[2 * total[h] + d] += y
                    weights[offsets[i + 1] + row * there + to] = total_weight
                    if with_q:
                        for m in range(20):
                            q_next[row, to, m] = acc[m]
        q = q_next
    return weights, offsets, q.reshape((q.shape[0], q.shape[1], 10, 2))
