"""How third-party logs write a hand: card notations, point values only, outcome words,
and the CSV columns that hold each field.

**Cards** are tokens rank-first (``9d``, ``Td``, ``10d``, ``K♠``) or suit-first (``d9``:
rank and suit letters never clash, so both orders are read), any case; English names
(``Ace of Spades``, ``six of hearts``); a field may be Python list text (``[6s,9d]``,
``['6s', '9d']``). A log that records **point values only** (one digit 0-9 per card: tens
and faces are ``0``) is read with ``cards="values"``; one that records **ranks only**
(1-13: A=1, J=11, Q=12, K=13; ``0`` or an empty cell is no card) with ``cards="ranks"``.
Both are found automatically (:meth:`LogOptions.first_notation`: digits only; a rank of
10-13 tells ranks). Each value (or rank) stands for one card of its point value
(:data:`VALUE_CARD`), and the verifier checks such a log at the level of values
(:mod:`analyzer.verify`).

**Outcomes** are read in the forms simulators write (:data:`OUTCOME_WORDS`, any case,
accents optional, with spaces, ``_`` or ``-`` between words): ``P``/``B``/``T``,
``player``/``banker``/``tie``, ``player win(s)``/``banker won``, the words of the
languages baccarat is logged in (Chinese 庄/闲/和 and 莊/閒, Spanish banca/banco/jugador/
empate, French banque/banquier/joueur/égalité, Portuguese banca/jogador/empate, Filipino
bangka/manlalaro/tabla), ``draw`` for a tie unless the game has a bet called draw, and
any others given as ``--outcome-words banker=X,player=Y,tie=Z``
(:func:`parse_outcome_words`).

**Separators** of a CSV log (``,`` ``;`` tab ``|``) are told from its header line
(:func:`sniff_delimiter`: the Excel export of a European locale writes ``;``) unless
given (``--delimiter``).

**Columns** (CSV/TSV) are found by their common names (:data:`COMMON_NAMES`, compared
without case, spaces, ``_`` or ``-``) or named with ``--column FIELD=HEADER``; a card field
may be split over several columns, one card each (``--column
player_cards=pcard1,pcard2,pcard3``), found automatically under names such as ``pcard1``,
``player_card_1``, ``P1`` (:data:`SPLIT_NAMES`). An empty cell (or ``-``) is a card not
drawn. :mod:`analyzer.dealing.columns` matches a header to its field, bet columns
included.

>>> normalize_outcome("Banker wins"), normalize_outcome("PLAYER_WIN"), normalize_outcome("draw")
('banker', 'player', 'tie')
>>> normalize_outcome("Égalité"), normalize_outcome("閒"), normalize_outcome("manlalaro")
('tie', 'player', 'player')
>>> parse_column_options(["player_cards=pcard1,pcard2,pcard3"])
(('player_cards', 'pcard1,pcard2,pcard3'),)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.rules.cards import DECK, CardOrder

__all__ = ["CARD_RANK", "CARD_TEXT", "card_text", "CARD_VALUE", "CardCache", "card_cache",
           "BET_ROW_FIELDS", "CARD_NOTATIONS", "card_tokens", "COMMON_NAMES", "DELIMITERS",
           "FIELDS", "highest_number", "is_values_field", "LogOptions", "MAX_ID",
           "normalize_outcome", "OUTCOME_WORDS", "outcome_key", "parse_column_options",
           "parse_delimiter", "parse_outcome_words", "short", "sniff_delimiter",
           "SPLIT_NAMES", "token_card", "VALUE_CARD"]

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
#: only), ``ranks`` (ranks 1-13 only), or ``auto`` (told from the first hand).
CARD_NOTATIONS = ("auto", "cards", "values", "ranks")
#: The separators a CSV log may use, as :func:`sniff_delimiter` tells them apart.
DELIMITERS = (",", ";", "\t", "|")
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
#: Outcome words (lower case without accents, words joined by one space) and what they
#: mean: English, Chinese (simplified and traditional), Spanish, French, Portuguese and
#: Filipino.
OUTCOME_WORDS: dict[str, str] = {
    **{word: "player" for word in ("p", "player", "player win", "player wins", "player won",
                                   "punto", "player hand", "闲", "閒", "jugador", "joueur",
                                   "jogador", "manlalaro")},
    **{word: "banker" for word in ("b", "banker", "banker win", "banker wins", "banker won",
                                   "banco", "bank", "banker hand", "庄", "莊", "banca",
                                   "banque", "banquier", "bangka")},
    **{word: "tie" for word in ("t", "tie", "tied", "ties", "tie game", "egalite", "和",
                                "empate", "tabla")},
}
_EXPECTED = ("expected e.g. P/B/T, player/banker/tie, 'Banker wins', 'draw', or a word of "
             "your own with --outcome-words banker=X,player=Y,tie=Z")
_NAMES = {"ace": "A", "one": "A", "two": "2", "three": "3", "four": "4", "five": "5",
          "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "T", "jack": "J",
          "queen": "Q", "king": "K", **{str(n): str(n) for n in range(2, 11)}, "a": "A",
          "j": "J", "q": "Q", "k": "K"}
_SUIT_NAMES = {"spade": "S", "heart": "H", "diamond": "D", "club": "C"}
_NAMED = re.compile(r"\b(" + "|".join(sorted(_NAMES, key=len, reverse=True))
                    + r")\s+of\s+(spade|heart|diamond|club)s?\b", re.IGNORECASE)
_LIST_TEXT = str.maketrans({"[": " ", "]": " ", "'": " ", '"': " ", ",": " ", "(": " ",
                            ")": " "})
_RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
          "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_VALUES = {str(value): VALUE_CARD[value] for value in range(10)}
#: Ranks only: each rank 1-13 on the card standing for its point value (``0``: no card,
#: read as :data:`_NO_CARD` and dropped).
_RANK_CARDS = {str(rank): VALUE_CARD[min(rank, 10) % 10] for rank in range(1, 14)}
_NO_CARD = -1
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
    """Every card token of a card order, and of the other order after it (rank and suit
    letters never clash, so ``9d`` and ``d9`` are one card whichever order is given)."""
    table: dict[str, int] = {}
    for first in (order, "suit-first" if order == "rank-first" else "rank-first"):
        for rank_text, rank in _RANKS.items():
            for suit_text, suit in _SUITS.items():
                for r in {rank_text, rank_text.lower()}:
                    for s in {suit_text, suit_text.lower()}:
                        token = r + s if first == "rank-first" else s + r
                        table.setdefault(token, (rank - 1) * 4 + suit)
    return table


_TOKENS: dict[str, dict[str, int]] = {
    "rank-first": _token_table("rank-first"), "suit-first": _token_table("suit-first"),
    "values": _VALUES, "ranks": {**_RANK_CARDS, "0": _NO_CARD},
    # the numbers themselves (0-13, as if card indices): only to tell values from ranks
    "numbers": {str(n): n for n in range(14)}}


def card_tokens(field: str) -> list[str]:
    """The card tokens of a text field: separated by spaces or commas, maybe Python list
    text (``['6s', '9d']``), maybe English names (``Ace of Spades``).

    >>> card_tokens("['6s', '9d']"), card_tokens("Ace of Spades, ten of hearts")
    (['6s', '9d'], ['AS', 'TH'])
    """
    if "of" in field.lower():
        field = _NAMED.sub(lambda m: _NAMES[m[1].lower()] + _SUIT_NAMES[m[2].lower()], field)
    return field.translate(_LIST_TEXT).split()


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


def outcome_key(text: str) -> str:
    """An outcome word as it is looked up: lower case, accents dropped, words joined by one
    space (``Égalité`` -> ``egalite``, ``BANKER_WINS`` -> ``banker wins``)."""
    key = " ".join(re.split(r"[\s_-]+", text.strip().lower())).strip()
    if not key.isascii():
        key = "".join(c for c in unicodedata.normalize("NFKD", key)
                      if not unicodedata.combining(c))
    return key


def normalize_outcome(text: str, draw_is_tie: bool = True,
                      words: tuple[tuple[str, str], ...] = ()) -> str:
    """``player``, ``banker`` or ``tie`` from an outcome word (:data:`OUTCOME_WORDS`, any
    case, accents optional, or one of ``words``: (meaning, word) pairs given with
    ``--outcome-words``); ``draw`` is a tie when ``draw_is_tie`` (the game has no bet
    called draw)."""
    key = outcome_key(text)
    outcome = next((meaning for meaning, word in words if outcome_key(word) == key), None) \
        or OUTCOME_WORDS.get(key)
    if outcome is None and key == "draw" and draw_is_tie:
        outcome = "tie"
    if outcome is None:
        raise AnalyzerError(f"unknown outcome {short(text)} ({_EXPECTED})")
    return outcome


def parse_outcome_words(option: str | None) -> tuple[tuple[str, str], ...]:
    """``--outcome-words banker=X,player=Y,tie=Z`` (any of the three, each maybe several
    times) as (meaning, word) pairs.

    >>> parse_outcome_words("banker=Bankir, player=Igrok,tie=Nichya")
    (('banker', 'Bankir'), ('player', 'Igrok'), ('tie', 'Nichya'))
    """
    if not option:
        return ()
    pairs = []
    for part in option.split(","):
        meaning, sep, word = part.partition("=")
        meaning = meaning.strip().lower()
        if not sep or meaning not in ("banker", "player", "tie") or not word.strip():
            raise AnalyzerError(f"--outcome-words {option!r}: expected "
                                "banker=WORD,player=WORD,tie=WORD (any of them), got "
                                f"{short(part.strip())}")
        pairs.append((meaning, word.strip()))
    return tuple(pairs)


def parse_delimiter(option: str | None) -> str | None:
    """``--delimiter``: one of :data:`DELIMITERS` (``tab`` or ``\\t`` for a tab), or None
    (told from the header line).

    >>> parse_delimiter(";"), parse_delimiter("tab"), parse_delimiter(None)
    (';', '\\t', None)
    """
    if option is None or option == "auto":
        return None
    text = {"tab": "\t", "\\t": "\t", "semicolon": ";", "comma": ",", "pipe": "|"}.get(
        option.lower(), option)
    if text not in DELIMITERS:
        raise AnalyzerError(f"--delimiter {option!r}: expected one of , ; tab |")
    return text


def sniff_delimiter(header: str, fmt: str = "csv", forced: str | None = None) -> str:
    """The separator of a CSV log, told from its header line: the one of :data:`DELIMITERS`
    it holds most often outside quotes (``forced``: given with ``--delimiter``); with none,
    a tab for ``tsv`` and a comma otherwise.

    >>> sniff_delimiter("Shoe;Hand;Player;Banker"), sniff_delimiter("shoe,hand")
    (';', ',')
    >>> sniff_delimiter('"a,b";c;d'), sniff_delimiter("shoe\\thand", "csv")
    (';', '\\t')
    """
    if forced is not None:
        return forced
    if '"' in header:
        header = re.sub(r'"[^"]*"', "", header)
    counts = [(header.count(d), d) for d in DELIMITERS]
    best, delimiter = max(counts, key=lambda item: item[0])
    if best == 0:
        return "\t" if fmt == "tsv" else ","
    return delimiter


def _digit_tokens(field: Any) -> list[int] | None:
    """The numbers of a cards field written as numbers 0-13 only (None otherwise)."""
    tokens = card_tokens(field) if isinstance(field, str) else field
    if not isinstance(tokens, list) or not tokens:
        return None
    numbers = []
    for t in tokens:
        if isinstance(t, bool) or not isinstance(t, str | int) or str(t).strip() not in \
                _RANK_CARDS and str(t).strip() != "0":
            return None
        numbers.append(int(t))
    return numbers


def is_values_field(field: Any) -> bool:
    """Does a cards field hold numbers only (point values 0-9, or ranks 1-13), not cards?

    >>> is_values_field("7 0"), is_values_field(["9", "0", "3"]), is_values_field("9d Td")
    (True, True, False)
    >>> is_values_field("12 1")
    True
    """
    return _digit_tokens(field) is not None


def highest_number(*fields: Any) -> int:
    """The highest number in cards fields written as numbers (-1: none); a rank of 10-13
    tells a log of ranks from one of point values."""
    return max((n for f in fields for n in (_digit_tokens(f) or ())), default=-1)


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
        self.ranks = notation == "ranks"
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
        """Parse a field without caching it (a list's items may be names too:
        ``["Ace of Spades", "9d"]``)."""
        tokens = card_tokens(field) if isinstance(field, str) else [
            t for item in field for t in (card_tokens(item) if isinstance(item, str)
                                          and " " in item.strip() else (item,))] \
            if isinstance(field, list) else field
        if self.notation in ("values", "ranks", "numbers") and not isinstance(field, str):
            tokens = [str(t) if isinstance(t, int) and not isinstance(t, bool) else t
                      for t in tokens]
        try:
            cards = tuple(self.table[t] for t in tokens)
        except (KeyError, TypeError):
            bad = next((t for t in tokens if not isinstance(t, str) or t not in self.table), "?")
            if self.notation == "values" and bad in _RANK_CARDS:
                raise AnalyzerError(f"card value {short(bad)} is not a point value 0-9 but a "
                                    "rank (J=11, Q=12, K=13): give --cards ranks") from None
            if self.notation in ("values", "ranks"):
                numbers = "point values 0-9" if self.notation == "values" else "ranks 1-13"
                raise AnalyzerError(f"unknown card value {short(bad)} (this log writes "
                                    f"{numbers}; give --cards cards for cards)") from None
            example = "d4 or dT" if self.notation == "suit-first" else "4S or Td"
            raise AnalyzerError(f"unknown card {short(bad)} (expected e.g. {example}, "
                                "'Ace of Spades', or numbers with --cards values or "
                                "ranks)") from None
        if self.ranks and _NO_CARD in cards:
            cards = tuple(c for c in cards if c != _NO_CARD)
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
    rule for fractional payouts (:data:`analyzer.dealing.handlog.ROUNDING`), the bets
    whose stakes are not checked (``skip_bets``: the bets on ranks or suits of a
    values-only log, which it cannot settle), the CSV separator (``delimiter``: None, told
    from the header line) and outcome words of the user's own (``outcome_words``:
    (meaning, word) pairs)."""

    format: str = "auto"
    columns: tuple[tuple[str, str], ...] = ()
    card_order: CardOrder = "rank-first"
    rounding: str = "down"
    cards: str = "auto"
    draw_is_tie: bool = True
    skip_bets: tuple[str, ...] = ()
    delimiter: str | None = None
    outcome_words: tuple[tuple[str, str], ...] = ()
    #: the profile's bets as (id, name): how bet columns and bet names are recognized
    #: (:func:`analyzer.dealing.columns.bet_spellings`)
    bets: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.cards not in CARD_NOTATIONS and self.cards != "numbers":
            raise AnalyzerError(f"--cards {self.cards!r}: expected one of "
                                f"{', '.join(CARD_NOTATIONS)}")

    @property
    def values_level(self) -> bool:
        """Is the log checked at the level of point values (it writes values or ranks)?"""
        return self.cards in ("values", "ranks", "numbers")

    def notation(self, values: bool) -> str:
        """The card cache's notation: ``values`` or ``ranks``, or the card order
        (``numbers``: the numbers themselves, read only to tell values from ranks)."""
        if values:
            return self.cards if self.cards in ("ranks", "numbers") else "values"
        return self.card_order

    def first_notation(self, player: Any, banker: Any) -> str:
        """The notation of a log as its first hand writes it (``cards`` auto: numbers only
        are point values, or ranks when one is 10-13)."""
        if self.cards != "auto":
            return self.notation(self.values_level)
        if is_values_field(player) and is_values_field(banker):
            return "ranks" if highest_number(player, banker) >= 10 else "values"
        return self.card_order


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
