"""Hand logs: the record format a simulator writes and ``nine verify`` reads, as a stream.

A log is read one record at a time (constant memory, whatever its length). Two line
formats carry one hand per record, and a third carries only totals:

**JSON Lines** (``.jsonl``, ``.ndjson``; ``.gz`` compressed too). One JSON object per line::

    {"type": "header", "format": "nine-handlog", "version": 1, "profile": "punto-banco",
     "decks": 8, "unit": "cent"}                                             (optional)
    {"type": "shoe", "shoe": "1", "decks": 8, "burn": ["7h", "2c", ...]}      (optional)
    {"shoe": "1", "hand": 1, "player": ["9d", "Td"], "banker": ["4s", "3h", "Kc"],
     "outcome": "player", "bets": {"player": [100, 200], "banker": [100, 0]}}
    {"type": "shoe_end", "shoe": "1", "cards_left": 15}                      (optional)

A hand record (``"type": "hand"`` or no type) holds the shoe id, the hand number, each
hand's cards in dealt order (a list or one space-separated string), optional ``burn``
cards taken out before it, the outcome the simulator claims (``outcome`` or ``winner``:
``P``/``B``/``T`` or ``player``/``banker``/``tie``) and per bet ``[stake, returned]`` (or
``{"stake": s, "returned": r}``) in integer minor units. ``returned`` is everything paid
back to the player, stake included: 0 on a loss, the stake on a push.

A ``shoe`` record opens a shoe (its deck count and the exposed and burned cards); a shoe
that opens with one, or whose first hand is number 1, is a *whole* shoe: every card
dealt from it is in the log, which the shoe-aware statistics need.

**CSV** (``.csv``; ``.tsv`` tab-separated), one hand per row. Columns are found by common
names, case-insensitively: ``shoe``; ``hand`` or ``round``; ``player_cards`` and
``banker_cards`` (cards separated by spaces); ``winner`` or ``outcome``; optional
``burn``; and per bet ``<bet>_stake`` and ``<bet>_returned``. ``--column FIELD=HEADER``
names a column that is called something else.

Cards are rank-first by default (``9d``, ``Td``, ``10d``, ``K♠``), suit-first (``d9``)
with ``card_order="suit-first"``.

**Aggregated counts** (JSON, ``"format": "nine-counts"``) hold only totals: per bet, how
many hands ended in each of its lines (by line name, plus ``"lose"``) and optionally the
stake and amount returned in all; see :func:`analyzer.dealing.counts.read_counts`.

:func:`detect_format` is the one place a file's format is told (from its name, and a peek
into a ``.json`` file: counts, a saved partial result of ``nine verify``, or JSON Lines).
The simulator writes logs with :class:`analyzer.dealing.writer.LogWriter`.

A record that cannot be read yields a :class:`Problem` with its line number; it is never
skipped in silence.

>>> token_card("Td"), token_card("10d"), token_card("d10", "suit-first")
(38, 38, 38)
>>> normalize_outcome("B"), normalize_outcome("Player")
('banker', 'player')
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import operator
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any, NamedTuple

from analyzer.dealing.segments import Segment, SegmentReader
from analyzer.errors import AnalyzerError
from analyzer.rules.cards import DECK, CardOrder

__all__ = ["CARD_RANK", "CARD_TEXT", "card_text", "CARD_VALUE", "COMMON_NAMES", "count_lines",
           "COUNTS_FORMAT", "detect_format", "FIELDS", "FORMATS", "Hand", "int_field",
           "LogOptions", "make_hand", "normalize_outcome", "open_text", "parse_column_options",
           "PARTIAL_FORMAT", "Problem", "read_log", "Record", "ROUNDING", "ShoeEnd",
           "ShoeStart", "token_card", "find_columns"]

#: Point value of each card index 0-51 (``Card.index``).
CARD_VALUE: tuple[int, ...] = tuple(card.points for card in DECK)
#: Rank number 1-13 of each card index.
CARD_RANK: tuple[int, ...] = tuple(int(card.rank) for card in DECK)
#: Each card index written rank-first (``TD``).
CARD_TEXT: tuple[str, ...] = tuple(str(card) for card in DECK)

#: What :func:`detect_format` tells apart: hand logs (``jsonl``, ``csv``, ``tsv``),
#: aggregated counts, and partial results saved by ``nine verify --partial-out``.
FORMATS = ("jsonl", "csv", "tsv", "counts", "partial")
#: The ``"format"`` of an aggregated-counts file (:mod:`analyzer.dealing.counts`).
COUNTS_FORMAT = "nine-counts"
#: The ``"format"`` of a saved partial result (:mod:`analyzer.verify.partial`).
PARTIAL_FORMAT = "nine-partial"

#: The log fields a ``--column FIELD=HEADER`` option can name (besides per-bet columns).
FIELDS = ("shoe", "hand", "player_cards", "banker_cards", "outcome", "burn")
#: Header names recognized for each field, in order of preference.
COMMON_NAMES: dict[str, tuple[str, ...]] = {
    "shoe": ("shoe", "shoe_id", "shoe_number", "shoe_no"),
    "hand": ("hand", "round", "hand_number", "round_number", "hand_no", "round_no", "coup"),
    "player_cards": ("player_cards", "player", "player_hand"),
    "banker_cards": ("banker_cards", "banker", "banker_hand"),
    "outcome": ("winner", "outcome", "result"),
    "burn": ("burn", "burn_cards", "burned"),
}
_OUTCOMES = {"p": "player", "player": "player", "b": "banker", "banker": "banker",
             "t": "tie", "tie": "tie"}
_RANKS = {"A": 1, "1": None, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
          "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}


def _token_table(order: CardOrder) -> dict[str, int]:
    table: dict[str, int] = {}
    for rank_text, rank in _RANKS.items():
        if rank is None:
            continue
        for suit_text, suit in _SUITS.items():
            for r in {rank_text, rank_text.lower()}:
                for s in {suit_text, suit_text.lower()}:
                    token = r + s if order == "rank-first" else s + r
                    table[token] = (rank - 1) * 4 + suit
    return table


_TOKENS: dict[str, dict[str, int]] = {
    "rank-first": _token_table("rank-first"), "suit-first": _token_table("suit-first")}


def token_card(token: str, order: CardOrder = "rank-first") -> int:
    """The card index (``Card.index``) of one card token; AnalyzerError if unknown."""
    index = _TOKENS[order].get(token.strip())
    if index is None:
        example = "d4 or dT" if order == "suit-first" else "4S or Td"
        raise AnalyzerError(f"unknown card {token!r} (expected e.g. {example})")
    return index


def card_text(index: int) -> str:
    """A card index written rank-first, e.g. ``TD``.

    >>> card_text(38)
    'TD'
    """
    return CARD_TEXT[index]


def normalize_outcome(text: str) -> str:
    """``player``, ``banker`` or ``tie`` from P/B/T or the words (any case)."""
    outcome = _OUTCOMES.get(text.strip().lower())
    if outcome is None:
        raise AnalyzerError(f"unknown outcome {text!r} (expected P/B/T or player/banker/tie)")
    return outcome


class Hand(NamedTuple):
    """One hand as logged: cards as indices 0-51 in dealt order, bets as (id, stake, returned).

    ``player_values`` and ``banker_values`` are the cards' point values, in the same order.
    """

    line: int
    shoe: str
    hand: int
    player: tuple[int, ...]
    banker: tuple[int, ...]
    burn: tuple[int, ...]
    outcome: str | None
    bets: tuple[tuple[str, int, int], ...]
    player_values: tuple[int, ...] = ()
    banker_values: tuple[int, ...] = ()


def make_hand(line: int, shoe: str, hand: int, player: tuple[int, ...],
              banker: tuple[int, ...], burn: tuple[int, ...] = (), outcome: str | None = None,
              bets: tuple[tuple[str, int, int], ...] = ()) -> Hand:
    """A :class:`Hand` with its point values filled in.

    >>> make_hand(1, "1", 1, (38, 35), (0, 4)).player_values
    (0, 9)
    """
    return Hand(line, shoe, hand, player, banker, burn, outcome, bets,
                tuple(CARD_VALUE[c] for c in player), tuple(CARD_VALUE[c] for c in banker))


_new_hand = tuple.__new__  # builds a Hand without the Python-level __new__ (hot loop)


class ShoeStart(NamedTuple):
    """A shoe opens: its id, deck count if logged, and the cards exposed and burned."""

    line: int
    shoe: str
    decks: int | None
    burn: tuple[int, ...]


class ShoeEnd(NamedTuple):
    """A shoe closes; ``cards_left`` is how many cards were left behind, if logged."""

    line: int
    shoe: str
    cards_left: int | None


class Problem(NamedTuple):
    """A record that could not be read: where, and why."""

    line: int
    message: str


Record = Hand | ShoeStart | ShoeEnd | Problem


#: How a fractional amount returned may be paid in whole minor units: ``down`` (the house
#: keeps the fraction, the default), ``nearest`` (halves round up) or ``either``
#: neighbouring unit.
ROUNDING = ("down", "nearest", "either")


@dataclass(frozen=True)
class LogOptions:
    """How to read and check a log: its format, column names, card notation, and the
    rounding rule for fractional payouts (see :data:`ROUNDING`)."""

    format: str = "auto"
    columns: tuple[tuple[str, str], ...] = ()
    card_order: CardOrder = "rank-first"
    rounding: str = "down"


def parse_column_options(options: tuple[str, ...] | list[str]) -> tuple[tuple[str, str], ...]:
    """``FIELD=HEADER`` strings as pairs.

    >>> parse_column_options(["hand=Round No", "banker_stake=BankBet"])
    (('hand', 'Round No'), ('banker_stake', 'BankBet'))
    """
    pairs = []
    for option in options:
        field, sep, header = option.partition("=")
        field = field.strip().lower()
        if not sep or not field or not header.strip():
            raise AnalyzerError(f"--column {option!r}: expected FIELD=HEADER, e.g. hand=Round")
        if field not in FIELDS and not field.endswith(("_stake", "_returned")):
            raise AnalyzerError(f"--column {option!r}: unknown field {field!r} (fields: "
                                f"{', '.join(FIELDS)}, <bet>_stake, <bet>_returned)")
        pairs.append((field, header.strip()))
    return tuple(pairs)


def detect_format(path: str | Path, declared: str = "auto") -> str:
    """The format of a file: one of :data:`FORMATS`, told here and nowhere else.

    ``declared`` (``--log-format``) wins when it is not ``auto``, except over a saved
    partial result (a plain ``.json`` file, always peeked into). Otherwise the name tells
    (``.jsonl``, ``.ndjson``, ``.csv``, ``.tsv``, each maybe ``.gz``), and a ``.json`` file
    is peeked into: counts, a partial result, or else JSON Lines.

    >>> detect_format("run.csv.gz"), detect_format("run.log", "tsv")
    ('csv', 'tsv')
    """
    name = str(path).lower()
    plain = name.removesuffix(".gz")
    if plain.endswith(".json") and (declared == "auto" or name.endswith(".json")):
        with open_text(path) as stream:
            head = stream.read(4096)
        if f'"{PARTIAL_FORMAT}"' in head and name.endswith(".json"):
            return "partial"
        if declared == "auto":
            return "counts" if f'"{COUNTS_FORMAT}"' in head else "jsonl"
    if declared != "auto":
        return declared
    if plain.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    if plain.endswith((".csv", ".tsv")):
        return plain[-3:]
    raise AnalyzerError(f"{path}: cannot tell the log format from the name "
                        "(use .jsonl, .csv, .tsv or .json, or give --log-format)")


def count_lines(path: str | Path) -> int:
    """How many lines a file holds (compressed or not); 0 when it cannot be read."""
    lines = 0
    try:
        opener: Any = gzip.open if str(path).lower().endswith(".gz") else open
        with opener(path, "rb") as stream:
            while chunk := stream.read(1 << 20):
                lines += chunk.count(b"\n")
    except OSError:
        return lines  # unreadable: reported when the log itself is read
    return lines


def open_text(path: str | Path) -> IO[str]:
    """A log opened as text (``.gz`` decompressed); AnalyzerError if it cannot be read."""
    try:
        if str(path).endswith(".gz"):
            return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="")
        return open(path, encoding="utf-8", newline="")  # noqa: SIM115
    except OSError as exc:
        raise AnalyzerError(f"{path}: cannot read log ({exc.strerror})") from None


class _CardCache:
    """Parsed card fields by their text: most hands repeat a field seen before."""

    LIMIT = 100_000

    def __init__(self, order: CardOrder) -> None:
        self.table = _TOKENS[order]
        self.order = order
        self.seen: dict[Any, tuple[int, ...]] = {}
        self.pairs: dict[Any, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def pair(self, field: Any, name: str = "cards") -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The cards of a field and their point values."""
        key = field if type(field) is str else _field_key(field, name)  # hot path: text
        found = self.pairs.get(key)
        if found is None:
            cards = self.tokens(field)
            if len(self.pairs) >= self.LIMIT:
                self.pairs.clear()
            found = self.pairs[key] = (cards, tuple(CARD_VALUE[c] for c in cards))
        return found

    def parse(self, field: Any, name: str = "cards") -> tuple[int, ...]:
        """The card indices of a field (a string of tokens or a list of them)."""
        key = field if type(field) is str else _field_key(field, name)
        cards = self.seen.get(key)
        if cards is None:
            if len(self.seen) >= self.LIMIT:
                self.seen.clear()
            cards = self.seen[key] = self.tokens(field)
        return cards

    def tokens(self, field: Any) -> tuple[int, ...]:
        """Parse a field without caching it."""
        tokens = field.replace(",", " ").split() if isinstance(field, str) else field
        try:
            cards = tuple(self.table[t] for t in tokens)
        except (KeyError, TypeError):
            bad = next((t for t in tokens if not isinstance(t, str) or t not in self.table), "?")
            example = "d4 or dT" if self.order == "suit-first" else "4S or Td"
            raise AnalyzerError(f"unknown card {bad!r} (expected e.g. {example})") from None
        return cards


