"""Hand logs: the record format a simulator writes and ``nine verify`` reads, as a stream.

A log is read one record at a time (constant memory, whatever its length), through the
input layer (:func:`analyzer.inputs.read_lines`: UTF-8 with or without a byte-order mark,
gzip by its magic bytes, lines at most :data:`analyzer.inputs.MAX_LINE` characters). Two
line formats carry one hand per record, and a third carries only totals:

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
any of :data:`~analyzer.dealing.dialects.OUTCOME_WORDS`) and per bet ``[stake,
returned]`` (or ``{"stake": s, "returned": r}``) in integer minor units. ``returned`` is
everything paid back to the player, stake included: 0 on a loss, the stake on a push.

The ``header`` record, when present, comes first; its fields are checked (:class:`Header`)
and the verifier stops when its profile or deck count is not the run's.

A ``shoe`` record opens a shoe (its deck count and the exposed and burned cards); a shoe
that opens with one, or whose first hand is number 1, and whose end is in the log (a
``shoe_end`` record, a ``cards_left`` value on its last CSV row, or the next shoe after
it; the end of the file is not a shoe's end) is a *whole* shoe: every card dealt from it
is in the log. One that opened but has no end was *cut* (a log cut short).

**CSV** (``.csv``; ``.tsv`` tab-separated), one hand per row. Columns are found by common
names or named with ``--column`` (:func:`~analyzer.dealing.columns.find_columns`): ``shoe``;
``hand`` or ``round`` (without one, a row's hand number is its shoe id's
count of rows, counted on while the id is among the last :data:`NUMBERED_IDS` dealt
from, from 1 after); ``player_cards`` and ``banker_cards`` (cards separated by spaces,
or one card per column: ``pcard1,pcard2,pcard3``); ``winner`` or ``outcome``; optional
``burn``; optional ``cards_left``, filled on a shoe's last hand only (the shoe ended
there); and per bet its stake and what it returned or its profit (``Banker Stake``,
``BankWin``, ``tie_profit`` ...), or one bet a row (``bet_on``, ``stake``, ``payout``);
amounts in minor units or exact decimals. The reader yields a :class:`Layout` first: what
each column was used for, and the columns ignored.

Cards are rank-first by default (``9d``, ``Td``, ``10d``, ``K♠``), suit-first (``d9``)
with ``card_order="suit-first"``, or point values only (``7``, ``0``) with
``cards="values"`` or when the first hand is written so (:mod:`analyzer.dealing.dialects`).

**Aggregated counts** (JSON, ``"format": "nine-counts"``) hold only totals: per bet, how
many hands ended in each of its lines (by line name, plus ``"lose"``) and optionally the
stake and amount returned in all; see :func:`analyzer.dealing.counts.read_counts`.

:func:`detect_format` is the one place a file's format is told (from its name, and a peek
into a ``.json`` file: counts, a saved partial result of ``nine verify``, or JSON Lines).
The simulator writes logs with :class:`analyzer.dealing.writer.LogWriter`.

A record that cannot be read yields a :class:`Problem` with its line number; it is never
skipped in silence. Integers are bounded (:data:`analyzer.inputs.MAX_DIGITS` digits), ids
too (:data:`~analyzer.dealing.dialects.MAX_ID` characters).

>>> token_card("Td"), token_card("10d"), token_card("d10", "suit-first")
(38, 38, 38)
>>> normalize_outcome("B"), normalize_outcome("Player")
('banker', 'player')
"""

from __future__ import annotations

import csv
import json
import operator
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from analyzer.dealing.beads import bead_format
from analyzer.dealing.columns import Columns, bet_spellings, find_columns, json_layout, plain
from analyzer.dealing.dialects import (
    CARD_RANK,
    CARD_TEXT,
    CARD_VALUE,
    COMMON_NAMES,
    FIELDS,
    MAX_ID,
    CardCache,
    LogOptions,
    card_cache,
    card_text,
    normalize_outcome,
    parse_column_options,
    short,
    sniff_delimiter,
    token_card,
)
from analyzer.dealing.records import (
    BIG,
    Amount,
    Hand,
    Header,
    Layout,
    LogStart,
    Problem,
    Record,
    ShoeEnd,
    ShoeStart,
    bets_field,
    csv_bets,
    decimal_number,
    header_record,
    id_field,
    int_field,
    make_hand,
    money_pair,
    new_hand,
    outcome_table,
    split_text,
    table_record,
)
from analyzer.dealing.segments import Segment, counted, segment_lines
from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_DIGITS, MAX_LINE, peek_text, read_lines

