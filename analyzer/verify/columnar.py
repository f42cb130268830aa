"""The verifier's fast path: a clean CSV log of a fixed-tableau profile checked column-wise.

:func:`replay_columns` reads the whole log (or one run of whole shoes of it) as Arrow
string columns (:mod:`analyzer.dealing.arrow`; a gzipped log split in Python) and checks
it as arrays: integers, card fields and empty cells parsed on the columns' buffers, every
coup found in the coup lookup (:class:`~analyzer.engine.lookup.CoupIndex`) by its six
values at once (the bets on ranks or suits settled on feature columns of the hands:
:func:`~analyzer.rules.bets.settle_codes`), outcomes, payouts and shoe compositions
compared as arrays, and the shoe-aware rows (each hand's depleted shoe, as value or card
counts) taken from cumulative sums per shoe.

It only covers the common case, where nothing is wrong: every row well formed, shoes named,
each opening at hand 1 and dealt in order, burns only before a shoe's first hand, every coup
legal, every outcome and payout right, no card dealt more often than the shoe holds it,
cards as two-character tokens or any the card table reads. The log is read in runs of
whole shoes of about half a megabyte, so memory stays bounded. At the first thing that
is not so it returns None, and :func:`~analyzer.verify.check.check_file` starts its tallies
afresh and replays the log record by record (the reference, which names the line of every
violation). When it returns sums they are the reference's, bit for bit: the same exact
counts and money, and the float sums added per shoe on the exact grid of
:mod:`~analyzer.verify.inference.fixed`.
"""

from __future__ import annotations

import csv
import gc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import islice
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from analyzer.dealing.arrow import (
    BLOCK,
    empty_cells,
    field_lengths,
    int_cells,
    plain_integers,
    shoe_runs,
    text_buffers,
)
from analyzer.dealing.columns import Columns, find_columns
from analyzer.dealing.dialects import (
    CARD_RANK,
    CARD_VALUE,
    MAX_ID,
    LogOptions,
    normalize_outcome,
    sniff_delimiter,
)
from analyzer.dealing.records import outcome_table
from analyzer.dealing.segments import Segment, segment_lines
from analyzer.engine.cardbets import pair_feature_columns
from analyzer.engine.enumeration import GatheredColumns, coups
from analyzer.engine.lookup import Model, card_coup_codes, coup_labels, coup_lookup
from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_LINE, is_gzip, open_binary, read_lines
from analyzer.rules.bets import settle_codes
from analyzer.rules.profile import Tableau
from analyzer.verify.cardcolumns import NO_BURNS, burn_cards, parse_cards
from analyzer.verify.inference.decks import DeckTally
from analyzer.verify.inference.moments import ShoeMoments
from analyzer.verify.inference.shuffle import ShuffleTally
from analyzer.verify.overlap import HandRuns
from analyzer.verify.replay import Settler
from analyzer.verify.shoes import RECENT_IDS, RecentIds

__all__ = ["CHUNK", "ColumnSums", "MAX_PENDING", "parse_cards", "replay_columns"]

IntArray = npt.NDArray[np.int64]

_VALUE = np.array(CARD_VALUE, dtype=np.int64)
#: Lines read and checked together (a run of whole shoes: the last shoe of a run waits
#: for the next).
CHUNK = 1 << 16
#: A shoe of more lines than this is left to the reference; so is one of more lines than
#: the shoe holds cards (every hand deals some: it breaks the shoe's composition), so
#: that a log of one endless shoe is not gathered whole before the reference reads it.
MAX_PENDING = 1 << 20
#: Bytes of a log read at a time in the independent model (no shoe-aware rows are built:
#: four times :data:`~analyzer.dealing.arrow.BLOCK` keeps a worker near 200 MB, and
#: saves about a tenth of the CPU on per-block numpy calls).
INDEPENDENT_BLOCK = 4 * BLOCK
#: Stakes and amounts returned up to this are summed in int64 without overflow.
_MONEY_LIMIT = 1 << 31


