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

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from math import lcm, sqrt
from operator import itemgetter
from typing import Any

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
from analyzer.engine.tally import TallyPlan, build_plan
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import net_payout, settle_codes
from analyzer.rules.profile import Bet, Profile, Tableau, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["bet_odds", "BetOdds", "bet_tally", "CONVENTION", "Distribution", "fixed_tableau",
           "INFINITE_CARD_CONVENTION", "INFINITE_CONVENTION", "DISTRIBUTIONS", "LineOdds", "odds",
           "OddsTable"]

CONVENTION = ("ordered 6-card sequences from the full shoe; a coup that ends after 4 or 5 "
              "cards is weighted by the ways to fill the unused positions")
INFINITE_CONVENTION = "infinite deck: 13**6 equally likely rank-class sequences (value 0 is 4/13)"
INFINITE_CARD_CONVENTION = ("infinite deck, card level: 13**6 * 4**4 = 52**4 * 13**2 equally "
                            "likely sequences (each of the first four cards one of 52)")


@dataclass(frozen=True)
class LineOdds:
    """One payline: its payout, ways over the denominator, probability and share of return.

    ``probability`` is built (as an exact fraction) when first read.
    """

    #: The line's name, as the profile gives it.
    name: str
    #: The condition that makes the line pay, as written in the profile.
    condition: str
    #: Net payout per unit staked when the line holds (0 is a push).
    pays: Fraction
    #: Ordered card sequences (the denominator's convention) in which the line holds.
    ways: int
    #: The denominator: every ordered card sequence of the shoe.
    total: int = field(repr=False)

    @cached_property
    def probability(self) -> Fraction:
        """Ways over the denominator, exact."""
        return Fraction(self.ways, self.total)

    @property
    def contribution(self) -> Fraction:
        """What the line adds to the bet's expected value (probability x payout)."""
        return self.probability * self.pays


