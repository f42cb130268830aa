"""Checking one hand log: every hand replayed and tallied, into the file's :class:`Partial`.

:func:`check_file` streams the log's records and hands each to its piece: the
:class:`~analyzer.verify.shoes.ShoeTracker` (which shoe, which cards), the
:class:`~analyzer.verify.replay.Settler` (rules, winner, result labels, payouts), the
:class:`Tally` (exact counts and money) and, in the shoe-aware model,
:class:`~analyzer.verify.inference.moments.ShoeMoments`. Violations and malformed records go to the
file's :class:`~analyzer.verify.partial.IssueLog`, with their file, line, shoe and hand.
Statistics are done later, on merged partials (:func:`analyzer.verify.verdict.finish`).
"""

from __future__ import annotations

import gc
import math
import os
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.dealing.dialects import CARD_RANK
from analyzer.dealing.handlog import (
    Hand,
    Header,
    LogOptions,
    Problem,
    Record,
    ShoeEnd,
    ShoeStart,
    detect_format,
    number_notation,
    read_log,
    sniff_log,
)
from analyzer.dealing.records import Amount, Layout, NotChecked
from analyzer.dealing.segments import UNCOUNTED, BrokenSegment, Segment, counted
from analyzer.engine import backend
from analyzer.engine.lookup import Model
from analyzer.engine.shoe_aware import ShoeEvaluator, shoe_evaluator
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import Profile
from analyzer.verify.columnar import replay_columns
from analyzer.verify.inference.decks import DeckTally
from analyzer.verify.inference.fixed import to_floats
from analyzer.verify.inference.moments import ShoeMoments
from analyzer.verify.inference.shuffle import ShuffleTally
from analyzer.verify.overlap import CHUNK as RUN_CHUNK
from analyzer.verify.overlap import HandRuns
from analyzer.verify.partial import BetTally, IssueLog, Partial, check_written_for
from analyzer.verify.replay import Payouts, Settler
from analyzer.verify.shoes import ShoeTracker, shoe_composition

__all__ = ["check_file", "check_header", "money_scale", "prepare", "Tally", "value_profile"]


class Tally:
    """Hands counted per (results, money) cell, folded into exact per-label counts and money.

    Most hands repeat a cell seen before: its payouts are checked once, when it is new
    (:meth:`cell`), and the cells are added up into :attr:`counts` and :attr:`money` by
    :meth:`fold`.
    """

    LIMIT = 100_000

    def __init__(self, model: Model, settler: Settler) -> None:
        self.settler = settler
        self.bet_index = model.bet_index()
        self.counts = [0] * settler.labels
        # hands, stake, stake², returned (exact: ints, or Fractions of decimal amounts)
        self.money: list[list[Any]] = [[0, 0, 0, 0] for _ in model.bets]
        self.hands = 0
        self.unsettled = 0  # hands too short to settle (a violation each)
        # (flat labels, bets) -> [hands, violations of those payouts]
        self.cells: dict[tuple[tuple[int, ...], Payouts], list[Any]] = {}

    def cell(self, labels: tuple[int, ...], bet_labels: dict[str, int],
             bets: Payouts) -> list[Any]:
        """A new (results, money) cell, its payouts checked once for all its hands."""
        if len(self.cells) > self.LIMIT:
            self.fold()
        cell = [0, self.settler.payout_problems(bet_labels, bets)]
        self.cells[(labels, bets)] = cell
        return cell

    def fold(self) -> None:
        """Add the cells into the exact per-label counts and money sums."""
        index = self.bet_index
        for (labels, bets), (n, _) in self.cells.items():
            for label in labels:
                self.counts[label] += n
            self.hands += n
            for bet_id, stake, returned in bets:
                i = index.get(bet_id)
                if i is None or not stake:  # a zero stake is no staked hand (a payment on
                    continue                # it is a payout violation, see cell)
                sums = self.money[i]
                sums[0] += n
                sums[1] += n * stake
                sums[2] += n * stake * stake
                sums[3] += n * returned
        self.cells.clear()


def value_profile(profile: Profile) -> Profile:
    """The profile a values-only log is checked against: its bets that read point values
    only (bets on ranks or suits cannot be settled without the cards)."""
    kept = tuple(b for b in profile.bets if not b.card_level)
    if not kept:
        raise AnalyzerError(f"every bet of profile {profile.name!r} reads ranks or suits: a "
                            "log of point values only cannot be checked against it")
    return profile if len(kept) == len(profile.bets) else replace(profile, bets=kept)


