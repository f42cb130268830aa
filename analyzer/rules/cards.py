"""Ranks, suits and cards: the domain types every other module reads.

A card's point value is its rank modulo ten, with tens and faces worth zero:

>>> Card.parse("Td").points, Card.parse("7h").points, Card.parse("K♠").points
(0, 7, 0)
>>> Card.parse("10♦") == Card.parse("td")
True
>>> str(Card.parse("d4", order="suit-first"))
'4D'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from analyzer.errors import AnalyzerError

__all__ = ["Card", "CardOrder", "DECK", "full_deck", "HandCard", "parse_cards", "parse_hand",
           "POINT_VALUES", "Rank", "Suit"]

CardOrder = Literal["rank-first", "suit-first"]


class Rank(enum.IntEnum):
    """A card rank; the integer is its order, Ace low (Ace = 1 ... King = 13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def points(self) -> int:
        """Baccarat point value: A = 1, 2-9 face value, 10/J/Q/K = 0."""
        return int(self) if int(self) < 10 else 0

    @property
    def symbol(self) -> str:
        """One-character symbol: A 2 ... 9 T J Q K."""
        return "A23456789TJQK"[int(self) - 1]


class Suit(enum.Enum):
    """A card suit, with its colour."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def colour(self) -> Literal["red", "black"]:
        """Hearts and diamonds are red; spades and clubs black."""
        return "red" if self in (Suit.HEARTS, Suit.DIAMONDS) else "black"

    @property
    def symbol(self) -> str:
        """One-letter symbol S H D C."""
        return self.value


_RANK_TEXT = {r.symbol: r for r in Rank} | {"10": Rank.TEN, "1": Rank.ACE}
_SUIT_TEXT = {s.value: s for s in Suit} | {"♠": Suit.SPADES, "♥": Suit.HEARTS,
                                           "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}

#: The ten point values a card can have, in order.
POINT_VALUES = tuple(range(10))


@dataclass(frozen=True, order=True)
class Card:
    """One playing card; frozen and ordered by (rank, suit symbol)."""

    rank: Rank
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise AnalyzerError(f"card needs a Rank and a Suit, got {self.rank!r} {self.suit!r}")

    @property
    def points(self) -> int:
        """Baccarat point value of the card."""
        return self.rank.points

    @property
    def colour(self) -> Literal["red", "black"]:
        """The card's colour."""
        return self.suit.colour

    @property
    def index(self) -> int:
        """Position 0-51 in the canonical deck order (rank-major, suits S H D C)."""
        return (int(self.rank) - 1) * 4 + list(Suit).index(self.suit)

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.symbol

    @classmethod
    def parse(cls, text: str, order: CardOrder = "rank-first") -> Card:
        """Read a card such as ``4S``, ``Td``, ``10♦`` (or ``d4`` suit-first)."""
        raw = text.strip()
        token = raw.upper()
        if len(token) < 2:
            raise AnalyzerError(f"unknown card {raw!r}: expected rank then suit, e.g. 4S or Td")
        if order == "suit-first":
            suit_text, rank_text = token[0], token[1:]
        else:
            rank_text, suit_text = token[:-1], token[-1]
        rank = _RANK_TEXT.get(rank_text)
        suit = _SUIT_TEXT.get(suit_text)
        if rank is None or suit is None or rank_text == "1":
            example = "d4 or dT" if order == "suit-first" else "4S or Td"
            raise AnalyzerError(f"unknown card {raw!r}: expected e.g. {example}")
        return cls(rank, suit)


def parse_cards(text: str, order: CardOrder = "rank-first") -> tuple[Card, ...]:
    """Read cards separated by spaces or commas.

    >>> [str(c) for c in parse_cards("4S 4h, TD")]
    ['4S', '4H', 'TD']
    """
    return tuple(Card.parse(t, order) for t in text.replace(",", " ").split())


@dataclass(frozen=True)
class HandCard:
    """A card as a player names it at a table where suits do not matter: a rank, its suit
    only if given."""

    rank: Rank
    suit: Suit | None = None

    @property
    def points(self) -> int:
        """Baccarat point value of the card."""
        return self.rank.points

    def __str__(self) -> str:
        return self.rank.symbol + (self.suit.symbol if self.suit else "")


_HAND_CARD = re.compile(r"(10|[2-9ATJQK1])([SHDC♠♥♦♣]?)")


def parse_hand(text: str) -> tuple[HandCard, ...]:
    """Read cards with or without suits, separated by spaces or commas or run together.

    >>> [str(c) for c in parse_hand("8 7")], [str(c) for c in parse_hand("87")]
    (['8', '7'], ['8', '7'])
    >>> [str(c) for c in parse_hand("10 5")], [str(c) for c in parse_hand("8♥ 7♠")]
    (['T', '5'], ['8H', '7S'])
    >>> [str(c) for c in parse_hand("T5")], [str(c) for c in parse_hand("8h,kd")]
    (['T', '5'], ['8H', 'KD'])
    """
    out: list[HandCard] = []
    for token in text.upper().replace(",", " ").split():
        position = 0
        while position < len(token):
            found = _HAND_CARD.match(token, position)
            if found is None:
                raise AnalyzerError(f"card {text.strip()!r}: cannot read {token[position:]!r}; "
                                    "give ranks A 2-9 T J Q K (10 for T), suits optional, "
                                    "e.g. \"8 7\", \"T5\" or \"8H 7S\"")
            rank_text, suit_text = found.groups()
            out.append(HandCard(_RANK_TEXT[rank_text], _SUIT_TEXT.get(suit_text)))
            position = found.end()
    return tuple(out)


def full_deck() -> Iterator[Card]:
    """The 52 cards of one deck in canonical order."""
    for rank in Rank:
        for suit in Suit:
            yield Card(rank, suit)


#: The 52 cards of one deck, indexed by ``Card.index``.
DECK: tuple[Card, ...] = tuple(full_deck())
