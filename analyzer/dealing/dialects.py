"""How third-party logs write a hand: card notations, point values only, outcome words,
and the CSV columns that hold each field.

**Cards** are tokens rank-first (``9d``, ``Td``, ``10d``, ``K♠``) or suit-first (``d9``),
any case. A log that records **point values only** (one digit 0-9 per card: tens and
faces are ``0``) is read with ``cards="values"``, or found automatically from its first
hand: each value stands for one card of that value (:data:`VALUE_CARD`), and the verifier
checks it at the level of values (:mod:`analyzer.verify`).

**Outcomes** are read in the forms simulators write (:data:`OUTCOME_WORDS`, any case, with
spaces, ``_`` or ``-`` between words): ``P``/``B``/``T``, ``player``/``banker``/``tie``,
``player win(s)``/``banker won``, ``punto``/``banco``, and ``draw`` for a tie unless the
game has a bet called draw.

**Columns** (CSV/TSV) are found by their common names (:data:`COMMON_NAMES`, compared
without case, spaces, ``_`` or ``-``) or named with ``--column FIELD=HEADER``; a card field
may be split over several columns, one card each (``--column
player_cards=pcard1,pcard2,pcard3``), found automatically under names such as ``pcard1``,
``player_card_1``, ``P1`` (:data:`SPLIT_NAMES`). An empty cell (or ``-``) is a card not
drawn. :mod:`analyzer.dealing.columns` matches a header to its field, bet columns
included.

>>> normalize_outcome("Banker wins"), normalize_outcome("PLAYER_WIN"), normalize_outcome("draw")
('banker', 'player', 'tie')
>>> parse_column_options(["player_cards=pcard1,pcard2,pcard3"])
(('player_cards', 'pcard1,pcard2,pcard3'),)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.rules.cards import DECK, CardOrder

__all__ = ["CARD_RANK", "CARD_TEXT", "card_text", "CARD_VALUE", "CardCache", "card_cache",
           "BET_ROW_FIELDS", "CARD_NOTATIONS", "COMMON_NAMES", "FIELDS", "is_values_field",
           "LogOptions", "MAX_ID", "normalize_outcome", "OUTCOME_WORDS", "parse_column_options",
           "short", "SPLIT_NAMES", "token_card", "VALUE_CARD"]

#: Point value of each card index 0-51 (``Card.index``).
CARD_VALUE: tuple[int, ...] = tuple(card.points for card in DECK)
#: Rank number 1-13 of each card index.
CARD_RANK: tuple[int, ...] = tuple(int(card.rank) for card in DECK)
#: Each card index written rank-first (``TD``).
CARD_TEXT: tuple[str, ...] = tuple(str(card) for card in DECK)
#: The card standing for each point value in a values-only log: the spade of that rank
#: (the ten of spades for 0). Only its value is ever read.
VALUE_CARD: tuple[int, ...] = (36, *((value - 1) * 4 for value in range(1, 10)))
#: How a log writes its cards: ``cards`` (rank and suit), ``values`` (point values
#: only), or ``auto`` (told from the first hand).
CARD_NOTATIONS = ("auto", "cards", "values")
#: Longest shoe or bet id (characters): ids are names, not data.
MAX_ID = 100

#: The log fields a ``--column FIELD=HEADER`` option can name (besides per-bet columns).
FIELDS = ("shoe", "hand", "player_cards", "banker_cards", "outcome", "burn", "cards_left")
#: The fields of a one-bet-a-row log (:mod:`analyzer.dealing.columns`): the column naming
#: the bet, its stake, and what it returned (stake included) or its profit.
BET_ROW_FIELDS = ("bet_on", "stake", "returned", "profit")
#: Header names recognized for each field, in order of preference (compared without case,
#: spaces, ``_`` or ``-``: ``Shoe No`` is ``shoe_no``).
COMMON_NAMES: dict[str, tuple[str, ...]] = {
    "shoe": ("shoe", "shoe_id", "shoe_number", "shoe_no"),
    "hand": ("hand", "round", "hand_number", "round_number", "hand_no", "round_no", "coup",
             "hand_id", "round_id", "game", "game_id"),
    "player_cards": ("player_cards", "player", "player_hand"),
    "banker_cards": ("banker_cards", "banker", "banker_hand"),
    "outcome": ("winner", "outcome", "result"),
    "burn": ("burn", "burn_cards", "burned"),
    # filled on a shoe's last hand only: the shoe ended there (nine simulate writes it)
    "cards_left": ("cards_left", "cards_remaining"),
}
#: Stems of split card columns, one card each, numbered from 1 (``pcard1``,
#: ``player_card_2``, ``P3``), compared like :data:`COMMON_NAMES`.
SPLIT_NAMES: dict[str, tuple[str, ...]] = {
    "player_cards": ("pcard", "playercard", "player", "p", "pc"),
    "banker_cards": ("bcard", "bankercard", "banker", "b", "bc"),
}
#: Outcome words (lower case, words joined by one space) and what they mean.
OUTCOME_WORDS: dict[str, str] = {
    **{word: "player" for word in ("p", "player", "player win", "player wins", "player won",
                                   "punto", "player hand")},
    **{word: "banker" for word in ("b", "banker", "banker win", "banker wins", "banker won",
                                   "banco", "bank", "banker hand")},
    **{word: "tie" for word in ("t", "tie", "tied", "ties", "tie game", "egalite")},
}
_EXPECTED = "expected e.g. P/B/T, player/banker/tie, 'Banker wins' or 'draw'"
_RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
          "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_VALUES = {str(value): VALUE_CARD[value] for value in range(10)}
_EMPTY = frozenset({"", "-"})


def short(value: Any, limit: int = 40) -> str:
    """``repr`` of a field for a message, cut to about ``limit`` characters (a hostile
    field may be a megabyte long).

    >>> short("x" * 100, 10)
    "'xxxxx... (102 characters)"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 4]}... ({len(text):,} characters)"


