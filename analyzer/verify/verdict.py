"""The verdict of ``nine verify``: merged sums turned into tests, RTP summaries and an exit code.

Per bet (:func:`finish`), the observed counts of its result lines are tested against the
exact probabilities (a G-test; in the shoe-aware model a Wald chi-square under the summed
conditional covariance), rare lines (probability below :data:`RARE_LINE`) by an exact
binomial test (a Poisson test in the shoe-aware model), and the return to player by a
z-score from the bet's exact standard deviation, with a confidence interval. The dealt
cards are tested too: their point values (or ranks, shoe-aware), the ranks among tens and
faces, and the suits. All p-values are adjusted together by Holm's method. For each bet
the smallest RTP error the sample could detect is reported
(:func:`~analyzer.verify.inference.statistics.detectable_error`); a bet whose detectable error is
larger than the ``detect`` target is *underpowered*, reported apart from pass and fail.

Nothing is passed in silence: the verdict lists every check the input could not support
(:attr:`Verdict.not_checked`: payouts without stake columns, outcomes without an outcome
column, the shoe model without whole shoes ...), and ``require`` (``--require``) makes any
of them, or power, a condition of passing.

Exit codes (:func:`exit_code`): 0 pass, 1 statistical failure, 2 unusable input (a
malformed record or a card beyond the shoe's composition included), 3 rule or payout
violations, 4 not enough to conclude: underpowered, or a required check not run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from analyzer.dealing.handlog import CARD_RANK, CARD_VALUE
from analyzer.dealing.records import NOT_CHECKED, NotChecked
from analyzer.engine.lookup import BetModel, Model
from analyzer.engine.odds import BetOdds, odds
from analyzer.engine.shoe_aware import (
    EXACT_HANDS,
    NULL_EXACT,
    NULL_FOUR_CARD,
    NULL_FULL,
    NULL_TWO_CARD,
    NULL_VALUES,
    full_shoe_value_moments,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import Bet
from analyzer.verify.inference.distributions import poisson_cdf, poisson_sf
from analyzer.verify.inference.shuffle import shuffle_tests
from analyzer.verify.inference.statistics import (
    SMALL_EXPECTED,
    detectable_error,
    g_test,
    holm,
    pearson,
    rtp_hands_needed,
    wald_test,
)
from analyzer.verify.outcomes import outcome_checks
from analyzer.verify.partial import BetTally, Issue, Partial
from analyzer.verify.shoes import shoe_composition

__all__ = ["BetSummary", "check_levels", "exit_code", "EXIT_INPUT", "EXIT_PASS",
           "EXIT_STATISTICS", "EXIT_UNDERPOWERED", "EXIT_VIOLATIONS", "finish", "NotChecked",
           "parse_require", "RARE_LINE", "REQUIRABLE", "StatisticalTest", "Verdict"]

#: Lines rarer than this get an exact binomial test of their own.
RARE_LINE = 0.01

EXIT_PASS, EXIT_STATISTICS, EXIT_INPUT, EXIT_VIOLATIONS, EXIT_UNDERPOWERED = 0, 1, 2, 3, 4
#: What ``--require`` may name, and the check of :data:`NOT_CHECKED` each stands for
#: (``power``: every bet's detectable RTP error within ``--detect``).
REQUIRABLE = {"payouts": "payouts", "outcomes": "outcomes", "cards": "cards",
              "shoes": "shoe model", "shuffle": "shuffle", "burn": "burn", "decks": "decks",
              "power": "power"}


def parse_require(items: Sequence[str]) -> tuple[str, ...]:
    """``--require`` values (comma-separated, repeatable) as checks (:data:`REQUIRABLE`).

    >>> parse_require(["payouts,shoes", "power"])
    ('payouts', 'shoe model', 'power')
    """
    found: list[str] = []
    for item in items:
        for word in item.split(","):
            key = word.strip().lower()
            if key not in REQUIRABLE:
                raise AnalyzerError(f"--require {word.strip()!r}: unknown check (one of "
                                    f"{', '.join(REQUIRABLE)})")
            found.append(REQUIRABLE[key])
    return tuple(dict.fromkeys(found))


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
    """The outcome of ``nine verify``: the merged sums, tests, power and the exit code.

    What was read (profile, hands, shoes, issues) is the :attr:`partial`'s, also readable
    as attributes of the verdict.
    """

    partial: Partial  #: What was read and added up: profile, hands, shoes, issues, sums.
    alpha: float  #: The significance level, against Holm-adjusted p-values (family-wise).
    detect: float  #: The RTP error every bet's sample should be able to show (the power target).
    tests: tuple[StatisticalTest, ...]  #: Every statistical test run, with its p-value.
    bets: tuple[BetSummary, ...]  #: Every bet's return to player against exact, with power.
    unsupported: tuple[str, ...]  #: The checks the input cannot support, in words.
    #: Must every bet be able to show an RTP error of ``detect`` (``--require-power``)?
    require_power: bool
    notes: tuple[str, ...] = field(default=())  #: What the tests assumed and found, in words.
    not_checked: tuple[NotChecked, ...] = ()  #: Every check the input could not support, in words.
    #: Checks that must have run (``--require``): :data:`NOT_CHECKED` names and ``power``.
    require: tuple[str, ...] = ()

    @property
    def missing_required(self) -> tuple[NotChecked, ...]:
        """The required checks that could not run."""
        return tuple(n for n in self.not_checked if n.what in self.require)

    @property
    def power_required(self) -> bool:
        """Must every bet be able to show an RTP error of ``detect``?"""
        return self.require_power or "power" in self.require

    @property
    def profile(self) -> str:
        """The profile's name."""
        return self.partial.profile

    @property
    def decks(self) -> int:
        """Decks per shoe."""
        return self.partial.decks

    @property
    def model(self) -> str:
        """The null model: ``shoe`` or ``independent``."""
        return self.partial.model

    @property
    def sources(self) -> tuple[str, ...]:
        """The files read."""
        return self.partial.sources

    @property
    def hands(self) -> int:
        """Hands read."""
        return self.partial.hands

    @property
    def shoes(self) -> int:
        """Shoes read."""
        return self.partial.shoes

    @property
    def whole_shoes(self) -> int:
        """Shoes logged from their first card to their end."""
        return self.partial.whole_shoes

    @property
    def cut_shoes(self) -> int:
        """Shoes logged from their first card whose end is not in the logs (cut short)."""
        return self.partial.cut_shoes

    @property
    def shoe_aware_hands(self) -> int:
        """Hands tested given the cards already dealt from their shoe."""
        return self.partial.shoe_aware_hands

    @property
    def malformed_count(self) -> int:
        """Unusable records, all counted."""
        return self.partial.malformed_count

    @property
    def malformed(self) -> tuple[Issue, ...]:
        """The first unusable records."""
        return self.partial.malformed

    @property
    def violation_count(self) -> int:
        """Rule and payout violations, all counted."""
        return self.partial.violation_count

    @property
    def violations(self) -> tuple[Issue, ...]:
        """The first violations."""
        return self.partial.violations

    @property
    def violation_kinds(self) -> tuple[tuple[str, int], ...]:
        """Violations counted by kind."""
        return self.partial.violation_kinds

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
        """0 pass, 1 statistics, 2 input, 3 violations, 4 underpowered or a required check
        not run."""
        return exit_code(self)

    @property
    def status(self) -> str:
        """One word: pass, fail, violations, unusable, underpowered or incomplete (a
        required check not run)."""
        code = self.exit_code
        if code == EXIT_UNDERPOWERED and self.missing_required:
            return "incomplete"
        return {EXIT_PASS: "pass", EXIT_STATISTICS: "fail", EXIT_INPUT: "unusable",
                EXIT_VIOLATIONS: "violations", EXIT_UNDERPOWERED: "underpowered"}[code]


