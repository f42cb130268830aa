"""The exact walk's last step against a bank play changed in a few cells.

The seats' indifference equations (:func:`~analyzer.choice.table.exact.equations.seat_equations`)
need the seats' values against the bank's play with one unknown cell set to drawing and
every other as before, once per unknown. Every seat's counterfactual value is linear in the
bank's action weights: ``Z`` is a sum over bank holdings of the holding's weights times the
third cards' results, and the backward pass is linear in ``Z``. So against a play that
differs from a first one in a few (class, choice vector) cells, the values are the first
play's plus those of the *difference*, whose ``Z`` has only the changed vectors' rows and
only the changed classes' holdings in them: :func:`changed_terminal` computes it in a few
hundredths of the full step, and the backward pass skips every choice vector outside the
changed ones (:func:`~analyzer.choice.table.dealt.residues.backward_residues`'s ``alive``).
The forward pass, which the bank's play does not enter, runs once for every play. All in
residues modulo a prime, exactly as the full step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from analyzer.choice.table.dealt.kernels import _fix, _mul

__all__ = ["changed_cells", "changed_terminal"]

IntArray = npt.NDArray[np.int64]


def changed_cells(bank: IntArray, first: IntArray, prime: int) -> tuple[IntArray, IntArray]:
    """The (class, vector) cells where ``bank[class, v, a]`` differs from ``first``, and the
    difference's residues there ``[cell, a]``."""
    difference = np.mod(bank - first, prime)
    cells = np.argwhere(np.any(difference != 0, axis=-1))
    return cells.astype(np.int64), difference[cells[:, 0], cells[:, 1]].astype(np.int64)


@njit(cache=True, nogil=True)
def _from_pairs(weights: Any, results: Any, holdings: Any, vectors: Any, play: Any, p: int,
                z: Any) -> None:  # pragma: no cover - compiled
    """``Z`` of the difference into ``z`` (zeros): ``holdings[i]`` the bank holding of the
    changed vector ``vectors[i]`` with its action weights ``play[i]``."""
    inverse = 1.0 / p
    size = weights.shape[0]
    for c in range(size):
        for i in range(holdings.shape[0]):
            b = holdings[i]
            if weights[c, b] == 0:
                continue
            w = weights[c, b] % p
            y0 = _mul(play[i, 0], w, p, inverse)
            y1 = _mul(play[i, 1], w, p, inverse)
            v = vectors[i]
            for d in range(2):
                for t in range(10):
                    z[v, c, 10 * d + t] += (y0 * np.int64(results[c, b, 2 * t + d, 0])
                                            + y1 * np.int64(results[c, b, 2 * t + d, 1]))
        for i in range(vectors.shape[0]):
            v = vectors[i]
            if i > 0 and vectors[i - 1] == v:
                continue
            for k in range(20):
                z[v, c, k] = _fix(z[v, c, k], p, inverse)


def changed_terminal(matrix: Any, cells: IntArray, play: IntArray, bank_index: Any,
                     vectors: int, p: int) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """``Z[v, c, d, t]`` of the bank's play difference ``play[cell, a]`` at ``cells``
    (class, vector), from the subgame's exact terminal tables (``("matrix", M)`` by total,
    ``("pairs", (weights, results))`` by cards, :mod:`.residues`), and which choice vectors
    it touches."""
    kind, tables = matrix
    alive = np.zeros(vectors, dtype=np.bool_)
    alive[cells[:, 1]] = True
    if kind == "matrix":  # M[c, 2 class + a, 10 d + t], entries below 2**52
        size = tables.shape[0]
        z = np.zeros((vectors, size, 20), dtype=np.int64)
        for (cls, v), (stand, draw) in zip(cells.tolist(), play.tolist(), strict=True):
            rows = np.mod(tables[:, 2 * cls:2 * cls + 2, :], p)
            z[v] = np.mod(z[v] + np.mod(stand * rows[:, 0, :], p)
                          + np.mod(draw * rows[:, 1, :], p), p)
        return z.reshape(vectors, size, 2, 10), alive
    weights, results = tables
    index = np.asarray(bank_index, dtype=np.int64)
    holdings, vectors_of, plays = [], [], []
    for (cls, v), row in zip(cells.tolist(), play.tolist(), strict=True):
        for b in np.flatnonzero(index == cls).tolist():
            holdings.append(b)
            vectors_of.append(v)
            plays.append(row)
    order = np.argsort(np.asarray(vectors_of, dtype=np.int64), kind="stable")
    z = np.zeros((vectors, weights.shape[0], 20), dtype=np.int64)
    _from_pairs(weights, results, np.asarray(holdings, dtype=np.int64)[order],
                np.asarray(vectors_of, dtype=np.int64)[order],
                np.asarray(plays, dtype=np.int64).reshape(-1, 2)[order], p, z)
    return z.reshape(vectors, weights.shape[0], 2, 10), alive