def _cards_type_message(field: Any, name: str) -> str:
    return (f"{name} must be a list of cards or a space-separated string, got "
            f"{type(field).__name__} {field!r}")


def _field_key(field: Any, name: str) -> Any:
    """A hashable cache key for a cards field: its text, or its list as a tuple."""
    if isinstance(field, str):
        return field
    if isinstance(field, list):
        return tuple(field)
    raise AnalyzerError(_cards_type_message(field, name))


@cache
def _card_cache(order: CardOrder) -> _CardCache:
    """One bounded cache per card order, shared by every file a process reads."""
    return _CardCache(order)


def read_log(path: str | Path, options: LogOptions | None = None,
             segment: Segment | None = None) -> Iterator[Record]:
    """Every record of a hand log in file order; unreadable ones as :class:`Problem`.
    ``segment``: only that run of whole shoes (:mod:`analyzer.dealing.segments`)."""
    options = options or LogOptions()
    fmt = detect_format(path) if options.format == "auto" else options.format
    if fmt == "jsonl":
        yield from _read_jsonl(path, options, segment)
    elif fmt in ("csv", "tsv"):
        yield from _read_csv(path, options, "\t" if fmt == "tsv" else ",", segment)
    elif fmt == "counts":
        raise AnalyzerError(f"{path}: an aggregated-counts file holds no hands (read_counts)")
    elif fmt == "partial":
        raise AnalyzerError(f"{path}: a saved partial result holds no hands (load_partial)")
    else:
        raise AnalyzerError(f"unknown log format {fmt!r} (jsonl, csv, tsv or counts)")