def _notation(path: str | Path, options: LogOptions) -> str:
    """How the log writes its cards: ``cards``, ``values`` or ``ranks`` (``options.cards``,
    else told from its first hands)."""
    fmt = options.format if options.format != "auto" else detect_format(path)
    if options.cards == "cards":
        return "cards"
    if options.cards == "auto" and not sniff_log(path, options, fmt).values:
        return "cards"
    return number_notation(path, options, fmt)


def check_file(path: str | Path, model: Model, options: LogOptions | None = None,
               shoe_aware: bool = False, exact_card_bets: bool = True,
               segment: Segment | None = None) -> Partial:
    """Replay one log and return its partial sums (statistics are done by ``finish``).

    ``options.format`` is the log's format as :func:`~analyzer.dealing.handlog.detect_format`
    told it (``auto``: told here). ``exact_card_bets``: in the shoe-aware model, bets of a
    card-level profile that need exact odds per hand get them (else they are tested
    against the full shoe). A values-only log (``options.cards``, or told from its first
    hand) is checked at the level of point values: ``model`` must then hold only bets on
    point values (:func:`value_profile`); stakes on the bets named in
    ``options.skip_bets`` are not checked. ``segment``: only that run of whole shoes of
    the file (:func:`~analyzer.dealing.segments.find_segments`); :class:`BrokenSegment`
    when a run after the first does not open a shoe or continues one begun before it.
    """
    options = options or LogOptions()
    source = str(path)
    notation = _notation(path, options)
    values = notation != "cards"
    if values and model.card_level:
        raise AnalyzerError(f"{source}: a log of point values only cannot settle the bets on "
                            f"ranks or suits of {model.profile.name!r} (verify_logs leaves "
                            "them out)")
    options = replace(options, cards=notation)
    settler = Settler(model, options.rounding, frozenset(options.skip_bets))
    issues = IssueLog(source)
    evaluator = shoe_evaluator(model, exact_card_bets) if shoe_aware and model.card_level \
        else None
    if options.format == "auto":
        options = replace(options, format=detect_format(path))

    def tallies() -> tuple[ShoeMoments | None, ShuffleTally, DeckTally, HandRuns]:
        return (ShoeMoments(model, evaluator, values) if shoe_aware else None,
                ShuffleTally(model, shoe_composition(model, values), values),
                DeckTally(model, values), HandRuns(values))

    moments, shuffle, decks, runs = tallies()
    fast = None
    # a clean CSV log of a fixed-tableau profile: checked column-wise (None: record by
    # record, with fresh tallies; NINE_VERIFY_PATH=records: always, the reference)
    if os.environ.get("NINE_VERIFY_PATH") != "records":
        fast = replay_columns(path, model, options, settler, moments, shuffle, segment,
                              decks, runs)
        if fast is None:
            moments, shuffle, decks, runs = tallies()
    shoes = ShoeTracker(model, issues, moments, evaluator is not None, values, shuffle.add,
                        decks)
    tally = Tally(model, settler)
    windows = dict(model.profile.procedure.windows)
    # the hot loop: bound names
    entries, entry_for, card_level = settler.entries, settler.entry_for, settler.card_level
    cells, new_cell = tally.cells, tally.cell
    violation = issues.violation
    route, deal = shoes.hand, shoes.deal
    bet_index, bet_count = tally.bet_index, len(model.bets)
    shoe_aware_hands = 0
    last_shoe: object = None  # the shoe of the last hand queued for the moments
    stakes_of: dict[Payouts, list[Amount]] = {}
    records: Iterator[Record] = iter(()) if fast is not None else \
        read_log(path, options, segment)
    # a run after the file's first (the lines before it perhaps not counted yet)
    later = segment is not None and (segment.lines_before == UNCOUNTED or segment.lines_before > (
        1 if options.format in ("csv", "tsv") else 0))
    if later:
        records = _opening(records, source)
    layouts: list[Layout] = []
    noted: list[tuple[str, str, str]] = []
    run_shoe: object = None  # the shoe of the run of hands being hashed
    run_keys, cut_run = runs.keys, runs.cut
    for rec in records:
        if type(rec) is Hand:
            shoe = shoes.current  # the hot path: the next hand of the same shoe
            if shoe is not None and rec.shoe == shoe.id and rec.hand == shoe.last_hand + 1 \
                    and not rec.burn and shoes.announced is None and not shoes.lost:
                shoe.last_hand = rec.hand
                shoe.hands += 1
            else:
                shoe = route(rec)
            if shoe is not run_shoe:
                cut_run()
                run_shoe = shoe
            run_keys.append(hash((rec.player, rec.banker)))  # overlap.hand_key, inline
            if len(run_keys) >= RUN_CHUNK:
                runs.flush()
            key = (rec.player_values, rec.banker_values)
            entry = entries.get(key) if not card_level else None
            if entry is None:
                entry = entry_for(rec)
            broken, winner, labels, bet_labels = entry
            if moments is not None and labels:  # queue the hand's depleted shoe
                stakes = stakes_of.get(rec.bets)
                if stakes is None:  # most hands repeat a few bet patterns
                    if len(stakes_of) > Tally.LIMIT:
                        stakes_of.clear()
                    stakes = stakes_of[rec.bets] = _stakes(rec.bets, bet_index, bet_count)
                moments.add(shoes.depleted(), stakes, shoe is not last_shoe)
                last_shoe = shoe
                shoe_aware_hands += shoe.tracking
            if moments is None:
                shoe.hand_records.append(rec)  # checked when the shoe closes
                if len(shoe.hand_records) >= shoe.spill_at:
                    shoes.spill(shoe)  # more hands than one shoe holds: several shoes
            else:
                deal(rec)
            if broken is not None:
                violation(rec, broken[0], broken[1])
            if windows and rec.bets:
                _check_windows(rec, shoe.hands if shoe.whole else rec.hand, windows,
                               issues)
            if not labels:
                tally.unsettled += 1
                continue
            if rec.outcome is not None and rec.outcome != winner:
                violation(rec, "outcome", f"logged {rec.outcome}, the cards give {winner}")
            # one count per (results, money) pair: the payouts of a pair are checked once
            cell = cells.get((labels, rec.bets))
            if cell is None:
                cell = new_cell(labels, bet_labels, rec.bets)
            cell[0] += 1
            if cell[1]:
                for kind, message in cell[1]:
                    violation(rec, kind, message)
        elif type(rec) is Problem:
            issues.problem(rec.line, rec.message)
            shoes.lost_record()
        elif type(rec) is ShoeStart:
            shoes.shoe_start(rec)
        elif type(rec) is ShoeEnd:
            shoes.shoe_end(rec.shoe)
        elif type(rec) is Header:
            check_header(rec, model, source)
        elif type(rec) is Layout:
            layouts.append(rec)
        elif type(rec) is NotChecked:
            noted.append((rec.what, rec.why, source))
    if later and shoes.unopened:
        first_line = counted(path, segment or Segment(0, 0, 0)).lines_before + 1
        raise BrokenSegment(f"{source}: rows of a shoe begun before line {first_line} "
                            "continue after it (interleaved shoes): the file is checked whole")
    # a run of a larger file ends where the file's next shoe opens: not a cut
    more = segment is not None and segment.end < os.path.getsize(path)
    shoes.close_shoe(more)
    tally.fold()
    if fast is not None:
        tally.counts, tally.money, tally.hands = fast.counts, fast.money, fast.hands
        shoes.shoes = fast.shoes  # each opens at hand 1; each but the last ends at the next
        shoes.cut_shoes = int(not (fast.last_ended or more))
        shoes.whole_shoes = fast.shoes - shoes.cut_shoes
        shoes.card_counts = fast.card_counts
        shoe_aware_hands = fast.hands if moments is not None else 0
        if fast.columns is not None:
            layouts.append(Layout(1, fast.columns.used, fast.columns.ignored,
                                  fast.columns.roles))
            noted.extend((n.what, n.why, source) for n in fast.columns.not_checked)
    if moments is not None:
        moments.flush()
    used, ignored, roles = _layout(layouts)
    scale = money_scale(tally.money)
    bets, bet_sums = _bet_tallies(model, tally, moments, scale)
    ranks = _rank_moments(moments)
    categories = len(ranks) and (10 if values else 13)
    rank_floats = to_floats(ranks)
    return Partial(model.profile.name, model.decks,
                   "shoe" if moments is not None else "independent", (source,),
                   tally.hands + tally.unsettled, shoes.shoes, shoes.whole_shoes,
                   shoe_aware_hands, issues.malformed_count, tuple(issues.malformed),
                   issues.violation_count, tuple(issues.violations),
                   tuple(sorted(issues.kinds.items())),
                   bets, tuple(shoes.card_counts), rank_floats[:categories],
                   rank_floats[categories:],
                   undelimited_shoes=shoes.undelimited,
                   bet_nulls=evaluator.nulls if evaluator is not None else (),
                   values_only=values, skipped_bets=options.skip_bets,
                   shuffle=shuffle.sums(), deck_fit=decks.fit(), deck_floor=decks.floor,
                   deck_shoes=decks.shoes, columns_used=used, columns_ignored=ignored,
                   not_checked=(*noted, *_unlogged(roles, source, model.decks)),
                   money_scale=scale, cut_shoes=shoes.cut_shoes,
                   fixed=(*bet_sums, *ranks, *decks.sums_fixed()), hand_runs=runs.sums())