@dataclass
class ColumnSums:
    """What a clean log adds up to (the rest goes straight into the moments and shuffle
    tallies given to :func:`replay_columns`), and what its columns were used for (the
    reader's :class:`~analyzer.dealing.columns.Columns`)."""

    hands: int
    shoes: int
    counts: list[int]
    money: list[list[int]]
    card_counts: list[int]
    columns: Columns | None = None
    #: the last row holds a ``cards_left`` value: the log's last shoe ended there
    last_ended: bool = False

    def add(self, other: ColumnSums) -> None:
        """Add another run's sums to these."""
        self.hands += other.hands
        self.shoes += other.shoes
        self.counts = [a + b for a, b in zip(self.counts, other.counts, strict=True)]
        self.money = [[a + b for a, b in zip(x, y, strict=True)]
                      for x, y in zip(self.money, other.money, strict=True)]
        self.card_counts = [a + b for a, b in zip(self.card_counts, other.card_counts,
                                                  strict=True)]


def replay_columns(path: str | Path, model: Model, options: LogOptions, settler: Settler,
                   moments: ShoeMoments | None, shuffle: ShuffleTally,
                   segment: Segment | None = None,
                   decks: DeckTally | None = None,
                   runs: HandRuns | None = None) -> ColumnSums | None:
    """Check a clean CSV/TSV log of a fixed-tableau profile as arrays (see the module
    docstring), :data:`CHUNK` lines at a time cut at shoe boundaries (so memory does not
    grow with the log); None when the log is not that case. After None, ``moments`` and
    ``shuffle`` may hold some of the log's shoes: the caller starts them afresh."""
    if options.cards != "cards" or options.skip_bets or options.format not in ("csv", "tsv"):
        return None
    csv.field_size_limit(MAX_LINE)
    collecting = gc.isenabled()
    gc.disable()  # millions of small strings, none of them in a cycle
    lines = read_lines(path) if segment is None else segment_lines(path, segment, True)
    try:
        first = next(lines, None)
        if first is None:
            return None
        delimiter = sniff_delimiter(first, options.format, options.delimiter)
        headers = next(csv.reader([first], delimiter=delimiter))
        try:
            found = find_columns(headers, options, path)
        except AnalyzerError:
            return None
        single, bet_columns, split = found.single, found.bets, found.split
        # the reference reads profits, one bet a row and decimal amounts
        if split or found.net or "bet_on" in single or "player_cards" not in single \
                or "banker_cards" not in single or "shoe" not in single:
            return None
        total = ColumnSums(0, 0, [0] * settler.labels, [[0, 0, 0, 0] for _ in model.bets],
                           [0] * 52, found)
        seen = RecentIds(RECENT_IDS)
        left = single.get("cards_left")
        # integers read as such: hand numbers, ends of shoes, stakes and amounts returned
        # (no column also read as text: a header named for two fields stays strings)
        integers = ({single[k] for k in ("hand", "cards_left") if k in single} | {
            i for pair in bet_columns.values() for i in pair}) - {
            i for k, i in single.items() if k not in ("hand", "cards_left")}
        # (without the shoe-aware rows, bigger blocks: fewer numpy calls a hand)
        block_size = None if moments is not None else INDEPENDENT_BLOCK
        max_rows = min(MAX_PENDING, sum(model.shoe.counts))
        for columns in _runs(path, segment, lines, delimiter, len(headers), single["shoe"],
                             integers, block_size, max_rows):
            if columns is None:
                return None
            sums = _replay(columns, single, bet_columns, model, options, settler, moments,
                           shuffle, seen, decks, runs)
            if sums is None:
                return None
            total.add(sums)
            total.last_ended = left is not None and not empty_cells(columns[left][-1:])[0]
        return total if total.hands else None
    except (csv.Error, AnalyzerError):
        return None
    finally:
        lines.close()  # type: ignore[attr-defined]
        if collecting:
            gc.enable()


