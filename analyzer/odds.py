"""Exact odds of every bet of a profile on one shoe: the analysis behind ``nine odds``.

Probabilities are integer counts over the published ordered 6-card denominator (RULES.md,
conventions; Wizard of Odds, "Baccarat" appendix) and exact fractions; the EV, variance
and hit frequency of each bet follow exactly from its result distribution.

>>> from analyzer.shoe import Shoe
>>> table = odds("punto-banco", Shoe.decks(8))
>>> table.bet("banker").lines[0].ways
2292252566437888
>>> round(float(table.bet("banker").house_edge) * 100, 4)
1.0579
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import sqrt

import numpy as np
import numpy.typing as npt

from analyzer import __version__
from analyzer.bets import net_payout, settle_codes
from analyzer.enumeration import (
    INT64_LIMIT,
    Tally,
    compile_tally,
    coups,
    denominator,
    term_weights,
    terms,
)
from analyzer.errors import AnalyzerError
from analyzer.profile import Bet, Profile, Tableau, load_profile
from analyzer.shoe import Shoe

CONVENTION = ("ordered 6-card sequences from the full shoe; a coup that ends after 4 or 5 "
              "cards is weighted by the ways to fill the unused positions")
INFINITE_CONVENTION = "infinite deck: 13**6 equally likely rank-class sequences (value 0 is 4/13)"
INFINITE_CARD_CONVENTION = ("infinite deck, card level: 13**6 * 4**4 = 52**4 * 13**2 equally "
                            "likely sequences (each of the first four cards one of 52)")


@dataclass(frozen=True)
class LineOdds:
    """One payline: its payout, ways over the denominator, probability and share of return."""

    name: str
    condition: str
    pays: Fraction
    ways: int
    probability: Fraction

    @property
    def contribution(self) -> Fraction:
        """What the line adds to the bet's expected value (probability x payout)."""
        return self.probability * self.pays


@dataclass(frozen=True)
class BetOdds:
    """The exact odds of one bet."""

    id: str
    name: str
    pay_rule: str
    lines: tuple[LineOdds, ...]
    lose_ways: int
    lose_probability: Fraction
    ev: Fraction
    variance: Fraction
    hit_frequency: Fraction
    note: str = ""

    @property
    def house_edge(self) -> Fraction:
        """House edge per unit staked: minus the expected value."""
        return -self.ev

    @property
    def sd(self) -> float:
        """Standard deviation of the net result per unit staked."""
        return sqrt(self.variance)

    @property
    def push_probability(self) -> Fraction:
        """Probability the stake is simply returned."""
        return sum((line.probability for line in self.lines if line.pays == 0), Fraction(0))

    @property
    def edge_per_resolved(self) -> Fraction:
        """House edge counting only coups that do not push (as some tables publish it)."""
        resolved = 1 - self.push_probability
        return self.house_edge / resolved if resolved else Fraction(0)


@dataclass(frozen=True)
class Distribution:
    """An exact distribution of a coup quantity: (value, ways) cells over the denominator."""

    name: str
    cells: tuple[tuple[Hashable, int], ...]

    def ways(self, key: Hashable) -> int:
        """Ways of one value (0 if it never happens)."""
        return dict(self.cells).get(key, 0)


@dataclass(frozen=True)
class OddsTable:
    """Every bet's exact odds for one profile and shoe, with what produced them."""

    profile: str
    title: str
    shoe: str
    denominator: int
    convention: str
    bets: tuple[BetOdds, ...]
    totals: Distribution
    naturals: Distribution
    cards_dealt: Distribution
    illustrative: str = ""
    version: str = __version__

    def bet(self, bet_id: str) -> BetOdds:
        """One bet's odds by id."""
        for bet in self.bets:
            if bet.id == bet_id:
                return bet
        raise AnalyzerError(f"no bet {bet_id!r} in profile {self.profile!r}")


@cache
def _bet_tally(tableau: Tableau, bet: Bet) -> Tally:
    codes, labels = settle_codes(bet, coups(tableau).features)
    return compile_tally(tableau, codes, labels)