def prepare(model: Model, options: LogOptions, shoe_aware: bool = False,
            exact_card_bets: bool = True) -> None:
    """Build what :func:`check_file` of a log of ``model`` (its cards as ``options.cards``
    says) reads from this process's caches: the coup lookup and settled coups, the
    shuffle tally's run probabilities, the shoe-aware evaluator and, once the kernels are
    loaded (:func:`analyzer.engine.backend.loaded`), numba's code for the calls the
    column-wise check makes (the independent model of a large log: the shuffle tally's
    only; each kernel loaded from numba's cache on its first call:
    about 0.3 s of CPU). A parent does it before forking its workers, which inherit it
    instead of each building it again. No result depends on it: one whole shoe in card
    order goes through throwaway tallies."""
    values = options.cards in ("values", "ranks")
    Settler(model, options.rounding, frozenset(options.skip_bets))
    shuffle = ShuffleTally(model, shoe_composition(model, values), values)
    evaluator = shoe_evaluator(model, exact_card_bets) if shoe_aware and model.card_level \
        else None
    if values or not backend.loaded():
        return
    collecting = gc.isenabled()
    gc.disable()  # numba's first load builds its registries: objects kept for good, which
    try:  # the collector would go through again and again (about 0.15 s)
        _warm(model, evaluator, shuffle, shoe_aware)
    finally:
        if collecting:
            gc.enable()