def int_field(value: Any, name: str) -> int:
    """An integer field of a record (an int or its text); AnalyzerError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise AnalyzerError(f"{name} must be an integer, got {value!r}")
    try:
        return int(value)
    except ValueError:
        raise AnalyzerError(f"{name} must be an integer, got {value!r}") from None


def _bets_field(raw: Any) -> tuple[tuple[str, int, int], ...]:
    if not isinstance(raw, dict):
        raise AnalyzerError("bets must be an object of bet id -> [stake, returned]")
    bets = []
    for bet_id, money in raw.items():
        if isinstance(money, dict):
            stake, returned = money.get("stake"), money.get("returned")
        elif isinstance(money, list) and len(money) == 2:
            stake, returned = money
        else:
            raise AnalyzerError(f"bet {bet_id!r}: expected [stake, returned]")
        if (not isinstance(stake, int) or not isinstance(returned, int)
                or isinstance(stake, bool) or isinstance(returned, bool)):
            raise AnalyzerError(f"bet {bet_id!r}: stake and returned must be integers "
                                "(minor units)")
        if stake < 0 or returned < 0:
            raise AnalyzerError(f"bet {bet_id!r}: negative stake or amount returned")
        bets.append((str(bet_id), stake, returned))
    return tuple(bets)


def _read_jsonl(path: str | Path, options: LogOptions,
                segment: Segment | None = None) -> Iterator[Record]:
    cards = _card_cache(options.card_order)
    loads = json.loads
    with open_text(path) if segment is None else SegmentReader(path, segment, False) as stream:
        for number, text in enumerate(stream, start=1 + (segment or (0, 0, 0))[2]):
            if not text.strip():
                continue
            try:
                data = loads(text)
            except json.JSONDecodeError as exc:
                yield Problem(number, f"truncated or invalid JSON: {exc.msg} at column "
                                      f"{exc.pos + 1}")
                continue
            if not isinstance(data, dict):
                yield Problem(number, "expected a JSON object")
                continue
            kind = data.get("type", "hand")
            try:
                if kind == "hand":
                    player = data.get("player", data.get("player_cards"))
                    banker = data.get("banker", data.get("banker_cards"))
                    if player is None or banker is None:
                        raise AnalyzerError("missing field 'player' or 'banker'")
                    outcome = data.get("outcome", data.get("winner"))
                    burn = data.get("burn")
                    bets = data.get("bets")
                    if outcome is not None and not isinstance(outcome, str):
                        raise AnalyzerError(f"outcome must be a string (P/B/T or "
                                            f"player/banker/tie), got {outcome!r}")
                    player_cards, player_values = cards.pair(player, "player")
                    banker_cards, banker_values = cards.pair(banker, "banker")
                    yield _new_hand(Hand, (
                        number, str(data.get("shoe", "")), int_field(data.get("hand"), "hand"),
                        player_cards, banker_cards, cards.parse(burn, "burn") if burn else (),
                        _OUTCOMES.get(outcome) or normalize_outcome(outcome)
                        if outcome is not None else None,
                        _bets_field(bets) if bets is not None else (), player_values,
                        banker_values))
                elif kind == "shoe":
                    decks = data.get("decks")
                    burn = data.get("burn")
                    yield ShoeStart(number, str(data.get("shoe", "")),
                                    int_field(decks, "decks") if decks is not None else None,
                                    cards.parse(burn, "burn") if burn else ())
                elif kind == "shoe_end":
                    left = data.get("cards_left")
                    yield ShoeEnd(number, str(data.get("shoe", "")),
                                  int_field(left, "cards_left") if left is not None else None)
                elif kind == "header":
                    if data.get("format", "nine-handlog") != "nine-handlog":
                        raise AnalyzerError(f"unknown log format {data.get('format')!r}")
                else:
                    raise AnalyzerError(f"unknown record type {kind!r}")
            except AnalyzerError as exc:
                yield Problem(number, str(exc))
            except (TypeError, ValueError, AttributeError, KeyError) as exc:
                # a field of a type no check above foresaw: still a counted record, never
                # a traceback
                yield Problem(number, f"malformed record ({type(exc).__name__}: {exc})")


def find_columns(headers: list[str], options: LogOptions, path: str | Path
                  ) -> tuple[dict[str, int], dict[str, tuple[int | None, int | None]]]:
    """Column index of each field, and per bet its (stake, returned) columns."""
    lowered = [h.strip().lower() for h in headers]
    remap = dict(options.columns)
    found: dict[str, int] = {}
    for field in FIELDS:
        if field in remap:
            wanted = remap[field].strip().lower()
            if wanted not in lowered:
                raise AnalyzerError(f"{path}: --column {field}={remap[field]}: no such column "
                                    f"(columns: {', '.join(headers)})")
            found[field] = lowered.index(wanted)
            continue
        for name in COMMON_NAMES[field]:
            if name in lowered:
                found[field] = lowered.index(name)
                break
    for field in ("hand", "player_cards", "banker_cards"):
        if field not in found:
            names = " or ".join(COMMON_NAMES[field][:2])
            raise AnalyzerError(f"{path}: missing column {field!r} (looked for {names}; "
                                f"columns: {', '.join(headers)}; remap with "
                                f"--column {field}=HEADER)")
    bets: dict[str, list[int | None]] = {}
    for index, name in enumerate(lowered):
        for suffix, slot in (("_stake", 0), ("_returned", 1)):
            if name.endswith(suffix) and name[:-len(suffix)]:
                bets.setdefault(name[:-len(suffix)], [None, None])[slot] = index
    for field, header in remap.items():
        for suffix, slot in (("_stake", 0), ("_returned", 1)):
            if field.endswith(suffix):
                wanted = header.strip().lower()
                if wanted not in lowered:
                    raise AnalyzerError(f"{path}: --column {field}={header}: no such column")
                bets.setdefault(field[:-len(suffix)], [None, None])[slot] = lowered.index(wanted)
    for bet_id, (stake, returned) in bets.items():
        if stake is None or returned is None:
            missing = f"{bet_id}_returned" if returned is None else f"{bet_id}_stake"
            raise AnalyzerError(f"{path}: bet {bet_id!r} needs both a stake and a returned "
                                f"column (missing {missing!r})")
    return found, {bet_id: (pair[0], pair[1]) for bet_id, pair in bets.items()}


def _read_csv(path: str | Path, options: LogOptions, delimiter: str,
              segment: Segment | None = None) -> Iterator[Record]:
    cards = _card_cache(options.card_order)
    shift = segment.lines_before - 1 if segment is not None else 0  # the header is line 1
    with open_text(path) if segment is None else SegmentReader(path, segment, True) as stream:
        reader = csv.reader(stream, delimiter=delimiter)
        try:
            headers = next(reader)
        except StopIteration:
            raise AnalyzerError(f"{path}: empty CSV log (no header row)") from None
        columns, bet_columns = find_columns(headers, options, path)
        shoe_col = columns.get("shoe")
        hand_col = columns["hand"]
        player_col = columns["player_cards"]
        banker_col = columns["banker_cards"]
        outcome_col = columns.get("outcome")
        burn_col = columns.get("burn")
        bet_list = [(bet_id, s, r) for bet_id, (s, r) in bet_columns.items()]
        width = len(headers)
        outcomes = _OUTCOMES | {k.upper(): v for k, v in _OUTCOMES.items()} | {
            k.capitalize(): v for k, v in _OUTCOMES.items()}
        pair = cards.pair
        money_columns = [c for _, stake, returned in bet_list for c in (stake, returned)]
        money_of = operator.itemgetter(*money_columns) if len(money_columns) > 1 else None
        money_cache: dict[Any, tuple[tuple[str, int, int], ...]] = {}
        for row in reader:
            number = reader.line_num + shift
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != width:
                yield Problem(number, f"expected {width} fields, found {len(row)} "
                                      "(truncated or extra fields)")
                continue
            try:
                try:
                    hand = int(row[hand_col])
                except ValueError:
                    raise AnalyzerError(
                        f"hand number {row[hand_col]!r} is not an integer") from None
                outcome_text = row[outcome_col] if outcome_col is not None else ""
                outcome = outcomes.get(outcome_text)
                if outcome is None and outcome_text.strip():
                    outcome = normalize_outcome(outcome_text)
                burn = row[burn_col] if burn_col is not None else ""
                if money_of is None:
                    bets: tuple[tuple[str, int, int], ...] = ()
                else:
                    money_text = money_of(row)
                    found = money_cache.get(money_text)
                    if found is None:
                        if len(money_cache) >= _CardCache.LIMIT:
                            money_cache.clear()
                        found = money_cache[money_text] = _csv_bets(bet_list, row)
                    bets = found
                player_cards, player_values = pair(row[player_col])
                banker_cards, banker_values = pair(row[banker_col])
                yield _new_hand(Hand, (
                    number, row[shoe_col] if shoe_col is not None else "", hand,
                    player_cards, banker_cards, cards.parse(burn) if burn else (), outcome,
                    bets, player_values, banker_values))
            except AnalyzerError as exc:
                yield Problem(number, str(exc))


def _csv_bets(bet_list: list[tuple[str, int | None, int | None]], row: list[str]
              ) -> tuple[tuple[str, int, int], ...]:
    """The (bet, stake, returned) of a CSV row; a bet with both cells empty was not made."""
    bets = []
    for bet_id, stake_col, returned_col in bet_list:
        stake_text, returned_text = row[stake_col], row[returned_col]  # type: ignore[index]
        try:
            stake, returned = int(stake_text), int(returned_text)
        except ValueError:
            if not stake_text.strip() and not returned_text.strip():
                continue
            raise AnalyzerError(f"bet {bet_id!r}: stake and returned must be integers "
                                "(minor units)") from None
        if stake < 0 or returned < 0:
            raise AnalyzerError(f"bet {bet_id!r}: negative stake or returned")
        if stake > 0 or returned > 0:  # 0 and 0: not staked; a payment on 0 is checked
            bets.append((bet_id, stake, returned))
    return tuple(bets)
