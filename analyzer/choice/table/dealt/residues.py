"""The exact walk in residues: its last step as one integer matrix built once for every prime.

The terminal step of :mod:`analyzer.choice.table.dealt.kernels` (every bank holding against
every composition of the seats' cards) costs about a billion residue operations per prime
at five people, most of an exact evaluation, and all but the two strategy arrays is the
same for every prime. So when the bank sees its total (few bank classes) the exact work
builds once per subgame the integer matrix of :mod:`analyzer.choice.table.dealt.dense`,

``M[c, (class, a), (d, t)] = sum over holdings b of the class of w(c, b) R_cb[t, d, a]``,

in int64 (:func:`exact_matrix`: its entries are bounded exactly first, below ``2**52``),
and each prime's pass is two small products per composition (:func:`modular_terminal`):
the seats' ``Z`` is the bank's play times ``M``, the bank's counterfactual values minus
``M`` times ``Q``. Each entry of ``M`` (and the seats' side's sums and differences of two,
below ``2**53``) is cut into a low 26-bit limb and a signed high one (below ``2**27`` in
absolute value), so a residue (below ``2**31``) times a limb is below ``2**58`` and a sum
of up to 20 of them fits int64 unreduced (a seat's sums over the bank's classes are
reduced every :data:`BLOCK` terms): one reduction per sum instead of one per product. The
residues are the compiled walk's, exactly.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from analyzer.choice.table.dealt.dense import _build
from analyzer.choice.table.dealt.kernels import _add, _fix, _left, _mul, _results

__all__ = ["backward_residues", "BLOCK", "exact_matrix", "forward_residues", "kept_matrix",
           "let_go", "LIMB", "MAX_EXACT_LIVE", "MAX_ROWS", "modular_terminal", "pair_tables",
           "sources", "SPAN", "terminal_residues"]

#: Live seats up to which the exact matrix replaces the compiled terminal step (five people:
#: the tables of six and more keep the compiled walk).
MAX_EXACT_LIVE = 4
#: Most rows of ``M`` (twice the bank's classes): by total (18). By cards (one class per
#: holding, 100 rows, 357 MB at five people) the products cost as much as the compiled
#: walk's loop over holdings (measured: 1.04 s against 1.12 s a prime, after a 3.9 s build).
MAX_ROWS = 36
#: Terms of a seat's sum between two reductions (see the module docstring).
BLOCK = 16
#: Bits of the low limb of an entry of ``M``; entries stay below ``2**(2 LIMB)``.
LIMB = 26

IntArray = npt.NDArray[np.int64]

#: The one exact matrix kept: (its subgame, the matrix or None).
_KEPT: list[tuple[object, IntArray | None]] = []
_KEPT_LOCK = threading.Lock()


def kept_matrix(owner: object, build: Callable[[], IntArray | None]) -> IntArray | None:
    """``owner``'s exact matrix, built by ``build`` when it is not the one kept: one is kept
    at a time (the last subgame's), so checking a table subgame by subgame, or closing one
    subgame's equilibrium prime after prime, builds each once and holds at most one (primes
    on several threads: the first builds it, the others wait)."""
    with _KEPT_LOCK:
        if _KEPT and _KEPT[0][0] is owner:
            return _KEPT[0][1]
        _KEPT.clear()
        found = build()
        _KEPT.append((owner, found))
        return found


def let_go(owner: object) -> None:
    """Drop the kept matrix if it is ``owner``'s."""
    with _KEPT_LOCK:
        if _KEPT and _KEPT[0][0] is owner:
            _KEPT.clear()


def _bound(compositions: IntArray, counts: tuple[int, ...], stock: int) -> int:
    """An exact bound on ``|M|``: the largest ordered ways to deal a composition of the
    seats' cards, times the ordered pairs of the bank's two cards from what is left, times
    ``stock**2`` (a result of a pair of third cards is at most ``stock (stock - 1)``)."""
    cards = int(compositions[0].sum()) if len(compositions) else 0
    size = sum(counts)
    if math.perm(size, cards) >= 2**63:  # the int64 products below could overflow
        return 2**63
    table = np.asarray([[math.perm(n, c) for c in range(cards + 1)] for n in counts],
                       dtype=np.int64)  # perm(n, c) is 0 past n
    ways = np.ones(len(compositions), dtype=np.int64)
    for v in range(len(counts)):  # every partial product is at most perm(size, cards)
        ways = ways * table[v, compositions[:, v]]
    left = size - cards
    return int(ways.max(initial=0)) * left * (left - 1) * stock * stock


