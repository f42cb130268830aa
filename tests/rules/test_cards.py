"""Card notation, values and errors."""

from __future__ import annotations

import pytest

from analyzer.errors import AnalyzerError
from analyzer.rules.cards import DECK, Card, Rank, Suit, parse_cards


@pytest.mark.parametrize("text", ["Td", "10d", "TD", "10♦", "tD"])
def test_ten_of_diamonds_in_every_notation(text: str) -> None:
    assert Card.parse(text) == Card(Rank.TEN, Suit.DIAMONDS)


def test_suit_first_notation() -> None:
    assert Card.parse("d4", order="suit-first") == Card(Rank.FOUR, Suit.DIAMONDS)
    assert Card.parse("s10", order="suit-first") == Card(Rank.TEN, Suit.SPADES)


def test_points_and_colours() -> None:
    assert [Card(r, Suit.CLUBS).points for r in Rank] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    assert Card.parse("QH").colour == "red" and Card.parse("QS").colour == "black"


def test_deck_is_indexed_canonically() -> None:
    assert len(DECK) == 52 == len(set(DECK))
    assert all(card.index == i for i, card in enumerate(DECK))


@pytest.mark.parametrize("text", ["4X", "1S", "11S", "Z", "", "44"])
def test_unknown_cards_raise_one_error_type(text: str) -> None:
    with pytest.raises(AnalyzerError, match="unknown card"):
        Card.parse(text)


def test_parse_cards_separators() -> None:
    assert [str(c) for c in parse_cards("4s,4h  td")] == ["4S", "4H", "TD"]