def _warm(model: Model, evaluator: ShoeEvaluator | None, shuffle: ShuffleTally,
          shoe_aware: bool) -> None:
    """One whole shoe in card order through the calls to numba's kernels a column-wise
    check makes (:func:`prepare`; the independent model: the shuffle tally's only)."""
    counts = model.shoe.counts
    cards = np.repeat(np.arange(52, dtype=np.int64), counts)
    shuffle.add_shoes(cards, [0, cards.size])
    if not shoe_aware:
        return
    moments = ShoeMoments(model, evaluator, False)
    ranks = [CARD_RANK[c] - 1 for c in range(52)]
    start = [0] * 13
    for c, k in enumerate(counts):
        start[ranks[c]] += k
    moments.add_shoe(start, cards, np.ones(cards.size, dtype=bool), ranks)
    moments.rank_sums()
    full = counts if model.card_level else model.shoe.value_counts()
    moments.add_rows(np.array([full], dtype=np.int64),
                     np.zeros((1, len(model.bets)), dtype=np.int64), np.ones(1, dtype=bool))
    moments.flush()


def _layout(layouts: list[Layout]) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...],
                                             set[str]]:
    """The columns (or keys) a file's readers used and ignored, and the roles found."""
    used: dict[str, str] = {}
    for layout in layouts:
        for name, meaning in layout.used:
            used.setdefault(name, meaning)
    ignored = dict.fromkeys(n for layout in layouts for n in layout.ignored if n not in used)
    return (tuple(used.items()), tuple(ignored),
            {role for layout in layouts for role in layout.roles})


