"""Home Lucky 9 with several players: exact per-seat values, best responses, dynamics.

One banker faces ``n`` players (``n + 1`` people, RULES.md section 4). A player's strategy
maps what it knows when choosing -- its own two-card holding and what the seats before it
showed -- to a draw probability (:class:`InformedPlan`); a strategy that reads its own hand
only (:data:`PlayerPlan`: the house rule, strategy files, the heads-up equilibrium) is the
special case that ignores the earlier seats. The banker's strategy maps its own holding
*and the vector of what every player showed* -- ``natural`` (revealed and settled),
``drew`` or ``stood`` -- to a draw probability, and its one choice stands against every
remaining player. Payoffs are each player's result per unit staked; the banker's value is
minus their sum (it covers every stake).

Every quantity is exact. Two models of the cards:

* the infinite deck (dealing with replacement, 1/13 per rank, ten-valued cards 4/13): the
  players' hands and third cards are independent given the banker's hand, so the weight of
  a choice vector is the product over seats of each seat's probability of its observation
  given the earlier seats' observations, and a banker cell ``(hand, choice vector)`` is
  built from one-player tables (:class:`InfiniteTable`), for any number of players;
* a finite shoe with exact card removal for one or two players (three people): every deal of
  nine value positions is counted (:class:`FiniteTable`); a player's and the banker's third
  cards are exchangeable with the unused positions, so each seat's result needs only the
  pair of third cards it meets (the second seat's play may depend on the first seat's
  observation).

Larger finite-shoe tables are dealt by seeded simulation (:func:`estimate_seat_values`); those
figures are labelled *estimate* with 95% confidence intervals.

Best responses: the banker draws in a cell exactly when the players' combined expected result
there falls by drawing (Kuhn 1953: a behaviour best response is pure, cell by cell); a player
best-responds holding every other strategy fixed, cell by cell over (own hand, the earlier
seats' revealed natural / drew / stood), since the banker's play depends on every choice.
:func:`dynamics` runs sequential best-response dynamics with averaging: each round the seats
in order best-respond (over their full information sets; with ``informed=False`` within
own-hand strategies, the earlier restricted class) to the current average banker, to the
*new pure responses* of the seats before them and to the later seats' current averages; the
banker then best-responds to all the players' new pure responses; finally every side's
strategy moves to the average of its start and all its responses so far (step
``1/(round + 2)``). This is not Brown's fictitious play and carries no convergence
guarantee: what it reports is each side's exact regret over its full information sets --
zero for every side would certify an exact equilibrium.

>>> from analyzer.rules.shoe import Shoe
>>> game = build_table(LUCKY9_RULES(), Shoe.infinite(), 2)
>>> house = [house_player()] * 2
>>> values = seat_values(game, house, banker_from_strategy(game, house_banker()))
>>> values.players[0] == values.players[1], values.banker == -sum(values.players)
(True, True)
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.choice.game import build_game
from analyzer.choice.solver import solve_game
from analyzer.choice.strategy import Strategy, check_observations, load_strategy
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS, ChoiceRules, hand_label
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["banker_best_response", "banker_from_function", "banker_from_strategy", "BankerPlan",
           "BankerRule", "build_table", "DREW", "Dynamics", "dynamics", "Estimate",
           "estimate_seat_values", "EXACT_FINITE_PLAYERS", "FiniteTable", "heads_up_start",
           "house_banker", "house_player", "InfiniteTable", "informed_plan", "InformedPlan",
           "LUCKY9_RULES", "NATURAL", "ObjectArray", "OBSERVATIONS", "own_hand_best_response",
           "own_hand_plan", "play_hand", "player_best_response", "player_from_strategy",
           "PlayerPlan", "Regrets", "regrets", "seat_values", "SeatPlan", "SeatValues", "STOOD",
           "strategy_rows", "summary_observation", "table_report", "TableGame", "TableReport",
           "TOTALS", "vector_index", "vectors"]

ObjectArray = npt.NDArray[Any]
#: What the banker sees of one player: 0 natural, 1 drew, 2 stood.
OBSERVATIONS = ("natural", "drew", "stood")
NATURAL, DREW, STOOD = 0, 1, 2
#: Exact card removal is implemented for at most this many players (3 people).
EXACT_FINITE_PLAYERS = 2
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
    """A player's plan on its full information sets (RULES.md section 4): its draw
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


def _plan_rows(plan: SeatPlan) -> tuple[tuple[Fraction, ...], ...]:
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