__all__ = ["CARD_RANK", "CARD_TEXT", "card_text", "CARD_VALUE", "COMMON_NAMES",
           "COUNTS_FORMAT", "detect_format", "FIELDS", "find_columns", "FORMATS", "Hand",
           "Header", "int_field", "LogOptions", "LogSniff", "LogStart", "make_hand",
           "NUMBERED_IDS",
           "normalize_outcome", "number_notation", "NUMBER_HANDS", "parse_column_options",
           "PARTIAL_FORMAT",
           "Problem", "read_log", "Record", "ROUNDING", "ShoeEnd", "ShoeStart", "sniff_log",
           "token_card"]

#: What :func:`detect_format` tells apart: hand logs (``jsonl``, ``csv``, ``tsv``),
#: aggregated counts, partial results saved by ``nine verify --partial-out``, and
#: outcome-only logs (``beads``: one outcome or one string of them per line;
#: ``bead-csv``, told by :func:`analyzer.dealing.beads.bead_format` from the columns).
FORMATS = ("jsonl", "csv", "tsv", "counts", "partial", "beads", "bead-csv")
#: The ``"format"`` of an aggregated-counts file (:mod:`analyzer.dealing.counts`).
COUNTS_FORMAT = "nine-counts"
#: The ``"format"`` of a saved partial result (:mod:`analyzer.verify.partial`).
PARTIAL_FORMAT = "nine-partial"
#: How a fractional amount returned may be paid in whole minor units: ``down`` (the house
#: keeps the fraction, the default), ``nearest`` (halves round up) or ``either``
#: neighbouring unit.
ROUNDING = ("down", "nearest", "either")
#: Without a hand column, a CSV row's hand number is the count of its shoe id's rows so
#: far, for an id among the last this many dealt from (the verifier's open shoes,
#: :data:`analyzer.verify.shoes.OPEN_SHOES`); an id used again after more is numbered
#: from 1 again (a new shoe), so memory does not grow with the log's shoe ids.
NUMBERED_IDS = 64
#: How many different key sets of JSON Lines records are told apart for the report of
#: used and ignored keys (beyond, a hostile log's further shapes are not listed).
_SHAPES = 10_000


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
        head = peek_text(path)
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
    beads = bead_format(path, None, LogOptions())
    if beads is not None:
        return beads
    raise AnalyzerError(f"{path}: cannot tell the log format from the name, and its "
                        "first lines are not outcomes one per line (use "
                        ".jsonl, .csv, .tsv or .json, or give --log-format)")


def read_log(path: str | Path, options: LogOptions | None = None,
             segment: Segment | None = None) -> Iterator[Record]:
    """Every record of a hand log in file order; unreadable ones as :class:`Problem`.

    ``segment``: only that run of whole shoes (:mod:`analyzer.dealing.segments`), with the
    line numbers of the whole file; a run after the first yields no :class:`LogStart`, and
    a header record in it is not the log's first record.
    """
    options = options or LogOptions()
    fmt = detect_format(path) if options.format == "auto" else options.format
    if segment is not None:
        segment = counted(path, segment)  # (its records are numbered by line)
    if fmt == "jsonl":
        yield from _read_jsonl(path, options, segment)
    elif fmt in ("csv", "tsv"):
        yield from _read_csv(path, options, "\t" if fmt == "tsv" else ",", segment)
    elif fmt == "counts":
        raise AnalyzerError(f"{path}: an aggregated-counts file holds no hands (read_counts)")
    elif fmt == "partial":
        raise AnalyzerError(f"{path}: a saved partial result holds no hands (load_partial)")
    elif fmt in ("beads", "bead-csv"):
        raise AnalyzerError(f"{path}: an outcome-only log holds no cards (read_beads)")
    else:
        raise AnalyzerError(f"unknown log format {fmt!r} (jsonl, csv, tsv or counts)")


class LogSniff(NamedTuple):
    """What a log's first records say: its header, whether its first shoe is whole, and
    whether it writes point values only (None: no hand)."""

    header: Header | None
    starts_whole: bool
    values: bool | None


