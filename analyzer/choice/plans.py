"""Strategies at a home Lucky 9 table of several players: seat plans, banker plans, conversions.

One banker faces ``n`` players (``n + 1`` people, docs/rules/lucky9-home.md §1). A player's strategy
maps what it knows when choosing -- its own two-card holding and what the seats before it
showed -- to a draw probability (:class:`InformedPlan`); a strategy that reads its own hand
only (:data:`PlayerPlan`: the house rule, strategy files, the heads-up equilibrium) is the
special case that ignores the earlier seats. The banker's strategy maps its own holding
*and the vector of what every player showed* -- ``natural`` (revealed and settled),
``drew`` or ``stood`` -- to a draw probability (:class:`BankerPlan`), and its one choice
stands against every remaining player.

This module owns those records, the encoding of choice vectors (:func:`vector_index`), and
the conversions from strategy files and rules (:func:`player_from_strategy`,
:func:`banker_from_strategy`, :func:`banker_from_function`); the tables that weigh them are
:mod:`analyzer.choice.table`.

>>> plan = informed_plan(house_player(), 1)
>>> plan.at(HANDS.index((0, 3)), [DREW]), own_hand_plan(plan) == house_player()
(Fraction(1, 1), True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from analyzer.choice.strategy import Strategy, check_observations, load_strategy
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS, ChoiceRules, hand_label
from analyzer.rules.profile import load_profile

__all__ = ["banker_from_function", "banker_from_strategy", "BankerPlan", "BankerRule", "DREW",
           "house_banker", "house_player", "informed_plan", "InformedPlan", "LUCKY9_RULES",
           "NATURAL", "OBSERVATIONS", "own_hand_plan", "plan_rows", "player_from_strategy",
           "PlayerPlan", "SeatPlan", "STOOD", "strategy_rows", "summary_observation",
           "TableShape", "TOTALS", "vector_index", "vectors"]

#: What the banker sees of one player: 0 natural, 1 drew, 2 stood.
OBSERVATIONS = ("natural", "drew", "stood")
NATURAL, DREW, STOOD = 0, 1, 2
#: Each holding's total, in ``HANDS`` order.
TOTALS = tuple((a + b) % 10 for a, b in HANDS)

PlayerPlan = tuple[Fraction, ...]  # draw probability per holding (55, in HANDS order)


def LUCKY9_RULES() -> ChoiceRules:  # noqa: N802 - a constant-like accessor
    """The rules of the shipped ``lucky9-home`` profile."""

    return load_profile("lucky9-home").choice_rules()


@dataclass(frozen=True)
class BankerPlan:
    """The banker's draw probability per own holding (55) and choice vector (``3**n``)."""

    players: int
    draw: tuple[tuple[Fraction, ...], ...]

    def at(self, hand: int, vector: Sequence[int]) -> Fraction:
        """The draw probability holding ``HANDS[hand]`` after seeing ``vector``."""
        return self.draw[hand][vector_index(vector)]


def vector_index(vector: Sequence[int]) -> int:
    """The index of a choice vector (seat 1 first), base 3.

    >>> vector_index([DREW, STOOD]), vector_index([NATURAL])
    (5, 0)
    """
    index = 0
    for observation in vector:
        index = index * 3 + observation
    return index


def vectors(players: int) -> list[tuple[int, ...]]:
    """Every choice vector, in index order."""
    return list(itertools.product(range(3), repeat=players))


def house_player() -> PlayerPlan:
    """The common house rule for a player: draw on 4 or less."""
    return player_from_strategy(load_strategy("house", "player"))


def house_banker() -> Strategy:
    """The common house rule for the banker: draw on 4 or less, whatever it saw."""
    return load_strategy("house", "banker")


def player_from_strategy(strategy: Strategy) -> PlayerPlan:
    """A heads-up player strategy as a draw probability per holding."""
    return tuple(strategy.draw(hand) for hand in HANDS)


@dataclass(frozen=True)
class InformedPlan:
    """A player's plan on its full information sets (docs/rules/lucky9-home.md §7): its draw
    probability per own holding (55, in ``HANDS`` order) and what the seats before it showed
    (``3**seat`` vectors of natural / drew / stood, :func:`vector_index` order). A plan that
    sees the own hand only (:data:`PlayerPlan`) is the special case of equal entries in
    every row (:func:`informed_plan`)."""

    seat: int
    draw: tuple[tuple[Fraction, ...], ...]

    def at(self, hand: int, earlier: Sequence[int]) -> Fraction:
        """The draw probability holding ``HANDS[hand]`` after the earlier seats showed
        ``earlier``."""
        return self.draw[hand][vector_index(earlier)]

    @property
    def uses_earlier_choices(self) -> bool:
        """Whether the plan's play depends on what the earlier seats showed."""
        return any(len(set(row)) > 1 for row in self.draw)


