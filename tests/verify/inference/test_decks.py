"""The deck count whole shoes show: maximum likelihood, told only when clear."""

from __future__ import annotations

import random

import numpy as np

from analyzer.dealing.dialects import CARD_VALUE, VALUE_CARD
from analyzer.engine.lookup import build_model
from analyzer.verify.inference.decks import DeckTally, shown_decks


def _shoes(decks: int, shoes: int, dealt: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    cards = [c for c in range(52) for _ in range(decks)]
    found = []
    for _ in range(shoes):
        rng.shuffle(cards)
        found.append(np.bincount(cards[:dealt], minlength=52).tolist())
    return found


def test_the_shoes_tell_their_decks_cards_and_values() -> None:
    for decks, dealt in ((6, 250), (8, 333), (1, 40)):
        shoes = _shoes(decks, 12, dealt, decks)
        tally = DeckTally(build_model("punto-banco", 8), values=False)
        tally.add_counts(shoes)
        assert shown_decks(tally.fit(), tally.floor, 8) == decks
        values = DeckTally(build_model("punto-banco", 8), values=True)
        for counts in shoes:  # each card on the card standing for its value
            row = [0] * 52
            for c, k in enumerate(counts):
                row[VALUE_CARD[CARD_VALUE[c]]] += k
            values.add_counts([row])
        assert values.shoes == 12 and shown_decks(values.fit(), values.floor, 8) in (
            decks, None)


def test_few_shoes_tell_nothing_and_batches_give_the_same_floats() -> None:
    shoes = _shoes(8, 2, 200, 3)
    tally = DeckTally(build_model("punto-banco", 8), values=False)
    tally.add_counts(shoes)
    assert shown_decks(tally.fit(), tally.floor, 8) is None  # not clear enough to say
    one_by_one = DeckTally(build_model("punto-banco", 8), values=False)
    for shoe in shoes:
        one_by_one.add_counts([shoe])
    assert one_by_one.fit() == tally.fit() and one_by_one.floor == tally.floor
