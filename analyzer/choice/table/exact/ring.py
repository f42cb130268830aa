"""Exact integer arithmetic in int64 numpy arrays: residues modulo primes below 2**31, CRT.

The certified multi-player solver (:mod:`analyzer.choice.table.solve`) contracts large
integer tensors with rational strategies. The exact results can run to hundreds of digits,
far past int64, and Python-int object arrays are slow in the hot loops. Instead every exact
contraction is written once against a :class:`Ring` and run once per prime ``p < 2**31`` in
int64 numpy arrays (:class:`Modular`): a product of two residues is below ``2**62`` and a sum
of up to ``2**32`` residues below ``2**63``, so no int64 operation overflows as long as every
product is reduced before it is summed. Only the final sums are rebuilt as Python integers,
by the Chinese remainder theorem in the symmetric range ``(-M/2, M/2]`` of the product ``M``
of the primes used (the primes and the CRT are :mod:`analyzer.engine.modular`'s:
:func:`~analyzer.engine.modular.primes_for` with ``signed=True`` and
:func:`~analyzer.engine.modular.crt`); :func:`exact` does the whole round trip. The same
code run with :class:`Float` is the floating-point version the CFR iterations use.

>>> values = [2**90 + 7, -3]
>>> exact(lambda ring: ring.mul(ring.encode(values), ring.encode(values)), 2**200) == [
...     (2**90 + 7) ** 2, 9]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.engine.modular import PRIME_LIMIT, crt, primes_for

__all__ = ["Array", "exact", "Float", "Modular", "Ring"]

Array = npt.NDArray[Any]
#: Residues are below this, so a product of two fits in an int64 with room for sums.
LIMIT = PRIME_LIMIT


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
    moduli = primes_for(bound, signed=True)
    residues = np.stack([np.asarray(compute(Modular(p))) for p in moduli])
    return crt(residues, moduli)