def _runs(path: str | Path, segment: Segment | None, lines: Iterator[str], delimiter: str,
          width: int, shoe: int, integers: set[int], block_size: int | None,
          max_rows: int = MAX_PENDING) -> Iterator[list[pa.Array] | None]:
    """A log's string columns in runs of whole shoes: read by Arrow
    (:func:`~analyzer.dealing.arrow.shoe_runs`), or a gzipped log's ``lines`` (after its
    header) split by :func:`_chunks`."""
    if is_gzip(path):
        for columns in _chunks(lines, delimiter, width, shoe, max_rows):
            yield None if columns is None else [pa.array(list(c), pa.string())
                                                for c in columns]
        return
    end = None if segment is None else segment.end
    if segment is not None and segment.start > 0:
        start = segment.start
    else:
        with open_binary(path) as stream:
            start = len(stream.readline(MAX_LINE + 2))
    yield from shoe_runs(path, start, end, width, delimiter, shoe, integers, block_size,
                         max_rows)


def _chunks(lines: Iterator[str], delimiter: str, width: int, shoe: int,
            max_rows: int = MAX_PENDING) -> Iterator[list[Sequence[str]] | None]:
    """The columns of a log's rows in runs of whole shoes of about :data:`CHUNK` lines;
    None (and stop) at a row of another width, at a shoe of more than ``max_rows`` lines,
    or when a log that needs the ``csv`` module (quoted fields, blank lines) is longer than
    one run."""
    pending: list[str] = []
    chunk = list(islice(lines, CHUNK))
    while chunk or pending:
        following = list(islice(lines, CHUNK)) if chunk else []
        body = pending + chunk if pending else chunk
        text = "\n".join(body)
        if '"' in text or "\r" in text or "\0" in text or not all(body):
            if pending or following:
                yield None
                return
            yield _csv_columns(body, delimiter, width)
            return
        # no quoting and no blank line: every delimiter separates two fields (counted
        # first: rows of a million empty fields are left to the reference, not split)
        if text.count(delimiter) != (width - 1) * len(body):
            yield None
            return
        fields = text.replace("\n", delimiter).split(delimiter)
        if len(fields) != width * len(body):
            yield None
            return
        cut = len(body)
        if following:  # keep the last shoe (it may go on) for the next run
            ids = fields[shoe::width]
            cut = next((i for i in range(len(ids) - 1, 0, -1) if ids[i] != ids[i - 1]), 0)
            if len(body) - cut > max_rows:
                yield None
                return
        if cut:
            yield [fields[k:cut * width:width] for k in range(width)]
        pending, chunk = body[cut:], following


def _csv_columns(body: list[str], delimiter: str, width: int) -> list[Sequence[str]] | None:
    """Columns of rows read by the ``csv`` module (blank rows skipped, as the reader does)."""
    try:
        rows = [r for r in csv.reader(body, delimiter=delimiter)
                if r and not (len(r) == 1 and not r[0].strip())]
    except csv.Error:
        return None
    if not rows or any(len(r) != width for r in rows):
        return None
    return list(zip(*rows, strict=True))


