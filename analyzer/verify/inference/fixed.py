"""Exact sums of floats: each term rounded once to a fixed grid, the terms added as integers.

Float addition is not associative: the same terms added in other batches (one file
checked by two processes, or given as several files) differ in the last digits. Every
float sum of the verifier is therefore kept as an integer count of :data:`ULP`: each term
(one shoe's, or one run's, worked out the same way whichever way the log is read) is
rounded once to the grid (half to even), and the integers add up exactly, in any order,
in any grouping. The float reported is that integer's value, rounded once.

>>> terms = [0.1, 0.2, 0.3, 1e16, -1e16]
>>> to_float(sum(fixed_sums([[t] for t in terms]))) == to_float(sum(
...     fixed_sums([[t] for t in reversed(terms)])))
True
>>> to_float(fixed(0.1) + fixed(0.2))
0.30000000000000004
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from analyzer.errors import AnalyzerError

__all__ = ["BITS", "fixed", "fixed_sums", "to_float", "to_floats", "ULP"]

#: Bits of the grid below 1: a term is rounded to a multiple of 2**-BITS (far below a
#: float's own rounding of any sum the verifier reports).
BITS = 60
#: The grid's step as a fraction: 2**-BITS.
ULP = 1 << BITS
_DIGIT = 32
_BASE = float(1 << _DIGIT)
_STEP = 1.0 / _BASE
_SPLIT = math.ldexp(1.0, BITS - _DIGIT)
#: up to _ROWS terms a column, each below 2**(_HIGH - bits of the row count), take the
#: two-digit way: their high digits below 2**(BITS - 32 + that), the column sums of those
#: below 2**(BITS - 32 + _HIGH) = 2**62, in int64
_HIGH = 34
_ROWS = 1 << 24


def fixed(value: float) -> int:
    """One term on the grid (an integer count of 2**-:data:`BITS`)."""
    if not math.isfinite(value):
        raise AnalyzerError(f"a sum of the verifier is not finite ({value})")
    return round(math.ldexp(value, BITS))


def fixed_sums(terms: npt.ArrayLike) -> list[int]:
    """Column sums of a matrix of terms (rows: terms, columns: sums), each term on the
    grid, added exactly (as :func:`fixed` of each, summed)."""
    matrix = np.asarray(terms, dtype=np.float64)
    if matrix.ndim != 2:
        matrix = matrix.reshape(matrix.shape[0] if matrix.size else 0, -1)
    size = np.abs(matrix)
    rows = matrix.shape[0]
    if matrix.size and rows <= _ROWS and \
            float(size.max()) < math.ldexp(1.0, _HIGH - rows.bit_length()):  # nan: no
        # |x| 2**(BITS - 32) = high + fraction (exact: x's own bits), high an integer in
        # int64 and the fraction's 32 bits rounded half to even as the grid rounds |x|
        # (high * 2**32 is even); each signed as x
        scaled = size * _SPLIT
        high = np.floor(scaled)
        low = np.rint((scaled - high) * _BASE)
        return [(h << _DIGIT) + lo for h, lo in zip(
            np.copysign(high, matrix).astype(np.int64).sum(axis=0).tolist(),
            np.copysign(low, matrix).astype(np.int64).sum(axis=0).tolist(), strict=True)]
    if not np.isfinite(matrix).all():
        raise AnalyzerError("a sum of the verifier is not finite")
    grid = np.rint(np.ldexp(matrix, BITS))
    if grid.size == 0:
        return [0] * matrix.shape[1]
    # signed base 2**32 digits (floor division: every digit but the top one in [0, 2**32),
    # the top one 0 or -1), each exact in a float, their column sums exact in int64
    digits = []
    part = grid
    while True:
        high = np.floor(part * _STEP)
        digits.append((part - high * _BASE).astype(np.int64).sum(axis=0))
        part = high
        if not ((part != 0.0) & (part != -1.0)).any():
            break
    digits.append(part.astype(np.int64).sum(axis=0))
    return [sum(d << (_DIGIT * i) for i, d in enumerate(column))
            for column in np.stack(digits, axis=1).tolist()]


def to_float(total: int) -> float:
    """An exact grid sum as the nearest float."""
    return total / ULP


def to_floats(totals: Sequence[int]) -> tuple[float, ...]:
    """:func:`to_float` of each."""
    return tuple(t / ULP for t in totals)
