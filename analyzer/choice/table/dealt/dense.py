"""The float walk's last step as one matrix: every bank class against every seats' composition.

In the terminal step of :mod:`analyzer.choice.table.dealt.kernels` each (composition ``c`` of
the seats' cards, bank holding ``b``) pair costs a results table and a product with the
bank's play after every choice vector (the seats' side) or with ``Q`` (the bank's side):
about a billion multiply-adds per pass at five people. None of it but the two strategy
arrays changes between CFR+ iterations, so the float search builds, once per subgame, the
matrix

``M[(class, a), (c, d, t)] = sum over holdings b of the class of w(c, b) R_cb[t, d, a]``

(``w`` the deal's weight, ``R`` the results of :func:`~analyzer.choice.table.dealt.kernels`
's ``_results``) and each pass is one BLAS product: the seats' ``Z`` is the bank's play
times ``M``, the bank's counterfactual values are ``M`` times ``Q``. Summing holdings into
the bank's classes first makes the by-total matrix about five times smaller than by cards
(357 MB at five people by cards, 64 MB by total). Exact work (residues) keeps the compiled
walk: this is floats only, where the search needs speed and not the last digit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit
from threadpoolctl import ThreadpoolController

from analyzer.choice.table.dealt.kernels import _left, _results
from analyzer.processes import spare_threads

__all__ = ["DENSE_BYTES", "dense_bank", "dense_matrix", "dense_seats"]

#: Largest terminal matrix built (bytes): five people by cards need 357 MB; beyond this
#: (six people and more) the float walk keeps the compiled loop.
DENSE_BYTES = 600 * 2**20

FloatArray = npt.NDArray[np.float64]

#: The BLAS this process loaded (looked up once): the products below read all of ``M`` (357 MB
#: at five people by cards) and run on the spare cores (:func:`spare_threads`; the package
#: keeps BLAS single-threaded elsewhere, where products are small).
_BLAS = ThreadpoolController()


@njit(cache=True, nogil=True)
def _build(compositions: Any, counts: Any, usage: Any, total: Any, order: Any, falling: Any,
           stock: int, bank_class: Any, out: Any) -> None:  # pragma: no cover - compiled
    """``M`` into ``out`` (zeros, ``(2 classes, 20 compositions)``), in the falling
    factorials' arithmetic: float64 for the search, exact int64 for
    :mod:`analyzer.choice.table.dealt.residues`."""
    size, holdings = compositions.shape[0], usage.shape[0]
    remaining = np.zeros(10, dtype=np.int64)
    table = np.zeros((10, 2, 2), dtype=np.int64)
    for c in range(size):
        for b in range(holdings):
            if not _left(remaining, counts, compositions, usage, c, b):
                continue
            w = order[b] * falling[0, 0]  # falling[v, 0] is 1: the arithmetic's one
            for v in range(10):
                w *= falling[v, compositions[c, v] + usage[b, v]]
            _results(table, remaining, total[b], stock, False)
            row = 2 * bank_class[b]
            for d in range(2):
                for t in range(10):
                    column = 20 * c + 10 * d + t
                    out[row, column] += w * table[t, d, 0]
                    out[row + 1, column] += w * table[t, d, 1]


def dense_matrix(compositions: Any, counts: Any, usage: Any, total: Any, order: Any,
                 falling: FloatArray, stock: int, bank_index: Any,
                 classes: int) -> FloatArray | None:
    """``M`` (see the module docstring), or None when it would exceed :data:`DENSE_BYTES`."""
    if 2 * classes * 20 * len(compositions) * 8 > DENSE_BYTES:
        return None
    out = np.zeros((2 * classes, 20 * len(compositions)))
    _build(compositions, np.asarray(counts), usage, total, order, falling, stock,
           np.asarray(bank_index, dtype=np.int64), out)
    return out


def dense_seats(matrix: FloatArray, bank: FloatArray) -> FloatArray:
    """``Z[v, c, d, t]`` from the bank's play per class ``bank[class, v, a]``."""
    classes, vectors, _ = bank.shape
    play = np.ascontiguousarray(bank.transpose(1, 0, 2)).reshape(vectors, 2 * classes)
    with _BLAS.limit(limits=spare_threads(2), user_api="blas"):
        return np.asarray(play @ matrix).reshape(vectors, -1, 2, 10)


def dense_bank(matrix: FloatArray, q: FloatArray) -> FloatArray:
    """The bank's counterfactual values per class ``[class, v, a]`` from ``Q[v, c, t, d]``."""
    vectors = q.shape[0]
    spread = np.ascontiguousarray(q.transpose(0, 1, 3, 2)).reshape(vectors, -1)
    with _BLAS.limit(limits=spare_threads(2), user_api="blas"):
        out = -(matrix @ spread.T)  # (2 classes, vectors)
    return np.ascontiguousarray(out.reshape(-1, 2, vectors).transpose(0, 2, 1))