def sniff_log(path: str | Path, options: LogOptions, fmt: str) -> LogSniff:
    """Read a hand log (of format ``fmt``) up to its first hand."""
    header: Header | None = None
    whole = False
    values: bool | None = None
    for record in read_log(path, replace(options, format=fmt)):
        kind = type(record)
        if kind is Header:
            header = record  # type: ignore[assignment]
        elif kind is ShoeStart:
            whole = True
        elif kind is LogStart:
            values = record.values  # type: ignore[union-attr]
        elif kind is Hand:
            whole = whole or record.hand == 1  # type: ignore[union-attr]
            break
    return LogSniff(header, whole, values)


#: Hands read to tell a log of point values from one of ranks (a log of ranks holds 10-13
#: in its first few hands).
NUMBER_HANDS = 2_000


def number_notation(path: str | Path, options: LogOptions, fmt: str) -> str:
    """``values`` or ``ranks``: what a log whose cards are numbers holds, told from its
    first :data:`NUMBER_HANDS` hands (a number 10-13 is a rank). ``options.cards``
    ``values`` on a log holding 10-13 is an error naming the line and ``--cards ranks``;
    ``ranks`` is taken as given."""
    if options.cards == "ranks":
        return "ranks"
    hands = 0
    for record in read_log(path, replace(options, format=fmt, cards="numbers")):
        if type(record) is Hand:
            high = max(record.player + record.banker, default=0)
            if high >= 10:
                if options.cards == "values":
                    raise AnalyzerError(f"{path}: line {record.line}: card value {high} is "
                                        "not a point value 0-9 but a rank (J=11, Q=12, "
                                        "K=13): give --cards ranks")
                return "ranks"
            hands += 1
            if hands >= NUMBER_HANDS:
                break
    return "values"


def _read_jsonl(path: str | Path, options: LogOptions,
                segment: Segment | None = None) -> Iterator[Record]:
    cards: CardCache | None = None
    outcomes = outcome_table(options.draw_is_tie, options.outcome_words)
    loads = json.JSONDecoder(parse_float=decimal_number).decode  # decimals exact
    shapes: set[tuple[str, tuple[str, ...]]] = set()  # each record kind's keys, as seen
    last = 0
    complete = True
    later = segment is not None and segment.lines_before > 0  # a run after the first
    first = not later
    lines = read_lines(path) if segment is None else segment_lines(path, segment, False)
    for number, text in enumerate(lines, start=1 + (segment.lines_before if segment else 0)):
        if not text.strip():
            continue
        try:
            data = loads(text)
        except json.JSONDecodeError as exc:
            yield Problem(number, f"truncated or invalid JSON: {exc.msg} at column "
                                  f"{exc.pos + 1}")
            continue
        except (ValueError, RecursionError) as exc:  # an integer of thousands of digits
            yield Problem(number, "unreadable JSON: " + (
                f"an integer of more than {MAX_DIGITS} digits" if "digits" in str(exc)
                else "nested too deeply" if isinstance(exc, RecursionError) else str(exc)))
            continue
        if not isinstance(data, dict):
            yield Problem(number, "expected a JSON object")
            continue
        kind = data.get("type", "hand")
        last = number
        if len(shapes) < _SHAPES:
            shapes.add((kind if type(kind) is str else "?", tuple(data)))
        else:
            complete = False
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
                                        f"player/banker/tie), got {short(outcome)}")
                if cards is None:
                    notation = options.first_notation(player, banker)
                    values = notation in ("values", "ranks")
                    cards = card_cache(notation)
                    if not later:
                        yield LogStart(number, values)
                player_cards, player_values = cards.pair(player, "player")
                banker_cards, banker_values = cards.pair(banker, "banker")
                shoe = data.get("shoe")
                hand = data.get("hand")
                yield new_hand(Hand, (
                    number,
                    shoe if type(shoe) is str and len(shoe) <= MAX_ID else id_field(shoe, "shoe"),
                    hand if type(hand) is int and -BIG < hand < BIG else int_field(hand, "hand"),
                    player_cards, banker_cards, cards.parse(burn, "burn") if burn else (),
                    (outcomes.get(outcome) or normalize_outcome(outcome, options.draw_is_tie,
                                                                options.outcome_words))
                    if outcome is not None else None,
                    bets_field(bets) if bets is not None else (), player_values,
                    banker_values))
            elif kind == "table":
                if cards is None:
                    values = options.values_level
                    cards = card_cache(options.notation(values))
                    yield LogStart(number, values)
                yield table_record(data, number, cards.parse)
            elif kind == "shoe":
                decks = data.get("decks")
                burn = data.get("burn")
                burn_cards: tuple[int, ...] = ()
                if burn:
                    burn_cards = (cards or card_cache(options.notation(
                        options.values_level))).parse(burn, "burn")
                yield ShoeStart(number, id_field(data.get("shoe"), "shoe"),
                                int_field(decks, "decks") if decks is not None else None,
                                burn_cards)
            elif kind == "shoe_end":
                left = data.get("cards_left")
                yield ShoeEnd(number, id_field(data.get("shoe"), "shoe"),
                              int_field(left, "cards_left") if left is not None else None)
            elif kind == "header":
                if not first:
                    raise AnalyzerError("a header record must be the first record")
                yield header_record(data, number)
            else:
                raise AnalyzerError(f"unknown record type {short(kind)}")
        except AnalyzerError as exc:
            yield Problem(number, str(exc))
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            # a field of a type no check above foresaw: still a counted record, never
            # a traceback
            yield Problem(number, f"malformed record ({type(exc).__name__}: "
                                  f"{short(str(exc), 200)})")
        first = False
    if shapes:
        yield Layout(last, *json_layout(shapes, complete))


