"""Exact integer arithmetic past int64 with int64 arrays: residues modulo primes below 2**31.

A non-negative integer ``x`` below ``M = p_1 p_2 ... p_k`` is fixed by its residues
``x mod p_i`` (the Chinese remainder theorem). Every residue is below 2**31, so the product
of two residues is below 2**62 and an int64 array can multiply and add residues exactly
(reducing after each product, or after summing up to 2**31 products of a residue and a
number below 2**32). Only the final sums are turned back into Python integers
(:func:`reconstruct`, Garner's mixed-radix form: a few vectorised int64 passes, then one
Horner step per digit in Python ints).

Used by the exact tally (:mod:`analyzer.engine.tally`) past about 27 decks and by the table
solver's exact evaluation (:mod:`analyzer.choice.table.exact.ring`, signed values); reusable
by any exact count that outgrows int64 (a sum of products of integers with a known bound):
pick :func:`primes_for` the bound, compute the sum modulo each prime in int64, then
:func:`reconstruct` (or :func:`crt` for signed values).

>>> primes = primes_for(10**30)
>>> len(primes)
4
>>> x = [3**60, 0, 10**29 + 7]
>>> residues = np.array([[v % p for v in x] for p in primes], dtype=np.int64)
>>> reconstruct(residues, primes) == x
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.errors import AnalyzerError

__all__ = ["crt", "MODULI", "WRAP", "from_digits", "largest_primes", "PRIME_COUNT",
           "PRIME_LIMIT", "primes", "primes_for", "reconstruct", "reconstruct_wrapped",
           "wrapped_primes_for"]

#: int64 arithmetic that overflows is exact modulo 2**64: a free modulus (no reductions).
WRAP = 2**64

#: Every modulus is a prime below this, so a product of two residues fits in an int64.
PRIME_LIMIT = 2**31


def largest_primes(count: int, limit: int = PRIME_LIMIT) -> tuple[int, ...]:
    """The ``count`` largest primes below ``limit``, largest first, by a segmented sieve of
    Eratosthenes over windows below ``limit`` (primes near 2**31 are ~21 apart on average).

    >>> largest_primes(3)
    (2147483647, 2147483629, 2147483587)
    >>> largest_primes(4, 30)
    (29, 23, 19, 17)
    """
    root = math.isqrt(limit) + 1
    small = np.ones(root + 1, dtype=bool)
    small[:2] = False
    for factor in range(2, math.isqrt(root) + 1):
        if small[factor]:
            small[factor * factor::factor] = False
    sieving = [int(f) for f in np.flatnonzero(small)]
    found: list[int] = []
    high = limit
    while len(found) < count and high > 2:
        low = max(2, high - 32 * count - 64)
        candidate = np.ones(high - low, dtype=bool)
        for factor in sieving:
            if factor * factor >= high:
                break
            first = max(factor * factor, -(-low // factor) * factor)
            candidate[first - low::factor] = False
        found.extend(int(n) + low for n in np.flatnonzero(candidate)[::-1])
        high = low
    if len(found) < count:
        raise ValueError(f"only {len(found)} primes below {limit}, asked for {count}")
    return tuple(found[:count])


#: The eight largest primes below 2**31 (``largest_primes(8)``, checked in
#: tests/engine/test_modular.py; written out: the sieve costs 5 ms of every start): together
#: they hold any integer below about 2**247.
MODULI = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549,
          2147483543, 2147483497)


#: How many of the largest primes below 2**31 :func:`primes` offers (past :data:`MODULI`,
#: sieved on first use: the table solver's bounds grow with its strategies' denominators).
PRIME_COUNT = 400


@cache
def _more_primes() -> tuple[int, ...]:
    return largest_primes(PRIME_COUNT)


def primes(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below 2**31, largest first (:data:`MODULI`, then a sieve).

    >>> primes(3)
    (2147483647, 2147483629, 2147483587)
    """
    if count <= len(MODULI):
        return MODULI[:count]
    if count > PRIME_COUNT:
        raise AnalyzerError(f"exact arithmetic asks for {count} primes; at most {PRIME_COUNT}")
    return _more_primes()[:count]


def primes_for(bound: int, signed: bool = False) -> tuple[int, ...]:
    """The fewest of the largest primes whose product ``M`` recovers every value: in
    ``0 .. bound`` by :func:`reconstruct` (``M > bound``) or, ``signed``, of absolute value
    at most ``bound`` by :func:`crt` (``M > 2 * bound + 1``).

    >>> primes_for(2**62), len(primes_for(2**70)), len(primes_for(2**92, signed=True))
    ((2147483647, 2147483629, 2147483587), 3, 4)
    """
    above = 2 * bound + 1 if signed else bound
    product, count = 1, 0
    while product <= above:
        count += 1
        if count > PRIME_COUNT:
            raise AnalyzerError(f"exact arithmetic bound of {bound.bit_length()} bits is beyond "
                                f"the {PRIME_COUNT} largest primes below 2**31")
        product *= primes(count)[-1]
    return primes(count)


