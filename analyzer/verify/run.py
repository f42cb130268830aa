"""Verify a simulator's hand log against a profile: replay every hand, then test the counts.

**Replay.** Each hand is re-dealt from its logged cards by the profile's tableau: a coup's
third cards depend on its first four, so a missing or extra third card is a rule
violation, as are a claimed outcome the cards do not give and an amount returned that the
paytable does not pay. Violations carry the file, line, shoe and hand number; the first
:data:`LISTED` are kept and all are counted.

**Statistics.** Per bet, the observed counts of its result lines are tested against the
exact probabilities (a G-test, Sokal & Rohlf, *Biometry*, 3rd ed. 1995, section 17.2, with a
Monte Carlo p-value when an expected count is below 5, Hope 1968, JRSS B 30:582), rare
lines (probability below 1%) by an exact binomial test, and the return to player by a
z-score from the bet's exact standard deviation, with a confidence interval. The dealt
cards are tested too: their point values, the ranks among tens and faces, and the suits.
All p-values are adjusted together by Holm's step-down method (Holm 1979, Scand. J.
Statist. 6:65). For each bet the smallest RTP error the sample could detect (the bet's
own two-sided RTP z-test at ``alpha``, 80% power: :func:`rtp_hands_needed`) is reported; a
bet whose detectable error is larger than the ``detect`` target is *underpowered*, which is
reported apart from pass and fail.

**Shoe-aware model.** Hands dealt from a shoe are not independent draws from the full
shoe. When a log holds whole shoes, each hand is tested against its exact distribution
given every card already dealt from its shoe (evaluated in float64 on the same
polynomial as :mod:`analyzer.engine.odds`); observed minus expected is then a martingale, and the
tests use its summed conditional covariance (a Wald statistic, Hall & Heyde, *Martingale
Limit Theory*, 1980, ch. 3). Unlogged burn cards do no harm: unseen cards are exchangeable.

**Merging.** A file's result is a :class:`Partial` of exact sums; partials of many files
merge by addition (:func:`merge`), so files can be checked in parallel processes.

Exit codes (:func:`exit_code`): 0 pass, 1 statistical failure, 2 unusable input (a
malformed record or a card beyond the shoe's composition included), 3 rule or payout
violations, 4 underpowered when power is required.

>>> table = replay_rules(load_profile("punto-banco").tableau)
>>> table((8, 0, 5), (1, 2))
('natural-draw', 'Player drew a third card on a natural (Player 8, Banker 3)')
>>> table((3, 1, 9), (2, 3)) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import chain
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.dealing.handlog import (
    CARD_RANK,
    CARD_VALUE,
    ROUNDING,
    Counts,
    Hand,
    LogOptions,
    Problem,
    ShoeEnd,
    ShoeStart,
    card_text,
    detect_format,
    read_counts,
    read_log,
)
from analyzer.dealing.simulate import hand_features
from analyzer.engine.lookup import Model, build_model, coup_lookup
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import (
    EXACT_HANDS,
    NULL_EXACT,
    NULL_FOUR_CARD,
    NULL_FULL,
    NULL_TWO_CARD,
    NULL_VALUES,
    CardShoeAwareEvaluator,
    ShoeAwareEvaluator,
    card_evaluator,
    full_shoe_value_moments,
    shoe_aware_evaluator,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import settle
from analyzer.rules.profile import Profile, Tableau, load_profile

__all__ = ["BATCH", "BetSummary", "BetTally", "check_file", "collect", "counts_partial",
           "detectable_error", "exit_code", "EXIT_INPUT", "EXIT_PASS", "EXIT_STATISTICS",
           "EXIT_UNDERPOWERED", "EXIT_VIOLATIONS", "finish", "g_test", "hands_needed", "holm",
           "Issue", "LISTED", "load_partial", "merge", "MONTE_CARLO_REPLICATES", "Partial",
           "PARTIAL_FORMAT", "POWER", "RARE_LINE", "replay_rules", "rtp_hands_needed",
           "save_partial", "Settled", "SMALL_EXPECTED", "StatisticalTest", "Verdict",
           "verify_logs", "wald_test", "Work"]

#: How many violations and malformed records are listed (all are counted).
LISTED = 100
#: Lines rarer than this get an exact binomial test of their own.
RARE_LINE = 0.01
#: Expected counts below this make the G-test use a Monte Carlo p-value.
SMALL_EXPECTED = 5.0
#: Monte Carlo replicates for small-count G-tests.
MONTE_CARLO_REPLICATES = 20_000
#: Power at which the detectable RTP error is reported.
POWER = 0.8
#: Hands evaluated together in the shoe-aware model.
BATCH = 128

EXIT_PASS, EXIT_STATISTICS, EXIT_INPUT, EXIT_VIOLATIONS, EXIT_UNDERPOWERED = 0, 1, 2, 3, 4


# -- replay ----------------------------------------------------------------------------------
def replay_rules(tableau: Tableau) -> Callable[[tuple[int, ...], tuple[int, ...]],
                                               tuple[str, str] | None]:
    """A checker of one hand's drawing against the tableau: (kind, message) or None."""
    naturals = tableau.naturals
    player_draws = tableau.player_draws

    def check(player: tuple[int, ...], banker: tuple[int, ...]) -> tuple[str, str] | None:
        if not 2 <= len(player) <= 3 or not 2 <= len(banker) <= 3:
            return ("card-count", f"Player has {len(player)} cards and Banker {len(banker)}"
                                  " (each hand has 2 or 3)")
        player_two = (player[0] + player[1]) % 10
        banker_two = (banker[0] + banker[1]) % 10
        where = f"Player {player_two}, Banker {banker_two}"
        if player_two in naturals or banker_two in naturals:
            if len(player) == 3:
                return ("natural-draw", f"Player drew a third card on a natural ({where})")
            if len(banker) == 3:
                return ("natural-draw", f"Banker drew a third card on a natural ({where})")
            return None
        must = player_two in player_draws
        if must and len(player) == 2:
            return ("player-draw", f"Player stood on {player_two} where it must draw ({where})")
        if not must and len(player) == 3:
            return ("player-draw", f"Player drew on {player_two} where it must stand ({where})")
        third = player[2] if len(player) == 3 else None
        draws = tableau.banker_draws_on(banker_two, third)
        after = "Player stood" if third is None else f"Player's third card {third}"
        if draws and len(banker) == 2:
            return ("banker-draw", f"Banker stood on {banker_two} where it must draw ({after})")
        if not draws and len(banker) == 3:
            return ("banker-draw", f"Banker drew on {banker_two} where it must stand ({after})")
        return None

    return check


# -- partial results -------------------------------------------------------------------------
@dataclass(frozen=True)
class Issue:
    """A violation or a malformed record, with where it is."""

    source: str
    line: int
    shoe: str
    hand: int | None
    kind: str
    message: str

    def where(self) -> str:
        """``file:line (shoe S, hand H)``."""
        hand = f" (shoe {self.shoe}, hand {self.hand})" if self.hand is not None else ""
        return f"{self.source}:{self.line}{hand}"


@dataclass(frozen=True)
class BetTally:
    """Sums for one bet: result counts (exact), money (exact), shoe-aware moments (float)."""

    id: str
    results: tuple[int, ...]
    staked_hands: int = 0
    stake: int = 0
    stake_squares: int = 0
    returned: int = 0
    expected: tuple[float, ...] = ()
    covariance: tuple[float, ...] = ()
    ev_sum: float = 0.0
    variance_sum: float = 0.0
    money_ev_sum: float = 0.0
    money_variance_sum: float = 0.0