def _falling(counts: tuple[int, ...], cards: int) -> IntArray:
    """``perm(n, c)`` for every count ``n`` and ``c`` up to the cards a deal takes (no
    further: a deep shoe's full table overflows int64), exact in int64."""
    width = min(max(counts), cards) + 1
    return np.asarray([[math.perm(n, c) for c in range(width)] for n in counts],
                      dtype=np.int64)


def exact_matrix(compositions: IntArray, counts: tuple[int, ...], usage: IntArray,
                 total: IntArray, order: IntArray, stock: int, bank_index: Any, classes: int,
                 live: int) -> IntArray | None:
    """``M`` exactly in int64 as ``(compositions, 2 classes, 20)``, or None when the
    subgame has more than :data:`MAX_EXACT_LIVE` live seats, ``M`` more than
    :data:`MAX_ROWS` rows, or entries that could reach ``2**(2 LIMB)``."""
    if live > MAX_EXACT_LIVE or 2 * classes > MAX_ROWS:
        return None
    if _bound(compositions, counts, stock) >= 2**(2 * LIMB):
        return None
    falling = _falling(counts, 2 * (live + 1))
    out = np.zeros((2 * classes, 20 * len(compositions)), dtype=np.int64)
    _build(compositions, np.asarray(counts), usage, total, order, falling, stock,
           np.asarray(bank_index, dtype=np.int64), out)
    return np.ascontiguousarray(out.reshape(2 * classes, -1, 20).transpose(1, 0, 2))


