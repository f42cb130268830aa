"""Subgames: their compiled arrays agree with the one-seat tree and the heads-up game, and the
float and exact passes agree."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from analyzer.choice.headsup.game import build_game
from analyzer.choice.table.cfr import uniform
from analyzer.choice.table.exact.evaluation import exact_counterfactual
from analyzer.choice.table.exact.ring import Float
from analyzer.choice.table.subgame import finite_subgame, infinite_subgame
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe


def test_infinite_deck_weights_are_the_two_card_totals() -> None:
    game = infinite_subgame(LUCKY9, 3, "total")
    assert [c.label for c in game.seat_classes] == [str(t) for t in range(9)]
    # P(total 0) = 25/169, every other total 16/169; conditional on no natural: /153.
    assert game.seat_weight == (25,) + (16,) * 8 and game.scales[0] == 153
    assert game.vectors == 8


def test_float_and_exact_passes_agree() -> None:
    game = finite_subgame(LUCKY9, Shoe.decks(1).value_counts(), 2, "total", "1 deck")
    rng = np.random.default_rng(5)
    seats = [[[Fraction(int(rng.integers(0, 8)), 7) for _ in game.seat_classes]
              for _ in range(2**k)] for k in range(2)]
    bank = [[Fraction(int(rng.integers(0, 4)), 3) for _ in range(4)] for _ in game.bank_classes]
    exact_seats, exact_bank = exact_counterfactual(game, seats, bank)
    as_float = [np.array([[[1 - float(x), float(x)] for x in row] for row in rows])
                for rows in seats]
    float_bank = np.array([[[1 - float(y), float(y)] for y in row] for row in bank])
    float_seats, float_bank_values = game.counterfactual(Float(), as_float, float_bank)
    for exact_k, float_k in zip(exact_seats, float_seats, strict=True):
        assert np.allclose(np.array(exact_k, dtype=float), float_k, atol=1e-15)
    assert np.allclose(np.array(exact_bank, dtype=float), float_bank_values, atol=1e-15)


def test_one_live_seat_at_a_finite_shoe_is_the_heads_up_game() -> None:
    """The joint subgame's bank-indifference weights equal the heads-up game's, up to
    scale (the heads-up arrays count six-card sequences, the subgame conditions on no
    natural)."""
    shoe = Shoe.decks(1)
    game = finite_subgame(LUCKY9, shoe.value_counts(), 1, "cards", "1 deck")
    heads_up = build_game(LUCKY9, shoe, "cards")
    seats, bank = uniform(game)
    _, bank_values = game.counterfactual(Float(), seats, bank)
    # gain of drawing for the bank at each (holding, drew/stood), heads-up sign: player's
    ours = bank_values[:, :, 1] - bank_values[:, :, 0]  # (holding, vector: 0 stood, 1 drew)
    x = np.full(len(heads_up.player_sets), 0.5)
    theirs = -(np.asarray(heads_up.gain0, dtype=float) + x @ np.asarray(heads_up.gain,
                                                                       dtype=float))
    theirs = theirs.reshape(len(game.bank_classes), 2)[:, ::-1]  # drew first -> stood first
    ratio = ours[ours != 0] / theirs[ours != 0]
    assert np.allclose(ratio, ratio[0])


def test_exact_card_removal_has_limits() -> None:
    with pytest.raises(AnalyzerError, match="at most 2 live seats"):
        finite_subgame(LUCKY9, Shoe.decks(1).value_counts(), 3, "total", "1 deck")
    with pytest.raises(AnalyzerError, match="int64"):
        finite_subgame(LUCKY9, Shoe.decks(40).value_counts(), 2, "total", "40 decks")