def _read_csv(path: str | Path, options: LogOptions, delimiter: str,
              segment: Segment | None = None) -> Iterator[Record]:
    csv.field_size_limit(MAX_LINE)  # a field is bounded by the line (the input layer)
    # a run of whole shoes: its header line first, then lines after lines_before
    shift = segment.lines_before - 1 if segment is not None else 0
    lines = read_lines(path) if segment is None else segment_lines(path, segment, True)
    first_line = next(lines, None)
    if first_line is None:
        raise AnalyzerError(f"{path}: empty CSV log (no header row)")
    delimiter = sniff_delimiter(first_line, "tsv" if delimiter == "\t" else "csv",
                                options.delimiter)
    reader = csv.reader(chain((first_line,), lines), delimiter=delimiter)
    try:
        headers = next(reader)
    except StopIteration:
        raise AnalyzerError(f"{path}: empty CSV log (no header row)") from None
    except csv.Error as exc:
        raise AnalyzerError(f"{path}: line 1: unreadable CSV header ({exc})") from None
    columns = find_columns(headers, options, path)
    yield Layout(1 + shift, columns.used, columns.ignored, columns.roles)
    yield from columns.not_checked
    rows = _csv_hands(reader, headers, columns, options, shift)
    if "bet_on" in columns.single and "hand" in columns.single:
        rows = _merge_bet_rows(rows)
    yield from rows


def _merge_bet_rows(records: Iterator[Record]) -> Iterator[Record]:
    """A one-bet-a-row log: consecutive rows of the same hand (same shoe, hand number and
    cards) are one hand with all their bets (each hand counted once)."""
    pending: Hand | None = None
    for rec in records:
        if type(rec) is not Hand:
            yield rec
            continue
        if pending is not None and (rec.shoe, rec.hand, rec.player, rec.banker) == (
                pending.shoe, pending.hand, pending.player, pending.banker):
            pending = pending._replace(bets=pending.bets + rec.bets)
            continue
        if pending is not None:
            yield pending
        pending = rec
    if pending is not None:
        yield pending


def _row_bet(spellings: dict[str, str], columns: tuple[int, int, int], profit: bool,
             row: list[str]) -> tuple[tuple[str, Amount, Amount], ...]:
    """The one bet of a row of a one-bet-a-row log (none when not staked)."""
    name_text, stake_text, back_text = (row[i] for i in columns)
    if not stake_text.strip() and not back_text.strip():
        return ()
    bet_id = spellings.get(plain(name_text)) or name_text.strip().lower()
    stake, returned = money_pair(bet_id or "?", stake_text, back_text, profit)
    if not bet_id:
        if stake or returned:
            raise AnalyzerError(f"a stake of {stake_text.strip()} on no bet (the bet column "
                                "is empty)")
        return ()
    return ((bet_id, stake, returned),) if stake > 0 or returned != 0 else ()