@dataclass(frozen=True)
class Partial:
    """What one or more files contributed: exact sums that merge by addition."""

    profile: str
    decks: int
    model: str
    sources: tuple[str, ...]
    hands: int
    shoes: int
    whole_shoes: int
    shoe_aware_hands: int
    malformed_count: int
    malformed: tuple[Issue, ...]
    violation_count: int
    violations: tuple[Issue, ...]
    violation_kinds: tuple[tuple[str, int], ...]
    bets: tuple[BetTally, ...]
    card_counts: tuple[int, ...]
    rank_expected: tuple[float, ...] = ()
    rank_covariance: tuple[float, ...] = ()
    counts_only: bool = False
    #: stretches of hands logged without a shoe id that held more cards than one shoe
    #: (shoes could not be told apart: their composition check was skipped)
    undelimited_shoes: int = 0
    notes: tuple[str, ...] = ()
    #: shoe-aware model of a card-level profile: the null model each bet was tested against
    #: (:data:`NULL_VALUES` ...); empty when every bet is shoe-aware on point values
    bet_nulls: tuple[str, ...] = ()


def _add(a: Sequence[Any], b: Sequence[Any]) -> tuple[Any, ...]:
    if not a:
        return tuple(b)
    if not b:
        return tuple(a)
    return tuple(x + y for x, y in zip(a, b, strict=True))


def merge(partials: Iterable[Partial]) -> Partial:
    """Add partial results of the same profile and model (in the order given)."""
    items = list(partials)
    if not items:
        raise AnalyzerError("nothing to merge: no log was read")
    first = items[0]
    for other in items[1:]:
        if (other.profile, other.decks, other.model) != (first.profile, first.decks,
                                                           first.model):
            raise AnalyzerError("cannot merge results of different profiles, decks or models")
    kinds: dict[str, int] = {}
    bets = list(first.bets)
    for other in items[1:]:
        bets = [BetTally(a.id, _add(a.results, b.results), a.staked_hands + b.staked_hands,
                         a.stake + b.stake, a.stake_squares + b.stake_squares,
                         a.returned + b.returned, _add(a.expected, b.expected),
                         _add(a.covariance, b.covariance), a.ev_sum + b.ev_sum,
                         a.variance_sum + b.variance_sum, a.money_ev_sum + b.money_ev_sum,
                         a.money_variance_sum + b.money_variance_sum)
                for a, b in zip(bets, other.bets, strict=True)]
    for item in items:
        for kind, n in item.violation_kinds:
            kinds[kind] = kinds.get(kind, 0) + n
    rank_expected: tuple[float, ...] = ()
    rank_covariance: tuple[float, ...] = ()
    card_counts: tuple[int, ...] = ()
    for item in items:
        rank_expected = _add(rank_expected, item.rank_expected)
        rank_covariance = _add(rank_covariance, item.rank_covariance)
        card_counts = _add(card_counts, item.card_counts)
    nulls = {i.bet_nulls for i in items if i.bet_nulls}
    if len(nulls) > 1:
        raise AnalyzerError("cannot merge results whose bets were tested against different "
                            "null models (exact odds per hand in some, the full shoe in "
                            "others)")
    return Partial(
        first.profile, first.decks, first.model,
        tuple(s for item in items for s in item.sources),
        sum(i.hands for i in items), sum(i.shoes for i in items),
        sum(i.whole_shoes for i in items), sum(i.shoe_aware_hands for i in items),
        sum(i.malformed_count for i in items),
        tuple(x for i in items for x in i.malformed)[:LISTED],
        sum(i.violation_count for i in items),
        tuple(x for i in items for x in i.violations)[:LISTED],
        tuple(sorted(kinds.items())), tuple(bets), card_counts, rank_expected,
        rank_covariance, all(i.counts_only for i in items),
        sum(i.undelimited_shoes for i in items),
        tuple(dict.fromkeys(note for i in items for note in i.notes)),
        nulls.pop() if nulls else ())


class _ShoeAccumulator:
    """Buffers (depleted shoe, stakes) rows and adds their expectations up in batches.

    Rows are ten point-value counts, or 52 card counts with a card-level evaluator.
    """

    def __init__(self, model: Model,
                 evaluator: ShoeAwareEvaluator | CardShoeAwareEvaluator | None = None) -> None:
        self.model = model
        self.evaluator = evaluator if evaluator is not None else shoe_aware_evaluator(model)
        self.rows: list[list[int]] = []
        self.stakes: list[list[int]] = []
        nbets = len(model.bets)
        self.expected = [np.zeros(len(b.labels)) for b in model.bets]
        self.covariance = [np.zeros((len(b.labels), len(b.labels))) for b in model.bets]
        self.ev_sum = np.zeros(nbets)
        self.variance_sum = np.zeros(nbets)
        self.money_ev = np.zeros(nbets)
        self.money_variance = np.zeros(nbets)
        self.rank_mean = np.zeros(13)
        self.rank_covariance = np.zeros((13, 13))
        self.nets = [np.array([float(x) for x in b.nets]) for b in model.bets]

    def add(self, remaining: list[int], stakes: list[int]) -> None:
        self.rows.append(remaining)
        self.stakes.append(stakes)
        if len(self.rows) >= BATCH:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        ev = self.evaluator
        result = ev.evaluate(np.array(self.rows, dtype=np.float64))
        stakes = np.array(self.stakes, dtype=np.float64)
        self.rows, self.stakes = [], []
        for b, part in enumerate(ev.bet_slices):
            p = result[:, part]
            self.expected[b] += p.sum(axis=0)
            self.covariance[b] += np.diag(p.sum(axis=0)) - p.T @ p
            mean = p @ self.nets[b]
            variance = p @ (self.nets[b] ** 2) - mean**2
            self.ev_sum[b] += mean.sum()
            self.variance_sum[b] += variance.sum()
            self.money_ev[b] += (stakes[:, b] * mean).sum()
            self.money_variance[b] += (stakes[:, b] ** 2 * variance).sum()

    def add_shoe(self, start: Sequence[int], cards: Sequence[int], tested: Sequence[bool],
                 fixed: bool = False) -> None:
        """Rank moments of a shoe's cards dealt in order, each given the cards before it.

        Whatever decides which position is dealt next, the next card is uniform over the
        cards left, so each dealt card's rank has a known conditional distribution.
        """
        if not cards:
            return
        ranks = np.array([CARD_RANK[c] - 1 for c in cards])
        one_hot = np.zeros((len(cards), 13))
        one_hot[np.arange(len(cards)), ranks] = 1.0
        before = np.asarray(start, dtype=np.float64) - np.cumsum(one_hot, axis=0) + one_hot
        if fixed:  # a shoe not followed from its start: the full shoe's proportions
            before = np.tile(np.asarray(start, dtype=np.float64), (len(cards), 1))
        left = before.sum(axis=1)
        keep = np.asarray(tested, dtype=bool) & (left > 0)
        p = before[keep] / left[keep, None]
        self.rank_mean += p.sum(axis=0)
        self.rank_covariance += np.diag(p.sum(axis=0)) - p.T @ p