def _token_table(order: CardOrder) -> dict[str, int]:
    table: dict[str, int] = {}
    for rank_text, rank in _RANKS.items():
        for suit_text, suit in _SUITS.items():
            for r in {rank_text, rank_text.lower()}:
                for s in {suit_text, suit_text.lower()}:
                    token = r + s if order == "rank-first" else s + r
                    table[token] = (rank - 1) * 4 + suit
    return table


_TOKENS: dict[str, dict[str, int]] = {
    "rank-first": _token_table("rank-first"), "suit-first": _token_table("suit-first"),
    "values": _VALUES}


def token_card(token: str, order: CardOrder = "rank-first") -> int:
    """The card index (``Card.index``) of one card token; AnalyzerError if unknown.

    >>> token_card("Td"), token_card("10d"), token_card("d10", "suit-first")
    (38, 38, 38)
    """
    index = _TOKENS[order].get(token.strip())
    if index is None:
        example = "d4 or dT" if order == "suit-first" else "4S or Td"
        raise AnalyzerError(f"unknown card {short(token)} (expected e.g. {example})")
    return index


def card_text(index: int) -> str:
    """A card index written rank-first, e.g. ``TD``.

    >>> card_text(38)
    'TD'
    """
    return CARD_TEXT[index]


def normalize_outcome(text: str, draw_is_tie: bool = True) -> str:
    """``player``, ``banker`` or ``tie`` from an outcome word (:data:`OUTCOME_WORDS`, any
    case); ``draw`` is a tie when ``draw_is_tie`` (the game has no bet called draw)."""
    key = " ".join(re.split(r"[\s_-]+", text.strip().lower())).strip()
    outcome = OUTCOME_WORDS.get(key)
    if outcome is None and key == "draw" and draw_is_tie:
        outcome = "tie"
    if outcome is None:
        raise AnalyzerError(f"unknown outcome {short(text)} ({_EXPECTED})")
    return outcome


def is_values_field(field: Any) -> bool:
    """Does a cards field hold point values only (digits 0-9), not cards?

    >>> is_values_field("7 0"), is_values_field(["9", "0", "3"]), is_values_field("9d Td")
    (True, True, False)
    """
    tokens = field.replace(",", " ").split() if isinstance(field, str) else field
    return (isinstance(tokens, list) and bool(tokens)
            and all(isinstance(t, str | int) and not isinstance(t, bool)
                    and str(t).strip() in _VALUES for t in tokens))