@cache
def _distribution_tallies(tableau: Tableau) -> tuple[Tally, Tally, Tally]:
    f = coups(tableau).features
    totals = compile_tally(tableau, f["player_total"] * 10 + f["banker_total"],
                           [(p, b) for p in range(10) for b in range(10)])
    naturals = compile_tally(tableau, f["player_natural"] * 1 + f["banker_natural"] * 2,
                             ["none", "player", "banker", "both"])
    dealt = compile_tally(tableau, f["cards_dealt"])
    return totals, naturals, dealt


def _check_profile(profile: Profile, values_only: bool = False) -> Tableau:
    if profile.tableau is None:
        raise AnalyzerError(
            f"profile {profile.name!r} has no fixed tableau: its players choose (use nine solve)")
    if values_only:
        for bet in profile.bets:
            for line in bet.lines:
                if line.when.level != "coup":
                    raise AnalyzerError(
                        f"bet {bet.id!r} reads card ranks or suits: batches of point-value "
                        "counts cannot price it (use odds() per shoe)")
    return profile.tableau


def bet_odds(bet: Bet, ways: Mapping[Hashable, int], total: int) -> BetOdds:
    """Exact odds of a bet from its result counts (result -> ways) over ``total``."""
    line_ways = [0] * len(bet.lines)
    ev = Fraction(0)
    second = Fraction(0)
    hits = 0
    lose = 0
    for result, n in ways.items():
        assert isinstance(result, tuple)
        payout = net_payout(bet, result)
        ev += payout * n
        second += payout * payout * n
        if not result:
            lose += n
        for i in result:
            line_ways[i] += n
        if payout > 0:
            hits += n
    ev /= total
    variance = second / total - ev * ev
    lines = tuple(LineOdds(line.name, line.when.text, line.pays, n, Fraction(n, total))
                  for line, n in zip(bet.lines, line_ways, strict=True))
    return BetOdds(bet.id, bet.name, bet.pay_rule, lines, lose, Fraction(lose, total), ev,
                   variance, Fraction(hits, total), bet.note)