def _replay(columns: list[pa.Array], single: dict[str, int],
            bet_columns: dict[str, tuple[int, int]], model: Model, options: LogOptions,
            settler: Settler, moments: ShoeMoments | None,
            shuffle: ShuffleTally, seen: RecentIds,
            decks: DeckTally | None = None,
            runs: HandRuns | None = None) -> ColumnSums | None:
    """One run of whole shoes (see :func:`replay_columns`); ``seen``: the shoe ids of the
    runs before (an id used again is left to the reference)."""
    n = len(columns[0])
    # -- shoes and hand numbers ---------------------------------------------------------
    shoe_text = columns[single["shoe"]]
    id_length = field_lengths(shoe_text)
    if id_length.min() == 0 or id_length.max() > MAX_ID:
        return None  # (an id of more bytes than MAX_ID characters: the reference says)
    opens = np.ones(n, dtype=bool)
    if n > 1:
        opens[1:] = pc.not_equal(shoe_text.slice(1), shoe_text.slice(0, n - 1)).to_numpy(
            zero_copy_only=False)
    starts = np.flatnonzero(opens)
    # (the rows as a list: an Arrow array made from a numpy one imports numpy.ma, 5 ms)
    ids = shoe_text.take(pa.array(starts.tolist(), pa.int64())).to_pylist()
    if len(set(ids)) != len(starts) or not seen.isdisjoint(ids):
        return None  # a shoe id used twice (interleaved or reopened shoes)
    seen.update(ids)
    end_col = single.get("cards_left")
    if end_col is not None:  # a shoe's end, only on its last row, a plain count
        ends = ~empty_cells(columns[end_col])
        closing = np.ones(n, dtype=bool)
        closing[:-1] = opens[1:]
        if (ends & ~closing).any() or plain_integers(columns[end_col], True) is None:
            return None
    shoe_of = np.cumsum(opens) - 1
    expected_hand = np.arange(n) - starts[shoe_of] + 1
    hand = expected_hand  # without a hand column, a shoe's rows are its hands in order
    if "hand" in single:
        numbers = plain_integers(columns[single["hand"]])
        if numbers is None or not np.array_equal(numbers, expected_hand):
            return None  # a shoe not opening at hand 1, or a hand missing or out of order
    # -- cards --------------------------------------------------------------------------
    notation = options.notation(False)
    player = parse_cards(columns[single["player_cards"]], notation)
    banker = parse_cards(columns[single["banker_cards"]], notation)
    if player is None or banker is None:
        return None
    with_burn, lengths, flat_burns = NO_BURNS
    burn_col = single.get("burn")
    if burn_col is not None:
        burns = burn_cards(columns[burn_col], notation)
        if burns is None:
            return None
        with_burn, lengths, flat_burns = burns
        if not opens[with_burn].all():
            return None  # a burn within a shoe: left to the reference
    # -- the coups: rules, winner, labels --------------------------------------------------
    index = coup_lookup(model)
    tableau = model.profile.tableau
    assert tableau is not None
    row = index.rows[card_coup_codes(player, banker)].astype(np.int64)
    if (row < 0).any():
        return None  # a coup the tableau does not deal (a rule violation)
    coup_table = coups(tableau)
    winner_code, coup_winners = _winner_codes(tableau)
    winners = coup_winners[row]
    outcome_col = single.get("outcome")
    if outcome_col is not None:
        logged = _outcome_codes(columns[outcome_col], options, winner_code)
        if logged is None or ((logged != -1) & (logged != winners)).any():
            return None  # a claimed outcome the cards do not give
    if model.card_level:  # every bet settled on the hands' feature columns at once
        # (each hand's card features looked up by its first two cards, as read)
        features = GatheredColumns(coup_table.features, row, {}, [
            (pair_feature_columns(side), cards[:, 0] * 52 + cards[:, 1])
            for side, cards in (("player", player), ("banker", banker))])
        labels = []
        for i, b in enumerate(model.bets):  # (a coup-level bet: its label on each coup)
            on_coups = None if b.bet.card_level else coup_labels(model, i)
            if on_coups is not None:
                labels.append(on_coups[row].astype(np.int64))
                continue
            codes, results = settle_codes(b.bet, features)
            label_of = np.array([b.label(r) for r in results], dtype=np.int64)
            labels.append(label_of[np.asarray(codes, dtype=np.int64)])
    else:
        labels = [codes[row] for codes in index.code_arrays]
    # -- bets and payouts ------------------------------------------------------------------
    found_money = _bet_money(columns, bet_columns, model, settler, labels, hand)
    if found_money is None:
        return None
    stakes, money = found_money
    # -- shoes: every card in dealt order, compositions -----------------------------------
    order = np.stack([player[:, 0], banker[:, 0], player[:, 1], banker[:, 1],
                      player[:, 2], banker[:, 2]], axis=1)
    dealt = order >= 0
    per_hand = 4 + (player[:, 2] >= 0) + (banker[:, 2] >= 0)  # (dealt's row sums)
    hand_cards = order[dealt]
    sequence = hand_cards
    # which cards are tested by the rank moments (not the burns; shoe-aware only)
    tested = np.ones(hand_cards.size if moments is not None else 0, dtype=bool)
    burn_counts = np.zeros(n, dtype=np.int64)
    if len(with_burn):
        burn_counts[with_burn] = lengths
        before = np.concatenate([[0], np.cumsum(per_hand)[:-1]])
        at = np.repeat(before[with_burn], lengths)
        sequence = np.insert(hand_cards, at, flat_burns)
        if moments is not None:
            tested = np.insert(tested, at, False)
    events = per_hand + burn_counts
    shoe_ends = np.cumsum(events)[np.append(starts[1:], n) - 1]
    card_shoe = np.repeat(np.arange(len(starts)), np.diff(np.concatenate([[0], shoe_ends])))
    composition = np.array(settler.model.shoe.counts, dtype=np.int64)
    per_shoe = np.bincount(card_shoe * 52 + sequence, minlength=len(starts) * 52)
    if (per_shoe.reshape(-1, 52) > composition).any():
        return None  # a card dealt more often than the shoe holds it
    # -- nothing is wrong: add it all up ----------------------------------------------
    if decks is not None:
        decks.add_counts(per_shoe.reshape(-1, 52))
    if runs is not None:  # runs of hands by content (analyzer.verify.overlap)
        runs.add_columns(player, banker, starts)
    counts = [0] * settler.labels
    for i, b in enumerate(model.bets):
        found = np.bincount(labels[i], minlength=len(b.labels)).tolist()
        for j, k in enumerate(found):
            counts[settler.offsets[i] + j] += k
    boundaries = np.concatenate([[0], shoe_ends]).tolist()
    categories = [CARD_RANK[c] - 1 for c in range(52)]
    start = [0] * 13
    for c, k in enumerate(model.shoe.counts):
        start[categories[c]] += k
    if moments is not None:
        for a, b in zip(boundaries[:-1], boundaries[1:], strict=True):
            moments.add_shoe(start, sequence[a:b], tested[a:b], categories)
    shuffle.add_shoes(sequence, boundaries)
    if moments is not None:
        # rows of 52 card counts for a card-level evaluator, else ten value counts
        kinds = 52 if model.card_level else 10
        category = np.arange(52) if model.card_level else _VALUE
        burned = np.bincount(np.repeat(with_burn, lengths) * kinds + category[flat_burns],
                             minlength=n * kinds).reshape(n, kinds)
        full = np.array(model.shoe.counts if model.card_level else model.shoe.value_counts(),
                        dtype=np.int64)
        moments.add_rows(_depleted(full, np.where(order >= 0, category[order], kinds), burned,
                                   starts, shoe_of), stakes, opens)
    return ColumnSums(n, len(starts), counts, money,
                      np.bincount(hand_cards, minlength=52).tolist())


