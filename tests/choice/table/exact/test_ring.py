"""Residue arithmetic: products reduced before sums, exact integers rebuilt by CRT (the
primes and the CRT are tested with their owner, tests/engine/test_modular.py)."""

from __future__ import annotations

import numpy as np

from analyzer.choice.table.exact.ring import Float, Modular, exact
from analyzer.engine.modular import primes


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