@njit(cache=True, nogil=True)
def _terminal(matrix: Any, play: Any, q: Any, p: int, seats: bool,
              banker: bool) -> Any:  # pragma: no cover - compiled
    inverse = 1.0 / p
    size, rows, _ = matrix.shape
    classes = rows // 2
    vectors = play.shape[0]
    shift = np.int64(1)
    for _ in range(LIMB):
        shift = _add(shift, shift, p)
    mask = (np.int64(1) << LIMB) - 1
    z = np.zeros((vectors if seats else 1, size if seats else 1, 20), dtype=np.int64)
    u = np.zeros((rows, vectors), dtype=np.int64)
    low = np.zeros((rows, 20), dtype=np.int64)
    high = np.zeros((rows, 20), dtype=np.int64)
    a = np.zeros(20, dtype=np.int64)
    b = np.zeros(20, dtype=np.int64)
    x = np.zeros((20, vectors), dtype=np.int64)
    sa = np.zeros(vectors, dtype=np.int64)
    sb = np.zeros(vectors, dtype=np.int64)
    whole = np.zeros(vectors, dtype=np.int64)
    for v in range(vectors):  # the bank's scale: its two weights' sum, the same everywhere
        whole[v] = _add(play[v, 0], play[v, 1], p)
    for c in range(size):
        if seats:
            # the seats' side as the standing bank's (every class) plus, per class, the
            # drawing weight times drawing less standing: classes where it stands cost nothing
            for i in range(20):
                standing = np.int64(0)
                for k in range(classes):
                    standing += matrix[c, 2 * k, i]
                low[0, i] = standing & mask
                high[0, i] = standing >> LIMB
                for k in range(classes):
                    delta = matrix[c, 2 * k + 1, i] - matrix[c, 2 * k, i]
                    low[k + 1, i] = delta & mask
                    high[k + 1, i] = delta >> LIMB
            for v in range(vectors):
                s = whole[v]
                for i in range(20):
                    a[i] = s * low[0, i]
                    b[i] = s * high[0, i]
                terms = 1
                for k in range(classes):
                    s = play[v, 2 * k + 1]
                    if s == 0:
                        continue
                    if terms == BLOCK:  # reduced every BLOCK terms: int64 never overflows
                        for i in range(20):
                            a[i] = a[i] % p
                            b[i] = b[i] % p
                        terms = 0
                    terms += 1
                    for i in range(20):
                        a[i] += s * low[k + 1, i]
                        b[i] += s * high[k + 1, i]
                for i in range(20):
                    z[v, c, i] = _add(a[i] % p, _mul(b[i] % p, shift, p, inverse), p)
        if banker:  # along the choice vectors: vector registers
            for i in range(20):
                for v in range(vectors):
                    x[i, v] = q[v, c, i % 10, i // 10]
            for r in range(rows):
                sa[:] = 0
                sb[:] = 0
                for i in range(20):
                    m_low = matrix[c, r, i] & mask
                    m_high = matrix[c, r, i] >> LIMB
                    for v in range(vectors):
                        sa[v] += m_low * x[i, v]
                        sb[v] += m_high * x[i, v]
                for v in range(vectors):
                    u[r, v] = _add(u[r, v], _add(sa[v] % p, _mul(sb[v] % p, shift, p, inverse),
                                                 p), p)
    return z, u


def modular_terminal(matrix: IntArray, bank: IntArray, q: IntArray, p: int, seats: bool,
                     banker: bool) -> tuple[IntArray, IntArray]:
    """``Z[v, c, d, t]`` (``seats``) and the bank's counterfactual values per class
    ``[class, v, a]`` (``banker``) modulo ``p``, from ``M``, the bank's play residues
    ``bank[class, v, a]`` and ``Q[v, c, t, d]`` (see the module docstring)."""
    classes, vectors, _ = bank.shape
    play = np.ascontiguousarray(bank.transpose(1, 0, 2)).reshape(vectors, 2 * classes)
    z, u = _terminal(matrix, play, q if banker else np.zeros((1, 1, 10, 2), np.int64), p,
                     seats, banker)
    bank_values = ((p - u) % p).reshape(classes, 2, vectors).transpose(0, 2, 1)
    return z.reshape(z.shape[0], z.shape[1], 2, 10), np.ascontiguousarray(bank_values)


#: Bits of the low half of a strategy weight's residue in the lazy walk.
HALF = 16


@njit(cache=True, nogil=True, inline="always")
def _join(low: Any, high: Any, p: int, shift: Any, inverse: float) -> Any:  # pragma: no cover
    """``low + high 2**HALF`` modulo ``p`` (``shift`` is ``2**HALF`` modulo ``p``)."""
    return _add(low % p, _mul(high % p, shift, p, inverse), p)


def sources(levels: Any) -> tuple[IntArray, IntArray, IntArray]:
    """The transitions reversed: for every composition (numbered across levels as in
    ``Levels.stacked_next``), the compositions of the level below and the holdings that
    reach it -- ``first[g] .. first[g + 1]`` index ``source`` and ``holding``."""
    starts = np.zeros(len(levels.compositions) + 1, dtype=np.int64)
    for j, level in enumerate(levels.compositions):
        starts[j + 1] = starts[j] + len(level)
    targets, source, holding = [], [], []
    for j, nxt in enumerate(levels.next):
        rows, columns = np.nonzero(nxt >= 0)
        targets.append(starts[j + 1] + nxt[rows, columns])
        source.append(rows)
        holding.append(columns)
    if not targets:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(starts[-1] + 1, dtype=np.int64), empty, empty
    flat = np.concatenate(targets)
    order = np.argsort(flat, kind="stable")
    first = np.searchsorted(flat[order], np.arange(starts[-1] + 1)).astype(np.int64)
    return (first, np.concatenate(source)[order].astype(np.int64),
            np.concatenate(holding)[order].astype(np.int64))


@njit(cache=True, nogil=True)
def forward_residues(first: Any, source: Any, holding: Any, starts: Any, total: Any,
                     coef: Any, live: int, p: int, with_q: bool,
                     needed: Any) -> Any:  # pragma: no cover - compiled
    """:func:`~analyzer.choice.table.dealt.kernels.forward` in residues, pulled: every
    composition gathers from the (composition, holding) pairs below that reach it (at
    most one per holding, :func:`sources`), so its sums stay in registers. Each weight is
    cut into halves below ``2**16``: a residue times a half is below ``2**47`` and the at
    most 100 terms of a sum fit int64 unreduced, reduced once. ``needed[v]``: False for
    the last level's choice vectors nobody reads (the bank's values at a few vectors):
    the choices of every level that lead only to them are left zero."""
    inverse = 1.0 / p
    shift = np.int64(1 << HALF) % p
    mask = (np.int64(1) << HALF) - 1
    sizes = starts[1:] - starts[:-1]
    flags = np.zeros((live + 1, 1 << live), dtype=np.bool_)  # [level, prefix]: read
    for v in range(1 << live):  # a loop: an array assignment's shape check compiles
        flags[live, v] = needed[v]  # numba's string formatting (~4 s, once per clone)
    for j in range(live - 1, -1, -1):
        for v in range(1 << j):
            flags[j, v] = flags[j + 1, 2 * v] or flags[j + 1, 2 * v + 1]
    offsets = np.zeros(live + 2, dtype=np.int64)
    for j in range(live + 1):
        offsets[j + 1] = offsets[j] + (1 << j) * sizes[j]
    weights = np.zeros(offsets[live + 1], dtype=np.int64)
    weights[0] = 1
    q = np.zeros((1, sizes[0], 20), dtype=np.int64)  # [e, c, 2 t + d]
    low = np.zeros(20, dtype=np.int64)
    high = np.zeros(20, dtype=np.int64)
    for j in range(live):
        here, there = sizes[j], sizes[j + 1]
        q_next = np.zeros(((2 << j) if with_q else 1, there if with_q else 1, 20),
                          dtype=np.int64)
        for e in range(1 << j):
            for d in range(2):
                row = 2 * e + d
                if not flags[j + 1, row]:
                    continue
                for to in range(there):
                    g = starts[j + 1] + to
                    w_low = np.int64(0)
                    w_high = np.int64(0)
                    if with_q:
                        low[:] = 0
                        high[:] = 0
                    for k in range(first[g], first[g + 1]):
                        h = holding[k]
                        s = coef[j, e, h, d]
                        if s == 0:
                            continue
                        c = source[k]
                        x = weights[offsets[j] + e * here + c]
                        s_low, s_high = s & mask, s >> HALF
                        w_low += x * s_low
                        w_high += x * s_high
                        if with_q:
                            for i in range(20):
                                low[i] += q[e, c, i] * s_low
                                high[i] += q[e, c, i] * s_high
                            low[2 * total[h] + d] += x * s_low
                            high[2 * total[h] + d] += x * s_high
                    weights[offsets[j + 1] + row * there + to] = _join(w_low, w_high, p,
                                                                       shift, inverse)
                    if with_q:
                        for i in range(20):
                            q_next[row, to, i] = _join(low[i], high[i], p, shift, inverse)
        q = q_next
    return weights, offsets, q.reshape((q.shape[0], q.shape[1], 10, 2))


@njit(cache=True, nogil=True)
def backward_residues(live: int, nxt: Any, starts: Any, total: Any, order: Any, coef: Any,
                      z: Any, weights: Any, offsets: Any, p: int,
                      alive: Any) -> Any:  # pragma: no cover - compiled
    """Every live seat's counterfactual values ``[e, h, d]`` in residues, flat (seat 0
    first), as :func:`~analyzer.choice.table.dealt.kernels.backward` folds each level once
    for every seat: a seat ``k`` below level ``j`` reads the result at its own choice, a
    bit of the earlier choices there, so folding both halves of ``Z`` (stood, drew) serves
    them all. Sums are reduced
    lazily as in :func:`forward_residues` (at most 100 terms per entry). ``alive[v]``:
    False where ``Z``'s choice vector ``v`` is known to be zero (its prefixes, zero at
    every level, are skipped: a bank play changed in one cell touches one path)."""
    inverse = 1.0 / p
    shift = np.int64(1 << HALF) % p
    mask = (np.int64(1) << HALF) - 1
    sizes = starts[1:] - starts[:-1]
    holdings = nxt.shape[1]
    flags = np.zeros((live + 1, 1 << live), dtype=np.bool_)  # [level, prefix]: not all zero
    for v in range(1 << live):  # a loop: an array assignment's shape check compiles
        flags[live, v] = alive[v]  # numba's string formatting (~4 s, once per clone)
    for j in range(live - 1, -1, -1):
        for v in range(1 << j):
            flags[j, v] = flags[j + 1, 2 * v] or flags[j + 1, 2 * v + 1]
    size = 0
    for k in range(live):
        size += (1 << k) * holdings * 2
    out = np.zeros(size, dtype=np.int64)
    later = z  # F at level j + 1: [row, c, b, t]
    low = np.zeros(20, dtype=np.int64)
    high = np.zeros(20, dtype=np.int64)
    at = size
    for j in range(live - 1, -1, -1):
        # seat j's values from F at level j + 1, read at its own choice
        here = sizes[j]
        at -= (1 << j) * holdings * 2
        for e in range(1 << j):
            if not flags[j, e]:
                continue
            for c in range(here):
                x = weights[offsets[j] + e * here + c]
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
        if j == 0:
            break
        # F at level j from level j + 1: both halves, for the seats before j
        folded = np.zeros((1 << j, here, 2, 10), dtype=np.int64)
        for v in range(1 << j):
            if not flags[j, v]:
                continue
            for c in range(here):
                low[:] = 0
                high[:] = 0
                for h in range(holdings):
                    to = nxt[starts[j] + c, h]
                    if to < 0:
                        continue
                    for d in range(2):
                        s = coef[j, v, h, d]
                        if s == 0:
                            continue
                        s_low, s_high = s & mask, s >> HALF
                        row = 2 * v + d
                        for b in range(2):
                            for t in range(10):
                                value = later[row, to, b, t]
                                low[10 * b + t] += s_low * value
                                high[10 * b + t] += s_high * value
                for b in range(2):
                    for t in range(10):
                        folded[v, c, b, t] = _join(low[10 * b + t], high[10 * b + t], p,
                                                   shift, inverse)
        later = folded
    return out


#: Compositions between two reductions of the bank's sums in :func:`terminal_residues`
#: (each adds at most one term below ``2**47`` per cell).
SPAN = 2**14


@njit(cache=True, nogil=True)
def _pairs(compositions: Any, counts: Any, usage: Any, total: Any, order: Any, falling: Any,
           stock: int, weights: Any, results: Any) -> None:  # pragma: no cover - compiled
    remaining = np.zeros(10, dtype=np.int64)
    table = np.zeros((10, 2, 2), dtype=np.int64)
    for c in range(compositions.shape[0]):
        for b in range(usage.shape[0]):
            if not _left(remaining, counts, compositions, usage, c, b):
                continue
            w = order[b]
            for v in range(10):
                w *= falling[v, compositions[c, v] + usage[b, v]]
            weights[c, b] = w
            _results(table, remaining, total[b], stock, False)
            for t in range(10):
                for d in range(2):
                    for a in range(2):
                        results[c, b, 2 * t + d, a] = table[t, d, a]


def pair_tables(compositions: IntArray, counts: tuple[int, ...], usage: IntArray,
                total: IntArray, order: IntArray, stock: int,
                live: int) -> tuple[IntArray, npt.NDArray[np.int16]] | None:
    """Every (composition of the seats' cards, bank holding) pair's exact weight (0 where
    they do not fit the shoe) and results of the third cards ``[2 t + d, a]`` (int16), for
    :func:`terminal_residues`; None past :data:`MAX_EXACT_LIVE` live seats, or where a weight
    could overflow int64 or a result int16."""
    cards = 2 * (live + 1)
    if (live > MAX_EXACT_LIVE or 2 * math.perm(sum(counts), cards) >= 2**63
            or stock * stock >= 2**15):
        return None
    falling = _falling(counts, 2 * (live + 1))
    weights = np.zeros((len(compositions), len(usage)), dtype=np.int64)
    results = np.zeros((len(compositions), len(usage), 20, 2), dtype=np.int16)
    _pairs(compositions, np.asarray(counts), usage, total, order, falling, stock, weights,
           results)
    return weights, results


@njit(cache=True, nogil=True)
def terminal_residues(weights: Any, results: Any, bank: Any, q: Any, p: int, seats: bool,
                      banker: bool, whole: Any) -> Any:  # pragma: no cover - compiled
    """:func:`~analyzer.choice.table.dealt.kernels.terminal` in residues when the bank sees
    its cards (no exact matrix), from :func:`pair_tables`: the same ``Z`` and bank values,
    with the bank's sums laid out along the choice vectors (so they run in vector
    registers) and reduced lazily -- a sum of 20 residues times results (below
    ``2**46.3``) reduced once, then times the deal's weight cut into 16-bit halves and
    added unreduced for :data:`SPAN` compositions."""
    inverse = 1.0 / p
    shift = np.int64(1 << HALF) % p
    mask = (np.int64(1) << HALF) - 1
    size, holdings = weights.shape
    vectors = bank.shape[1]
    z = np.zeros((vectors if seats else 1, size if seats else 1, 20), dtype=np.int64)
    u_low = np.zeros((holdings, 2, vectors), dtype=np.int64)
    u_high = np.zeros((holdings, 2, vectors), dtype=np.int64)
    spread = np.zeros((20, vectors), dtype=np.int64)  # q at c: [2 t + d, v]
    acc = np.zeros(vectors, dtype=np.int64)
    y = np.zeros(vectors, dtype=np.int64)
    stand = np.zeros(20, dtype=np.int64)  # [10 d + t]
    delta = np.zeros(20, dtype=np.int64)
    base = np.zeros(20, dtype=np.int64)
    for c in range(size):
        if banker:
            for v in range(vectors):
                for t in range(10):
                    for d in range(2):
                        spread[2 * t + d, v] = q[v, c, t, d]
        base[:] = 0
        for b in range(holdings):
            if weights[c, b] == 0:
                continue
            w = weights[c, b] % p
            if seats:
                for d in range(2):
                    for t in range(10):
                        stand[10 * d + t] = results[c, b, 2 * t + d, 0]
                        delta[10 * d + t] = (np.int64(results[c, b, 2 * t + d, 1])
                                             - results[c, b, 2 * t + d, 0])
                if whole >= 0:
                    yd = _mul(whole, w, p, inverse)
                    for i in range(20):
                        base[i] += yd * stand[i]
                    for v in range(vectors):
                        y[v] = _mul(bank[b, v, 1], w, p, inverse)
                    for v in range(vectors):
                        if y[v] == 0:
                            continue
                        for i in range(20):
                            z[v, c, i] += y[v] * delta[i]
                else:
                    for v in range(vectors):
                        y0 = _mul(bank[b, v, 0], w, p, inverse)
                        y1 = _mul(bank[b, v, 1], w, p, inverse)
                        for i in range(20):
                            z[v, c, i] += y0 * stand[i] + y1 * (stand[i] + delta[i])
            if banker:
                w_low, w_high = w & mask, w >> HALF
                for a in range(2):
                    acc[:] = 0
                    for i in range(20):
                        r = np.int64(results[c, b, i, a])
                        if r == 0:
                            continue
                        for v in range(vectors):
                            acc[v] += spread[i, v] * r
                    for v in range(vectors):
                        x = _fix(acc[v], p, inverse)
                        u_low[b, a, v] += x * w_low
                        u_high[b, a, v] += x * w_high
        if seats:
            for v in range(vectors):
                for i in range(20):
                    z[v, c, i] = _fix(z[v, c, i] + base[i], p, inverse)
        if banker and (c + 1) % SPAN == 0:
            for b in range(holdings):
                for a in range(2):
                    for v in range(vectors):
                        u_low[b, a, v] = u_low[b, a, v] % p
                        u_high[b, a, v] = u_high[b, a, v] % p
    u = np.zeros((holdings, vectors, 2), dtype=np.int64)
    for b in range(holdings):
        for a in range(2):
            for v in range(vectors):
                x = _join(u_low[b, a, v], u_high[b, a, v], p, shift, inverse)
                u[b, v, a] = (p - x) % p  # the bank's net is minus the seats'
    return z.reshape((z.shape[0], z.shape[1], 2, 10)), u