def exit_code(verdict: Verdict) -> int:
    """The documented exit code; input problems outrank violations, which outrank tests."""
    if verdict.malformed_count or verdict.hands == 0:
        return EXIT_INPUT
    if verdict.violation_count:
        return EXIT_VIOLATIONS
    if verdict.failed_tests:
        return EXIT_STATISTICS
    if (verdict.power_required and verdict.underpowered) or verdict.missing_required:
        return EXIT_UNDERPOWERED
    return EXIT_PASS


class _Return(NamedTuple):
    """One bet's return to player, before Holm's adjustment and the power figures."""

    bet: Bet
    hands: int
    basis: str
    rtp: float
    expected_rtp: float
    z: float
    sd_rtp: float  # SD of the observed RTP
    sd: float  # the bet's SD per unit staked
    effective: float  # hands at unit stake with the same variance
    lines: tuple[tuple[str, int, float], ...]


def finish(partial: Partial, model: Model, alpha: float = 0.01, detect: float = 0.001,
           require_power: bool = False, require: Sequence[str] = ()) -> Verdict:
    """Turn merged sums into tests, RTP summaries, Holm-adjusted verdicts and an exit code.
    ``require``: checks that must have run (:func:`parse_require`), else exit 4."""
    check_levels(alpha, detect)
    shoe_model = partial.model == "shoe"
    # one exact table: the numpy tally (the same integers as the kernel, whose cached
    # machine code alone takes 0.2-0.4 s to load into a process that has not run it)
    table = odds(model.profile, model.shoe, "numpy")
    tests: list[StatisticalTest] = []
    returns: list[_Return] = []
    unsupported: list[str] = []
    nulls = (partial.bet_nulls if shoe_model and partial.bet_nulls
             else (NULL_VALUES,) * len(model.bets))
    for bet_model, tally, null in zip(model.bets, partial.bets, nulls, strict=True):
        bet_odds = table.bet(bet_model.bet.id)
        if sum(tally.results) == 0:
            continue
        probabilities = ([float(bet_odds.lose_probability),
                          *(float(line.probability) for line in bet_odds.lines)]
                         if bet_model.bet.pay_rule == "highest" else [])
        tests.extend(_frequency_tests(bet_model, tally, bet_odds, probabilities,
                                      null if shoe_model else None))
        test, rtp = _return_to_player(bet_model, tally, bet_odds, probabilities, shoe_model,
                                      partial.counts_only or partial.outcomes_only)
        tests.append(test)
        returns.append(rtp)
    if partial.counts_only:
        unsupported += ["replay (hand-by-hand rules and payouts): the counts hold no cards",
                        "card composition tests (values, ranks, suits)",
                        "shoe-aware model (needs each shoe's cards in dealt order)"]
    elif partial.outcomes_only:  # a bead road (analyzer.verify.outcomes)
        found, missing = outcome_checks(partial, model)
        tests, unsupported = tests + [StatisticalTest(*t) for t in found], unsupported + missing
    elif partial.hands:
        tests.extend(_card_tests(partial, model, shoe_model))
    if partial.shuffle is not None:
        composition = shoe_composition(model, partial.values_only)
        tests.extend(StatisticalTest(f"shuffle: {name}", None, method, statistic, df, p)
                     for name, method, statistic, df, p in shuffle_tests(
                         partial.shuffle, model, composition))
        if partial.shuffle.shoes == 0:
            unsupported.append("shuffle tests (repeated shoes, order carried over, "
                               "under-shuffling): they need whole shoes, and the logs hold "
                               "none")
        elif partial.values_only:
            unsupported.append("rising sequences (shuffle test): the log holds point values "
                               "only, so a card's successor cannot be told")
    if partial.values_only:
        unsupported.append("card-level tests (ranks among tens and faces, suits): the log "
                           "holds point values only")
        if partial.skipped_bets:
            unsupported.append(f"bets on ranks or suits ({', '.join(partial.skipped_bets)}): "
                               "the log holds point values only")
    adjusted = holm([t.p_value for t in tests])
    tests = [replace(t, adjusted=a, passed=a >= alpha) for t, a in zip(tests, adjusted,
                                                                          strict=True)]
    z_interval = NormalDist().inv_cdf(1 - alpha / 2)
    summaries = []
    for row in returns:
        detectable = detectable_error(row.sd, row.effective, alpha)
        needed = rtp_hands_needed(row.sd, detect, alpha)
        summaries.append(BetSummary(
            row.bet.id, row.bet.name, row.hands, row.basis, row.rtp, row.expected_rtp, row.z,
            row.rtp - z_interval * row.sd_rtp, row.rtp + z_interval * row.sd_rtp, detectable,
            needed, detectable > detect, row.lines))
    return Verdict(partial, alpha, detect, tuple(tests), tuple(summaries), tuple(unsupported),
                   require_power, tuple(_notes(partial, model, shoe_model)),
                   not_checked(partial), tuple(require))


