"""Residue arithmetic: products reduced before sums, exact integers rebuilt by CRT."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.choice.table.exact.ring import Float, Modular, crt, exact, primes, primes_for


def test_primes_are_the_largest_below_two_to_the_31() -> None:
    assert primes(3) == (2147483647, 2147483629, 2147483587)
    assert all(p < 2**31 for p in primes(50))


def test_enough_primes_for_a_bound() -> None:
    chosen = primes_for(10**100)
    product = 1
    for p in chosen:
        product *= p
    assert product > 2 * 10**100 + 1
    assert product // chosen[-1] <= 2 * 10**100 + 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-10**40, 10**40), min_size=1, max_size=8))
def test_crt_recovers_signed_integers(values: list[int]) -> None:
    moduli = primes_for(10**40)
    residues = np.array([[v % p for v in values] for p in moduli], dtype=np.int64)
    assert crt(residues, moduli) == values


def test_modular_contraction_matches_exact_integer_einsum() -> None:
    rng = np.random.default_rng(3)
    a = rng.integers(-10**6, 10**6, size=(4, 5, 3))
    b = rng.integers(-10**6, 10**6, size=(5, 3, 2))
    expected = np.einsum("ijk,jkl->il", a.astype(object), b.astype(object))
    found = exact(lambda ring: ring.contract("ijk,jkl->il", ring.encode(a), ring.encode(b)),
                  10**20)
    assert found == expected.tolist()
    assert np.allclose(Float().contract("ijk,jkl->il", a.astype(float), b.astype(float)),
                       expected.astype(float))


def test_matrix_products_never_overflow() -> None:
    # Residues near 2**31: every product is reduced before it is summed.
    ring = Modular(primes(1)[0])
    big = np.full((3, 1000), 2**31 - 2, dtype=np.int64)
    vector = np.full(1000, 2**31 - 3, dtype=np.int64)
    expected = [(1000 * (2**31 - 2) * (2**31 - 3)) % ring.prime] * 3
    assert ring.matvec(big, vector).tolist() == expected