def _outcome_codes(column: pa.Array, options: LogOptions, winner_code: dict[str, int]
                   ) -> IntArray | None:
    """The winner code each row's outcome cell says (-1: empty, -2: a word for no winner
    of the tableau); None at a cell no outcome word reads. Cells of one ASCII character
    each (``P``, ``B``, ``T``) are looked up by their byte, any others by a dictionary of
    the distinct cells."""
    table = outcome_table(options.draw_is_tie, options.outcome_words)

    def code(text: str) -> int | None:
        word = table.get(text)
        if word is None and text.strip():
            try:
                word = normalize_outcome(text, options.draw_is_tie, options.outcome_words)
            except AnalyzerError:
                return None
        return -1 if word is None else winner_code.get(word, -2)

    offsets, data = text_buffers(column)
    if len(column) and bool((np.diff(offsets) == 1).all()):
        chars = data[offsets[0]:offsets[-1]]
        if int(chars.max()) < 128:
            said = np.zeros(128, dtype=np.int64)
            for byte in np.flatnonzero(np.bincount(chars, minlength=128)).tolist():
                found = code(chr(byte))
                if found is None:
                    return None
                said[byte] = found
            result: IntArray = said[chars]
            return result
    encoded = pc.dictionary_encode(column)
    codes = [code(text) for text in encoded.dictionary.to_pylist()]
    if any(c is None for c in codes):
        return None
    logged: IntArray = np.array(codes, dtype=np.int64)[
        encoded.indices.to_numpy(zero_copy_only=False)]
    return logged


