"""Exact float sums: any order, any grouping, the same integers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyzer.errors import AnalyzerError
from analyzer.verify.inference.fixed import ULP, fixed, fixed_sums, to_float


def test_column_sums_are_the_sums_of_each_term_on_the_grid() -> None:
    rng = np.random.default_rng(7)
    terms = rng.normal(size=(500, 4)) * np.array([1.0, 1e12, 1e-9, -3e30])
    sums = fixed_sums(terms)
    assert sums == [sum(fixed(x) for x in terms[:, j]) for j in range(4)]
    # any grouping, any order: the same integers
    split = [a + b for a, b in zip(fixed_sums(terms[:123]), fixed_sums(terms[123:]),
                                   strict=True)]
    assert split == sums == fixed_sums(terms[::-1])
    # and the float within a rounding of the exact sum
    exact = math.fsum(terms[:, 1])
    assert abs(to_float(sums[1]) - exact) <= 1e-9 * abs(exact)


def test_the_grid_is_far_below_a_floats_rounding() -> None:
    assert fixed(1.0) == ULP and fixed(-0.5) == -(ULP // 2)
    assert to_float(fixed(0.1) * 3) == 0.30000000000000004
    assert fixed_sums(np.zeros((0, 3))) == [0, 0, 0]
    with pytest.raises(AnalyzerError, match="not finite"):
        fixed_sums([[1.0], [math.inf]])


def test_small_terms_round_half_to_even_on_the_grid_like_fixed() -> None:
    # short columns of terms below 2**(34 - bits of their count) take a two-digit way:
    # ties and tiny negatives with long mantissas (where 1 + x would round) must still
    # land where round(x * 2**BITS) does
    ties = [(z + eps) * 2.0 ** e for e in range(-75, 10) for z in (0.5, 1.5, -0.5, -2.5)
            for eps in (0.0, 2.0 ** -30, -2.0 ** -30)]
    terms = np.array([*ties, 1023.999999, -1023.75, 2.0 ** 20 - 2.0 ** -30,
                      -(2.0 ** 19 + 2.0 ** -33), 5e-324, -5e-324, 0.0], dtype=np.float64)
    for column in (terms[:, None], terms[::-1, None]):
        assert fixed_sums(column) == [sum(fixed(x) for x in column[:, 0])]
    assert [fixed_sums([[x]])[0] for x in terms] == [fixed(x) for x in terms]
