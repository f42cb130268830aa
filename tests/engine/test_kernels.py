"""The fused batch kernel against the numpy batch evaluator and the exact engine, and the
kernel choice of :mod:`analyzer.engine.backend`."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.engine import backend
from analyzer.engine.evaluator import BatchEvaluator
from analyzer.engine.odds import odds
from analyzer.rules.shoe import Shoe

pytestmark = pytest.mark.skipif(not backend.kernels_available(), reason="numba not installed")
EVALUATOR = BatchEvaluator.for_profile("punto-banco")


def _depleted(count: int, seed: int, decks: int = 8) -> np.ndarray:
    generator = random.Random(seed)
    full = Shoe.decks(decks).value_counts()
    cards = [v for v, n in enumerate(full) for _ in range(n)]
    rows = np.empty((count, 10), dtype=np.int64)
    for i in range(count):
        generator.shuffle(cards)
        rows[i] = np.bincount(cards[generator.randrange(0, len(cards) - 6):], minlength=10)
    return rows


@settings(max_examples=15, deadline=None)
@given(count=st.integers(1, 100), seed=st.integers(0, 2**32 - 1),
       decks=st.sampled_from([1, 6, 8]))
def test_batch_kernel_agrees_with_numpy(count: int, seed: int, decks: int) -> None:
    rows = _depleted(count, seed, decks)
    fused = EVALUATOR.evaluate(rows, kernel="numba")
    reference = EVALUATOR.evaluate(rows, kernel="numpy")
    assert fused.shape == reference.shape == (count, 3)
    # the same operations in the same order; BLAS may block a short last chunk differently
    np.testing.assert_allclose(fused, reference, rtol=1e-13, atol=1e-16)


def test_batch_kernel_in_whole_blocks_is_bit_identical_to_numpy() -> None:
    rows = _depleted(64, 7)
    assert np.array_equal(EVALUATOR.evaluate(rows, kernel="numba"),
                          EVALUATOR.evaluate(rows, kernel="numpy"))


def test_batch_kernel_is_within_the_documented_bound_of_the_exact_engine() -> None:
    rows = _depleted(5, 11)
    fused = EVALUATOR.evaluate(rows, kernel="numba")
    for row, values in zip(rows.tolist(), fused, strict=True):
        counts = [0] * 52
        for value, n in enumerate(row):
            base = ((10 if value == 0 else value) - 1) * 4
            for i in range(n):
                counts[base + i % 4] += 1
        table = odds("punto-banco", Shoe(tuple(counts)))
        for j, bet in enumerate(table.bets):
            assert abs(values[j] - float(bet.ev)) <= 1e-12 * abs(float(bet.ev))


def test_kernel_choice_is_forced_by_name_and_by_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert backend.use_kernels("numpy", "tally") is False
    assert backend.use_kernels("numba", "tally") is True
    monkeypatch.setenv("NINE_KERNELS", "numpy")
    assert backend.use_kernels(None, "batch", 10**9) is False


@pytest.mark.parametrize("profile", ["punto-banco", "lucky-baccarat"])
def test_shoe_aware_grouped_kernel_agrees_with_the_batch_kernel_and_numpy(profile: str) -> None:
    """Up to eight decks every product and partial sum is an integer below 2**53: the
    grouped kernel (terms summed in another order) gives the batch kernel's floats exactly.
    The value form's result never depends on the kernel: grouped there, the batch kernel
    (numpy's arithmetic in numpy's order) above."""
    from analyzer.engine import kernels
    from analyzer.engine.lookup import Model, build_model
    from analyzer.engine.shoe_aware import ValueForm

    for decks, exact in ((8, True), (1, True), (64, False)):
        full = build_model(profile, decks)
        values = tuple(b for b in full.bets if not b.bet.card_level)
        model = Model(full.profile, decks, values, False) if len(values) < len(full.bets) \
            else full
        evaluator = ValueForm(model, compact=True)
        rows = _depleted(130, 11, decks).astype(np.float64)  # two blocks and a part
        batch = evaluator.batch
        grouped = kernels.grouped_values(rows, evaluator.plan)
        plain = kernels.batch_values(rows, batch.payoff, batch.cards, *batch.half_index,
                                     *batch.half_patterns)
        assert grouped.shape == plain.shape == (130, batch.payoff.shape[0])
        assert np.all(grouped >= 0) and np.any(grouped > 0.01)
        if exact:
            assert np.array_equal(grouped, plain), decks
        else:
            np.testing.assert_allclose(grouped, plain, rtol=1e-12)
        fused = evaluator.evaluate(rows, kernel="numba")
        reference = evaluator.evaluate(rows, kernel="numpy")
        assert fused.shape == reference.shape == (130, sum(len(b.labels) for b in model.bets))
        assert np.array_equal(fused, reference), decks