@cache
def _winner_codes(tableau: Tableau) -> tuple[dict[str, int], IntArray]:
    """Each winner's code (winners sorted by name), and the winner code of every coup of
    the tableau's coup table."""
    winner = coups(tableau).features["winner"].tolist()
    code = {w: k for k, w in enumerate(sorted(set(winner)))}
    return code, np.array([code[w] for w in winner], dtype=np.int64)


def _depleted(full: IntArray, dealt: IntArray, burned: IntArray, starts: IntArray,
              shoe_of: IntArray) -> IntArray:
    """Each hand's depleted shoe (``full``: the full shoe's count of each of its k kinds,
    cards or point values): less every card taken from its shoe before the hand's own
    (its burns included). ``dealt``: each hand's six cards' kinds in dealt order (k: no
    card); ``burned``: each hand's burns counted by kind."""
    n, kinds = burned.shape
    # int32 throughout (a run holds far fewer than 2**31 cards): half the memory of int64
    own = np.bincount((np.arange(n)[:, None] * (kinds + 1) + dealt).ravel(),
                      minlength=n * (kinds + 1)).astype(np.int32).reshape(
                          n, kinds + 1)[:, :kinds]
    taken = own + burned.astype(np.int32)
    through = np.cumsum(taken, axis=0)  # cards taken up to the end of each hand, by kind
    through -= (through - taken)[starts][shoe_of]  # ... since the hand's shoe opened
    through -= own
    result: IntArray = full.astype(np.int32) - through
    return result


