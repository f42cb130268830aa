"""Home Lucky 9 sessions: the bank rotates each hand; exact expected nets and a seeded ledger.

``P`` people sit round the table; person ``k + 1`` sits at person ``k``'s right. The bank
starts with a person drawn at random (seeded) and passes to the right after every hand
(docs/rules/lucky9-home.md §1), so in one *rotation* of ``P`` hands every person banks once
and sits once in every player seat. A person's expected net over ``k`` rotations is therefore
``k`` times the sum, over the ``P`` bank positions, of its per-seat value there, times the
stake; each value is the table's exact evaluation in the rules' information model
(:func:`~analyzer.choice.table.strategy.evaluate_strategies`: a seat sees its own cards, every
natural and the earlier seats' choices; the bank every choice). Every player stakes the same
amount and the banker covers it, so the nets sum to zero; when every person uses the same
strategies each person's expected net over whole rotations is exactly zero (each seat value
is met once as a player and once, negated and summed, as the banker). Hands are dealt by the
one dealer of :mod:`analyzer.choice.play.table_log`.

>>> from analyzer.rules.shoe import Shoe
>>> people = [Person("A"), Person("B"), Person("C")]
>>> [str(v) for v in expected_session(people, 2, Shoe.infinite()).nets]
['0', '0', '0']
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.choice.play.table_log import Person, deal_hand, settle
from analyzer.choice.strategy import Strategy, check_observations
from analyzer.choice.table.strategy import evaluate_strategies, information_for
from analyzer.choice.table.subgame import MAX_JOINT_SEATS
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["expected_session", "LedgerLine", "Person", "play_session",
           "Session", "session_summary", "SessionExpectation"]

#: The infinite deck's point values, one per card of a 52-card deck (tens are 0).
_INFINITE = [0] * 16 + [v for v in range(1, 10) for _ in range(4)]


@dataclass(frozen=True)
class SessionExpectation:
    """Each person's expected net over the session, in counters (exact unless estimated)."""

    people: tuple[str, ...]
    rotations: int
    stake: int
    shoe: str
    model: str
    exact: bool
    nets: tuple[Fraction, ...]  # exact, or the estimate's mean as a fraction of a counter
    by_bank: tuple[tuple[Fraction, ...], ...]  # per bank position: each person's value
    half_widths: tuple[Fraction, ...] = ()  # 95% confidence half-widths of estimates

    @property
    def label(self) -> str:
        """``exact`` or ``estimate``."""
        return "exact" if self.exact else "estimate"


def _seating(count: int, banker: int) -> list[int]:
    """The people in seat order (from the banker's right) when ``banker`` holds the bank.

    >>> _seating(4, 2)
    [3, 0, 1]
    """
    return [(banker + offset) % count for offset in range(1, count)]


def _play(strategy: Strategy) -> tuple[Any, ...]:
    """What a strategy plays (its name and source aside)."""
    return strategy.default, strategy.tables, strategy.players


def expected_session(people: list[Person], rotations: int, shoe: Shoe,
                     rules: ChoiceRules | None = None, stake: int = 1,
                     hands: int = 20000, seed: int = 1,
                     symmetry: bool = True) -> SessionExpectation:
    """Each person's expected net over ``rotations`` rotations of the bank.

    Exact at the infinite deck and, with exact card removal, for up to
    ``MAX_JOINT_SEATS + 1`` people; larger finite-shoe tables use a seeded simulation
    (labelled ``estimate``) unless everyone plays the same strategies (then every net is
    exactly zero; ``symmetry=False`` computes it anyway).
    """
    rules = rules or LUCKY9
    count = len(people)
    if count < 2:
        raise AnalyzerError("--people: a session needs at least 2 people")
    if rotations < 0:
        raise AnalyzerError("--rotations: must be 0 or more")
    for someone in people:
        check_observations(someone.banker, rules.observations, rules.name)
    players = count - 1
    if symmetry and all(_play(p.player) == _play(people[0].player) and
                        _play(p.banker) == _play(people[0].banker) for p in people):
        # Identical strategies: every bank position has the same seat values, met once in
        # each seat and once (negated, summed) as the banker -- exactly zero, any shoe.
        zero = tuple(Fraction(0) for _ in people)
        return SessionExpectation(tuple(p.name for p in people), rotations, stake,
                                  shoe.describe(), "exact by symmetry (everyone plays the "
                                  "same strategies)", True, zero, ())
    exact = shoe.is_infinite or players <= MAX_JOINT_SEATS
    by = information_for([s for p in people for s in (p.player, p.banker)])
    by_bank: list[tuple[Fraction, ...]] = []
    variance = [0.0] * count
    rng = random.Random(seed)
    for banker in range(count):
        seats = _seating(count, banker)
        values: list[Fraction] = [Fraction(0)] * count
        if exact:
            found = evaluate_strategies(rules, shoe, players, by,
                                        [people[p].player for p in seats],
                                        people[banker].banker)
            for seat, person in enumerate(seats):
                values[person] = found.seats[seat]
            values[banker] = found.bank
        else:
            means, variances = _simulate_position(rules, shoe, [people[p] for p in seats],
                                                  people[banker], hands, rng)
            for position, person in enumerate([*seats, banker]):
                values[person] = Fraction(means[position]).limit_denominator(10**9)
                variance[person] += variances[position]
        by_bank.append(tuple(values))
    nets = tuple(rotations * stake * sum((row[p] for row in by_bank), Fraction(0))
                 for p in range(count))
    widths = tuple(Fraction(1.96 * rotations * stake * math.sqrt(v / hands)
                            ).limit_denominator(10**9) for v in variance)
    model = ((f"infinite deck (exact), by {by}" if shoe.is_infinite
              else f"exact card removal, by {by}") if exact
             else f"seeded simulation, {hands} hands per bank position, seed {seed} "
                  "(estimate, 95% confidence half-widths)")
    return SessionExpectation(tuple(p.name for p in people), rotations, stake, shoe.describe(),
                              model, exact, nets, tuple(by_bank), widths)