def not_checked(partial: Partial) -> tuple[NotChecked, ...]:
    """Every check the merged input could not support, in the order of
    :data:`NOT_CHECKED`: those its files reported (naming the files when not all of them
    lack it), and those told from the sums (no whole shoes, no bet staked, counts only)."""
    found: dict[tuple[str, str], list[str]] = {}
    for what, why, source in partial.not_checked:
        found.setdefault((what, why), []).append(source)
    every = set(partial.sources)
    items = []
    for (what, why), sources in found.items():
        if len(every) > 1 and not every <= set(sources):
            shown = ", ".join(sources[:3]) + (f" and {len(sources) - 3} more"
                                               if len(sources) > 3 else "")
            why = f"{why} (in {shown})"
        items.append(NotChecked(what, why))
    told = {n.what for n in items}

    def add(what: str, why: str) -> None:
        if what not in told:
            told.add(what)
            items.append(NotChecked(what, why))

    if partial.counts_only:
        for what in ("payouts", "outcomes", "cards", "burn"):
            add(what, "aggregated counts hold no hands to replay")
    staked = [b.id for b in partial.bets if b.staked_hands]
    paid = any(kind in ("payout", "unknown-bet") for kind, _ in partial.violation_kinds)
    if not staked and not paid:
        add("payouts", "no hand staked a bet")
    elif not partial.counts_only and len(staked) < len(partial.bets):
        never = [b.id for b in partial.bets if not b.staked_hands]
        add("payouts", f"bets never staked: {', '.join(never)}")
    if partial.values_only:
        add("cards", "the logs hold point values only: ranks and suits not checked")
    if partial.model == "independent":
        add("shoe model", "no whole shoes in the logs: each hand tested against the full "
                          "shoe" if partial.whole_shoes == 0 else
                          "--model independent: each hand tested against the full shoe")
    if partial.shuffle is None or partial.shuffle.shoes == 0:
        add("shuffle", "the shuffle tests need whole shoes, and the logs hold none")
    return tuple(sorted(items, key=lambda n: NOT_CHECKED.index(n.what)))