# -- checking one file -----------------------------------------------------------------------
def check_file(path: str | Path, model: Model, options: LogOptions | None = None,
               shoe_aware: bool = False, exact_card_bets: bool = True) -> Partial:
    """Replay one log and return its partial sums (statistics are done by :func:`finish`).

    ``exact_card_bets``: in the shoe-aware model, bets of a card-level profile that need
    exact odds per hand get them (else they are tested against the full shoe).
    """
    options = options or LogOptions()
    source = str(path)
    run = _FileCheck(source, model, shoe_aware, options.rounding, exact_card_bets)
    entry_for = run.entry_for
    entries = run.entries
    tally = run.tally
    violation = run.violation
    accumulator = run.accumulator
    shoe_hands = run.shoe_hands
    for rec in read_log(path, options):
        if type(rec) is Hand:
            if rec.shoe != run.shoe_id or run.announced is not None:
                run.new_hand_shoe(rec)
            elif not rec.shoe and (rec.hand == 1 or rec.burn) and run.last_hand:
                run.unnamed_shoe(rec)  # no shoe id logged: hand 1 or a burn opens a shoe
            elif rec.hand != run.last_hand + 1:
                run.gap(rec)
            run.last_hand = rec.hand
            if rec.burn:
                run.take(rec.burn, rec.line, rec.hand, False)
            key = (rec.player_values, rec.banker_values)
            entry = entries.get(key) if not run.card_level else None
            if entry is None:
                entry = entry_for(rec)
            broken, winner, labels, bet_labels = entry
            if accumulator is not None:
                run.shoe_aware_row(rec, labels)
            else:
                shoe_hands.append(rec)
            if broken is not None:
                violation(rec, broken[0], broken[1])
            if not labels:
                run.unsettled += 1
                continue
            if rec.outcome is not None and rec.outcome != winner:
                violation(rec, "outcome", f"logged {rec.outcome}, the cards give {winner}")
            # one count per (results, money) pair: the payouts of a pair are checked once
            cell = tally.get((labels, rec.bets))
            if cell is None:
                cell = run.tally_cell(labels, bet_labels, rec.bets)
            cell[0] += 1
            if cell[1]:
                for kind, message in cell[1]:
                    violation(rec, kind, message)
        elif type(rec) is Problem:
            run.problem(rec.line, rec.message)
        elif type(rec) is ShoeStart:
            run.shoe_start(rec)
        elif type(rec) is ShoeEnd:
            run.announced = None
    return run.result()


#: A settled coup: rule violation (kind, message) or None, winner, flat result labels,
#: and each bet's label by bet id.
Settled = tuple[tuple[str, str] | None, str, tuple[int, ...], dict[str, int]]
_SETTLED: dict[int, tuple[Model, dict[int, Settled], dict[Any, Settled]]] = {}


def _settled(model: Model) -> tuple[dict[int, Settled], dict[Any, Settled]]:
    """The bounded caches of settled coups of a model (by row, and by logged values)."""
    found = _SETTLED.get(id(model))
    if found is None or found[0] is not model:
        found = _SETTLED[id(model)] = (model, {}, {})
    return found[1], found[2]