class CardCache:
    """Parsed card fields by their text: most hands repeat a field seen before.

    ``notation`` is a card order (``rank-first``, ``suit-first``) or ``values``. Fields
    longer than :attr:`KEY` characters are parsed but not kept, so a hostile record cannot
    fill memory.
    """

    LIMIT = 100_000
    KEY = 64

    def __init__(self, notation: str) -> None:
        self.table = _TOKENS[notation]
        self.notation = notation
        self.seen: dict[Any, tuple[int, ...]] = {}
        self.pairs: dict[Any, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def pair(self, field: Any, name: str = "cards") -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The cards of a field and their point values."""
        key = field if type(field) is str else _field_key(field, name)  # hot path: text
        found = self.pairs.get(key)
        if found is None:
            cards = self.tokens(field)
            found = (cards, tuple(CARD_VALUE[c] for c in cards))
            if len(key) <= self.KEY:
                if len(self.pairs) >= self.LIMIT:
                    self.pairs.clear()
                self.pairs[key] = found
        return found

    def parse(self, field: Any, name: str = "cards") -> tuple[int, ...]:
        """The card indices of a field (a string of tokens or a list of them)."""
        key = field if type(field) is str else _field_key(field, name)
        cards = self.seen.get(key)
        if cards is None:
            cards = self.tokens(field)
            if len(key) <= self.KEY:
                if len(self.seen) >= self.LIMIT:
                    self.seen.clear()
                self.seen[key] = cards
        return cards

    def tokens(self, field: Any) -> tuple[int, ...]:
        """Parse a field without caching it."""
        tokens = field.replace(",", " ").split() if isinstance(field, str) else field
        if self.notation == "values" and not isinstance(field, str):
            tokens = [str(t) if isinstance(t, int) and not isinstance(t, bool) else t
                      for t in tokens]
        try:
            cards = tuple(self.table[t] for t in tokens)
        except (KeyError, TypeError):
            bad = next((t for t in tokens if not isinstance(t, str) or t not in self.table), "?")
            if self.notation == "values":
                raise AnalyzerError(f"unknown card value {short(bad)} (this log writes point "
                                    "values 0-9; give --cards cards for cards)") from None
            example = "d4 or dT" if self.notation == "suit-first" else "4S or Td"
            raise AnalyzerError(f"unknown card {short(bad)} (expected e.g. {example})") from None
        return cards


def _field_key(field: Any, name: str) -> Any:
    """A hashable cache key for a cards field: its text, or its list as a tuple."""
    if isinstance(field, str):
        return field
    if isinstance(field, list):
        return tuple(field)
    raise AnalyzerError(f"{name} must be a list of cards or a space-separated string, got "
                        f"{type(field).__name__} {short(field)}")


@cache
def card_cache(notation: str) -> CardCache:
    """One bounded cache per card notation, shared by every file a process reads."""
    return CardCache(notation)


@dataclass(frozen=True)
class LogOptions:
    """How to read and check a log: its format, column names, card notation (``card_order``
    and ``cards``: :data:`CARD_NOTATIONS`), whether ``draw`` means a tie, the rounding
    rule for fractional payouts (:data:`analyzer.dealing.handlog.ROUNDING`), and the bets
    whose stakes are not checked (``skip_bets``: the bets on ranks or suits of a
    values-only log, which it cannot settle)."""

    format: str = "auto"
    columns: tuple[tuple[str, str], ...] = ()
    card_order: CardOrder = "rank-first"
    rounding: str = "down"
    cards: str = "auto"
    draw_is_tie: bool = True
    skip_bets: tuple[str, ...] = ()
    #: the profile's bets as (id, name): how bet columns and bet names are recognized
    #: (:func:`analyzer.dealing.columns.bet_spellings`)
    bets: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.cards not in CARD_NOTATIONS:
            raise AnalyzerError(f"--cards {self.cards!r}: expected one of "
                                f"{', '.join(CARD_NOTATIONS)}")

    def notation(self, values: bool) -> str:
        """The card cache's notation: ``values``, or the card order."""
        return "values" if values else self.card_order


def parse_column_options(options: tuple[str, ...] | list[str]) -> tuple[tuple[str, str], ...]:
    """``FIELD=HEADER`` strings as pairs; a card field may name several columns
    (``player_cards=pcard1,pcard2,pcard3``).

    >>> parse_column_options(["hand=Round No", "banker_stake=BankBet"])
    (('hand', 'Round No'), ('banker_stake', 'BankBet'))
    """
    pairs = []
    for option in options:
        field, sep, header = option.partition("=")
        field = field.strip().lower()
        if not sep or not field or not header.strip():
            raise AnalyzerError(f"--column {option!r}: expected FIELD=HEADER, e.g. hand=Round")
        if field not in FIELDS + BET_ROW_FIELDS and not field.endswith(
                ("_stake", "_returned", "_profit")):
            raise AnalyzerError(f"--column {option!r}: unknown field {field!r} (fields: "
                                f"{', '.join(FIELDS + BET_ROW_FIELDS)}, <bet>_stake, "
                                "<bet>_returned, <bet>_profit)")
        if "," in header and field not in ("player_cards", "banker_cards", "burn"):
            raise AnalyzerError(f"--column {option!r}: only a card field (player_cards, "
                                "banker_cards, burn) may name several columns")
        if any(not part.strip() for part in header.split(",")):
            raise AnalyzerError(f"--column {option!r}: an empty column name")
        pairs.append((field, header.strip()))
    return tuple(pairs)
