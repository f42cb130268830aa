"""Solving a dealt subgame: the search certifies it, a warm start from its own equilibrium
closes it without an iteration, a seeded search certifies the same equilibrium, and the
dense float pass equals the compiled loop."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.choice.table.cfr import uniform
from analyzer.choice.table.dealt import dense
from analyzer.choice.table.dealt.game import DealtSubgame, dealt_subgame
from analyzer.choice.table.dealt.search import WARM_METHOD, solve_dealt
from analyzer.choice.table.exact.ring import Float
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.cards import parse_cards
from analyzer.rules.shoe import Shoe

#: Four point values, twenty cards: three live seats and the bank leave twelve.
SHOE = Shoe.from_cards(parse_cards(" ".join(f"{r}{s}" for r in "T345" for s in "SHDC")
                                   + " 6S 6H 7S 7H"), "small shoe")


def _game(by: str) -> DealtSubgame:
    return dealt_subgame(LUCKY9, tuple(SHOE.value_counts()), 3, by, "small shoe")


def test_the_search_certifies_and_a_warm_start_closes_without_iterations() -> None:
    game = _game("cards")
    found = solve_dealt(game)
    assert found.certified and found.cfr.iterations > 0
    again = solve_dealt(game, (found.seats, found.bank))
    assert again.certified and again.cfr.iterations == 0 and again.method == WARM_METHOD
    assert again.values == found.values


def test_a_seeded_search_certifies_the_same_equilibrium() -> None:
    game = _game("cards")
    found = solve_dealt(game)
    seeded = solve_dealt(game, seed=(found.seats, found.bank))
    # a seed only steers CFR+ (no warm closure): iterations run, the same equilibrium results
    assert seeded.certified and seeded.method != WARM_METHOD
    assert 0 < seeded.cfr.iterations <= found.cfr.iterations
    assert seeded.values == found.values and seeded.bank == found.bank


def test_the_dense_float_pass_equals_the_compiled_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game("cards")
    rng = np.random.default_rng(5)
    seats, bank = uniform(game)
    seats = [rng.random(s.shape) for s in seats]
    bank = rng.random(bank.shape)
    assert game.dense() is not None
    with_matrix = game.counterfactual(Float(), seats, bank)
    game.release()
    monkeypatch.setattr(dense, "DENSE_BYTES", 0)
    assert game.dense() is None
    looped = game.counterfactual(Float(), seats, bank)
    game.release()
    for a, b in zip([*with_matrix[0], with_matrix[1]], [*looped[0], looped[1]], strict=True):
        assert np.allclose(a, b, rtol=1e-12, atol=0) and np.abs(b).max() > 0
