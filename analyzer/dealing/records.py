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

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NamedTuple

from analyzer.dealing.dialects import CARD_VALUE, MAX_ID, OUTCOME_WORDS, outcome_key, short
from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_DIGITS, is_integer_text

__all__ = ["Amount", "amount_field", "bets_field", "BIG", "csv_bets", "decimal_number", "Hand",
           "Header", "header_record", "id_field", "int_field", "Layout", "LogStart", "make_hand",
           "MAX_DECKS", "money_pair", "new_hand", "NOT_CHECKED", "NotChecked", "outcome_table",
           "Problem", "Record", "ShoeEnd", "ShoeStart", "split_text", "table_record", "TableHand",
           "TableSeat", "MAX_PEOPLE"]

#: An amount of money as logged: whole minor units, or an exact decimal (``19.5``).
Amount = int | Fraction

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
    bets: tuple[tuple[str, Amount, Amount], ...]
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


class Layout(NamedTuple):
    """What a log's columns (CSV/TSV) or keys (JSON Lines) were used for: ``used`` (name,
    meaning) pairs, the ``ignored`` names, and the ``roles`` found (see
    :data:`analyzer.dealing.columns.ROLES`). A reader yields one before its first hand
    (CSV) or after its last record (JSON Lines, whose keys vary by record)."""

    line: int
    used: tuple[tuple[str, str], ...]
    ignored: tuple[str, ...]
    roles: tuple[str, ...]


#: The checks a verdict can report as not run (:class:`NotChecked`).
NOT_CHECKED = ("payouts", "outcomes", "cards", "shoe model", "shuffle", "burn", "decks")


class NotChecked(NamedTuple):
    """A check the input could not support: ``what`` (one of :data:`NOT_CHECKED`) and
    ``why``, in words. A reader may yield one (e.g. an outcome-only log: ``cards``); the
    verifier adds those it finds itself, and the verdict lists them all.

    >>> NotChecked.of("cards", "the log holds outcomes only")
    NotChecked(what='cards', why='the log holds outcomes only')
    """

    what: str
    why: str

    @classmethod
    def of(cls, what: str, why: str) -> NotChecked:
        """A record of a check not run, ``what`` checked against :data:`NOT_CHECKED`."""
        if what not in NOT_CHECKED:
            raise ValueError(f"unknown check {what!r} (one of {', '.join(NOT_CHECKED)})")
        return cls(what, why)


Record = Hand | TableHand | ShoeStart | ShoeEnd | Header | LogStart | Problem | Layout \
    | NotChecked

_DECIMAL = re.compile(r"(-?)([0-9]+)(?:\.([0-9]*))?|(-?)\.([0-9]+)")


def decimal_number(text: str) -> Amount:
    """A decimal number read exactly (never through a binary float): an int when it is
    whole (``195.0``), else a Fraction (``19.5``); ValueError unless it is plain ASCII
    digits with an optional ``-`` and point (no spaces, ``+`` or ``_``), at most
    :data:`~analyzer.inputs.MAX_DIGITS` digits. Also JSON's ``parse_float``.

    >>> decimal_number("195.0"), decimal_number("19.5"), decimal_number("-0.95")
    (195, Fraction(39, 2), Fraction(-19, 20))
    """
    found = _DECIMAL.fullmatch(text)
    if found is None or len(text) > MAX_DIGITS + 2:
        raise ValueError(f"not a decimal number: {short(text)}")
    sign, whole, fraction = (found[1], found[2], found[3]) if found[2] is not None else \
        (found[4], "0", found[5])
    fraction = (fraction or "").rstrip("0")
    value = Fraction(int(whole + fraction), 10 ** len(fraction))
    if sign == "-":
        value = -value
    return value.numerator if value.denominator == 1 else value


