"""The records of a hand log as the readers yield them, and the checks of their fields.

:func:`analyzer.dealing.handlog.read_log` yields :data:`Record` values: a :class:`Hand`, a
shoe opening or closing, the log's :class:`Header`, a :class:`LogStart` before the first
hand, or a :class:`Problem` for a record that cannot be read. Field checks bound what one
record may hold: integers of at most :data:`~analyzer.inputs.MAX_DIGITS` digits, ids of at
most :data:`~analyzer.dealing.dialects.MAX_ID` characters, known header fields of the
right type.

>>> int_field("12", "hand"), int_field(7, "hand")
(12, 7)
>>> int_field("9" * 101, "hand")
Traceback (most recent call last):
...
analyzer.errors.AnalyzerError: hand: an integer of 101 digits (at most 100)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from analyzer.dealing.dialects import CARD_VALUE, MAX_ID, OUTCOME_WORDS, short
from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_DIGITS, is_integer_text

__all__ = ["bets_field", "BIG", "csv_bets", "Hand", "Header", "header_record", "id_field",
           "int_field", "LogStart", "make_hand", "MAX_DECKS", "new_hand", "outcome_table",
           "Problem", "Record", "ShoeEnd", "ShoeStart", "split_text", "table_record", "TableHand",
           "TableSeat", "MAX_PEOPLE"]

MAX_DECKS = 10_000
#: Most people round a table of a game of choices (a log's header and hands).
MAX_PEOPLE = 9


class Hand(NamedTuple):
    """One hand as logged: cards as indices 0-51 in dealt order, bets as (id, stake, returned).

    ``player_values`` and ``banker_values`` are the cards' point values, in the same order.
    In a values-only log each card is the one standing for its value
    (:data:`~analyzer.dealing.dialects.VALUE_CARD`).
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


new_hand = tuple.__new__  # builds a Hand without the Python-level __new__ (hot loop)


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


class Header(NamedTuple):
    """A JSON Lines log's header: the profile and deck count it was written for, and the
    people round the table in seat order (a game of choices), if given."""

    line: int
    profile: str | None
    decks: int | None
    people: tuple[str, ...] = ()


class TableSeat(NamedTuple):
    """One player's hand at a table of a game of choices: who, the cards in dealt order,
    the stake against the bank and everything returned (0 on a loss, the stake on a push)."""

    person: str
    cards: tuple[int, ...]
    stake: int
    returned: int


class TableHand(NamedTuple):
    """One hand of a game of choices (home Lucky 9, chemin de fer): who holds the bank, each
    player's hand in seat order from the banker's right, and the bank's cards."""

    line: int
    shoe: str
    hand: int
    banker: str
    seats: tuple[TableSeat, ...]
    bank: tuple[int, ...]


class LogStart(NamedTuple):
    """Where a log's hands begin: whether its cards are point values only, told from its
    first hand (yielded once, just before that hand)."""

    line: int
    values: bool


class Problem(NamedTuple):
    """A record that could not be read: where, and why."""

    line: int
    message: str


Record = Hand | TableHand | ShoeStart | ShoeEnd | Header | LogStart | Problem