def banker_from_strategy(game: TableGame | int, strategy: Strategy,
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


# -- exact integer helpers ---------------------------------------------------------------------
def _lcm_of(values: Sequence[Fraction]) -> int:
    return reduce(math.lcm, (v.denominator for v in values), 1)


def _objects(array: Any) -> ObjectArray:
    """An exact object array of Python integers."""
    return np.asarray(np.asarray(array).tolist(), dtype=object) if np.ndim(array) else \
        np.asarray(int(array), dtype=object)


def _sign(a: Any, b: Any) -> Any:
    return np.sign(np.asarray(a) - np.asarray(b))


@dataclass(frozen=True, eq=False)
class TableGame:
    """The exact weights of a table of ``players`` players and one banker.

    ``constant`` is every seat's numerator from a natural banker (identical for every seat);
    all numerators share ``denominator`` (before the strategies' own denominators).
    """

    rules: ChoiceRules
    shoe: str
    players: int
    exact: bool
    constant: int
    denominator: int
    model: str

    def _forced_rows(self, plan: SeatPlan) -> list[tuple[Fraction, ...]]:
        """The plan's rows (:func:`_plan_rows`) with the rules' forced plays applied."""
        rules = self.rules
        out = []
        for hand, row in zip(HANDS, _plan_rows(plan), strict=True):
            total = sum(hand) % 10
            out.append((Fraction(1),) * len(row) if total in rules.player_draws else
                       (Fraction(0),) * len(row) if total in rules.player_stands else
                       tuple(Fraction(d) for d in row))
        return out

    def observation_matrix(self, plan: SeatPlan, seat: int = 0) -> tuple[ObjectArray, int]:
        """``M[hand, earlier, observation, drew]`` numerators over the returned denominator:
        seat ``seat``'s play after each vector of the earlier seats' observations (one
        broadcast row, ``earlier`` of size 1, for an own-hand plan)."""
        if isinstance(plan, InformedPlan):
            informed_plan(plan, seat)  # checks the seat and the rows' width
        rows = self._forced_rows(plan)
        scale = reduce(math.lcm, (_lcm_of(r) for r in rows), 1)
        matrix = np.zeros((55, len(rows[0]), 3, 2), dtype=object)
        for h, row in enumerate(rows):
            for e, draw in enumerate(row):
                if TOTALS[h] in self.rules.naturals:
                    matrix[h, e, NATURAL, 0] = scale
                else:
                    numerator = int(draw * scale)
                    matrix[h, e, DREW, 1] = numerator
                    matrix[h, e, STOOD, 0] = scale - numerator
        return matrix, scale

    def banker_matrix(self, plan: BankerPlan) -> tuple[ObjectArray, int]:
        """``Y[hand, vector, drew]`` numerators over the returned denominator (rules applied)."""
        if plan.players != self.players:
            raise AnalyzerError(f"banker strategy is for {plan.players} players, the table "
                                f"has {self.players}")
        rows = []
        for hand, plan_row in zip(HANDS, plan.draw, strict=True):
            row = list(plan_row)
            total = sum(hand) % 10
            if total in self.rules.banker_draws:
                rows.append([Fraction(1)] * len(row))
            elif total in self.rules.banker_stands:
                rows.append([Fraction(0)] * len(row))
            else:
                rows.append(row)
        scale = reduce(math.lcm, (_lcm_of(r) for r in rows), 1)
        y = np.zeros((55, 3**self.players, 2), dtype=object)
        for h, row in enumerate(rows):
            for v, draw in enumerate(row):
                numerator = int(draw * scale)
                y[h, v, 1] = numerator
                y[h, v, 0] = scale - numerator
        return y, scale

    # Implemented by the two models -------------------------------------------------------
    def seat_cells(self, matrices: Sequence[ObjectArray], seat: int) -> ObjectArray:
        """``Q[bank hand, vector, drew]``: seat's result numerators (non-natural banks)."""
        raise NotImplementedError

    def seat_contributions(self, matrices: Sequence[ObjectArray], y: ObjectArray,
                           seat: int) -> ObjectArray:
        """``C[hand, drew]``: seat's result numerators when holding ``hand`` and drawing or
        not, everyone else as given (the seat's own matrix is ignored)."""
        summed: ObjectArray = self.seat_contributions_by_earlier(matrices, y, seat).sum(axis=1)
        return summed

    def seat_contributions_by_earlier(self, matrices: Sequence[ObjectArray], y: ObjectArray,
                                      seat: int) -> ObjectArray:
        """``C[hand, earlier, drew]``: as :meth:`seat_contributions`, split by what the
        seat has seen before choosing -- the observations (natural / drew / stood) of the
        seats before it, as a base-3 index over ``3**seat`` vectors (:func:`vector_index`).
        The later seats' observations are summed out: the seat cannot see them."""
        raise NotImplementedError

    def seat_scale(self, scales: Sequence[int], seat: int) -> int:
        """The denominator factor the other seats' strategies bring to seat's numerators."""
        raise NotImplementedError


def _non_natural_banks(rules: ChoiceRules) -> list[int]:
    return [h for h in range(55) if TOTALS[h] not in rules.naturals]


@dataclass(frozen=True, eq=False)
class InfiniteTable(TableGame):
    """Infinite deck: ``R[bank, hand, drew, bank drew]`` and hand weights, over ``52**6``."""

    result: ObjectArray
    hand_weight: ObjectArray  # over 52**2

    def _conditional_weights(self, matrix: ObjectArray, seat: int) -> ObjectArray:
        """``P[earlier, observation]`` numerators (over ``52**2`` times the matrix scale):
        the seat's observation given the earlier seats', ``3**seat`` rows."""
        weights: ObjectArray = (self.hand_weight[:, None, None] * matrix.sum(axis=3)
                                ).sum(axis=0)
        return np.broadcast_to(weights, (3**seat, 3))

    def _others(self, matrices: Sequence[ObjectArray], seat: int) -> ObjectArray:
        """The other seats' weights of every choice vector (flat, :func:`vector_index`
        order): the product over seats of each seat's observation given the earlier ones
        (the hands are independent at the infinite deck)."""
        n = self.players
        product = np.ones(3**n, dtype=object)
        for j, matrix in enumerate(matrices):
            if j != seat:
                weights = np.asarray(self._conditional_weights(matrix, j)).reshape(-1)
                product = product * np.repeat(weights, 3 ** (n - j - 1))
        return product

    def seat_cells(self, matrices: Sequence[ObjectArray], seat: int) -> ObjectArray:
        n = self.players
        own = np.einsum("bhdk,heod->beok", self.result, matrices[seat])  # (55, E, 3, 2)
        own = np.broadcast_to(own, (55, 3**seat, 3, 2)).reshape(55, 3 ** (seat + 1), 1, 2)
        others = self._others(matrices, seat).reshape(1, 3 ** (seat + 1), 3 ** (n - seat - 1),
                                                      1)
        cells: ObjectArray = (own * others).reshape(55, 3**n, 2)
        return cells

    def seat_contributions_by_earlier(self, matrices: Sequence[ObjectArray], y: ObjectArray,
                                      seat: int) -> ObjectArray:
        others = self._others(matrices, seat).reshape((3,) * self.players)
        full = y.reshape((55,) + (3,) * self.players + (2,)) * others[None, ..., None]
        later = tuple(1 + j for j in range(seat + 1, self.players))
        marginal = full.sum(axis=later) if later else full
        # (bank, earlier vector, own observation, bank drew)
        marginal = marginal.reshape(55, 3**seat, 3, 2)
        out = np.zeros((55, 3**seat, 2), dtype=object)
        for h in range(55):
            for d in (0, 1):
                if TOTALS[h] in self.rules.naturals:
                    observation = NATURAL
                    if d:
                        continue
                else:
                    observation = DREW if d else STOOD
                out[h, :, d] = (self.result[:, h, d, :][:, None, :]
                                * marginal[:, :, observation, :]).sum(axis=(0, 2))
        return out

    def seat_scale(self, scales: Sequence[int], seat: int) -> int:
        return math.prod(s * 52**2 for j, s in enumerate(scales) if j != seat)


@dataclass(frozen=True, eq=False)
class FiniteTable(TableGame):
    """A finite shoe, one or two players: ``E[bank, hand 1, hand 2, drew, bank drew]``."""

    result: ObjectArray  # own holding first (the same for both seats)

    def _seat_result(self, seat: int) -> ObjectArray:
        """``E[bank, own holding, other holding, own drew, bank drew]``: dealing is
        exchangeable, so every seat's table is the same, indexed own holding first."""
        del seat
        return self.result

    @staticmethod
    def _second(matrices: Sequence[ObjectArray]) -> ObjectArray:
        """``S[holding, seat 1's observation, observation]``: seat 2's play."""
        second: ObjectArray = np.broadcast_to(matrices[1], (55, 3, 3, 2)).sum(axis=3)
        return second

    def seat_cells(self, matrices: Sequence[ObjectArray], seat: int) -> ObjectArray:
        result = self._seat_result(seat)
        first = matrices[0][:, 0]  # (55, 3, 2): seat 1 sees no earlier choice
        if self.players == 1:
            own: ObjectArray = np.einsum("bhgdk,hod->bok", result, first)
            return own.reshape(55, 3, 2)
        cells: ObjectArray
        if seat == 0:
            # Seat 2's play depends on seat 1's observation (its own holding is ``g``).
            by_other = np.einsum("bhgdk,hod->bgok", result, first)
            cells = np.einsum("bgok,gop->bopk", by_other, self._second(matrices))
        else:
            partial = np.einsum("bhgdk,gp->bhpdk", result, first.sum(axis=2))
            cells = np.einsum("bhpdk,hpod->bpok", partial,
                              np.broadcast_to(matrices[1], (55, 3, 3, 2)))
        return cells.reshape(55, 9, 2)

    def seat_contributions_by_earlier(self, matrices: Sequence[ObjectArray], y: ObjectArray,
                                      seat: int) -> ObjectArray:
        result = self._seat_result(seat)
        out = np.zeros((55, 3**seat, 2), dtype=object)
        if self.players == 2 and seat == 0:
            # Seat 2 (holding ``g``) sees seat 1's observation; seat 1 cannot see seat 2's.
            weighted = np.einsum("gop,bopk->obgk", self._second(matrices),
                                 y.reshape(55, 3, 3, 2))  # (own observation, bank, g, k)
            for d in (0, 1):
                by_observation = np.einsum("bhgk,obgk->ho", result[:, :, :, d, :], weighted)
                for h in range(55):
                    if TOTALS[h] in self.rules.naturals:
                        if not d:
                            out[h, 0, d] = by_observation[h, NATURAL]
                    else:
                        out[h, 0, d] = by_observation[h, DREW if d else STOOD]
            return out
        if self.players == 1:
            # One player: the second holding is unused positions (exchangeable), summed out.
            partial = result.sum(axis=2)[:, :, None, :, :]  # (bank, hand, 1, drew, bank drew)
            marginal = y.reshape(55, 3, 1, 2)
        else:
            partial = np.einsum("bhgdk,gp->bhpdk", result, matrices[0][:, 0].sum(axis=2))
            # (bank, own observation, seat 1's, bank drew)
            marginal = y.reshape(55, 3, 3, 2).transpose(0, 2, 1, 3)
        for h in range(55):
            for d in (0, 1):
                if TOTALS[h] in self.rules.naturals:
                    if d:
                        continue
                    observation = NATURAL
                else:
                    observation = DREW if d else STOOD
                out[h, :, d] = (partial[:, h, :, d, :] * marginal[:, observation, :, :]
                                ).sum(axis=(0, 2))  # per observation of the earlier seat
        return out

    def seat_scale(self, scales: Sequence[int], seat: int) -> int:
        return math.prod(s for j, s in enumerate(scales) if j != seat)


# -- building the tables ------------------------------------------------------------------------
def _check_rules(rules: ChoiceRules, players: int) -> None:
    if rules.banker_sees != "choice":
        raise AnalyzerError(f"profile {rules.name!r}: the table game needs a banker who sees "
                            "only who drew (banker_sees = \"choice\")")
    low, high = rules.people
    if not low <= players + 1 <= high:
        raise AnalyzerError(f"--players {players}: profile {rules.name!r} seats {low - 1} to "
                            f"{high - 1} players facing the banker")


def _infinite(rules: ChoiceRules, players: int) -> InfiniteTable:
    counts = [16] + [4] * 9
    n = np.array(counts, dtype=np.int64)
    weight = np.array([(1 if a == b else 2) * counts[a] * counts[b] for a, b in HANDS],
                      dtype=np.int64)
    totals = np.array(TOTALS)
    value = np.arange(10)
    final = (totals[:, None] + value[None, :]) % 10  # (hand, third)
    natural = np.isin(totals, sorted(rules.naturals))
    result = np.zeros((55, 55, 2, 2), dtype=np.int64)  # bank, hand, drew, bank drew; /52**2
    # stand / stand
    result[:, :, 0, 0] = _sign(totals[None, :], totals[:, None]) * 52 * 52
    result[:, :, 1, 0] = (n[None, None, :] * _sign(final[None, :, :], totals[:, None, None])
                          ).sum(axis=2) * 52
    result[:, :, 0, 1] = (n[None, None, :] * _sign(totals[None, :, None], final[:, None, :])
                          ).sum(axis=2) * 52
    result[:, :, 1, 1] = (n[None, None, :, None] * n[None, None, None, :]
                          * _sign(final[None, :, :, None], final[:, None, None, :])
                          ).sum(axis=(2, 3))
    result[:, natural, :, :] = 0
    result[:, natural, 0, :] = 52 * 52
    result = result * weight[:, None, None, None] * weight[None, :, None, None]
    result[natural] = 0
    constant = 0
    for b in np.flatnonzero(natural):
        for h in range(55):
            outcome = 0 if natural[h] else -1
            constant += int(weight[b] * weight[h]) * 52 * 52 * outcome
    return InfiniteTable(rules=rules, shoe="infinite deck", players=players, exact=True,
                         constant=constant, denominator=52**6, model="infinite deck (exact)",
                         result=_objects(result), hand_weight=_objects(weight))


def _falling(n: Any, k: Any, depth: int) -> Any:
    out = np.ones(np.broadcast(n, k).shape, dtype=np.int64)
    for j in range(depth):
        out = out * np.where(j < k, n - j, 1)
    return out


def _finite(rules: ChoiceRules, shoe: Shoe, players: int) -> FiniteTable:
    counts = np.array(shoe.value_counts(), dtype=np.int64)
    size = int(counts.sum())
    if size < 9:
        raise AnalyzerError(f"{shoe.describe()}: a three-person hand needs at least 9 cards")
    denominator = math.perm(size, 9)
    if denominator >= 2**62:
        raise AnalyzerError(f"{shoe.describe()}: exact card removal is limited to shoes of at "
                            "most 2 decks; use --infinite or the simulation estimate")
    hand_counts = np.zeros((55, 10), dtype=np.int64)
    for i, (a, b) in enumerate(HANDS):
        hand_counts[i, a] += 1
        hand_counts[i, b] += 1
    orders = np.array([1 if a == b else 2 for a, b in HANDS], dtype=np.int64)
    totals = np.array(TOTALS)
    natural = np.isin(totals, sorted(rules.naturals))
    final = (totals[:, None] + np.arange(10)[None, :]) % 10
    rest = size - 6
    result = np.zeros((55, 55, 55, 2, 2), dtype=np.int64)
    constant = 0
    eye = np.eye(10, dtype=np.int64)
    for b in range(55):
        used = hand_counts[b][None, None, :] + hand_counts[:, None, :] + hand_counts[None, :, :]
        ways = (orders[b] * orders[:, None] * orders[None, :]
                * np.prod(_falling(counts[None, None, :], used, 6), axis=2))  # (h1, h2)
        remaining = np.maximum(counts[None, None, :] - used, 0)  # (h1, h2, value)
        if natural[b]:
            outcome = np.where(natural, 0, -1)
            constant += int((ways * (rest * (rest - 1) * (rest - 2))).sum(axis=1) @ outcome)
            continue
        tb = totals[b]
        block = np.zeros((55, 55, 2, 2), dtype=np.int64)
        block[:, :, 0, 0] = (np.sign(totals - tb)[:, None] * rest * (rest - 1) * (rest - 2))
        player_third = (remaining * np.sign(final - tb)[:, None, :]).sum(axis=2)
        block[:, :, 1, 0] = player_third * (rest - 1) * (rest - 2)
        bank_third = (remaining * np.sign(totals[:, None] - final[b][None, :])[:, None, :]
                      ).sum(axis=2)
        block[:, :, 0, 1] = bank_third * (rest - 1) * (rest - 2)
        pairs = remaining[:, :, :, None] * (remaining[:, :, None, :] - eye[None, None])
        outcome = np.sign(final[:, :, None] - final[b][None, None, :])  # (h1, t1, tb)
        block[:, :, 1, 1] = (pairs * outcome[:, None, :, :]).sum(axis=(2, 3)) * (rest - 2)
        block[natural, :, :, :] = 0
        block[natural, :, 0, :] = rest * (rest - 1) * (rest - 2)
        result[b] = block * ways[:, :, None, None]
    return FiniteTable(rules=rules, shoe=shoe.describe(), players=players, exact=True,
                       constant=constant, denominator=denominator,
                       model="exact card removal", result=_objects(result))


@lru_cache(maxsize=8)
def build_table(rules: ChoiceRules, shoe: Shoe, players: int) -> TableGame:
    """The exact table game: any number of players at the infinite deck, at most two with a
    finite shoe (larger finite tables: :func:`estimate_seat_values`). Cached: the tables
    are read-only."""
    _check_rules(rules, players)
    if shoe.is_infinite:
        return _infinite(rules, players)
    if players > EXACT_FINITE_PLAYERS:
        raise AnalyzerError(f"--players {players}: exact card removal covers at most "
                            f"{EXACT_FINITE_PLAYERS} players; use --infinite (exact) or the "
                            "simulation estimate")
    return _finite(rules, shoe, players)


# -- values, best responses --------------------------------------------------------------------
@dataclass(frozen=True)
class SeatValues:
    """Each player's exact expected result per unit staked, seat 1 first; the banker's net."""

    players: tuple[Fraction, ...]
    banker: Fraction


def _prepare(game: TableGame, plans: Sequence[SeatPlan],
             banker: BankerPlan) -> tuple[list[ObjectArray], list[int], ObjectArray, int]:
    if len(plans) != game.players:
        raise AnalyzerError(f"{len(plans)} player strategies for {game.players} seats")
    pairs = [game.observation_matrix(p, i) for i, p in enumerate(plans)]
    y, y_scale = game.banker_matrix(banker)
    return [m for m, _ in pairs], [s for _, s in pairs], y, y_scale


def _seat_value(game: TableGame, matrices: Sequence[ObjectArray], scales: Sequence[int],
                y: ObjectArray, y_scale: int, seat: int) -> Fraction:
    cells = game.seat_cells(matrices, seat)
    total = int((cells * y).sum())
    scale = math.prod(scales) * y_scale
    if isinstance(game, InfiniteTable):
        scale *= 52 ** (2 * (game.players - 1))
    return Fraction(game.constant, game.denominator) + Fraction(total, scale * game.denominator)


def seat_values(game: TableGame, plans: Sequence[SeatPlan], banker: BankerPlan) -> SeatValues:
    """Every seat's exact expected result per unit staked under the given strategies."""
    matrices, scales, y, y_scale = _prepare(game, plans, banker)
    values = tuple(_seat_value(game, matrices, scales, y, y_scale, i)
                   for i in range(game.players))
    return SeatValues(values, -sum(values, Fraction(0)))


def _groups(by: str) -> list[list[int]]:
    if by == "cards":
        return [[h] for h in range(55)]
    if by != "total":
        raise AnalyzerError(f"by must be 'total' or 'cards', got {by!r}")
    return [[h for h in range(55) if TOTALS[h] == t] for t in range(10)]


def banker_best_response(game: TableGame, plans: Sequence[SeatPlan],
                         by: str = "cards") -> tuple[BankerPlan, Fraction]:
    """The banker's exact best response (per own hand or total and choice vector) and the
    banker's net value with it."""
    if len(plans) != game.players:
        raise AnalyzerError(f"{len(plans)} player strategies for {game.players} seats")
    matrices = [game.observation_matrix(p, i)[0] for i, p in enumerate(plans)]
    gain = np.zeros((55, 3**game.players), dtype=object)
    for seat in range(game.players):
        cells = game.seat_cells(matrices, seat)
        gain = gain + (cells[:, :, 1] - cells[:, :, 0])
    rows = [[Fraction(0)] * 3**game.players for _ in range(55)]
    for group in _groups(by):
        combined = sum((gain[h] for h in group), np.zeros(3**game.players, dtype=object))
        for v, g in enumerate(combined.tolist()):
            for h in group:
                rows[h][v] = Fraction(int(g < 0))
    plan = BankerPlan(game.players, tuple(tuple(r) for r in rows))
    return plan, seat_values(game, plans, plan).banker


def own_hand_best_response(game: TableGame, plans: Sequence[SeatPlan], banker: BankerPlan,
                           seat: int, by: str = "cards") -> tuple[PlayerPlan, Fraction]:
    """Seat's exact best response among strategies that see its own hand only (others
    fixed), and its value with it. Not the seat's full best response when seats before it
    exist: see :func:`player_best_response`."""
    matrices, _, y, _ = _prepare(game, plans, banker)
    contributions = game.seat_contributions(matrices, y, seat)
    plan = [row[0] for row in game._forced_rows(plans[seat])]
    for group in _groups(by):
        advantage = sum(int(contributions[h, 1] - contributions[h, 0]) for h in group
                        if TOTALS[h] not in game.rules.naturals)
        for h in group:
            total = TOTALS[h]
            if total in game.rules.player_draws or total in game.rules.player_stands:
                continue
            plan[h] = Fraction(int(advantage > 0))
    new_plans = list(plans)
    new_plans[seat] = tuple(plan)
    return tuple(plan), seat_values(game, new_plans, banker).players[seat]


def _player_information(game: TableGame) -> None:
    """Check the profile's stated player information is what this model implements."""
    sees = game.rules.player_sees
    if game.players > 1 and sees != "earlier choices":
        raise AnalyzerError(f"profile {game.rules.name!r}: game.player_sees = {sees!r}; the "
                            "table game models players who see the earlier seats' choices "
                            "(player_sees = \"earlier choices\")")


def player_best_response(game: TableGame, plans: Sequence[SeatPlan], banker: BankerPlan,
                         seat: int, by: str = "cards") -> tuple[InformedPlan, Fraction]:
    """Seat's exact best response over its full information sets, others fixed, and its
    value with it.

    A player choosing knows its own hand (total or two cards, per ``by``), the revealed
    naturals and the choices of the seats before it (RULES.md section 4; the profile's
    ``player_sees = "earlier choices"``). The banker conditions on every choice, so a later
    seat can gain by conditioning on the earlier ones; the best response is computed cell
    by cell over (own hand, earlier seats' observations) from the seat's contributions with
    the earlier seats' observation axes kept (Kuhn 1953: a pure behaviour best response).
    """
    _player_information(game)
    matrices, scales, y, y_scale = _prepare(game, plans, banker)
    contributions = game.seat_contributions_by_earlier(matrices, y, seat)
    rules = game.rules
    rows = [[Fraction(0)] * 3**seat for _ in range(55)]
    chosen = 0
    for group in _groups(by):
        live = [h for h in group if TOTALS[h] not in rules.naturals]
        for e in range(3**seat):
            stand = sum((int(contributions[h, e, 0]) for h in group), 0)
            advantage = sum((int(contributions[h, e, 1] - contributions[h, e, 0])
                             for h in live), 0)
            for h in live:
                total = TOTALS[h]
                forced = (1 if total in rules.player_draws else
                          0 if total in rules.player_stands else None)
                take = forced if forced is not None else int(advantage > 0)
                rows[h][e] = Fraction(take)
                chosen += int(contributions[h, e, take]) - int(contributions[h, e, 0])
            chosen += stand
    scale = game.seat_scale(scales, seat) * y_scale
    value = (Fraction(game.constant, game.denominator)
             + Fraction(chosen, scale * game.denominator))
    return InformedPlan(seat, tuple(tuple(r) for r in rows)), value


@dataclass(frozen=True)
class Regrets:
    """Each side's exact regret: what switching alone to its best response would gain.

    ``players``: over each seat's full information sets (own hand and the earlier seats'
    choices, RULES.md section 4); ``own_hand``: among strategies seeing the own hand only
    (never more than ``players``), computed only when every player's strategy itself sees
    the own hand only (empty otherwise: an informed strategy can beat every own-hand one).
    The banker's best response always sees its own hand and every choice.
    """

    players: tuple[Fraction, ...]
    banker: Fraction
    own_hand: tuple[Fraction, ...] = ()

    @property
    def largest(self) -> Fraction:
        """The distance from equilibrium: the largest single regret over full information
        sets (0 = an exact equilibrium of the game)."""
        return max((*self.players, self.banker))


def _sees_own_hand_only(plan: SeatPlan) -> bool:
    return not isinstance(plan, InformedPlan) or not plan.uses_earlier_choices


def regrets(game: TableGame, plans: Sequence[SeatPlan], banker: BankerPlan,
            by: str = "cards") -> Regrets:
    """Every side's exact regret at a strategy profile, over full information sets (and,
    when every player's strategy sees its own hand only, also within own-hand strategies)."""
    values = seat_values(game, plans, banker)
    _, banker_best = banker_best_response(game, plans, by)
    seats = tuple(player_best_response(game, plans, banker, i, by)[1] - values.players[i]
                  for i in range(game.players))
    own: tuple[Fraction, ...] = ()
    if all(_sees_own_hand_only(p) for p in plans):
        own = tuple(own_hand_best_response(game, plans, banker, i, by)[1] - values.players[i]
                    for i in range(game.players))
    return Regrets(seats, banker_best - values.banker, own)


@dataclass(frozen=True)
class Dynamics:
    """The result of best-response dynamics: the profile with the smallest largest regret.

    ``informed``: the players' strategies see their own hand and the earlier seats'
    choices (:class:`InformedPlan`, the game's full information sets); otherwise their own
    hand only (:data:`PlayerPlan`, a restricted class in which regret cannot reach zero
    when a later seat gains by reading the earlier choices)."""

    profile: str
    shoe: str
    model: str
    by: str
    players: int
    rounds: int
    plans: tuple[SeatPlan, ...]
    banker: BankerPlan
    values: SeatValues
    banker_best_response: Fraction
    player_best_responses: tuple[Fraction, ...]
    regrets: Regrets
    history: tuple[Fraction, ...]  # largest regret after each round
    seconds: float
    informed: bool = True

    @property
    def equilibrium(self) -> bool:
        """Zero regret for every side over its full information sets (players: own hand and
        the earlier seats' choices; banker: own hand and every choice): an exact equilibrium
        of the game."""
        return self.regrets.largest == 0


def _mix(old: Sequence[Fraction], new: Sequence[Fraction], weight: Fraction) -> tuple[
        Fraction, ...]:
    return tuple(a + (b - a) * weight for a, b in zip(old, new, strict=True))


def _mix_plan(old: SeatPlan, new: SeatPlan, weight: Fraction) -> SeatPlan:
    if isinstance(old, InformedPlan) and isinstance(new, InformedPlan):
        return InformedPlan(old.seat, tuple(_mix(o, n, weight)
                                            for o, n in zip(old.draw, new.draw, strict=True)))
    return _mix(own_hand_plan(old), own_hand_plan(new), weight)


def dynamics(game: TableGame, plans: Sequence[SeatPlan], banker: BankerPlan,
             rounds: int = 8, by: str = "cards", informed: bool = True) -> Dynamics:
    """Sequential best-response dynamics with averaging from a starting profile (see the
    module docstring): each round the seats in order, then the banker, best-respond to the
    newest pure responses, then every strategy moves to the running average of its start
    and its responses. ``informed`` (default): the players best-respond over their full
    information sets (own hand and the earlier seats' choices, :func:`player_best_response`);
    otherwise within own-hand strategies (:func:`own_hand_best_response`). Exact regrets
    over full information sets; returns the visited average profile with the smallest
    largest regret."""
    start = time.perf_counter()
    current: list[SeatPlan] = [informed_plan(p, i) if informed else own_hand_plan(p)
                               for i, p in enumerate(plans)]
    bank = banker
    best: tuple[Fraction, list[SeatPlan], BankerPlan, Regrets] | None = None
    history: list[Fraction] = []
    for round_number in range(rounds + 1):
        found = regrets(game, current, bank, by)
        history.append(found.largest)
        if best is None or found.largest < best[0]:
            best = (found.largest, list(current), bank, found)
        if found.largest == 0 or round_number == rounds:
            break
        weight = Fraction(1, round_number + 2)
        responses = list(current)
        for seat in range(game.players):
            reply: SeatPlan
            if informed:
                reply, _ = player_best_response(game, responses, bank, seat, by)
            else:
                reply, _ = own_hand_best_response(game, responses, bank, seat, by)
            responses[seat] = reply
        reply_bank, _ = banker_best_response(game, responses, by)
        current = [_mix_plan(old, new, weight)
                   for old, new in zip(current, responses, strict=True)]
        bank = BankerPlan(game.players, tuple(_mix(o, n, weight) for o, n in
                                              zip(bank.draw, reply_bank.draw, strict=True)))
    assert best is not None
    _, chosen, chosen_bank, found = best
    values = seat_values(game, chosen, chosen_bank)
    return Dynamics(profile=game.rules.name, shoe=game.shoe, model=game.model, by=by,
                    players=game.players, rounds=len(history) - 1, plans=tuple(chosen),
                    banker=chosen_bank, values=values,
                    banker_best_response=values.banker + found.banker,
                    player_best_responses=tuple(v + r for v, r in
                                                zip(values.players, found.players, strict=True)),
                    regrets=found, history=tuple(history), seconds=time.perf_counter() - start,
                    informed=informed)


# -- simulation for larger finite shoes ------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """A simulated per-seat figure: mean and 95% confidence half-width (an estimate)."""

    mean: float
    half_width: float
    hands: int
    label: str = "estimate"


def play_hand(cards: Sequence[int], plans: Sequence[SeatPlan],
              banker: BankerPlan,
              rules: ChoiceRules, rng: random.Random) -> tuple[list[int], list[int]]:
    """Deal one hand from point values in shoe order; each player's result and what it held.

    Deal: two rounds from the banker's right, banker last; then third cards in seat order,
    the banker's last.
    """
    players = len(plans)
    position = 0
    hands: list[list[int]] = [[] for _ in range(players + 1)]  # last = banker
    for _ in range(2):
        for seat in range(players + 1):
            hands[seat].append(cards[position])
            position += 1
    index = [HANDS.index((min(h), max(h))) for h in hands]
    totals = [sum(h) % 10 for h in hands]
    bank_total = totals[-1]
    results = [0] * players
    if bank_total in rules.naturals:
        for seat in range(players):
            results[seat] = 0 if totals[seat] in rules.naturals else -1
        return results, index
    vector = []
    finals = list(totals)
    for seat in range(players):
        if totals[seat] in rules.naturals:
            vector.append(NATURAL)
            continue
        plan = plans[seat]
        draw = (plan.at(index[seat], vector) if isinstance(plan, InformedPlan)
                else plan[index[seat]])
        forced = (1 if totals[seat] in rules.player_draws else
                  0 if totals[seat] in rules.player_stands else None)
        took = forced if forced is not None else int(rng.random() < draw)
        vector.append(DREW if took else STOOD)
        if took:
            finals[seat] = (finals[seat] + cards[position]) % 10
            position += 1
    draw = banker.at(index[-1], vector)
    forced = (1 if bank_total in rules.banker_draws else
              0 if bank_total in rules.banker_stands else None)
    if (forced if forced is not None else int(rng.random() < draw)):
        finals[-1] = (finals[-1] + cards[position]) % 10
    for seat in range(players):
        if vector[seat] == NATURAL:
            results[seat] = 1
        else:
            results[seat] = (finals[seat] > finals[-1]) - (finals[seat] < finals[-1])
    return results, index


def estimate_seat_values(rules: ChoiceRules, shoe: Shoe, plans: Sequence[SeatPlan],
                         banker: BankerPlan, hands: int = 20000, seed: int = 1
                         ) -> list[Estimate]:
    """Seeded simulation of each seat's value (a fresh shuffled shoe every hand): estimates."""
    rng = random.Random(seed)
    values = [v for v, n in enumerate(shoe.value_counts()) for _ in range(n)]
    players = len(plans)
    sums = [0] * players
    squares = [0] * players
    needed = 2 * (players + 1) + players + 1
    for _ in range(hands):
        cards = rng.sample(values, needed)
        results, _ = play_hand(cards, plans, banker, rules, rng)
        for seat, r in enumerate(results):
            sums[seat] += r
            squares[seat] += r * r
    out = []
    for seat in range(players):
        mean = sums[seat] / hands
        variance = max(squares[seat] / hands - mean * mean, 0.0)
        out.append(Estimate(mean, 1.96 * math.sqrt(variance / hands), hands))
    return out


# -- the command's report ----------------------------------------------------------------------
@dataclass(frozen=True)
class TableReport:
    """What ``nine solve --players N`` prints: values, banker's best response, dynamics."""

    title: str
    shoe: str
    model: str
    players: int
    by: str
    start: str
    values: SeatValues | None
    banker_best_response: Fraction | None
    dynamics: Dynamics | None
    estimates: tuple[Estimate, ...] = ()


def heads_up_start(rules: ChoiceRules, shoe: Shoe) -> tuple[PlayerPlan, Strategy]:
    """The heads-up certified equilibrium (by cards) on ``shoe``: the player's plan and the
    banker's strategy (used at a bigger table through :func:`summary_observation`)."""

    game = build_game(rules, Shoe.infinite() if shoe.is_infinite else shoe, "cards")
    found = solve_game(game)
    player = dict.fromkeys(HANDS, Fraction(0))
    for choice, info in zip(found.player, game.player_sets, strict=True):
        player.update(dict.fromkeys(info.hands, choice.draw))
    tables: dict[str, dict[Any, Fraction]] = {}
    for cell_choice, cell in zip(found.banker, game.banker_cells, strict=True):
        for hand in cell.hands:
            tables.setdefault(cell.observation, {})[("hand", hand)] = cell_choice.draw
    banker = Strategy(side="banker", default=Fraction(0), tables=tables,
                      name="heads-up equilibrium")
    return tuple(player[h] for h in HANDS), banker


def table_report(rules: ChoiceRules, shoe: Shoe, players: int, by: str = "cards",
                 rounds: int = 4, title: str = "", player_strategy: Strategy | str = "house",
                 banker_strategy: Strategy | str = "house", hands: int = 20000,
                 seed: int = 1, informed: bool = True) -> TableReport:
    """Per-seat values of the starting strategies, the banker's best response to them, and
    best-response dynamics with exact regrets.

    A strategy is a :class:`Strategy` or a name: ``house`` (draw on 4 or less),
    ``equilibrium`` (the heads-up certified equilibrium on the same shoe) or, for the banker,
    ``best-response`` (its exact best response to the players' starting strategies).
    ``informed``: the dynamics' player strategies see the earlier seats' choices (default)
    or, ``False``, their own hand only (:func:`dynamics`).
    """
    def name_of(strategy: Strategy | str) -> str:
        return strategy if isinstance(strategy, str) else strategy.name

    equilibrium = (heads_up_start(rules, shoe)
                   if "equilibrium" in (player_strategy, banker_strategy) else None)
    if player_strategy == "equilibrium" and equilibrium:
        plan = equilibrium[0]
    elif isinstance(player_strategy, str):
        plan = player_from_strategy(load_strategy(player_strategy, "player"))
    else:
        plan = player_from_strategy(player_strategy)
    plans = [plan] * players
    start = f"players: {name_of(player_strategy)}; banker: {name_of(banker_strategy)}"
    best_response = banker_strategy == "best-response"
    if banker_strategy == "equilibrium" and equilibrium:
        banker = banker_from_strategy(players, equilibrium[1], rules)
    elif best_response:
        banker = banker_from_strategy(players, house_banker(), rules)  # replaced below when exact
    elif isinstance(banker_strategy, str):
        banker = banker_from_strategy(players, load_strategy(banker_strategy, "banker"),
                                      rules)
    else:
        banker = banker_from_strategy(players, banker_strategy, rules)
    if not shoe.is_infinite and players > EXACT_FINITE_PLAYERS:
        if best_response:
            raise AnalyzerError("--banker best-response needs an exact table (--infinite, or "
                                f"at most {EXACT_FINITE_PLAYERS} players)")
        _check_rules(rules, players)
        estimates = estimate_seat_values(rules, shoe, plans, banker, hands, seed)
        return TableReport(title or rules.name, shoe.describe(),
                           f"seeded simulation, {hands} hands, seed {seed} (estimate)",
                           players, by, start, None, None, None, tuple(estimates))
    game = build_table(rules, shoe, players)
    if best_response:
        banker, _ = banker_best_response(game, plans, by)
    values = seat_values(game, plans, banker)
    _, banker_best = banker_best_response(game, plans, by)
    return TableReport(title or rules.name, game.shoe, game.model, players, by, start, values,
                       banker_best, dynamics(game, plans, banker, rounds, by, informed))


def strategy_rows(plan: PlayerPlan, rules: ChoiceRules) -> list[tuple[str, Fraction]]:
    """A player plan as (holding, draw probability), non-natural holdings only."""
    return [(hand_label(h), d) for h, d in zip(HANDS, plan, strict=True)
            if TOTALS[HANDS.index(h)] not in rules.naturals]