def check_levels(alpha: float, detect: float) -> None:
    """``--alpha`` strictly between 0 and 1 and ``--detect`` a positive finite RTP error
    (NaN and infinity refused), checked before any log is read."""
    if not 0 < alpha < 1:
        raise AnalyzerError(f"--alpha must lie strictly between 0 and 1, got {alpha}")
    if not (detect > 0 and math.isfinite(detect)):
        raise AnalyzerError(f"--detect must be a positive finite number, got {detect}")


def _frequency_tests(bet_model: BetModel, tally: BetTally, bet_odds: BetOdds,
                     probabilities: list[float], null: str | None) -> list[StatisticalTest]:
    """A bet's result frequencies, and each of its rare lines on its own.

    ``null``: the bet's shoe-aware null model, or None for the independent model.
    """
    bet = bet_model.bet
    hands = sum(tally.results)
    tests = []
    if null is not None:
        k = len(bet_model.labels)
        covariance = np.array(tally.covariance).reshape(k, k)
        statistic, df, p = wald_test(tally.results, tally.expected, covariance)
        small = min((e for e in tally.expected if e > 0), default=0.0) < SMALL_EXPECTED
        tests.append(StatisticalTest("result frequencies", bet.id, f"Wald chi-square, {null}",
                                     statistic, df, p,
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
        if null is not None:
            mean = sum(e for lab, e in zip(bet_model.labels, tally.expected, strict=True)
                       if index in lab)
            low = poisson_cdf(observed, mean)
            high = poisson_sf(observed - 1, mean)
            tests.append(StatisticalTest(f"line {line.name!r}", bet.id,
                                         f"Poisson (mean: {null})", observed - mean, None,
                                         min(1.0, 2 * min(low, high))))
        else:
            from scipy.stats import binomtest  # ~1 s to import: only here

            result = binomtest(observed, hands, probability)
            tests.append(StatisticalTest(f"line {line.name!r}", bet.id, "exact binomial",
                                         observed - hands * probability, None,
                                         float(result.pvalue)))
    return tests


def _return_to_player(bet_model: BetModel, tally: BetTally, bet_odds: BetOdds,
                      probabilities: list[float], shoe_model: bool,
                      counts_only: bool) -> tuple[StatisticalTest, _Return]:
    """A bet's RTP z-test: logged money when the bet was staked, else a flat unit per hand."""
    bet = bet_model.bet
    hands = sum(tally.results)
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
        basis = "result counts, unit stake" if counts_only else "cards, unit stake"
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
    lines = tuple((bet_model.label_name(i), c,
                   tally.expected[i] if shoe_model and tally.expected
                   else (probabilities[i] * hands if probabilities else math.nan))
                  for i, c in enumerate(tally.results))
    return (StatisticalTest("return to player", bet.id, "z-test (exact SD)", z, None, p),
            _Return(bet, hands, basis, rtp, expected_rtp, z, sd_total / stake, sd, effective,
                    lines))


def _notes(partial: Partial, model: Model, shoe_model: bool) -> list[str]:
    """What the reader should know: hands outside whole shoes, shoes that could not be told
    apart, the partial's own notes, and each bet's null model."""
    notes = []
    if shoe_model and partial.shoe_aware_hands < partial.hands:
        notes.append(f"{partial.hands - partial.shoe_aware_hands} hands were not in whole "
                     "shoes (or a shoe's cards went wrong) and were tested against the full "
                     "shoe")
    if partial.cut_shoes:
        notes.append(f"{partial.cut_shoes} shoe(s) have no end in the logs (no shoe_end "
                     "record or cards_left value, and no shoe after them: the log was cut "
                     "short, or does not mark shoe ends); they are not counted as whole")
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
    return notes


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
    if shoe_model and partial.rank_expected and partial.values_only:
        statistic, df, p = wald_test(values, partial.rank_expected,
                                     np.array(partial.rank_covariance).reshape(10, 10))
        tests.append(StatisticalTest("card point values", None, "Wald chi-square, each card "
                                     "given the cards before it", statistic, df, p))
    elif shoe_model and partial.rank_expected:
        statistic, df, p = wald_test(ranks[1:], partial.rank_expected,
                                     np.array(partial.rank_covariance).reshape(13, 13))
        tests.append(StatisticalTest("card ranks", None, "Wald chi-square, each card given "
                                     "the cards before it", statistic, df, p))
    else:
        mean, cov = full_shoe_value_moments(model)
        statistic, df, p = wald_test(values, partial.hands * np.array(mean),
                                     partial.hands * np.array(cov).reshape(10, 10))
        tests.append(StatisticalTest("card point values", None,
                                     "Wald chi-square, exact per-hand moments", statistic, df,
                                     p))
    if partial.values_only:
        return tests
    composition = model.shoe.counts
    tens = [ranks[r] for r in (10, 11, 12, 13)]
    ten_shoe = [sum(composition[(r - 1) * 4 + s] for s in range(4)) for r in (10, 11, 12, 13)]
    total_tens = sum(tens)
    if total_tens:
        statistic, df, p = pearson(tens, [total_tens * c / sum(ten_shoe) for c in ten_shoe])
        tests.append(StatisticalTest("ranks among tens and faces", None, "Pearson chi-square",
                                     statistic, df, p))
    suits = [sum(counts[r * 4 + s] for r in range(13)) for s in range(4)]
    expected_suits = [0.0] * 4
    for r in range(13):
        dealt = sum(counts[r * 4:r * 4 + 4])
        held = sum(composition[r * 4:r * 4 + 4])
        for s in range(4):
            expected_suits[s] += dealt * composition[r * 4 + s] / held if held else 0.0
    statistic, df, p = pearson(suits, expected_suits)
    tests.append(StatisticalTest("suits", None, "Pearson chi-square", statistic, df, p))
    return tests