def amount_field(value: Any, name: str, signed: bool = False) -> Amount:
    """An amount of money: an integer, or an exact decimal (text, or a Fraction from
    :func:`decimal_number`); negative only when ``signed`` (a profit)."""
    if isinstance(value, str):
        digits = sum(c.isdigit() for c in value)
        if digits > MAX_DIGITS:
            kind = "a number" if "." in value else "an integer"
            raise AnalyzerError(f"{name}: {kind} of {digits:,} digits (at most {MAX_DIGITS})")
        try:
            number = decimal_number(value)
        except ValueError:
            raise AnalyzerError(f"{name} must be a number in ASCII digits (minor units, or "
                                f"a decimal such as 19.5), got {short(value)}") from None
    elif isinstance(value, int | Fraction) and not isinstance(value, bool):
        number = value if isinstance(value, int) or value.denominator != 1 else \
            value.numerator
        if isinstance(number, int) and not -BIG < number < BIG:
            int_field(number, name)
    else:
        raise AnalyzerError(f"{name} must be a number, got {short(value)}")
    if number < 0 and not signed:
        raise AnalyzerError(f"{name}: negative amount {short(value)}")
    return number

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


def bets_field(raw: Any) -> tuple[tuple[str, Amount, Amount], ...]:
    """The bets of a JSON Lines hand: bet id -> [stake, returned] (or an object), amounts
    in whole minor units or exact decimals."""
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
        if type(stake) is not int or type(returned) is not int:
            stake = amount_field(stake, f"bet {short(bet_id)} stake")
            returned = amount_field(returned, f"bet {short(bet_id)} returned")
        elif not (stake < BIG and returned < BIG):
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


def outcome_table(draw_is_tie: bool, own: tuple[tuple[str, str], ...] = ()
                  ) -> dict[str, str]:
    """Outcome words as logs write them (lower, upper, capitalized) for the hot loop;
    ``own``: (meaning, word) pairs given with ``--outcome-words``, ahead of the others."""
    words = dict(OUTCOME_WORDS)
    if draw_is_tie:
        words["draw"] = "tie"
    for meaning, word in own:
        words[word] = words[outcome_key(word)] = meaning
    table: dict[str, str] = {}
    for word, outcome in words.items():
        for form in (word, word.upper(), word.capitalize(), word.title()):
            table[form] = outcome
    return table


def split_text(row: list[str], columns: tuple[int, ...]) -> str:
    """The cards of a field split over columns, as one space-separated field."""
    return " ".join(cell for cell in (row[i].strip() for i in columns) if cell and cell != "-")


def csv_bets(bet_list: list[tuple[str, tuple[int, int]]], row: list[str],
             net: frozenset[str] = frozenset()) -> tuple[tuple[str, Amount, Amount], ...]:
    """The (bet, stake, returned) of a CSV row; a bet with both cells empty was not made.
    Amounts are whole minor units or exact decimals; a bet in ``net`` logs its profit
    (net of the stake), so what it returned is the stake plus the profit."""
    bets = []
    for bet_id, (stake_col, returned_col) in bet_list:
        stake_text, returned_text = row[stake_col], row[returned_col]
        if not stake_text.strip() and not returned_text.strip():
            continue
        stake, returned = money_pair(bet_id, stake_text, returned_text, bet_id in net)
        if stake > 0 or returned != 0:  # 0 and 0: not staked; a payment on 0 is checked
            bets.append((bet_id, stake, returned))
    return tuple(bets)


def money_pair(bet_id: str, stake_text: str, back_text: str,
               profit: bool = False) -> tuple[Amount, Amount]:
    """A bet's (stake, returned) from its cells: the second is what came back (stake
    included) or, with ``profit``, the net of the stake. A profit below minus the stake
    gives a negative amount returned: a payout the paytable cannot make (a violation)."""
    stake: Amount
    back: Amount
    try:  # the hot path: short whole numbers in ASCII digits (int() would take more)
        if len(stake_text) < 19 and len(back_text) < 19 and stake_text.isascii() \
                and stake_text.isdigit() and back_text.isascii() and back_text.isdigit():
            stake, back = int(stake_text), int(back_text)
        else:
            raise ValueError
    except ValueError:
        stake = amount_field(stake_text, f"bet {short(bet_id)} stake")
        back = amount_field(back_text, f"bet {short(bet_id)} "
                                       f"{'profit' if profit else 'returned'}", profit)
    if stake < 0 or (back < 0 and not profit):
        raise AnalyzerError(f"bet {short(bet_id)}: negative stake or returned")
    return stake, stake + back if profit else back