def _hand(rules: ChoiceRules, shoe: Shoe, players: Sequence[Person], bank: Person,
          rng: random.Random, values: list[int]) -> list[int]:
    """Deal one hand (from the shuffled shoe, or the infinite deck) and settle it: each
    seat's result in whole stakes, the bank's net last."""
    needed = 3 * (len(players) + 1)
    deck = ([rng.choice(_INFINITE) for _ in range(needed)] if shoe.is_infinite
            else rng.sample(values, needed))
    cards = deal_hand(rules, players, bank, deck, rng, int)
    results = settle(rules, cards[:-1], cards[-1], [sum(c) % 10 for c in cards[:-1]],
                     sum(cards[-1]) % 10)
    if any(r.denominator != 1 for r in results):
        raise AnalyzerError(f"{rules.name}: a session counts whole stakes; this profile's "
                            "payoffs pay fractions of one")
    whole = [r.numerator for r in results]
    return [*whole, -sum(whole)]


def _simulate_position(rules: ChoiceRules, shoe: Shoe, players: Sequence[Person],
                       bank: Person, hands: int, rng: random.Random,
                       ) -> tuple[list[float], list[float]]:
    """Seeded mean and variance of each seat's result and the banker's net (last)."""
    values = [v for v, n in enumerate(shoe.value_counts()) for _ in range(n)]
    sums = [0] * (len(players) + 1)
    squares = [0] * (len(players) + 1)
    for _ in range(hands):
        for position, result in enumerate(_hand(rules, shoe, players, bank, rng, values)):
            sums[position] += result
            squares[position] += result * result
    means = [total / hands for total in sums]
    variances = [max(sq / hands - m * m, 0.0) for sq, m in zip(squares, means, strict=True)]
    return means, variances


@dataclass(frozen=True)
class LedgerLine:
    """One hand: who banked, each person's result in counters, balances after it."""

    hand: int
    banker: str
    results: tuple[int, ...]
    balances: tuple[int, ...]


@dataclass(frozen=True)
class Session:
    """A played session: the ledger, final balances, leaders and the expected nets."""

    people: tuple[str, ...]
    rotations: int
    seed: int
    stake: int
    shoe: str
    ledger: tuple[LedgerLine, ...]
    expectation: SessionExpectation | None

    @property
    def balances(self) -> tuple[int, ...]:
        """Net counters per person at the end."""
        return self.ledger[-1].balances if self.ledger else (0,) * len(self.people)

    @property
    def leaders(self) -> tuple[str, ...]:
        """The people with the best balance (equal leaders share the session)."""
        best = max(self.balances)
        return tuple(n for n, b in zip(self.people, self.balances, strict=True) if b == best)


def play_session(people: list[Person], rotations: int, seed: int, shoe: Shoe,
                 rules: ChoiceRules | None = None, stake: int = 1,
                 expectation: bool = True) -> Session:
    """Play ``rotations`` rotations (``len(people)`` hands each), seeded and reproducible.

    Every hand deals from the whole shoe shuffled by ``random.Random(seed)`` (or, at the
    infinite deck, cards drawn with replacement) as docs/rules/lucky9-home.md §3-§6 says;
    mixed choices draw from the same generator.

    >>> from analyzer.rules.shoe import Shoe
    >>> game = play_session([Person("A"), Person("B"), Person("C")], 1, 7, Shoe.decks(1),
    ...                     expectation=False)
    >>> len(game.ledger), sum(game.balances)
    (3, 0)
    """
    rules = rules or LUCKY9
    count = len(people)
    if not rules.people[0] <= count <= rules.people[1]:
        raise AnalyzerError(f"--people {count}: profile {rules.name!r} seats "
                            f"{rules.people[0]} to {rules.people[1]} people")
    if stake < 1:
        raise AnalyzerError("--stake: must be a positive number of counters")
    for someone in people:
        check_observations(someone.banker, rules.observations, rules.name)
    rng = random.Random(seed)
    values = ([v for v, n in enumerate(shoe.value_counts()) for _ in range(n)]
              if not shoe.is_infinite else [])
    if not shoe.is_infinite and len(values) < 3 * count:
        raise AnalyzerError(f"{shoe.describe()}: too few cards for {count} people")
    banker = rng.randrange(count)
    balances = [0] * count
    ledger: list[LedgerLine] = []
    for hand in range(1, rotations * count + 1):
        seats = _seating(count, banker)
        results = _hand(rules, shoe, [people[p] for p in seats], people[banker], rng, values)
        row = [0] * count
        for seat, person in enumerate(seats):
            row[person] = results[seat] * stake
        row[banker] = -sum(row)
        balances = [b + r for b, r in zip(balances, row, strict=True)]
        ledger.append(LedgerLine(hand, people[banker].name, tuple(row), tuple(balances)))
        banker = (banker + 1) % count
    expected = expected_session(people, rotations, shoe, rules, stake) if expectation else None
    return Session(tuple(p.name for p in people), rotations, seed, stake, shoe.describe(),
                   tuple(ledger), expected)


def session_summary(session: Session) -> dict[str, Any]:
    """Final figures of a session as plain values (for tests and JSON)."""
    return {"balances": list(session.balances), "leaders": list(session.leaders)}