def _unlogged(roles: set[str], source: str, decks: int) -> list[tuple[str, str, str]]:
    """The checks a file's columns (or keys) could not support: (what, why, source)."""
    found = []
    if "money" not in roles:
        found.append(("payouts", "no stake and returned (or profit) columns", source))
    if "outcome" not in roles:
        found.append(("outcomes", "no outcome column (the winner the simulator claims)",
                      source))
    if "burn" not in roles:
        found.append(("burn", "no burn column: the cards burned are not in the log", source))
    if "decks" not in roles:
        found.append(("decks", f"the log does not state its deck count ({decks} decks "
                               "assumed: the profile's, or --decks)", source))
    return found


def money_scale(money: list[list[Any]]) -> int:
    """The smallest whole number making every money sum whole (stakes and amounts returned
    times it, squared stakes times its square): 1 unless amounts were logged as decimals.

    >>> from fractions import Fraction
    >>> money_scale([[2, 20, 200, Fraction(39, 2)]])
    2
    """
    scale = 1
    for sums in money:
        for value in sums[1:]:
            if isinstance(value, Fraction):
                scale = math.lcm(scale, value.denominator)
    return scale


def _opening(records: Iterator[Record], source: str) -> Iterator[Record]:
    """The records of a run of whole shoes after a file's first: its first record must
    open a shoe (a shoe record, or hand 1), else :class:`BrokenSegment`."""
    for rec in records:
        if isinstance(rec, Layout | NotChecked):
            yield rec
            continue
        if not (type(rec) is ShoeStart or (type(rec) is Hand and rec.hand == 1)):
            raise BrokenSegment(f"{source}: line {rec.line}: a run of the file does not "
                                "open a shoe here: the file is checked whole")
        yield rec
        break
    yield from records


def check_header(header: Header, model: Model, source: str) -> None:
    """Stop the run (AnalyzerError) when a log's header names another profile or deck
    count than the run's (:func:`~analyzer.verify.partial.check_written_for`)."""
    check_written_for(f"{source}: line {header.line}", "the log's header says",
                      header.profile, header.decks, model.profile, model.decks)


def _check_windows(rec: Hand, number: int, windows: dict[str, int], issues: IssueLog) -> None:
    """A stake placed after its bet's betting window closed (the profile's procedure): a
    violation. ``number`` is the hand's place in its shoe."""
    for bet_id, stake, _ in rec.bets:
        last = windows.get(bet_id)
        if last is not None and stake > 0 and number > last:
            issues.violation(rec, "window", f"{bet_id}: staked {stake} on hand {number} of "
                                            f"shoe {rec.shoe or '?'}; its betting window "
                                            f"closes after hand {last}")


def _stakes(bets: Payouts, bet_index: dict[str, int], count: int) -> list[Amount]:
    """Each bet's stake on a hand, in the model's bet order (0 when not staked)."""
    stakes: list[Amount] = [0] * count
    for bet_id, stake, _ in bets:
        i = bet_index.get(bet_id)
        if i is not None:
            stakes[i] = stake
    return stakes


def _bet_tallies(model: Model, tally: Tally, moments: ShoeMoments | None,
                 scale: int = 1) -> tuple[tuple[BetTally, ...], tuple[int, ...]]:
    """Per bet: its result counts and money (in units of 1/``scale``), and its shoe-aware
    moments if any; with the moments' exact sums (:attr:`Partial.fixed`'s bet part)."""
    bets = []
    exact: list[int] = []
    offsets = tally.settler.offsets
    for i, b in enumerate(model.bets):
        results = tuple(tally.counts[offsets[i]:offsets[i] + len(b.labels)])
        hands, stake, squares, returned = tally.money[i]
        m = (hands, int(stake * scale), int(squares * scale * scale), int(returned * scale))
        if moments is not None:
            sums = list(moments.bet_sums(i))
            sums[-2] *= scale
            sums[-1] *= scale * scale
            exact.extend(sums)
            k = len(b.labels)
            floats = to_floats(sums)
            bets.append(BetTally(b.bet.id, results, m[0], m[1], m[2], m[3], floats[:k],
                                 floats[k:k + k * k], *floats[k + k * k:]))
        else:
            bets.append(BetTally(b.bet.id, results, m[0], m[1], m[2], m[3]))
    return tuple(bets), tuple(exact)


def _rank_moments(moments: ShoeMoments | None) -> tuple[int, ...]:
    """The dealt cards' expected rank counts and their covariance (shoe-aware model),
    exact (:attr:`Partial.fixed`'s rank part)."""
    return () if moments is None else tuple(moments.rank_sums())