def _bet_money(columns: list[pa.Array], bet_columns: dict[str, tuple[int, int]],
               model: Model, settler: Settler, labels: list[IntArray], hand: IntArray,
               ) -> tuple[IntArray, list[list[int]]] | None:
    """Each row's stake on each bet of the model, and per bet its (stakes, stake sum,
    stake square sum, amount returned); None at a stake or amount that is not a plain
    integer below :data:`_MONEY_LIMIT`, a stake without its amount returned (or the other
    way round), a stake on a bet the profile does not have or after its betting window,
    or an amount returned the paytable does not pay. The model's bets are checked
    together, as rows of one matrix (a few numpy calls for all of lucky-baccarat's 19)."""
    n = len(hand)
    bet_index = model.bet_index()
    windows = dict(model.profile.procedure.windows)
    stakes = np.zeros((n, len(model.bets)), dtype=np.int64)
    money: list[list[int]] = [[0, 0, 0, 0] for _ in model.bets]
    held: list[int] = []  # the model's bets logged, and their columns
    stake_rows: list[IntArray] = []
    returned_rows: list[IntArray] = []
    for bet_id, (stake_col, returned_col) in bet_columns.items():
        stake_text, returned_text = columns[stake_col], columns[returned_col]
        if stake_text.type == returned_text.type == pa.int64():
            # (Arrow's int64: plain integers, checked below; an empty cell reads 0)
            stake, no_stake = int_cells(stake_text)
            returned, no_return = int_cells(returned_text)
            if (no_stake != no_return).any():
                return None  # a stake without the amount returned, or the other way round
        else:
            no_stake, no_return = empty_cells(stake_text), empty_cells(returned_text)
            empty = bool(no_stake.any() or no_return.any())
            if empty and not np.array_equal(no_stake, no_return):
                return None  # a stake without the amount returned, or the other way round
            found_stake = plain_integers(stake_text, empty)
            found_returned = plain_integers(returned_text, empty)
            if found_stake is None or found_returned is None:
                return None
            stake, returned = found_stake, found_returned
        bet = bet_index.get(bet_id)
        if bet is None:
            if (stake != 0).any() or (returned != 0).any():
                return None  # a bet the profile does not have
            continue
        held.append(bet)
        stake_rows.append(stake)
        returned_rows.append(returned)
    if not held or not n:
        return stakes, money
    stake_of, returned_of = np.stack(stake_rows), np.stack(returned_rows)  # (bets, rows)
    if min(int(stake_of.min()), int(returned_of.min())) < 0 or \
            max(int(stake_of.max()), int(returned_of.max())) >= _MONEY_LIMIT:
        return None  # (below 0: a plain integer column above 10**18 - 1 would not read)
    label_of = np.stack([labels[i] for i in held]) + np.array(
        [settler.offsets[i] for i in held], dtype=np.int64)[:, None]
    if not _paid(stake_of, returned_of, label_of, settler):
        return None
    for row, i in enumerate(held):
        last = windows.get(model.bets[i].bet.id)
        if last is not None and ((stake_of[row] > 0) & (hand > last)).any():
            return None  # staked after its betting window closed
    staked = stake_of > 0
    counts, largest = staked.sum(axis=1).tolist(), stake_of.max(axis=1).tolist()
    if any(count and count * high ** 2 >= 1 << 62
           for count, high in zip(counts, largest, strict=True)):
        return None
    totals = stake_of.sum(axis=1).tolist()
    squares = (stake_of * stake_of).sum(axis=1).tolist()
    returns = (returned_of * staked).sum(axis=1).tolist()
    for row, i in enumerate(held):
        stakes[:, i] = stake_of[row]
        money[i] = [counts[row], totals[row], squares[row], returns[row]]
    return stakes, money


def _paid(stake: IntArray, returned: IntArray, label: IntArray, settler: Settler) -> bool:
    """Does every amount returned match the paytable (with the rounding rule)? Rows of
    ``stake``, ``returned`` and ``label`` (each stake's flat label: see
    :class:`~analyzer.verify.replay.Settler`) are bets."""
    num_of, den_of, large = _multipliers(tuple(settler.label_nets))
    if large.size and bool(np.bincount(label.ravel(), minlength=len(num_of))[large].any()):
        return False  # a multiplier of 2**20 or more (left to the reference)
    num, den = num_of.take(label), den_of.take(label)
    exact = stake * num
    good = returned * den == exact
    # (where den is 1 nothing is fractional: only the bets with a fractional multiplier)
    for row in np.flatnonzero((den != 1).any(axis=1)).tolist():
        e, d, r = exact[row], den[row], returned[row]
        floor, remainder = np.divmod(e, d)
        fractional = remainder != 0
        if settler.rounding == "down":
            allowed = r == floor
        elif settler.rounding == "nearest":
            allowed = r == (2 * e + d) // (2 * d)
        else:
            allowed = (r == floor) | (r == floor + 1)
        good[row] |= fractional & allowed
    return bool(good.all())


@cache
def _multipliers(nets: tuple[Fraction, ...]) -> tuple[IntArray, IntArray, IntArray]:
    """Numerator and denominator of each label's amount returned per unit staked (1 +
    its net), and the labels where either is 2**20 or more (there read as 0 / 1)."""
    whole = [1 + net for net in nets]
    large = [j for j, m in enumerate(whole) if m.numerator >= 1 << 20 or m.denominator >= 1 << 20]
    small = [Fraction(0) if j in large else m for j, m in enumerate(whole)]
    return (np.array([m.numerator for m in small], dtype=np.int64),
            np.array([m.denominator for m in small], dtype=np.int64),
            np.array(large, dtype=np.int64))
