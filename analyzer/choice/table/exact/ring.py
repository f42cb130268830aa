"""Exact integer arithmetic in int64 numpy arrays: residues modulo primes below 2**31, CRT.

The certified multi-player solver (:mod:`analyzer.choice.table.solve`) contracts large
integer tensors with rational strategies. The exact results can run to hundreds of digits,
far past int64, and Python-int object arrays are slow in the hot loops. Instead every exact
contraction is written once against a :class:`Ring` and run once per prime ``p < 2**31`` in
int64 numpy arrays (:class:`Modular`): a product of two residues is below ``2**62`` and a sum
of up to ``2**32`` residues below ``2**63``, so no int64 operation overflows as long as every
product is reduced before it is summed. Only the final sums are rebuilt as Python integers,
by the Chinese remainder theorem (:func:`crt`), in the symmetric range ``(-M/2, M/2]`` of the
product ``M`` of the primes used; :func:`primes_for` picks enough primes for a stated bound
and :func:`exact` does the whole round trip. The same code run with :class:`Float` is the
floating-point version the CFR iterations use. (:mod:`analyzer.engine.modular` serves the
exact tally: non-negative sums below ``2**247``; the solver's values are signed and their
bounds grow with the strategies' denominators, so the primes here are as many as a bound
asks.)

>>> values = [2**90 + 7, -3]
>>> exact(lambda ring: ring.mul(ring.encode(values), ring.encode(values)), 2**200) == [
...     (2**90 + 7) ** 2, 9]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.engine.modular import PRIME_LIMIT, largest_primes

__all__ = ["Array", "crt", "exact", "Float", "Modular", "primes", "primes_for", "Ring"]

Array = npt.NDArray[Any]
#: Residues are below this, so a product of two fits in an int64 with room for sums.
LIMIT = PRIME_LIMIT


@lru_cache(maxsize=1)
def _prime_table(count: int = 400) -> tuple[int, ...]:
    return largest_primes(count, LIMIT)


def primes(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below ``2**31``, largest first."""
    table = _prime_table()
    if count > len(table):
        raise ValueError(f"at most {len(table)} primes available, asked for {count}")
    return table[:count]


def primes_for(bound: int) -> tuple[int, ...]:
    """Enough primes that every integer of absolute value at most ``bound`` is recovered
    exactly by :func:`crt` (their product exceeds ``2 * bound + 1``)."""
    chosen: list[int] = []
    product = 1
    for prime in _prime_table():
        chosen.append(prime)
        product *= prime
        if product > 2 * bound + 1:
            return tuple(chosen)
    raise ValueError(f"bound {bound} needs more than {len(chosen)} primes")


def crt(residues: Array, moduli: Sequence[int]) -> list[Any]:
    """Integers from their residues (axis 0 runs over ``moduli``), symmetric range; nested
    lists follow the remaining axes."""
    product = 1
    for prime in moduli:
        product *= prime
    coefficients = []
    for prime in moduli:
        rest = product // prime
        coefficients.append(rest * pow(rest, -1, prime))
    half = product // 2
    flat = np.asarray(residues).reshape(len(moduli), -1)
    columns = [[int(v) for v in row] for row in flat.tolist()]
    values = []
    for j in range(flat.shape[1]):
        total = sum(c * col[j] for c, col in zip(coefficients, columns, strict=True)) % product
        values.append(total - product if total > half else total)
    shape = np.asarray(residues).shape[1:]
    if not shape:
        return values
    return np.asarray(values, dtype=object).reshape(shape).tolist()  # type: ignore[no-any-return]


