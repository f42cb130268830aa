"""Shoes: immutable compositions of cards, finite or the infinite-deck limit.

>>> shoe = Shoe.decks(8)
>>> shoe.size, shoe.value_counts()[0], shoe.value_counts()[9]
(416, 128, 32)
>>> shoe.remove(parse_cards("4S 4H TD")).size
413
>>> Shoe.infinite().describe()
'infinite deck'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from analyzer.errors import AnalyzerError
from analyzer.inputs import is_integer_text, read_text
from analyzer.rules.cards import DECK, Card, CardOrder, Rank, Suit, parse_cards

__all__ = ["make_shoe", "MAX_COUNT", "MIN_SHOE_SIZE", "Shoe"]

#: Most copies of one card a shoe file may ask for (100,000 decks).
MAX_COUNT = 100_000

#: The card indices of each point value 0-9.
_CARDS_OF_VALUE = tuple(tuple(i for i, card in enumerate(DECK) if card.points == v)
                        for v in range(10))

#: A coup can use up to six cards; the published convention counts ordered 6-card sequences.
MIN_SHOE_SIZE = 6


@dataclass(frozen=True)
class Shoe:
    """A multiset of cards (``counts[card.index]``) or the infinite-deck limit.

    The infinite deck deals with replacement, each of the 52 cards with probability 1/52;
    its ``counts`` are all 1 and ``is_infinite`` is true.
    """

    counts: tuple[int, ...]
    is_infinite: bool = False
    label: str = ""

    def __post_init__(self) -> None:
        if len(self.counts) != 52:
            raise AnalyzerError(f"shoe needs 52 card counts, got {len(self.counts)}")
        for card, n in zip(DECK, self.counts, strict=True):
            if not isinstance(n, int) or n < 0:
                raise AnalyzerError(
                    f"shoe count for {card} must be a non-negative integer, got {n}")
        if not self.is_infinite and sum(self.counts) < MIN_SHOE_SIZE:
            raise AnalyzerError(
                f"shoe of {sum(self.counts)} cards is too small to finish a coup "
                f"(needs at least {MIN_SHOE_SIZE})")

    # -- construction -------------------------------------------------------------------
    @classmethod
    def decks(cls, n: int) -> Shoe:
        """``n`` full 52-card decks."""
        if not isinstance(n, int) or n < 1:
            raise AnalyzerError(f"decks must be a positive integer, got {n}")
        return cls((n,) * 52, label=f"{n} deck{'s' if n != 1 else ''}")

    @classmethod
    def infinite(cls) -> Shoe:
        """The infinite-deck limit: every card with probability 1/52, with replacement."""
        return cls((1,) * 52, is_infinite=True, label="infinite deck")

    @classmethod
    def from_cards(cls, cards: Iterable[Card], label: str = "") -> Shoe:
        """A shoe holding exactly the listed cards."""
        counts = [0] * 52
        for card in cards:
            counts[card.index] += 1
        return cls(tuple(counts), label=label or "custom shoe")

    @classmethod
    def from_counts(cls, counts: Mapping[Card, int], label: str = "") -> Shoe:
        """A shoe from a card -> count mapping (missing cards count zero)."""
        values = [0] * 52
        for card, n in counts.items():
            values[card.index] = n
        return cls(tuple(values), label=label or "custom shoe")

    @classmethod
    def from_file(cls, path: str | Path, order: CardOrder = "rank-first") -> Shoe:
        """Read a composition file.

        One entry per line, ``#`` starts a comment. ``decks N`` starts from N full decks;
        ``CARD COUNT`` sets a card's count (e.g. ``4S 7``); ``remove CARDS`` takes cards out.
        """
        path = Path(path)
        text = read_text(path)
        counts = [0] * 52
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            where = f"{path}:{number}"
            try:
                if words[0].lower() == "decks" and len(words) == 2:
                    n = _parse_count(words[1], where)
                    counts = [c + n for c in counts]
                elif words[0].lower() == "remove":
                    for card in parse_cards(" ".join(words[1:]), order):
                        if counts[card.index] == 0:
                            raise AnalyzerError(f"cannot remove {card}: none left in the shoe")
                        counts[card.index] -= 1
                elif len(words) == 2:
                    card = Card.parse(words[0], order)
                    counts[card.index] = _parse_count(words[1], where)
                else:
                    raise AnalyzerError("expected 'CARD COUNT', 'decks N' or 'remove CARDS'")
            except AnalyzerError as exc:
                message = str(exc)
                raise AnalyzerError(
                    message if message.startswith(where) else f"{where}: {message}") from None
        try:
            return cls(tuple(counts), label=f"shoe file {path.name}")
        except AnalyzerError as exc:
            raise AnalyzerError(f"{path}: {exc}") from None

    def remove(self, cards: Iterable[Card]) -> Shoe:
        """The shoe with the listed cards taken out (each must be present)."""
        if self.is_infinite:
            raise AnalyzerError("cannot remove cards from the infinite deck")
        counts = list(self.counts)
        removed = []
        for card in cards:
            if counts[card.index] == 0:
                raise AnalyzerError(f"cannot remove {card}: the shoe has none left")
            counts[card.index] -= 1
            removed.append(str(card))
        if not removed:
            return self
        label = f"{self.label or 'shoe'} minus {' '.join(removed)}"
        return Shoe(tuple(counts), label=label)

    # -- queries ------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of cards (52 for the infinite deck's per-draw weights)."""
        return sum(self.counts)

    def count(self, card: Card) -> int:
        """How many copies of ``card`` the shoe holds."""
        return self.counts[card.index]

    def value_counts(self) -> tuple[int, ...]:
        """Cards of each point value 0-9 (the infinite deck: 16, 4, 4, ...), worked out once
        per shoe (a shoe never changes)."""
        found: tuple[int, ...] | None = self.__dict__.get("_value_counts")
        if found is None:
            counts = self.counts
            found = tuple(sum(counts[i] for i in cards) for cards in _CARDS_OF_VALUE)
            object.__setattr__(self, "_value_counts", found)
        return found

    def rank_counts(self) -> dict[Rank, int]:
        """Cards of each rank."""
        ranks = dict.fromkeys(Rank, 0)
        for card, n in zip(DECK, self.counts, strict=True):
            ranks[card.rank] += n
        return ranks

    def suit_counts(self) -> dict[Suit, int]:
        """Cards of each suit."""
        suits = dict.fromkeys(Suit, 0)
        for card, n in zip(DECK, self.counts, strict=True):
            suits[card.suit] += n
        return suits

    def cards(self) -> list[Card]:
        """Every card of a finite shoe, in canonical order, repeated by its count."""
        if self.is_infinite:
            raise AnalyzerError("the infinite deck has no finite list of cards")
        return [card for card, n in zip(DECK, self.counts, strict=True) for _ in range(n)]

    def describe(self) -> str:
        """A short human label, e.g. '8 decks'."""
        return self.label or f"custom shoe of {self.size} cards"