def crt(residues: npt.ArrayLike, moduli: Sequence[int]) -> list[Any]:
    """Signed integers from their residues (axis 0 runs over ``moduli``), each in the
    symmetric range ``(-M/2, M/2]`` of the product ``M``; nested lists follow the remaining
    axes. (:func:`reconstruct`, then the upper half of ``0 .. M - 1`` read as negative.)

    >>> moduli = primes_for(10**20, signed=True)
    >>> crt(np.array([[v % p for v in (-5, 10**20)] for p in moduli]), moduli)
    [-5, 100000000000000000000]
    """
    r = np.asarray(residues, dtype=np.int64)
    product = math.prod(moduli)
    half = product // 2
    values = [v - product if v > half else v
              for v in reconstruct(r.reshape(len(moduli), -1), moduli)]
    if r.ndim <= 1:
        return values
    return np.asarray(values, dtype=object).reshape(r.shape[1:]).tolist()  # type: ignore[no-any-return]


def wrapped_primes_for(bound: int) -> tuple[int, ...]:
    """The fewest of :data:`MODULI` whose product with :data:`WRAP` exceeds ``bound``: the
    sums are then computed in wrapping int64 (exact modulo 2**64, free) and modulo these.

    >>> len(wrapped_primes_for(2**94)), len(wrapped_primes_for(2**100))
    (1, 2)
    """
    product = WRAP
    chosen: list[int] = []
    for p in MODULI:
        if product > bound:
            break
        chosen.append(p)
        product *= p
    if product <= bound:
        raise AnalyzerError(f"exact arithmetic bound of {bound.bit_length()} bits is beyond "
                            f"2**64 and the {len(MODULI)} moduli")
    return tuple(chosen)


def reconstruct_wrapped(residues: npt.ArrayLike, primes: Sequence[int]) -> list[int]:
    """Python integers from ``residues[0]`` (the value modulo 2**64, as wrapped int64) and
    ``residues[1 + i]`` (modulo ``primes[i]``); each value must lie below 2**64 x the primes.

    >>> x = [0, 2**64 - 1, 3**55, 2**93 + 12345]
    >>> primes = wrapped_primes_for(2**93)
    >>> wrapped = [(v + 2**63) % 2**64 - 2**63 for v in x]
    >>> residues = np.array([wrapped, *([v % p for v in x] for p in primes)], dtype=np.int64)
    >>> reconstruct_wrapped(residues, primes) == x
    True
    """
    primes = tuple(int(p) for p in primes)
    r = np.asarray(residues, dtype=np.int64)
    if r.ndim != 2 or r.shape[0] != len(primes) + 1:
        raise AnalyzerError("residues need a wrapped row and one row per prime")
    low = r[0].view(np.uint64)
    if not primes:
        return [int(x) for x in low.tolist()]
    moduli = (WRAP, *primes)
    digits: list[npt.NDArray[np.int64]] = []
    for i, p in enumerate(primes):
        # (x - d_0) / 2**64, then Garner over the primes before this one, all modulo p
        d = (r[i + 1] % p - (low % np.uint64(p)).astype(np.int64)) % p
        d = d * pow(WRAP % p, -1, p) % p
        for j, digit in enumerate(digits):
            d = (d - digit % p) % p * pow(moduli[j + 1] % p, -1, p) % p
        digits.append(d)
    high = from_digits(np.array(digits, dtype=np.int64).reshape(len(primes), -1), primes)
    return [a + (b << 64) for a, b in zip(low.tolist(), high, strict=True)]


@cache
def _garner(primes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``inverse[i][j] = p_j**-1 mod p_i`` for j < i."""
    return tuple(tuple(pow(primes[j], -1, primes[i]) for j in range(i))
                 for i in range(len(primes)))


def from_digits(digits: npt.NDArray[np.int64], primes: Sequence[int]) -> list[int]:
    """Python integers from mixed-radix digits: ``d_0 + p_0 (d_1 + p_1 (d_2 + ...))``."""
    if len(primes) == 1:
        return [int(x) for x in digits[0].tolist()]
    # the top two digits fold in int64: d + p d' < 2**31 + 2**62
    result: list[int] = (digits[-2] + np.int64(primes[-2]) * digits[-1]).tolist()
    for i in range(len(primes) - 3, -1, -1):
        p = primes[i]
        result = [low + p * high for low, high in zip(digits[i].tolist(), result, strict=True)]
    return result


def reconstruct(residues: npt.ArrayLike, primes: Sequence[int]) -> list[int]:
    """Python integers from residues (``residues[i][n] = x_n mod primes[i]``).

    Each ``x_n`` must lie in ``0 .. prod(primes) - 1``. Garner's algorithm: the mixed-radix
    digits ``x = d_0 + p_0 (d_1 + p_1 (d_2 + ...))`` in int64, then Horner in Python ints.
    """
    primes = tuple(int(p) for p in primes)
    r = np.asarray(residues, dtype=np.int64)
    if r.ndim != 2 or r.shape[0] != len(primes):
        raise AnalyzerError("residues need one row per prime")
    inverse = _garner(primes)
    digits: list[npt.NDArray[np.int64]] = []
    for i, p in enumerate(primes):
        d = r[i] % p
        for j in range(i):
            # d = (d - digit_j) * p_j**-1 mod p_i; every operand below 2**31
            d = ((d - digits[j] % p) % p) * inverse[i][j] % p
        digits.append(d)
    return from_digits(np.array(digits, dtype=np.int64).reshape(len(primes), -1), primes)
