"""Residues and the Chinese remainder theorem: exact integers past int64."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import isprime, prevprime

from analyzer.engine.modular import (
    MODULI,
    crt,
    from_digits,
    largest_primes,
    primes,
    primes_for,
    reconstruct,
    reconstruct_wrapped,
    wrapped_primes_for,
)
from analyzer.errors import AnalyzerError


@pytest.mark.parametrize(("count", "limit"), [(400, 2**31), (1229, 10**4), (5, 12)])
def test_the_sieve_gives_the_largest_primes_as_sympy_does(count: int, limit: int) -> None:
    expected = [prevprime(limit)]
    while len(expected) < count:
        expected.append(prevprime(expected[-1]))
    assert largest_primes(count, limit) == tuple(expected)


def test_asking_for_more_primes_than_exist_is_an_error() -> None:
    with pytest.raises(ValueError, match="only 1229 primes below 10000"):
        largest_primes(1230, 10**4)


def test_the_moduli_are_the_eight_largest_primes_below_two_to_the_31() -> None:
    assert largest_primes(8) == MODULI


def test_moduli_are_distinct_primes_below_two_to_the_31() -> None:
    assert len(set(MODULI)) == len(MODULI)
    assert all(isprime(p) and p < 2**31 for p in MODULI)


@pytest.mark.parametrize("bits", [10, 62, 63, 64, 93, 124, 200])
def test_reconstruct_inverts_residues(bits: int) -> None:
    primes = primes_for(2**bits)
    bound = 1
    for p in primes:
        bound *= p
    assert bound > 2**bits
    generator = random.Random(bits)
    values = [0, 1, 2**bits, bound - 1, *(generator.randrange(2**bits) for _ in range(50))]
    residues = np.array([[v % p for v in values] for p in primes], dtype=np.int64)
    assert reconstruct(residues, primes) == values


def test_from_digits_is_the_mixed_radix_horner() -> None:
    primes = (7, 11, 13)
    digits = np.array([[3], [4], [5]], dtype=np.int64)
    assert from_digits(digits, primes) == [3 + 7 * (4 + 11 * 5)]


def test_a_bound_beyond_every_prime_is_refused() -> None:
    assert len(primes_for(2**300)) == 10  # past MODULI: the sieved table
    with pytest.raises(AnalyzerError, match="beyond the 400 largest primes"):
        primes_for(2**13000)


@pytest.mark.parametrize("bits", [63, 64, 94, 95, 140])
def test_reconstruct_wrapped_inverts_int64_wrapping_and_residues(bits: int) -> None:
    primes = wrapped_primes_for(2**bits)
    bound = 2**64
    for p in primes:
        bound *= p
    assert bound > 2**bits
    generator = random.Random(bits)
    values = [v for v in (0, 2**63 - 1, 2**63, 2**64 - 1, 2**64) if v < bound]
    values += [bound - 1, *(generator.randrange(bound) for _ in range(50))]
    wrapped = [(v + 2**63) % 2**64 - 2**63 for v in values]
    residues = np.array([wrapped, *([v % p for v in values] for p in primes)], dtype=np.int64)
    assert reconstruct_wrapped(residues, primes) == values


def test_primes_are_the_largest_below_two_to_the_31() -> None:
    assert primes(3) == (2147483647, 2147483629, 2147483587)
    assert all(p < 2**31 for p in primes(50))


def test_enough_primes_for_a_bound() -> None:
    chosen = primes_for(10**100, signed=True)
    product = 1
    for p in chosen:
        product *= p
    assert product > 2 * 10**100 + 1
    assert product // chosen[-1] <= 2 * 10**100 + 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-10**40, 10**40), min_size=1, max_size=8))
def test_crt_recovers_signed_integers(values: list[int]) -> None:
    moduli = primes_for(10**40, signed=True)
    residues = np.array([[v % p for v in values] for p in moduli], dtype=np.int64)
    assert crt(residues, moduli) == values