def int_field(value: Any, name: str) -> int:
    """An integer field of a record (an int or its text, at most
    :data:`~analyzer.inputs.MAX_DIGITS` digits); AnalyzerError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise AnalyzerError(f"{name} must be an integer, got {short(value)}")
    if isinstance(value, str):
        if not is_integer_text(value):
            raise AnalyzerError(f"{name} must be a whole number in ASCII digits (no space, "
                                f"sign or '_'), got {short(value)}")
        if len(value) > MAX_DIGITS:
            raise AnalyzerError(f"{name}: an integer of {len(value):,} digits "
                                f"(at most {MAX_DIGITS})")
        return int(value)
    if value.bit_length() > 332 and len(str(abs(value))) > MAX_DIGITS:
        raise AnalyzerError(f"{name}: an integer of {len(str(abs(value))):,} digits "
                            f"(at most {MAX_DIGITS})")
    return value


def id_field(value: Any, name: str) -> str:
    """A shoe id: any scalar, as text of at most :data:`MAX_ID` characters."""
    if isinstance(value, dict | list):
        raise AnalyzerError(f"{name} must be a string or number, got {short(value)}")
    text = "" if value is None else str(value) if not isinstance(value, int) else \
        str(int_field(value, name))
    if len(text) > MAX_ID:
        raise AnalyzerError(f"{name} {short(text)} is longer than {MAX_ID} characters")
    return text


def bets_field(raw: Any) -> tuple[tuple[str, int, int], ...]:
    if not isinstance(raw, dict):
        raise AnalyzerError("bets must be an object of bet id -> [stake, returned]")
    bets = []
    for bet_id, money in raw.items():
        if len(bet_id) > MAX_ID:
            raise AnalyzerError(f"bet id {short(bet_id)} is longer than {MAX_ID} characters")
        if isinstance(money, dict):
            stake, returned = money.get("stake"), money.get("returned")
        elif isinstance(money, list) and len(money) == 2:
            stake, returned = money
        else:
            raise AnalyzerError(f"bet {short(bet_id)}: expected [stake, returned]")
        if (not isinstance(stake, int) or not isinstance(returned, int)
                or isinstance(stake, bool) or isinstance(returned, bool)):
            raise AnalyzerError(f"bet {short(bet_id)}: stake and returned must be integers "
                                "(minor units)")
        if not (stake < BIG and returned < BIG):
            int_field(stake, f"bet {short(bet_id)} stake")
            int_field(returned, f"bet {short(bet_id)} returned")
        if stake < 0 or returned < 0:
            raise AnalyzerError(f"bet {short(bet_id)}: negative stake or amount returned")
        bets.append((bet_id, stake, returned))
    return tuple(bets)


BIG = 1 << 62  # integers below this are short: no digit count needed

HEADER_FIELDS = {"type": str, "format": str, "version": int, "profile": str, "decks": int,
                  "unit": str, "seed": int, "generator": str}


def header_record(data: dict[str, Any], number: int) -> Header:
    """A header record, its fields checked: known fields of the right type and size."""
    for key, kind in HEADER_FIELDS.items():
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kind):
            raise AnalyzerError(f"header field {key!r} must be "
                                f"{'an integer' if kind is int else 'a string'}, got "
                                f"{short(value)}")
        if isinstance(value, str) and len(value) > 10 * MAX_ID:
            raise AnalyzerError(f"header field {key!r} is longer than {10 * MAX_ID} characters")
        if isinstance(value, int):
            int_field(value, f"header field {key!r}")
    if data.get("format", "nine-handlog") != "nine-handlog":
        raise AnalyzerError(f"unknown log format {short(data.get('format'))}")
    if data.get("version", 1) != 1:
        raise AnalyzerError(f"unknown nine-handlog version {short(data.get('version'))} "
                            "(this analyzer reads version 1)")
    decks = data.get("decks")
    if decks is not None and not 1 <= decks <= MAX_DECKS:
        raise AnalyzerError(f"header field 'decks' must be from 1 to {MAX_DECKS:,}, "
                            f"got {decks}")
    people = data.get("people", [])
    if not isinstance(people, list) or len(people) > MAX_PEOPLE or not all(
            isinstance(p, str) and 0 < len(p) <= MAX_ID for p in people) \
            or len(set(people)) != len(people):
        raise AnalyzerError(f"header field 'people' must be a list of at most {MAX_PEOPLE} "
                            f"different names, got {short(people)}")
    return Header(number, data.get("profile"), decks, tuple(people))


def table_record(data: dict[str, Any], number: int,
                 parse: Callable[[Any, str], tuple[int, ...]]) -> TableHand:
    """A hand of a game of choices, its fields checked (``parse`` reads a cards field)."""
    seats_raw = data.get("seats")
    if not isinstance(seats_raw, list) or not 1 <= len(seats_raw) < MAX_PEOPLE:
        raise AnalyzerError(f"seats must be a list of 1 to {MAX_PEOPLE - 1} players, got "
                            f"{short(seats_raw)}")
    seats = []
    for i, raw in enumerate(seats_raw):
        if not isinstance(raw, dict) or "cards" not in raw:
            raise AnalyzerError(f"seats[{i}] must be an object with person, cards, stake "
                                "and returned")
        stake = int_field(raw.get("stake", 0), f"seats[{i}].stake")
        returned = int_field(raw.get("returned", 0), f"seats[{i}].returned")
        if stake < 0 or returned < 0:
            raise AnalyzerError(f"seats[{i}]: negative stake or amount returned")
        seats.append(TableSeat(id_field(raw.get("person"), f"seats[{i}].person"),
                               parse(raw["cards"], f"seats[{i}].cards"), stake, returned))
    if "bank" not in data:
        raise AnalyzerError("missing field 'bank' (the bank's cards)")
    return TableHand(number, id_field(data.get("shoe"), "shoe"),
                     int_field(data.get("hand"), "hand"),
                     id_field(data.get("banker"), "banker"), tuple(seats),
                     parse(data["bank"], "bank"))


def outcome_table(draw_is_tie: bool) -> dict[str, str]:
    """Outcome words as logs write them (lower, upper, capitalized) for the hot loop."""
    words = dict(OUTCOME_WORDS)
    if draw_is_tie:
        words["draw"] = "tie"
    table: dict[str, str] = {}
    for word, outcome in words.items():
        for form in (word, word.upper(), word.capitalize(), word.title()):
            table[form] = outcome
    return table


def split_text(row: list[str], columns: tuple[int, ...]) -> str:
    """The cards of a field split over columns, as one space-separated field."""
    return " ".join(cell for cell in (row[i].strip() for i in columns) if cell and cell != "-")


def csv_bets(bet_list: list[tuple[str, tuple[int, int]]], row: list[str]
              ) -> tuple[tuple[str, int, int], ...]:
    """The (bet, stake, returned) of a CSV row; a bet with both cells empty was not made."""
    bets = []
    for bet_id, (stake_col, returned_col) in bet_list:
        stake_text, returned_text = row[stake_col], row[returned_col]
        if not stake_text.strip() and not returned_text.strip():
            continue
        try:
            if len(stake_text) < 19 and len(returned_text) < 19 and stake_text.isdigit() \
                    and returned_text.isdigit() and stake_text.isascii() \
                    and returned_text.isascii():
                stake, returned = int(stake_text), int(returned_text)
            else:
                stake = int_field(stake_text, f"bet {short(bet_id)} stake")
                returned = int_field(returned_text, f"bet {short(bet_id)} returned")
        except (AnalyzerError, ValueError) as exc:
            if "digits" in str(exc):
                raise
            raise AnalyzerError(f"bet {short(bet_id)}: stake and returned must be integers "
                                "(minor units)") from None
        if stake < 0 or returned < 0:
            raise AnalyzerError(f"bet {short(bet_id)}: negative stake or returned")
        if stake > 0 or returned > 0:  # 0 and 0: not staked; a payment on 0 is checked
            bets.append((bet_id, stake, returned))
    return tuple(bets)