def _parse_count(text: str, where: str) -> int:
    if is_integer_text(text, signed=True) and text.startswith("-"):
        raise AnalyzerError(f"{where}: negative count {text}")
    if not is_integer_text(text):
        raise AnalyzerError(f"{where}: count {text!r} is not a whole number in ASCII digits")
    n = int(text) if len(text) <= 12 else MAX_COUNT + 1
    if n > MAX_COUNT:
        raise AnalyzerError(f"{where}: count {n} is above {MAX_COUNT:,}")
    return n


def make_shoe(decks: int | None = None, infinite: bool = False, remove: str = "",
              file: str | Path | None = None, order: CardOrder = "rank-first") -> Shoe:
    """Build the shoe the command line describes (8 decks by default).

    >>> make_shoe(decks=1, remove="AS").size
    51
    """
    if infinite and (decks is not None or file is not None):
        raise AnalyzerError("--infinite cannot be combined with --decks or --shoe")
    if infinite:
        if remove.strip():
            raise AnalyzerError("cannot remove cards from the infinite deck")
        return Shoe.infinite()
    if file is not None:
        if decks is not None:
            raise AnalyzerError("--shoe cannot be combined with --decks")
        shoe = Shoe.from_file(file, order)
    else:
        shoe = Shoe.decks(8 if decks is None else decks)
    return shoe.remove(parse_cards(remove, order)) if remove.strip() else shoe
