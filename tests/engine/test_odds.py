"""Exact odds against published figures, and the batch evaluator against the exact engine."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np

from analyzer.engine.evaluator import BatchEvaluator
from analyzer.engine.odds import odds
from analyzer.rules.cards import DECK
from analyzer.rules.shoe import Shoe


def test_eight_deck_counts_match_the_published_combinations(
        punto_banco_reference: dict[str, Any]) -> None:
    published = punto_banco_reference["eight_decks"]
    table = odds("punto-banco", Shoe.decks(8))
    assert table.denominator == published["denominator"] == 416 * 415 * 414 * 413 * 412 * 411
    assert table.bet("banker").lines[0].ways == published["banker"]
    assert table.bet("player").lines[0].ways == published["player"]
    assert table.bet("tie").lines[0].ways == published["tie"]
    assert table.bet("banker").lines[0].probability == Fraction(published["banker"],
                                                                published["denominator"])


def test_house_edges_match_published_to_the_printed_digits(
        punto_banco_reference: dict[str, Any]) -> None:
    published = punto_banco_reference["house_edges_percent"]
    for decks, prefix in ((8, "eight"), (1, "one")):
        table = odds("punto-banco", Shoe.decks(decks))
        for bet in ("banker", "player", "tie"):
            edge = float(table.bet(bet).house_edge) * 100
            assert round(edge, 2) == published[f"{prefix}_{bet}"], (decks, bet, edge)


def test_ev_and_variance_are_exact_moments() -> None:
    table = odds("punto-banco", Shoe.decks(8))
    tie = table.bet("tie")
    p = tie.lines[0].probability
    assert tie.ev == 9 * p - 1
    assert tie.variance == 64 * p + (1 - p) - tie.ev**2
    player = table.bet("player")
    win, push = player.lines[0].probability, player.lines[1].probability
    assert player.variance == win + player.lose_probability - player.ev**2
    assert player.push_probability == push
    assert player.hit_frequency == win


def test_batch_evaluator_is_within_1e_12_of_exact() -> None:
    evaluator = BatchEvaluator.for_profile("punto-banco")
    generator = random.Random(7)
    shoes = []
    for _ in range(12):
        cards = [c for c in DECK for _ in range(8)]
        generator.shuffle(cards)
        shoes.append(Shoe.from_cards(cards[: generator.randrange(60, 400)]))
    batch = evaluator.evaluate(np.array([s.value_counts() for s in shoes]))
    for row, shoe in zip(batch, shoes, strict=True):
        table = odds("punto-banco", shoe)
        for column, bet in enumerate(evaluator.bet_ids):
            exact = table.bet(bet).ev
            assert abs(row[column] - float(exact)) <= 1e-12 * abs(float(exact))


def test_depleted_shoe_moves_the_odds() -> None:
    full = odds("punto-banco", Shoe.decks(1))
    no_fives = odds("punto-banco", Shoe.decks(1).remove(
        [c for c in DECK if c.points == 5]))
    # Removing the fives helps the Player (Griffin, The Theory of Blackjack, ch. 11:
    # fives carry the largest removal effect against the Player bet in baccarat).
    assert no_fives.bet("player").ev > full.bet("player").ev