class Ring:
    """The arithmetic the solver's contractions are written in: floats (the CFR iterations)
    or residues modulo one prime (exact work, one pass per prime)."""

    def encode(self, values: Any) -> Array:
        """Integers (or floats) as this ring's array."""
        return np.asarray(values, dtype=float)

    def mul(self, a: Array, b: Array) -> Array:
        """Elementwise product (broadcasting)."""
        return np.multiply(a, b)

    def reduce(self, a: Array) -> Array:
        """A sum of products brought back into range (nothing to do for floats)."""
        return a

    def sum(self, a: Array, axis: int | tuple[int, ...]) -> Array:
        """Sum over ``axis``."""
        return self.reduce(np.asarray(a.sum(axis=axis)))

    def contract(self, spec: str, a: Array, b: Array) -> Array:
        """A two-operand ``einsum`` (each label at most once per operand)."""
        return np.asarray(np.einsum(spec, a, b, optimize=True))

    def matvec(self, matrix: Array, vector: Array) -> Array:
        """``matrix @ vector``."""
        return np.asarray(matrix @ vector)

    def rmatvec(self, matrix: Array, vector: Array) -> Array:
        """``matrix.T @ vector``."""
        return np.asarray(matrix.T @ vector)

    def matmul(self, matrix: Array, other: Array) -> Array:
        """``matrix @ other``."""
        return np.asarray(matrix @ other)

    def rmatmul(self, matrix: Array, other: Array) -> Array:
        """``matrix.T @ other``."""
        return np.asarray(matrix.T @ other)


class Float(Ring):
    """Plain float64 arithmetic."""


@dataclass(frozen=True)
class Modular(Ring):
    """Residues modulo one prime below ``2**31`` in int64: every product of two residues is
    reduced before it is summed, and sums of at most ``2**32`` residues fit."""

    prime: int

    def encode(self, values: Any) -> Array:
        """Integers of any size and sign (Python ints or an int64 array) as residues."""
        array = np.asarray(values)
        if array.dtype != object and np.issubdtype(array.dtype, np.integer):
            return np.asarray(np.mod(array.astype(np.int64), self.prime))
        flat = [int(v) % self.prime for v in np.asarray(values, dtype=object).reshape(-1)]
        return np.asarray(flat, dtype=np.int64).reshape(array.shape)

    def mul(self, a: Array, b: Array) -> Array:
        return np.asarray(np.mod(np.multiply(a, b), self.prime))

    def reduce(self, a: Array) -> Array:
        return np.asarray(np.mod(a, self.prime))

    def matvec(self, matrix: Array, vector: Array) -> Array:
        return self.reduce(self.mul(matrix, vector[None, :]).sum(axis=1))

    def rmatvec(self, matrix: Array, vector: Array) -> Array:
        return self.reduce(self.mul(matrix, vector[:, None]).sum(axis=0))

    def matmul(self, matrix: Array, other: Array) -> Array:
        return np.stack([self.matvec(matrix, column) for column in other.T], axis=-1)

    def rmatmul(self, matrix: Array, other: Array) -> Array:
        return np.stack([self.rmatvec(matrix, column) for column in other.T], axis=-1)

    def contract(self, spec: str, a: Array, b: Array) -> Array:
        """The ``einsum`` by broadcasting: each product reduced before it is summed."""
        inputs, output = spec.split("->")
        left, right = inputs.split(",")
        labels = list(dict.fromkeys(left + right))
        sizes = dict(zip(left, a.shape, strict=True)) | dict(zip(right, b.shape, strict=True))

        def spread(array: Array, own: str) -> Array:
            order = sorted(own, key=labels.index)
            moved = np.transpose(array, [own.index(c) for c in order])
            return moved.reshape([sizes[c] if c in own else 1 for c in labels])

        product = self.mul(spread(a, left), spread(b, right))
        summed = [i for i, c in enumerate(labels) if c not in output]
        kept = [c for c in labels if c in output]
        total = self.reduce(product.sum(axis=tuple(summed))) if summed else product
        return np.transpose(total, [kept.index(c) for c in output])


def exact(compute: Any, bound: int) -> list[Any]:
    """Run ``compute(ring)`` (which returns an int64 array of residues) once per prime and
    rebuild the exact integers, each of absolute value at most ``bound``, by CRT."""
    moduli = primes_for(bound)
    residues = np.stack([np.asarray(compute(Modular(p))) for p in moduli])
    return crt(residues, moduli)