#: A seat's strategy: own hand only, or own hand and the earlier seats' choices.
SeatPlan = PlayerPlan | InformedPlan


def informed_plan(plan: SeatPlan, seat: int) -> InformedPlan:
    """``plan`` as a plan of seat ``seat`` over its full information sets (an own-hand plan
    plays the same whatever the earlier seats showed).

    >>> informed_plan(house_player(), 1).draw[HANDS.index((0, 3))]
    (Fraction(1, 1), Fraction(1, 1), Fraction(1, 1))
    """
    if isinstance(plan, InformedPlan):
        if plan.seat != seat or any(len(row) != 3**seat for row in plan.draw):
            raise AnalyzerError(f"a strategy for seat {plan.seat + 1} given to seat {seat + 1}")
        return plan
    return InformedPlan(seat, tuple((Fraction(d),) * 3**seat for d in plan))


def own_hand_plan(plan: SeatPlan) -> PlayerPlan:
    """``plan`` as an own-hand plan; an error if it depends on the earlier seats' choices."""
    if not isinstance(plan, InformedPlan):
        return tuple(plan)
    if plan.uses_earlier_choices:
        raise AnalyzerError(f"seat {plan.seat + 1}'s strategy depends on the earlier seats' "
                            "choices: not an own-hand strategy")
    return tuple(row[0] for row in plan.draw)


def plan_rows(plan: SeatPlan) -> tuple[tuple[Fraction, ...], ...]:
    """Draw probabilities per holding, one entry per earlier vector (one if own-hand)."""
    if isinstance(plan, InformedPlan):
        return plan.draw
    return tuple((Fraction(d),) for d in plan)


def summary_observation(vector: Sequence[int]) -> str:
    """How a heads-up banker strategy reads a choice vector: ``drew`` if at least half of
    the players still in the hand drew (all naturals: ``stood``).

    >>> summary_observation([DREW]), summary_observation([DREW, STOOD, STOOD])
    ('drew', 'stood')
    """
    live = [o for o in vector if o != NATURAL]
    drew = sum(1 for o in live if o == DREW)
    return "drew" if live and 2 * drew >= len(live) else "stood"


class TableShape(Protocol):
    """What a plan conversion reads of a table (:class:`analyzer.choice.table.TableGame`):
    how many players it seats and its rules."""

    @property
    def players(self) -> int:
        """The number of players facing the banker."""

    @property
    def rules(self) -> ChoiceRules:
        """The game's rules."""


def banker_from_strategy(game: TableShape | int, strategy: Strategy,
                         rules: ChoiceRules | None = None) -> BankerPlan:
    """A heads-up banker strategy file used at a bigger table (see :func:`summary_observation`).

    With one player it is exactly the heads-up strategy. A table for an observation the
    banker cannot make (anything but ``any``, ``drew``, ``stood``) is an error; the rules
    are the game's, or ``rules`` (default: ``lucky9-home``'s) when given a player count.
    """
    players = game if isinstance(game, int) else game.players
    table_rules = rules if rules is not None else (
        LUCKY9_RULES() if isinstance(game, int) else game.rules)
    check_observations(strategy, table_rules.observations, table_rules.name)
    summaries = [summary_observation(v) for v in vectors(players)]
    rows = []
    for hand in HANDS:
        by_summary = {s: strategy.draw(hand, s) for s in ("drew", "stood")}
        rows.append(tuple(by_summary[s] for s in summaries))
    return BankerPlan(players, tuple(rows))


BankerRule = Callable[[tuple[int, int], tuple[str, ...]], Fraction]


def banker_from_function(players: int, rule: BankerRule) -> BankerPlan:
    """A banker plan from ``rule(own holding, observations)``, observations as words."""
    words = [tuple(OBSERVATIONS[o] for o in v) for v in vectors(players)]
    return BankerPlan(players, tuple(tuple(Fraction(rule(hand, w)) for w in words)
                                     for hand in HANDS))


def strategy_rows(plan: PlayerPlan, rules: ChoiceRules) -> list[tuple[str, Fraction]]:
    """A player plan as (holding, draw probability), non-natural holdings only."""
    return [(hand_label(h), d) for h, d in zip(HANDS, plan, strict=True)
            if TOTALS[HANDS.index(h)] not in rules.naturals]