def _csv_hands(reader: Any, headers: list[str], columns: Columns, options: LogOptions,
               shift: int) -> Iterator[Record]:
    """The hands of a CSV log's rows (after its header)."""
    later = shift > 0
    cards: CardCache | None = None
    single, bet_columns, split = columns.single, columns.bets, columns.split
    shoe_col = single.get("shoe")
    hand_col = single.get("hand")
    # without a hand column: the hands seen per shoe id, for the last NUMBERED_IDS ids
    # (in the order last dealt from: a dict re-inserts an id at its end)
    numbered: dict[str, int] = {}
    fields = {name: (single.get(name), split.get(name))
              for name in ("player_cards", "banker_cards", "burn")}
    outcome_col = single.get("outcome")
    left_col = single.get("cards_left")  # filled on a shoe's last hand: its end
    bet_list = list(bet_columns.items())
    width = len(headers)
    outcomes = outcome_table(options.draw_is_tie, options.outcome_words)
    words = options.outcome_words
    money_columns = [c for _, columns in bet_list for c in columns]
    money_of = operator.itemgetter(*money_columns) if len(money_columns) > 1 else None
    money_cache: dict[Any, tuple[tuple[str, Amount, Amount], ...]] = {}
    net = columns.net
    row_bet = None
    if "bet_on" in single:
        back = single["returned"] if "returned" in single else single["profit"]
        row_bet = partial(_row_bet, bet_spellings(options.bets),
                          (single["bet_on"], single["stake"], back), "profit" in single)

    player_col, player_split = fields["player_cards"]
    banker_col, banker_split = fields["banker_cards"]
    burn_col, burn_split = fields["burn"]
    pair = None
    while True:
        try:
            for row in reader:
                number = reader.line_num + shift
                if not row or (len(row) == 1 and not row[0].strip()):
                    continue
                if len(row) != width:
                    yield Problem(number, f"expected {width} fields, found {len(row)} "
                                          "(truncated or extra fields)")
                    continue
                try:
                    if hand_col is None:  # numbered in the order the shoe's hands come
                        shoe_id = row[shoe_col] if shoe_col is not None else ""
                        hand = numbered.pop(shoe_id, 0) + 1
                        numbered[shoe_id] = hand
                        if len(numbered) > NUMBERED_IDS:  # forgotten: a new shoe if used again
                            del numbered[next(iter(numbered))]
                    else:
                        hand_text = row[hand_col]
                        # the hot path: a short number in ASCII digits
                        hand = int(hand_text) if len(hand_text) < 19 and hand_text.isdigit() \
                            and hand_text.isascii() else int_field(hand_text, "hand number")
                    outcome_text = row[outcome_col] if outcome_col is not None else ""
                    outcome = outcomes.get(outcome_text)
                    if outcome is None and outcome_text.strip():
                        outcome = normalize_outcome(outcome_text, options.draw_is_tie, words)
                    burn = row[burn_col] if burn_col is not None else \
                        split_text(row, burn_split) if burn_split else ""
                    if row_bet is not None:
                        bets: tuple[tuple[str, Amount, Amount], ...] = row_bet(row)
                    elif money_of is None:
                        bets = csv_bets(bet_list, row, net) if bet_list else ()
                    else:
                        money_text = money_of(row)
                        found = money_cache.get(money_text)
                        if found is None:
                            found = csv_bets(bet_list, row, net)
                            if sum(map(len, money_text)) <= CardCache.KEY:
                                if len(money_cache) >= CardCache.LIMIT:
                                    money_cache.clear()
                                money_cache[money_text] = found
                        bets = found
                    player = row[player_col] if player_col is not None else \
                        split_text(row, player_split)  # type: ignore[arg-type]
                    banker = row[banker_col] if banker_col is not None else \
                        split_text(row, banker_split)  # type: ignore[arg-type]
                    if pair is None:
                        notation = options.first_notation(player, banker)
                        values = notation in ("values", "ranks")
                        cards = card_cache(notation)
                        pair = cards.pair
                        if not later:
                            yield LogStart(number, values)
                    player_cards, player_values = pair(player)
                    banker_cards, banker_values = pair(banker)
                    shoe = row[shoe_col] if shoe_col is not None else ""
                    if len(shoe) > MAX_ID:
                        raise AnalyzerError(f"shoe {short(shoe)} is longer than {MAX_ID} "
                                            "characters")
                    yield new_hand(Hand, (
                        number, shoe, hand, player_cards, banker_cards,
                        cards.parse(burn) if burn and cards else (), outcome, bets, player_values,
                        banker_values))
                    if left_col is not None and row[left_col].strip():
                        yield ShoeEnd(number, shoe, int_field(row[left_col], "cards_left"))
                except AnalyzerError as exc:
                    yield Problem(number, str(exc))
            return
        except csv.Error as exc:
            yield Problem(reader.line_num + shift, f"unreadable CSV row ({exc})")