class _FileCheck:
    """The state of one file's replay: counts, money, shoe tracking and issues."""

    def __init__(self, source: str, model: Model, shoe_aware: bool,
                 rounding: str = "down", exact_card_bets: bool = True) -> None:
        if rounding not in ROUNDING:
            raise AnalyzerError(f"unknown rounding rule {rounding!r} "
                                f"({', '.join(ROUNDING)})")
        self.source = source
        self.model = model
        self.rounding = rounding
        tableau = model.profile.tableau
        assert tableau is not None
        self.rules = replay_rules(tableau)
        self.naturals = tableau.naturals
        self.card_level = model.card_level
        self.offsets: list[int] = []
        total = 0
        for b in model.bets:
            self.offsets.append(total)
            total += len(b.labels)
        self.label_nets = [net for b in model.bets for net in b.nets]
        self.label_names = [(b.label_name(j) if b.labels[j] else "loses")
                            for b in model.bets for j in range(len(b.labels))]
        self.counts = [0] * total
        # (flat labels, bets) -> [hands, violations of those payouts]
        self.tally: dict[tuple[tuple[int, ...], tuple[tuple[str, int, int], ...]],
                         list[Any]] = {}
        self.unsettled = 0  # hands too short to settle (a violation each)
        self.money_sums = [[0, 0, 0, 0] for _ in model.bets]  # hands, stake, stake², returned
        self.card_counts = [0] * 52
        self.malformed: list[Issue] = []
        self.malformed_count = 0
        self.violations: list[Issue] = []
        self.violation_count = 0
        self.kinds: dict[str, int] = {}
        self.composition = [model.decks] * 52
        self.full_values = list(model.shoe.value_counts())
        self.card_evaluator = (card_evaluator(model, exact_card_bets)
                               if shoe_aware and model.card_level else None)
        self.accumulator = (_ShoeAccumulator(model, self.card_evaluator) if shoe_aware
                            else None)
        self.bet_index = model.bet_index()
        self.index = coup_lookup(model)
        # settled coups, kept per model and shared by every file this process checks
        self.row_entries, self.entries = _settled(model)
        self.hands = self.shoes = self.whole_shoes = self.shoe_aware_hands = 0
        self.shoe_id: str | None = None
        self.unnamed = False  # the shoe has no id and no shoe record: its end is a guess
        self.pending: list[tuple[int, str, int | None]] = []  # its composition problems
        self.undelimited = 0
        self.shoe_size = 52 * model.decks
        self.shoe_counts = [0] * 52
        self.remaining = list(self.full_values)
        self.remaining_cards = list(self.composition)  # card-level shoe-aware rows
        self.tracking = False
        self.last_hand = 0
        self.announced: str | None = None
        self.shoe_hands: list[Hand] = []  # independent model: the shoe's hands, checked at close
        self.sequence: list[int] = []  # shoe-aware: a followed shoe's cards in dealt order
        self.tested: list[bool] = []  # ... and whether each is a hand card (burns are not)
        self.untracked: list[int] = []  # hand cards of shoes not followed from their start
        self.reported: set[int] = set()
        self.start_ranks = [0] * 13
        for c in range(52):
            self.start_ranks[CARD_RANK[c] - 1] += self.composition[c]

    # -- issues --------------------------------------------------------------------------
    def problem(self, line: int, message: str, shoe: str = "", hand: int | None = None,
                kind: str = "malformed") -> None:
        self.malformed_count += 1
        if len(self.malformed) < LISTED:
            self.malformed.append(Issue(self.source, line, shoe, hand, kind, message))

    def violation(self, rec: Hand, kind: str, message: str) -> None:
        self.violation_count += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if len(self.violations) < LISTED:
            self.violations.append(Issue(self.source, rec.line, rec.shoe, rec.hand, kind,
                                         message))

    # -- settling ------------------------------------------------------------------------
    def entry_for(self, rec: Hand) -> tuple[tuple[str, str] | None, str, tuple[int, ...],
                                            dict[str, int]]:
        """Rule check, winner, flat labels and per-bet label of a coup (cached)."""

        pv, bv = rec.player_values, rec.banker_values
        model = self.model
        key: Any = (rec.player, rec.banker) if self.card_level else (pv, bv)
        if self.card_level:
            found = self.entries.get(key)
            if found is not None:
                return found
        row = None if self.card_level else self.index.row(pv, bv)
        if row is not None:  # a legal coup: its settlement is precomputed, shared by row
            shared = self.row_entries.get(row)
            if shared is None:
                labels = tuple(self.offsets[i] + self.index.codes[i][row]
                               for i in range(len(model.bets)))
                shared = self.row_entries[row] = (
                    None, self.index.winners[row], labels,
                    {b.bet.id: labels[i] for i, b in enumerate(model.bets)})
            found = shared
        else:
            broken = self.rules(pv, bv)
            if len(pv) < 2 or len(bv) < 2:
                found = (broken, "", (), {})
            else:
                features = hand_features(rec.player, rec.banker, self.card_level,
                                         self.naturals)
                labels = tuple(self.offsets[i] + b.label(settle(b.bet, features))
                               for i, b in enumerate(model.bets))
                found = (broken, str(features["winner"]), labels,
                         {b.bet.id: labels[i] for i, b in enumerate(model.bets)})
        if len(self.entries) > 150_000:
            self.entries.clear()
        self.entries[key] = found
        return found

    def tally_cell(self, labels: tuple[int, ...], bet_labels: dict[str, int],
                   bets: tuple[tuple[str, int, int], ...]) -> list[Any]:
        """A new (results, money) cell, its payouts checked once for all its hands."""
        if len(self.tally) > 100_000:
            self.fold_tally()
        problems = []
        for bet_id, stake, returned in bets:
            label = bet_labels.get(bet_id)
            if label is None:
                problems.append(("unknown-bet", f"bet {bet_id!r} is not in profile "
                                                f"{self.model.profile.name!r}"))
                continue
            multiplier = 1 + self.label_nets[label]
            if returned * multiplier.denominator != stake * multiplier.numerator:
                exact = stake * multiplier
                rounded = ""
                if exact.denominator != 1:  # a fractional amount, paid in whole minor units
                    allowed = _rounded(exact, self.rounding)
                    if returned in allowed:
                        continue
                    rounded = f", {' or '.join(map(str, allowed))} rounding {self.rounding}"
                problems.append(("payout", f"{bet_id}: staked {stake}, returned {returned}, "
                                           f"the paytable returns {_amount(exact)}{rounded} "
                                           f"({self.label_names[label]})"))
        cell = [0, tuple(problems)]
        self.tally[(labels, bets)] = cell
        return cell

    def fold_tally(self) -> None:
        """Add the tally's cells into the exact per-label counts and money sums."""
        index = self.bet_index
        for (labels, bets), (n, _) in self.tally.items():
            for label in labels:
                self.counts[label] += n
            self.hands += n
            for bet_id, stake, returned in bets:
                i = index.get(bet_id)
                if i is None or not stake:  # a zero stake is no staked hand (a payment on
                    continue                # it is a payout violation, see tally_cell)
                sums = self.money_sums[i]
                sums[0] += n
                sums[1] += n * stake
                sums[2] += n * stake * stake
                sums[3] += n * returned
        self.tally.clear()

    # -- shoes ---------------------------------------------------------------------------
    def new_hand_shoe(self, rec: Hand) -> None:
        """A hand from another shoe than the last, or the first after a shoe record."""
        if self.announced is not None and self.announced == rec.shoe:
            self.announced = None
            self.last_hand = rec.hand - 1
            return
        self.announced = None
        whole = rec.hand == 1 or (self.shoe_id is not None and rec.hand == self.last_hand + 1)
        self.open_shoe(rec.shoe, whole, (), rec.line, unnamed=not rec.shoe)

    def unnamed_shoe(self, rec: Hand) -> None:
        """A hand numbered 1, or with burn cards, in a log without shoe ids: a new shoe."""
        whole = rec.hand == 1 or rec.hand == self.last_hand + 1
        self.open_shoe("", whole, (), rec.line, unnamed=True)

    def gap(self, rec: Hand) -> None:
        self.problem(rec.line, f"hand number {rec.hand} follows {self.last_hand} in shoe "
                               f"{rec.shoe} (a hand is missing or out of order)",
                     rec.shoe, rec.hand, "sequence")
        self.tracking = False

    def shoe_start(self, rec: ShoeStart) -> None:
        if rec.decks is not None and rec.decks != self.model.decks:
            self.problem(rec.line, f"shoe {rec.shoe} has {rec.decks} decks, verifying "
                                   f"against {self.model.decks} (give --decks {rec.decks})")
        self.open_shoe(rec.shoe, True, rec.burn, rec.line)
        self.announced = rec.shoe
        self.last_hand = 0

    def open_shoe(self, new_id: str, whole: bool, burn: tuple[int, ...], line: int,
                  unnamed: bool = False) -> None:
        self.close_shoe()
        self.unnamed = unnamed
        self.shoe_id = new_id
        self.shoes += 1
        self.whole_shoes += whole
        self.tracking = whole
        self.take(burn, line, None, False)

    def close_shoe(self) -> None:
        """Check the closing shoe's composition and add its cards up.

        A shoe without an id or a shoe record that held more cards than one shoe is
        several shoes that could not be told apart: its composition is not checked.
        """
        dealt_cards = sum(self.shoe_counts) + sum(
            len(h.player) + len(h.banker) for h in self.shoe_hands)
        undelimited = self.unnamed and dealt_cards > self.shoe_size
        if undelimited:
            self.undelimited += 1
        else:
            for line, message, number in self.pending:
                self.problem(line, message, "", number, "composition")
        self.pending = []
        if self.accumulator is not None:
            self.accumulator.add_shoe(self.start_ranks, self.sequence, self.tested)
            self.accumulator.add_shoe(self.start_ranks, self.untracked,
                                      [True] * len(self.untracked), fixed=True)
            for c, in_hand in zip(self.sequence, self.tested, strict=True):
                self.card_counts[c] += in_hand
            for c in self.untracked:
                self.card_counts[c] += 1
        elif self.shoe_hands:
            cards = np.fromiter(chain.from_iterable(h.player + h.banker for h in self.shoe_hands),
                                dtype=np.int64)
            dealt = np.bincount(cards, minlength=52)
            total = dealt + np.array(self.shoe_counts)  # burns were counted by take()
            excess = [] if undelimited else np.flatnonzero(
                total > np.array(self.composition)).tolist()
            for c in excess:
                seen = self.shoe_counts[c]  # find the hand where the card went past the shoe
                culprit = self.shoe_hands[-1]
                for hand in self.shoe_hands:
                    seen += (hand.player + hand.banker).count(c)
                    if seen > self.composition[c]:
                        culprit = hand
                        break
                self.problem(culprit.line, f"card {card_text(c)} appears {int(total[c])} "
                                           f"times in shoe {self.shoe_id}, more than "
                                           f"{self.model.decks} deck(s) hold",
                             self.shoe_id or "", culprit.hand, "composition")
            for c, n in enumerate(dealt.tolist()):
                self.card_counts[c] += n
        self.shoe_hands.clear()
        self.sequence = []
        self.tested = []
        self.untracked = []
        self.shoe_counts = [0] * 52
        self.remaining = list(self.full_values)
        self.remaining_cards = list(self.composition)
        self.reported = set()

    def take(self, cards: tuple[int, ...], line: int, hand: int | None, in_hand: bool) -> None:
        """Cards leave the shoe (shoe-aware model, and burns in either model)."""
        accumulator = self.accumulator
        for c in cards:
            if accumulator is not None:
                if self.tracking:
                    self.sequence.append(c)
                    self.tested.append(in_hand)
                elif in_hand:
                    self.untracked.append(c)
            self.shoe_counts[c] += 1
            self.remaining[CARD_VALUE[c]] -= 1
            self.remaining_cards[c] -= 1
            if self.shoe_counts[c] > self.composition[c] and c not in self.reported:
                self.reported.add(c)
                self.tracking = False
                message = (f"card {card_text(c)} appears {self.shoe_counts[c]} times in shoe "
                           f"{self.shoe_id}, more than {self.model.decks} deck(s) hold")
                if self.unnamed:  # judged when the shoe closes: it may be several shoes
                    self.pending.append((line, message, hand))
                else:
                    self.problem(line, message, self.shoe_id or "", hand, "composition")

    def shoe_aware_row(self, rec: Hand, labels: tuple[int, ...]) -> None:
        """Queue this hand's depleted shoe for the batch evaluator, then deal its cards."""
        accumulator = self.accumulator
        assert accumulator is not None
        if labels:
            stakes = [0] * len(self.model.bets)
            for bet_id, stake, _ in rec.bets:
                i = self.bet_index.get(bet_id)
                if i is not None:
                    stakes[i] = stake
            if self.card_evaluator is not None:
                accumulator.add(self.remaining_cards[:] if self.tracking
                                else self.composition[:], stakes)
            else:
                accumulator.add(self.remaining[:] if self.tracking else self.full_values[:],
                                stakes)
            self.shoe_aware_hands += self.tracking
        player, banker = rec.player, rec.banker
        if len(player) >= 2 and len(banker) >= 2:  # in the order the cards were dealt
            self.take((player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]),
                      rec.line, rec.hand, True)
        else:
            self.take(player + banker, rec.line, rec.hand, True)

    def result(self) -> Partial:
        self.close_shoe()
        self.fold_tally()
        accumulator = self.accumulator
        if accumulator is not None:
            accumulator.flush()
        bets = []
        for i, b in enumerate(self.model.bets):
            results = tuple(self.counts[self.offsets[i]:self.offsets[i] + len(b.labels)])
            m = self.money_sums[i]
            if accumulator is not None:
                bets.append(BetTally(
                    b.bet.id, results, m[0], m[1], m[2], m[3],
                    tuple(float(x) for x in accumulator.expected[i]),
                    tuple(float(x) for x in accumulator.covariance[i].reshape(-1)),
                    float(accumulator.ev_sum[i]), float(accumulator.variance_sum[i]),
                    float(accumulator.money_ev[i]), float(accumulator.money_variance[i])))
            else:
                bets.append(BetTally(b.bet.id, results, m[0], m[1], m[2], m[3]))
        rank_expected: tuple[float, ...] = ()
        rank_covariance: tuple[float, ...] = ()
        if accumulator is not None:
            rank_expected = tuple(float(x) for x in accumulator.rank_mean)
            rank_covariance = tuple(float(x) for x in accumulator.rank_covariance.reshape(-1))
        hands = self.hands + self.unsettled
        return Partial(self.model.profile.name, self.model.decks,
                       "shoe" if accumulator is not None else "independent", (self.source,),
                       hands, self.shoes, self.whole_shoes, self.shoe_aware_hands,
                       self.malformed_count, tuple(self.malformed), self.violation_count,
                       tuple(self.violations), tuple(sorted(self.kinds.items())),
                       tuple(bets), tuple(self.card_counts), rank_expected, rank_covariance,
                       undelimited_shoes=self.undelimited,
                       bet_nulls=(self.card_evaluator.nulls
                                  if self.card_evaluator is not None else ()))