@dataclass(frozen=True)
class BetOdds:
    """The exact odds of one bet: integer ways per settled result over ``total``.

    The fractions (EV, variance, hit frequency) are built from the integers when first read.
    """

    #: The bet's id in the profile (``banker``, ``tie``, ...).
    id: str
    #: The bet's name as people read it.
    name: str
    #: How the lines pay: ``highest`` (only the highest holding line) or ``all`` (every
    #: holding line).
    pay_rule: str
    #: Each payline's odds, in the profile's order.
    lines: tuple[LineOdds, ...]
    #: Ordered card sequences in which no line holds (the stake is lost).
    lose_ways: int
    #: The denominator: every ordered card sequence of the shoe.
    total: int = field(repr=False)
    #: (net payout, ways) of every settled result.
    results: tuple[tuple[Fraction, int], ...] = field(repr=False)
    #: The profile's note on the bet, if any.
    note: str = ""

    @cached_property
    def lose_probability(self) -> Fraction:
        """Probability that no line holds."""
        return Fraction(self.lose_ways, self.total)

    @cached_property
    def _moments(self) -> tuple[Fraction, Fraction]:
        scale = lcm(*(payout.denominator for payout, _ in self.results))
        first = sum(payout.numerator * (scale // payout.denominator) * n
                    for payout, n in self.results)
        second = sum((payout.numerator * (scale // payout.denominator)) ** 2 * n
                     for payout, n in self.results)
        ev = Fraction(first, self.total * scale)
        return ev, Fraction(second, self.total * scale * scale) - ev * ev

    @property
    def ev(self) -> Fraction:
        """Expected net result per unit staked."""
        return self._moments[0]

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked."""
        return self._moments[1]

    @cached_property
    def hit_frequency(self) -> Fraction:
        """Probability of a net win."""
        return Fraction(sum(n for payout, n in self.results if payout > 0), self.total)

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

    #: What is counted (one of :data:`DISTRIBUTIONS`).
    name: str
    #: (value, ways) of every value that happens, ways over the table's denominator.
    cells: tuple[tuple[Hashable, int], ...]

    def ways(self, key: Hashable) -> int:
        """Ways of one value (0 if it never happens)."""
        return dict(self.cells).get(key, 0)


@dataclass(frozen=True)
class OddsTable:
    """Every bet's exact odds for one profile and shoe, with what produced them."""

    #: The profile's name.
    profile: str
    #: The game's title.
    title: str
    #: The shoe, described (``8 decks``, ``infinite deck``, or a depleted shoe's label).
    shoe: str
    #: Every ordered card sequence of the shoe: each ``ways`` is over it.
    denominator: int
    #: How the sequences are counted (:data:`CONVENTION` or an infinite-deck one).
    convention: str
    #: Each bet's exact odds, in the profile's order.
    bets: tuple[BetOdds, ...]
    #: Player total x Banker total, ways per (player, banker) pair.
    totals: Distribution
    #: Which hands hold a natural: ``none``, ``player``, ``banker`` or ``both``.
    naturals: Distribution
    #: Cards dealt in the coup (4, 5 or 6).
    cards_dealt: Distribution
    #: Why the profile's paytable is illustrative (empty when it is a published one).
    illustrative: str = ""
    #: The analyzer's version that computed the table.
    version: str = __version__

    def bet(self, bet_id: str) -> BetOdds:
        """One bet's odds by id."""
        for bet in self.bets:
            if bet.id == bet_id:
                return bet
        raise AnalyzerError(f"no bet {bet_id!r} in profile {self.profile!r}")


@cache
def bet_tally(tableau: Tableau, bet: Bet) -> Tally:
    """One bet's compiled tally on a tableau: its result counts as sums over the terms."""
    codes, labels = settle_codes(bet, coups(tableau).features)
    return compile_tally(tableau, codes, labels)


#: The distributions every odds table carries: name, and the coup features that key them.
DISTRIBUTIONS = ("player total x banker total", "naturals", "cards dealt")


def _distribution_codings(tableau: Tableau) -> list[tuple[Any, Sequence[Hashable] | None]]:
    f = coups(tableau).features
    return [(f["player_total"] * 10 + f["banker_total"],
             [(p, b) for p in range(10) for b in range(10)]),
            (f["player_natural"] * 1 + f["banker_natural"] * 2,
             ["none", "player", "banker", "both"]),
            (f["cards_dealt"], None)]


@cache
def _odds_plan(tableau: Tableau, bets: tuple[Bet, ...]) -> TallyPlan:
    """The fused tallies of ``odds()``: the value-level bets, then the distributions."""
    from analyzer.engine import plan_cache

    def build() -> TallyPlan:
        f = coups(tableau).features
        codings = [settle_codes(bet, f) for bet in bets]
        return build_plan(tableau, [*codings, *_distribution_codings(tableau)])

    return plan_cache.cached_plan(tableau, bets, "odds", build)


@dataclass(frozen=True, eq=False)
class _Compiled:
    """A profile ready for ``odds()``: its plan and, per tally, how its sums become records."""

    profile: Profile
    tableau: Tableau
    card_level: tuple[bool, ...]
    plan: TallyPlan
    #: per bet: its slice of the plan's sums (None for a card-level bet)
    slices: tuple[slice | None, ...]
    #: per value-level bet: how its sums become a record (see :func:`_recipe`)
    recipes: tuple[_Recipe | None, ...]
    #: per distribution: its slice, its keys in publishing order (by the key's text) and a
    #: getter of its sums in that order
    distributions: tuple[tuple[slice, tuple[Hashable, ...], Callable[[Any], Any]], ...]


@dataclass(frozen=True, eq=False)
class _Recipe:
    """A value-level bet's keys settled once: each key's net payout, the keys that lose
    and, per line, the keys it pays on."""

    payouts: tuple[Fraction, ...]
    lose: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]
    meta: tuple[tuple[str, str, Fraction], ...]


def _recipe(bet: Bet, keys: tuple[Hashable, ...]) -> _Recipe:
    results = [key for key in keys if isinstance(key, tuple)]
    assert len(results) == len(keys)
    return _Recipe(tuple(net_payout(bet, result) for result in results),
                   tuple(i for i, result in enumerate(results) if not result),
                   tuple(tuple(i for i, result in enumerate(results) if line in result)
                         for line in range(len(bet.lines))),
                   tuple((line.name, line.when.text, line.pays) for line in bet.lines))


_compiled_profiles: dict[int, _Compiled] = {}


def _first(values: Sequence[int]) -> tuple[int]:
    return (values[0],)


def _compiled(profile: Profile) -> _Compiled:
    """The compiled profile, remembered per profile object (no hashing of its bets)."""
    found = _compiled_profiles.get(id(profile))
    if found is not None and found.profile is profile:
        return found
    tableau = fixed_tableau(profile)
    card_level = tuple(bet.card_level for bet in profile.bets)
    value_bets = tuple(bet for bet, cards in zip(profile.bets, card_level, strict=True)
                       if not cards)
    plan = _odds_plan(tableau, value_bets)
    offsets = plan.key_offsets.tolist()
    slices: list[slice | None] = []
    recipes: list[_Recipe | None] = []
    position = 0
    for bet, cards in zip(profile.bets, card_level, strict=True):
        slices.append(None if cards else slice(offsets[position], offsets[position + 1]))
        recipes.append(None if cards else _recipe(bet, plan.keys[position]))
        position += not cards
    distributions = []
    for j in range(len(value_bets), len(plan.keys)):
        keys = plan.keys[j]
        texts = [str(key) for key in keys]
        order = sorted(range(len(keys)), key=texts.__getitem__)
        getter: Callable[[Any], Any] = itemgetter(*order) if len(order) > 1 else _first
        distributions.append((slice(offsets[j], offsets[j + 1]),
                              tuple(keys[i] for i in order), getter))
    if len(_compiled_profiles) > 256:
        _compiled_profiles.clear()
    compiled = _Compiled(profile, tableau, card_level, plan, tuple(slices), tuple(recipes),
                         tuple(distributions))
    _compiled_profiles[id(profile)] = compiled
    return compiled


def fixed_tableau(profile: Profile, values_only: bool = False) -> Tableau:
    """A profile's fixed tableau, or :class:`AnalyzerError` when its players choose (or,
    with ``values_only``, when a bet reads ranks or suits)."""
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
    lose = 0
    results = []
    for result, n in ways.items():
        assert isinstance(result, tuple)
        results.append((_payout(bet, result), n))
        if not result:
            lose += n
        for i in result:
            line_ways[i] += n
    lines = tuple(LineOdds(line.name, line.when.text, line.pays, n, total)
                  for line, n in zip(bet.lines, line_ways, strict=True))
    return BetOdds(bet.id, bet.name, bet.pay_rule, lines, lose, total, tuple(results),
                   bet.note)


_payouts: dict[tuple[int, tuple[int, ...]], tuple[Bet, Fraction]] = {}


def _payout(bet: Bet, result: tuple[int, ...]) -> Fraction:
    """:func:`net_payout`, remembered per (bet object, result)."""
    key = (id(bet), result)
    found = _payouts.get(key)
    if found is None or found[0] is not bet:
        found = (bet, net_payout(bet, result))
        _payouts[key] = found
    return found[1]


def odds(profile: Profile | str, shoe: Shoe, kernel: str | None = None) -> OddsTable:
    """Exact odds of every bet of ``profile`` (a Profile, name, alias or file) on ``shoe``.

    ``kernel`` picks the tally's implementation (see :mod:`analyzer.engine.backend`); every
    choice gives the same integers.
    """
    if isinstance(profile, str):
        profile = load_profile(profile)
    compiled = _compiled(profile)
    plan = compiled.plan
    tableau = compiled.tableau
    sums = plan.key_sums(shoe, kernel)
    total = denominator(shoe)
    convention = INFINITE_CONVENTION if shoe.is_infinite else CONVENTION
    scale = 1
    weights: Any = None
    # Card-level bets (ranks, suits) go through analyzer.engine.cardbets, imported only when a
    # profile has one so a values-only profile pays nothing for them.
    if any(compiled.card_level):
        import analyzer.engine.cardbets as cardbets

        total = cardbets.card_denominator(shoe)
        scale = total // denominator(shoe)
        if scale > 1:
            convention = INFINITE_CARD_CONVENTION
            sums = [n * scale for n in sums]
        weights = term_weights(terms(tableau), shoe)
        if total > INT64_LIMIT and weights.dtype != object:
            weights = weights.astype(object)
    bets = []
    for bet, part, recipe in zip(profile.bets, compiled.slices, compiled.recipes,
                                 strict=True):
        if part is None or recipe is None:
            bets.append(bet_odds(bet, cardbets.evaluate_card_tally(
                cardbets.card_tally(tableau, bet), shoe, weights), total))
            continue
        values = sums[part]
        lines = tuple(LineOdds(name, text, pays, sum(values[i] for i in keys), total)
                      for (name, text, pays), keys in zip(recipe.meta, recipe.lines,
                                                          strict=True))
        bets.append(BetOdds(bet.id, bet.name, bet.pay_rule, lines,
                            sum(values[i] for i in recipe.lose), total,
                            tuple(zip(recipe.payouts, values, strict=True)), bet.note))
    distributions = [Distribution(name, tuple(zip(cell_keys, getter(sums[part]), strict=True)))
                     for name, (part, cell_keys, getter) in zip(DISTRIBUTIONS,
                                                                compiled.distributions,
                                                                strict=True)]
    totals, naturals, dealt = distributions
    return OddsTable(profile.name, profile.title, shoe.describe(), total, convention,
                     tuple(bets), totals, naturals, dealt, profile.illustrative)
