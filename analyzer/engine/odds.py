"""Exact odds of every bet of a profile on one shoe: the analysis behind ``nine odds``.

Probabilities are integer counts over the published ordered 6-card denominator (docs/rules/README.md
§5; Wizard of Odds, "Baccarat" appendix) and exact fractions; the EV, variance
and hit frequency of each bet follow exactly from its result distribution.

>>> from analyzer.rules.shoe import Shoe
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

from analyzer import __version__
from analyzer.engine.enumeration import (
    INT64_LIMIT,
    Tally,
    compile_tally,
    coups,
    denominator,
    term_weights,
    terms,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import net_payout, settle_codes
from analyzer.rules.profile import Bet, Profile, Tableau, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["bet_odds", "BetOdds", "CONVENTION", "Distribution", "INFINITE_CARD_CONVENTION",
           "INFINITE_CONVENTION", "LineOdds", "odds", "OddsTable"]

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
            if bet.card_level:
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
    # Card-level bets (ranks, suits) go through analyzer.engine.cardbets, imported only when a
    # profile has one so a values-only profile pays nothing for them.
    card_level = [bet.card_level for bet in profile.bets]
    scale = 1
    if any(card_level):
        import analyzer.engine.cardbets as cardbets

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