def _rounded(exact: Fraction, rule: str) -> tuple[int, ...]:
    """The whole amounts a rounding rule allows for a fractional amount.

    >>> _rounded(Fraction(39, 2), "down"), _rounded(Fraction(39, 2), "nearest")
    ((19,), (20,))
    >>> _rounded(Fraction(39, 2), "either")
    (19, 20)
    """
    if rule == "down":
        return (math.floor(exact),)
    if rule == "nearest":
        return (math.floor(exact + Fraction(1, 2)),)
    return (math.floor(exact), math.ceil(exact))


def _amount(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def counts_partial(counts: Counts, model: Model) -> Partial:
    """A partial result from an aggregated-counts file (no replay, no card tests)."""
    bets = []
    by_id = {b.id: b for b in counts.bets}
    unknown = set(by_id) - {m.bet.id for m in model.bets}
    if unknown:
        raise AnalyzerError(f"{counts.path}: bet {sorted(unknown)[0]!r} is not in profile "
                            f"{model.profile.name!r}")
    notes: list[str] = []
    for bet_model in model.bets:
        counted = by_id.get(bet_model.bet.id)
        results = [0] * len(bet_model.labels)
        stake = stake_squares = returned = staked = 0
        if counted is not None:
            names = {bet_model.label_name(i).lower(): i for i in range(len(bet_model.labels))}
            names["loses"] = names["lose"]
            for name, n in counted.results:
                index = names.get(name.lower())
                if index is None:
                    raise AnalyzerError(f"{counts.path}: bet {bet_model.bet.id!r} has no line "
                                        f"{name!r} (lines: {', '.join(sorted(names))})")
                results[index] += n
            money = _counted_money(counts, counted)
            if money is None and counted.stake:
                notes.append(f"bet {counted.id}: money totals without stake_squares or "
                             "staked_hands: their variance is unknown (the bet may not be "
                             "staked every hand), so its RTP was tested from the result "
                             "counts at unit stake")
            elif money is not None:
                staked, stake, stake_squares, returned = money
        bets.append(BetTally(bet_model.bet.id, tuple(results), staked, stake, stake_squares,
                             returned))
    return Partial(model.profile.name, model.decks, "independent", (counts.path,), counts.hands,
                   0, 0, 0, 0, (), 0, (), (), tuple(bets), (), counts_only=True,
                   notes=tuple(notes))


def _counted_money(counts: Counts, counted: Any) -> tuple[int, int, int, int] | None:
    """(staked hands, stake, stake squares, returned) of a counted bet, or None when its
    money cannot be tested (no totals, a zero stake, or no way to know their variance).

    The RTP test's variance is the bet's per-unit variance times the sum of squared stakes,
    which the totals alone do not give: a bet staked on a fraction f of the hands has
    1/f times the squares of one staked every hand at the same total.
    """
    where = f"{counts.path}: bet {counted.id!r}"
    if counted.stake is None or counted.returned is None:
        if counted.stake is not None or counted.returned is not None:
            raise AnalyzerError(f"{where}: give both stake and returned, or neither")
        return None
    stake, returned = counted.stake, counted.returned
    if stake == 0:
        if returned:
            raise AnalyzerError(f"{where}: returned {returned} on a total stake of 0")
        return None
    squares, staked = counted.stake_squares, counted.staked_hands
    if staked == 0:
        raise AnalyzerError(f"{where}: staked_hands is 0 but the stake is {stake}")
    if squares is None:
        if staked is None:
            return None
        squares = -(-stake * stake // staked)  # equal stakes on each staked hand
    if squares * (staked or counts.hands) < stake * stake:
        raise AnalyzerError(f"{where}: stake_squares {squares} is too small for a stake of "
                            f"{stake} over {staked or counts.hands} hands")
    return (staked or counts.hands, stake, squares, returned)


# -- statistics ------------------------------------------------------------------------------
@dataclass(frozen=True)
class StatisticalTest:
    """One statistical test: its statistic, p-value and Holm-adjusted p-value."""

    name: str
    bet: str | None
    method: str
    statistic: float
    df: int | None
    p_value: float
    adjusted: float = 1.0
    passed: bool = True
    note: str = ""


@dataclass(frozen=True)
class BetSummary:
    """Return to player of one bet: observed against exact, with its power."""

    id: str
    name: str
    hands: int
    basis: str
    rtp: float
    expected_rtp: float
    z: float
    ci_low: float
    ci_high: float
    detectable_error: float
    hands_needed: int
    underpowered: bool
    lines: tuple[tuple[str, int, float], ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The outcome of ``nine verify``: violations, tests, power and the exit code."""

    profile: str
    decks: int
    model: str
    alpha: float
    detect: float
    sources: tuple[str, ...]
    hands: int
    shoes: int
    whole_shoes: int
    shoe_aware_hands: int
    malformed_count: int
    malformed: tuple[Issue, ...]
    violation_count: int
    violations: tuple[Issue, ...]
    violation_kinds: tuple[tuple[str, int], ...]
    tests: tuple[StatisticalTest, ...]
    bets: tuple[BetSummary, ...]
    unsupported: tuple[str, ...]
    require_power: bool
    notes: tuple[str, ...] = field(default=())

    @property
    def failed_tests(self) -> tuple[StatisticalTest, ...]:
        """Tests rejected at ``alpha`` after Holm's adjustment."""
        return tuple(t for t in self.tests if not t.passed)

    @property
    def underpowered(self) -> bool:
        """Could some bet's RTP error of ``detect`` go unseen?"""
        return any(b.underpowered for b in self.bets)

    @property
    def exit_code(self) -> int:
        """0 pass, 1 statistics, 2 input, 3 violations, 4 underpowered (if required)."""
        return exit_code(self)

    @property
    def status(self) -> str:
        """One word: pass, fail, violations, unusable or underpowered."""
        return {EXIT_PASS: "pass", EXIT_STATISTICS: "fail", EXIT_INPUT: "unusable",
                EXIT_VIOLATIONS: "violations", EXIT_UNDERPOWERED: "underpowered"}[
                    self.exit_code]


def exit_code(verdict: Verdict) -> int:
    """The documented exit code; input problems outrank violations, which outrank tests."""
    if verdict.malformed_count or verdict.hands == 0:
        return EXIT_INPUT
    if verdict.violation_count:
        return EXIT_VIOLATIONS
    if verdict.failed_tests:
        return EXIT_STATISTICS
    if verdict.require_power and verdict.underpowered:
        return EXIT_UNDERPOWERED
    return EXIT_PASS


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (Holm 1979), in the input order.

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def g_test(observed: Sequence[int], probabilities: Sequence[float],
           seed: int = 20240605) -> tuple[float, int, float, str]:
    """G statistic, degrees of freedom, p-value and method of a goodness-of-fit test.

    A category with probability zero that was observed makes the p-value zero. With an
    expected count below :data:`SMALL_EXPECTED` the p-value is Monte Carlo (seeded, so
    reproducible): the share of multinomial samples with a G at least as large.

    >>> g, df, p, method = g_test([50, 50], [0.5, 0.5])
    >>> g, df, p, method
    (0.0, 1, 1.0, 'G-test')
    """
    from scipy.stats import chi2

    n = sum(observed)
    if any(o > 0 and p <= 0 for o, p in zip(observed, probabilities, strict=True)):
        return math.inf, len(observed) - 1, 0.0, "impossible result observed"
    cells = [(o, p) for o, p in zip(observed, probabilities, strict=True) if p > 0]
    df = len(cells) - 1
    if df < 1 or n == 0:
        return 0.0, max(df, 0), 1.0, "G-test"
    total_p = sum(p for _, p in cells)
    probs = np.array([p / total_p for _, p in cells])
    obs = np.array([o for o, _ in cells], dtype=np.float64)
    expected = n * probs

    def statistic(o: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(o > 0, o * np.log(o / expected), 0.0)
        result: npt.NDArray[np.float64] = 2.0 * terms.sum(axis=-1)
        return result

    g = float(statistic(obs))
    if expected.min() >= SMALL_EXPECTED:
        return g, df, float(chi2.sf(g, df)), "G-test"
    rng = np.random.default_rng(seed)
    samples = rng.multinomial(n, probs, size=MONTE_CARLO_REPLICATES).astype(np.float64)
    at_least = int((statistic(samples) >= g - 1e-9).sum())
    return g, df, (at_least + 1) / (MONTE_CARLO_REPLICATES + 1), "G-test, Monte Carlo p"


def wald_test(observed: Sequence[float], expected: Sequence[float] | npt.NDArray[np.float64],
              covariance: npt.NDArray[np.float64]) -> tuple[float, int, float]:
    """Wald chi-square of observed minus expected counts under a summed covariance."""
    from scipy.stats import chi2

    difference = np.asarray(observed, dtype=np.float64) - np.asarray(expected)
    values, vectors = np.linalg.eigh(covariance)
    keep = values > values.max() * 1e-10 if values.size and values.max() > 0 else values > 0
    if not keep.any():
        return 0.0, 0, 1.0
    projected = vectors[:, keep].T @ difference
    statistic = float((projected**2 / values[keep]).sum())
    df = int(keep.sum())
    return statistic, df, float(chi2.sf(statistic, df))


def _pearson(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    from scipy.stats import chi2

    cells = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    if any(o > 0 and e <= 0 for o, e in zip(observed, expected, strict=True)):
        return math.inf, len(cells) - 1, 0.0
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return statistic, df, float(chi2.sf(statistic, df)) if df > 0 else 1.0


def finish(partial: Partial, model: Model, alpha: float = 0.01, detect: float = 0.001,
           require_power: bool = False) -> Verdict:
    """Turn merged sums into tests, RTP summaries, Holm-adjusted verdicts and an exit code."""
    from scipy.stats import binomtest, poisson


    if not 0 < alpha < 1:
        raise AnalyzerError(f"--alpha must lie strictly between 0 and 1, got {alpha}")
    if detect <= 0:
        raise AnalyzerError(f"--detect must be positive, got {detect}")
    shoe_model = partial.model == "shoe"
    table = odds(model.profile, model.shoe)
    tests: list[StatisticalTest] = []
    bet_rows: list[dict[str, Any]] = []
    notes: list[str] = []
    unsupported: list[str] = []
    n = partial.hands
    nulls = (partial.bet_nulls if shoe_model and partial.bet_nulls
             else (NULL_VALUES,) * len(model.bets))
    for bet_model, tally, null in zip(model.bets, partial.bets, nulls, strict=True):
        bet = bet_model.bet
        bet_odds = table.bet(bet.id)
        hands = sum(tally.results)
        if bet.pay_rule == "highest":
            probabilities = [float(bet_odds.lose_probability),
                             *(float(line.probability) for line in bet_odds.lines)]
        else:
            probabilities = []
        if hands == 0:
            continue
        if shoe_model:
            k = len(bet_model.labels)
            covariance = np.array(tally.covariance).reshape(k, k)
            statistic, df, p = wald_test(tally.results, tally.expected, covariance)
            method = f"Wald chi-square, {null}"
            small = min((e for e in tally.expected if e > 0), default=0.0) < SMALL_EXPECTED
            tests.append(StatisticalTest("result frequencies", bet.id, method, statistic, df, p,
                                    note="small expected counts: approximate" if small
                                    else ""))
        elif probabilities:
            statistic, df, p, method = g_test(tally.results, probabilities)
            tests.append(StatisticalTest("result frequencies", bet.id, method, statistic, df, p))
        for index, line in enumerate(bet_odds.lines):
            probability = float(line.probability)
            if not 0 < probability < RARE_LINE:
                continue
            observed = sum(n_ for lab, n_ in zip(bet_model.labels, tally.results, strict=True)
                           if index in lab)
            if shoe_model:
                mean = sum(e for lab, e in zip(bet_model.labels, tally.expected, strict=True)
                           if index in lab)
                low = float(poisson.cdf(observed, mean))
                high = float(poisson.sf(observed - 1, mean))
                tests.append(StatisticalTest(f"line {line.name!r}", bet.id,
                                        f"Poisson (mean: {null})", observed - mean, None,
                                        min(1.0, 2 * min(low, high))))
            else:
                result = binomtest(observed, hands, probability)
                tests.append(StatisticalTest(f"line {line.name!r}", bet.id, "exact binomial",
                                        observed - hands * probability, None,
                                        float(result.pvalue)))
        # return to player: logged money when the bet was staked, else a flat unit per hand
        sd = bet_odds.sd
        ev = bet_odds.ev
        if tally.staked_hands and tally.stake > 0:
            basis = "logged stakes"
            stake, squares = tally.stake, tally.stake_squares
            net = float(tally.returned - tally.stake)
            rtp = tally.returned / stake
            if shoe_model:
                mean_net, variance = tally.money_ev_sum, tally.money_variance_sum
                expected_rtp = 1 + mean_net / stake
            else:
                mean_net = float(ev * stake)
                variance = float(bet_odds.variance) * squares
                expected_rtp = float(1 + ev)
            effective = stake * stake / squares if squares else 0.0
        else:
            basis = ("result counts, unit stake" if partial.counts_only
                     else "cards, unit stake")
            net_exact = sum((count * bet_model.nets[i] for i, count in enumerate(tally.results)),
                            Fraction(0))
            stake = hands
            net = float(net_exact)
            rtp = 1 + net / hands
            if shoe_model:
                mean_net, variance = tally.ev_sum, tally.variance_sum
                expected_rtp = 1 + mean_net / hands
            else:
                mean_net = float(ev * hands)
                variance = float(bet_odds.variance) * hands
                expected_rtp = float(1 + ev)
            effective = float(hands)
        sd_total = math.sqrt(variance) if variance > 0 else 0.0
        z = (net - mean_net) / sd_total if sd_total else 0.0
        p = 2 * NormalDist().cdf(-abs(z))
        tests.append(StatisticalTest("return to player", bet.id, "z-test (exact SD)", z, None, p))
        bet_rows.append({"bet": bet, "hands": hands, "basis": basis, "rtp": rtp,
                         "expected_rtp": expected_rtp, "z": z, "sd_rtp": sd_total / stake,
                         "sd": sd, "effective": effective,
                         "lines": tuple((bet_model.label_name(i), c,
                                         tally.expected[i] if shoe_model and tally.expected
                                         else (probabilities[i] * hands if probabilities
                                               else math.nan))
                                        for i, c in enumerate(tally.results))})
    if partial.counts_only:
        unsupported += ["replay (hand-by-hand rules and payouts): the counts hold no cards",
                        "card composition tests (values, ranks, suits)",
                        "shoe-aware model (needs each shoe's cards in dealt order)"]
    elif n:
        tests.extend(_card_tests(partial, model, shoe_model))
    adjusted = holm([t.p_value for t in tests])
    tests = [replace(t, adjusted=a, passed=a >= alpha) for t, a in zip(tests, adjusted,
                                                                          strict=True)]
    z_interval = NormalDist().inv_cdf(1 - alpha / 2)
    summaries = []
    for row in bet_rows:
        effective = row["effective"]
        detectable = detectable_error(row["sd"], effective, alpha)
        needed = rtp_hands_needed(row["sd"], detect, alpha)
        summaries.append(BetSummary(
            row["bet"].id, row["bet"].name, row["hands"], row["basis"], row["rtp"],
            row["expected_rtp"], row["z"], row["rtp"] - z_interval * row["sd_rtp"],
            row["rtp"] + z_interval * row["sd_rtp"], detectable, needed,
            detectable > detect, row["lines"]))
    if shoe_model and partial.shoe_aware_hands < partial.hands:
        notes.append(f"{partial.hands - partial.shoe_aware_hands} hands were not in whole "
                     "shoes (or a shoe's cards went wrong) and were tested against the full "
                     "shoe")
    if partial.undelimited_shoes:
        notes.append(f"{partial.undelimited_shoes} stretch(es) of hands logged without a shoe "
                     "id held more cards than one shoe: shoes could not be told apart (no "
                     "shoe column, no shoe records, hand numbers that do not restart at 1 "
                     "and no burn entries), so the card-composition check per shoe was "
                     "skipped for them"
                     + ("; the shoe-aware expectations of their hands are unreliable (use "
                        "--model independent)" if shoe_model else ""))
    notes.extend(partial.notes)
    if shoe_model and partial.bet_nulls:
        notes.extend(_null_notes(model, partial.bet_nulls))
    return Verdict(partial.profile, partial.decks, partial.model, alpha, detect, partial.sources,
                   partial.hands, partial.shoes, partial.whole_shoes, partial.shoe_aware_hands,
                   partial.malformed_count, partial.malformed, partial.violation_count,
                   partial.violations, partial.violation_kinds, tuple(tests), tuple(summaries),
                   tuple(unsupported), require_power, tuple(notes))


def _null_notes(model: Model, nulls: Sequence[str]) -> list[str]:
    """Which null model each bet of a card-level profile was tested against, and why."""
    explain = {
        NULL_VALUES: "each hand's exact distribution given the point values already dealt "
                     "from its shoe",
        NULL_TWO_CARD: "each hand's exact distribution given the cards already dealt from "
                       "its shoe (the bet reads one hand's first two cards: an exact "
                       "quadratic form in the 52 card counts)",
        NULL_FOUR_CARD: "each hand's exact distribution given the cards already dealt from "
                        "its shoe (the bet reads both hands' first two cards: an exact "
                        "quartic form in the 52 card counts)",
        NULL_EXACT: "each hand's exact distribution given the cards already dealt from its "
                    "shoe (exact odds per hand: the bet reads third cards, or cards and "
                    "the coup together)",
        NULL_FULL: "the full shoe, NOT the cards already dealt: the bet reads third "
                   "cards, or cards and the coup together, and exact odds per hand cost "
                   f"milliseconds each, so logs of more than {EXACT_HANDS:,} hands skip them",
    }
    notes = []
    for null in (NULL_VALUES, NULL_TWO_CARD, NULL_FOUR_CARD, NULL_EXACT, NULL_FULL):
        bets = [b.bet.id for b, n in zip(model.bets, nulls, strict=True) if n == null]
        if bets:
            notes.append(f"null model {null!r} ({explain[null]}): {', '.join(bets)}")
    return notes


def _card_tests(partial: Partial, model: Model, shoe_model: bool) -> list[StatisticalTest]:
    """Dealt point values (exact per-hand moments), ranks among tens, and suits."""
    counts = partial.card_counts
    values = [0] * 10
    ranks = [0] * 14
    for c, k in enumerate(counts):
        values[CARD_VALUE[c]] += k
        ranks[CARD_RANK[c]] += k
    tests = []
    if shoe_model and partial.rank_expected:
        statistic, df, p = wald_test(ranks[1:], partial.rank_expected,
                                     np.array(partial.rank_covariance).reshape(13, 13))
        tests.append(StatisticalTest("card ranks", None, "Wald chi-square, each card given the "
                                "cards before it", statistic, df, p))
    else:
        mean, cov = full_shoe_value_moments(model)
        statistic, df, p = wald_test(values, partial.hands * np.array(mean),
                                     partial.hands * np.array(cov).reshape(10, 10))
        tests.append(StatisticalTest("card point values", None,
                                "Wald chi-square, exact per-hand moments", statistic, df, p))
    composition = model.shoe.counts
    tens = [ranks[r] for r in (10, 11, 12, 13)]
    ten_shoe = [sum(composition[(r - 1) * 4 + s] for s in range(4)) for r in (10, 11, 12, 13)]
    total_tens = sum(tens)
    if total_tens:
        statistic, df, p = _pearson(tens, [total_tens * c / sum(ten_shoe) for c in ten_shoe])
        tests.append(StatisticalTest("ranks among tens and faces", None, "Pearson chi-square",
                                statistic, df, p))
    suits = [sum(counts[r * 4 + s] for r in range(13)) for s in range(4)]
    expected_suits = [0.0] * 4
    for r in range(13):
        dealt = sum(counts[r * 4:r * 4 + 4])
        held = sum(composition[r * 4:r * 4 + 4])
        for s in range(4):
            expected_suits[s] += dealt * composition[r * 4 + s] / held if held else 0.0
    statistic, df, p = _pearson(suits, expected_suits)
    tests.append(StatisticalTest("suits", None, "Pearson chi-square", statistic, df, p))
    return tests


# -- the whole run ---------------------------------------------------------------------------
Work = tuple[str, str, int, LogOptions, bool, bool]


def _check_one(args: Work) -> Partial:
    path, profile, decks, options, shoe_aware, exact_card_bets = args
    saved = _saved_partial(path)
    if saved is not None:
        return replace(saved, sources=(path,)) if len(saved.sources) == 1 else saved
    model = build_model(profile, decks)
    fmt = options.format
    if fmt == "auto" and str(path).lower().removesuffix(".gz").endswith(".json"):

        fmt = detect_format(path)
    if fmt == "counts":
        return counts_partial(read_counts(path), model)
    return check_file(path, model, options, shoe_aware, exact_card_bets)


def collect(paths: Sequence[str], profile: Profile | str = "punto-banco",
            decks: int | None = None, options: LogOptions | None = None,
            model_name: str = "auto", jobs: int = 1,
            dask: str | None = None,
            exact_hands: int = EXACT_HANDS) -> tuple[Partial, Model]:
    """Check every log (in parallel processes when ``jobs`` > 1); the merged sums.

    ``paths`` may mix hand logs, aggregated-counts files and saved partial results
    (:func:`save_partial`). ``model_name`` is ``independent`` (each hand from the full
    shoe), ``shoe`` (each hand given the cards already dealt from its shoe) or ``auto``:
    shoe-aware when the first log opens with a whole shoe (or was saved shoe-aware).
    ``dask`` runs the files on a Dask cluster instead: a scheduler address, or ``local``
    for a local cluster of ``jobs`` worker processes (the optional ``dask`` extra).

    Shoe-aware checks of card-level profiles test every bet against its exact
    distribution given the cards already dealt (:class:`CardShoeAwareEvaluator`); bets
    that need exact odds per hand get them when the logs hold at most ``exact_hands``
    hands (estimated from their lines) and are tested against the full shoe otherwise.
    The verdict names each bet's null model.
    """
    if not paths:
        raise AnalyzerError("no log files given")
    options = options or LogOptions()
    rules = load_profile(profile) if isinstance(profile, str) else profile
    model = build_model(rules, decks)
    if model_name not in ("auto", "independent", "shoe"):
        raise AnalyzerError(f"unknown model {model_name!r} (auto, independent or shoe)")
    first_partial = _saved_partial(paths[0])
    if model_name == "auto" and first_partial is not None:
        model_name = first_partial.model
    shoe_aware = model_name == "shoe" or (model_name == "auto" and _starts_whole(paths[0],
                                                                                   options))
    exact_card_bets = True
    if shoe_aware and model.card_level and card_evaluator(model).others:
        # bets that need exact odds per hand (milliseconds each): only for logs that
        # are small enough; larger ones test those bets against the full shoe (reported)
        exact_card_bets = _estimated_hands(paths) <= exact_hands
    profile_ref = rules.path if rules.path and Path(rules.path).exists() else rules.name
    work = [(str(p), profile_ref, model.decks, options, shoe_aware, exact_card_bets)
            for p in paths]
    if dask:
        partials = _map_dask(work, dask, jobs)
    elif jobs > 1 and len(work) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            partials = list(pool.map(_check_one, work))
    else:
        partials = [_check_one(w) for w in work]
    models = {p.model for p in partials}
    if len(models) > 1:  # counts files are independent-only; re-read logs to match them
        if any(_saved_partial(w[0]) is not None for w in work):
            raise AnalyzerError("saved partial results and logs use different models: "
                                "give --model to match them")
        partials = [_check_one((w[0], w[1], w[2], w[3], False, True)) for w in work]
    for item in partials:
        if (item.profile, item.decks) != (rules.name, model.decks):
            raise AnalyzerError(f"{item.sources[0]}: saved for {item.profile} with "
                                f"{item.decks} decks, not {rules.name} with {model.decks}")
    return merge(partials), model


def _map_dask(work: list[Work], address: str,
              jobs: int) -> list[Partial]:
    """Check files as Dask tasks (one per file; each worker rebuilds the model once).

    Files must be readable at the same path on every worker, and a profile given as a
    file too. Partials are small, so they are merged on the client.
    """
    import importlib

    try:  # imported by name: an optional extra, untyped
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise AnalyzerError("--dask needs the optional extra: pip install "
                            "'nine-analyzer[dask]'") from None
    if address == "local":
        with distributed.LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            return list(client.gather(client.map(_check_one, work, pure=False)))
    try:
        client = distributed.Client(address, timeout=30)
    except OSError as exc:
        raise AnalyzerError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
    with client:
        return list(client.gather(client.map(_check_one, work, pure=False)))


def verify_logs(paths: Sequence[str], profile: Profile | str = "punto-banco",
                decks: int | None = None, options: LogOptions | None = None,
                model_name: str = "auto", alpha: float = 0.01, detect: float = 0.001,
                require_power: bool = False, jobs: int = 1,
                dask: str | None = None, exact_hands: int = EXACT_HANDS) -> Verdict:
    """Check every log and return the verdict (see :func:`collect` and :func:`finish`)."""
    partial, model = collect(paths, profile, decks, options, model_name, jobs, dask,
                             exact_hands)
    return finish(partial, model, alpha, detect, require_power)


# -- saved partial results (for runs spread over machines) -----------------------------------
PARTIAL_FORMAT = "nine-partial"


def save_partial(partial: Partial, path: str | Path) -> None:
    """Write merged sums as JSON (exact integers stay exact) for a later ``nine verify``."""
    import json
    from dataclasses import asdict

    document = {"format": PARTIAL_FORMAT, "version": 1, **asdict(partial)}
    try:
        Path(path).write_text(json.dumps(document), encoding="utf-8")
    except OSError as exc:
        raise AnalyzerError(f"{path}: cannot write partial result ({exc.strerror})") from None


def load_partial(path: str | Path) -> Partial:
    """Read a partial result written by :func:`save_partial`."""
    import json

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise AnalyzerError(f"{path}: cannot read partial result ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != PARTIAL_FORMAT:
        raise AnalyzerError(f"{path}: not a saved partial result")
    try:
        issues = {key: tuple(Issue(**item) for item in data[key])
                  for key in ("malformed", "violations")}
        bets = tuple(BetTally(**_tuples(bet)) for bet in data["bets"])
        fields = _tuples({k: v for k, v in data.items()
                          if k not in ("format", "version", "malformed", "violations", "bets")})
        fields["violation_kinds"] = tuple(tuple(kv) for kv in fields["violation_kinds"])
        return Partial(**fields, malformed=issues["malformed"],
                       violations=issues["violations"], bets=bets)
    except (KeyError, TypeError) as exc:
        raise AnalyzerError(f"{path}: malformed partial result ({exc})") from None


def _tuples(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}


def _saved_partial(path: str) -> Partial | None:
    if not str(path).lower().endswith(".json"):
        return None
    try:
        with open(path, encoding="utf-8") as stream:
            head = stream.read(200)
    except OSError:
        return None
    return load_partial(path) if f'"{PARTIAL_FORMAT}"' in head else None


def _estimated_hands(paths: Sequence[str]) -> int:
    """An upper estimate of the hands in some logs: their lines (compressed ones too)."""
    import gzip

    lines = 0
    for path in paths:
        try:
            opener: Any = gzip.open if str(path).lower().endswith(".gz") else open
            with opener(path, "rb") as stream:
                while chunk := stream.read(1 << 20):
                    lines += chunk.count(b"\n")
        except OSError:
            continue  # unreadable: reported when the log itself is read
    return lines


def _starts_whole(path: str, options: LogOptions) -> bool:
    """Does the log open with a whole shoe (a shoe record, or hand number 1)?"""

    try:
        if (options.format == "counts" or (options.format == "auto"
                                           and detect_format(path) == "counts")):
            return False
        for record in read_log(path, options):
            if type(record) is ShoeStart:
                return True
            if type(record) is Hand:
                return record.hand == 1
    except AnalyzerError:
        return False
    return False


def _z_sum(alpha: float, power: float) -> float:
    return NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)


def rtp_hands_needed(sd: float, error: float = 0.001, alpha: float = 0.01,
                     power: float = POWER) -> int:
    """Hands (at unit stake) for the bet's RTP z-test to detect an error of ``error``.

    The one definition used everywhere (``nine verify``'s report, :func:`hands_needed`,
    the README's table): the bet's own two-sided z-test at level ``alpha`` with power
    ``power``, ``n = ceil(((z_(1-alpha/2) + z_power) * SD / error)**2)``, SD per unit
    staked. It counts one test: with Holm's correction over many tests a run needs
    somewhat more hands for the same power.

    >>> rtp_hands_needed(0.9273664)  # Banker, 8 decks
    10044012
    """
    return math.ceil((_z_sum(alpha, power) * sd / error) ** 2)


def detectable_error(sd: float, hands: float, alpha: float = 0.01,
                     power: float = POWER) -> float:
    """The smallest RTP error ``hands`` (effective, at unit stake) detect: the inverse of
    :func:`rtp_hands_needed`."""
    return _z_sum(alpha, power) * sd / math.sqrt(hands) if hands > 0 else math.inf


def hands_needed(profile: Profile | str = "punto-banco", decks: int | None = None,
                 error: float = 0.001, alpha: float = 0.01,
                 power: float = POWER) -> dict[str, int]:
    """Hands each bet needs to detect an RTP error of ``error`` (:func:`rtp_hands_needed`
    with the bet's exact SD).

    >>> hands_needed("punto-banco", 8)["player"]
    10565864
    """

    model = build_model(profile, decks)
    table = odds(model.profile, model.shoe)
    return {bet.id: rtp_hands_needed(bet.sd, error, alpha, power) for bet in table.bets}
