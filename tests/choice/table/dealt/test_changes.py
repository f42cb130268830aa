"""The walk's shortcuts give the plain walk's numbers exactly: the seats' values against bank
plays changed in a few cells (one forward pass, the difference's sparse last step), the
bank's values at a few choice vectors, and the float search's pulled forward pass and
one-fold-per-level backward pass (the same floats, bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.choice.table.dealt import kernels, residues
from analyzer.choice.table.dealt.game import dealt_subgame
from analyzer.choice.table.exact.evaluation import Integers
from analyzer.choice.table.exact.ring import Float, Modular
from analyzer.choice.table.tree import LUCKY9
from tests.choice.table.dealt.test_residues import PRIME, _profile

SHOE = (15, 4, 4, 4, 4, 4, 4, 4, 4, 3)


@pytest.mark.parametrize(("by", "tabled"), [("total", "matrix"), ("cards", "pairs")])
def test_changed_bank_plays_give_each_plays_own_walk(by: str, tabled: str) -> None:
    game = dealt_subgame(LUCKY9, SHOE, 3, by, "test")
    assert game.exact()[0] == tabled
    profile = _profile(game, 11)
    ring = Modular(PRIME)
    plays = [profile.bank, profile.with_bank((2, 5), 1).bank,
             profile.with_bank((2, 5), 1).with_bank((6, 7), 1).bank, profile.bank]
    seats = [ring.encode(a) for a in profile.seats]
    found = game.seat_counterfactuals(ring, seats, [ring.encode(b) for b in plays])
    changed = 0
    for values, play in zip(found, plays, strict=True):
        wanted, _ = game.counterfactual(ring, seats, ring.encode(play), "seats")
        assert all(np.array_equal(a, b) for a, b in zip(values, wanted, strict=True))
        changed += not all(np.array_equal(a, b) for a, b in zip(values, found[0], strict=True))
    assert changed == 2  # the changed plays' values differ from the first's


@pytest.mark.parametrize("by", ["total", "cards"])
def test_the_banks_values_at_a_few_vectors_are_the_whole_walks(by: str) -> None:
    game = dealt_subgame(LUCKY9, SHOE, 3, by, "test")
    profile: Integers = _profile(game, 5)
    ring = Modular(PRIME)
    seats, bank = [ring.encode(a) for a in profile.seats], ring.encode(profile.bank)
    _, whole = game.counterfactual(ring, seats, bank, "bank")
    some = game.bank_counterfactual(ring, seats, bank, [1, 6])
    assert np.array_equal(some[:, [1, 6]], whole[:, [1, 6]])
    assert np.any(whole[:, [1, 6]] != 0) and not np.any(some[:, [0, 2, 3, 4, 5, 7]])


def test_the_float_passes_are_the_pushed_forward_and_the_residue_backward() -> None:
    """The pulled forward pass gives the pushed one's floats bit for bit; the backward pass
    in floats, on integer weights (exact below 2**53), gives the residue walk's values."""
    game = dealt_subgame(LUCKY9, SHOE, 3, "cards", "test")
    rng = np.random.default_rng(3)
    ring, modular = Float(), Modular(PRIME)
    draws = [rng.random((2**k, len(game.seat_classes))) for k in range(3)]
    draws[1][0, :5] = 0.0  # some cells pure
    coef = game._coefficients(ring, [np.stack([1 - d, d], -1) for d in draws])
    holdings, (nxt, starts) = game.levels.holdings, game.levels.stacked_next()
    first, source, holding = residues.sources(game.levels)
    pushed = kernels.forward(nxt, starts, holdings.total, coef, 3, 0, True)
    pulled = kernels.forward_pulled(first, source, holding, starts, holdings.total, coef, 3,
                                    True)
    assert all(np.array_equal(a, b) for a, b in zip(pushed, pulled, strict=True))
    whole = rng.integers(0, 4, size=coef.shape)  # integer action weights
    z = rng.integers(0, 6, size=(8, len(game.levels.compositions[3]), 2, 10))
    _, order = game.arrays(modular)
    weights, offsets, _ = kernels.forward_pulled(first, source, holding, starts,
                                                 holdings.total, whole.astype(float), 3, False)
    floats = kernels.backward(3, nxt, starts, holdings.total, order.astype(float),
                              whole.astype(float), z.astype(float), weights, offsets, 0)
    exact, _, _ = residues.forward_residues(first, source, holding, starts, holdings.total,
                                            whole, 3, PRIME, False, np.ones(8, dtype=np.bool_))
    wanted = residues.backward_residues(3, nxt, starts, holdings.total, order, whole, z, exact,
                                        offsets, PRIME, np.ones(8, dtype=np.bool_))
    assert floats.max() < 2**53 and np.any(wanted != 0)
    assert np.array_equal(np.mod(floats.astype(np.int64), PRIME), wanted)