def odds(profile: Profile | str, shoe: Shoe) -> OddsTable:
    """Exact odds of every bet of ``profile`` (a Profile, name, alias or file) on ``shoe``."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    tableau = _check_profile(profile)
    weights = term_weights(terms(tableau), shoe)
    total = denominator(shoe)
    convention = INFINITE_CONVENTION if shoe.is_infinite else CONVENTION
    # Card-level bets (ranks, suits) go through analyzer.cardbets, imported only when a
    # profile has one so a values-only profile pays nothing for them.
    card_level = [any(line.when.level == "cards" for line in bet.lines) for bet in profile.bets]
    scale = 1
    if any(card_level):
        from analyzer import cardbets

        total = cardbets.card_denominator(shoe)
        scale = total // denominator(shoe)
        if scale > 1:
            convention = INFINITE_CARD_CONVENTION
        if total > INT64_LIMIT and weights.dtype != object:
            weights = weights.astype(object)

    def bet_ways(bet: Bet, cards: bool) -> dict[Hashable, int]:
        if cards:
            return cardbets.evaluate_card_tally(cardbets.card_tally(tableau, bet), shoe,
                                                weights)
        return {key: n * scale for key, n in _bet_tally(tableau, bet).evaluate(weights).items()}

    bets = tuple(bet_odds(bet, bet_ways(bet, cards), total)
                 for bet, cards in zip(profile.bets, card_level, strict=True))
    totals, naturals, dealt = _distribution_tallies(tableau)

    def distribution(name: str, tally: Tally) -> Distribution:
        cells = {key: n * scale for key, n in tally.evaluate(weights).items()}
        return Distribution(name, tuple(sorted(cells.items(), key=lambda kv: str(kv[0]))))

    return OddsTable(profile.name, profile.title, shoe.describe(), total, convention, bets,
                     distribution("player total x banker total", totals),
                     distribution("naturals", naturals),
                     distribution("cards dealt", dealt), profile.illustrative)


#: The batch evaluator splits the ten point values into two halves; a term's weight is the
#: product of one factor per half (looked up in a per-shoe table) and the fill factor.
_HALVES = ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9))


@dataclass(frozen=True)
class BatchEvaluator:
    """Expected values of every bet for many shoes at once, in float64.

    A term's weight is ``fill[k] * A[a] * B[b]``: ``A`` and ``B`` are per-shoe tables of
    the falling-factorial products over values 0-4 and 5-9 (462 multiplicity patterns
    each), so each shoe costs three contiguous row gathers per term and one matrix product.
    Up to eight decks every factor is an integer below 2**53; the only rounding is in the
    products and the final dot product, so the relative error against the exact engine is
    about 1e-15 (bound documented as 1e-12; measured in ``tests/test_odds.py`` and
    ``make bench``).
    """

    profile: Profile
    bet_ids: tuple[str, ...]
    payoff: npt.NDArray[np.float64]
    cards: npt.NDArray[np.int64]
    half_index: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    half_patterns: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    chunk: int = 256

    @classmethod
    def for_profile(cls, profile: Profile | str) -> BatchEvaluator:
        """Compile a profile's bets into one (bets x terms) payoff matrix."""
        if isinstance(profile, str):
            profile = load_profile(profile)
        tableau = _check_profile(profile, values_only=True)
        term_set = terms(tableau)
        payoff = np.zeros((len(profile.bets), term_set.size), dtype=np.float64)
        for row, bet in enumerate(profile.bets):
            tally = _bet_tally(tableau, bet)
            stops = [*tally.starts[1:].tolist(), len(tally.term_index)]
            for key, start, stop in zip(tally.keys, tally.starts.tolist(), stops, strict=True):
                assert isinstance(key, tuple)
                value = float(net_payout(bet, key))
                np.add.at(payoff[row], tally.term_index[start:stop],
                          value * tally.count[start:stop])
        indexes = []
        patterns = []
        for half in _HALVES:
            part = term_set.multiplicity[:, list(half)]
            unique, inverse = np.unique(part, axis=0, return_inverse=True)
            indexes.append(inverse.reshape(-1).astype(np.int64))
            patterns.append(unique.astype(np.int64))
        return cls(profile, tuple(b.id for b in profile.bets), payoff, term_set.cards,
                   (indexes[0], indexes[1]), (patterns[0], patterns[1]))

    def evaluate(self, value_counts: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """EV of every bet (columns) for each shoe (rows of ten point-value counts)."""
        counts = np.asarray(value_counts, dtype=np.float64)
        if counts.ndim != 2 or counts.shape[1] != 10:
            raise AnalyzerError("batch shoes must be rows of ten point-value counts")
        if (counts < 0).any():
            raise AnalyzerError("batch shoes cannot have negative counts")
        if (counts.sum(axis=1) < 6).any():
            raise AnalyzerError("every batch shoe needs at least 6 cards")
        result = np.empty((counts.shape[0], len(self.bet_ids)), dtype=np.float64)
        for start in range(0, counts.shape[0], self.chunk):
            result[start:start + self.chunk] = self._evaluate_chunk(
                counts[start:start + self.chunk])
        return result

    def _evaluate_chunk(self, counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        shoes = counts.shape[0]
        size = counts.sum(axis=1)
        # falling[v, m, s] = c (c-1) ... (c-m+1) for shoe s's count c of value v
        falling = np.ones((10, 7, shoes))
        for m in range(1, 7):
            falling[:, m, :] = falling[:, m - 1, :] * (counts.T - (m - 1))
        # fill[k, s] = (N-k)(N-k-1)...(N-5): ways to fill the unused positions
        fill = np.ones((7, shoes))
        for k in range(5, -1, -1):
            fill[k] = fill[k + 1] * (size - k)
        weights = fill[self.cards]
        factor = np.empty_like(weights)
        for half, index, pattern in zip(_HALVES, self.half_index, self.half_patterns,
                                        strict=True):
            table = np.ones((pattern.shape[0], shoes))
            for column, value in enumerate(half):
                table *= falling[value][pattern[:, column]]
            np.take(table, index, axis=0, out=factor)
            weights *= factor
        ev: npt.NDArray[np.float64] = (self.payoff @ weights).T / fill[0][:, None]
        return ev
