"""Home Lucky 9 with several players: the exact weights of a table and how they are built.

One banker faces ``n`` players (``n + 1`` people, docs/rules/lucky9-home.md §1); the strategies are
:mod:`analyzer.choice.plans`. Payoffs are each player's result per unit staked; the banker's
value is minus their sum (it covers every stake). This module owns :class:`TableGame` -- the
exact integer weights from which every seat's result under any strategies is read, with the
rules' forced plays applied -- its two models of the cards, and :func:`build_table`:

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

Every quantity is exact. Larger finite-shoe tables are dealt by seeded simulation
(:mod:`analyzer.choice.simulation`); values and best responses are
:mod:`analyzer.choice.responses`.

>>> from analyzer.choice.plans import LUCKY9_RULES
>>> from analyzer.rules.shoe import Shoe
>>> game = build_table(LUCKY9_RULES(), Shoe.infinite(), 2)
>>> game.model, game.denominator == 52**6
('infinite deck (exact)', True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.choice.game import falling
from analyzer.choice.plans import (
    DREW,
    NATURAL,
    STOOD,
    TOTALS,
    BankerPlan,
    InformedPlan,
    SeatPlan,
    informed_plan,
    plan_rows,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS, ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["build_table", "check_table_rules", "EXACT_FINITE_PLAYERS", "FiniteTable",
           "InfiniteTable", "ObjectArray", "TableGame"]

#: Exact integers (Python ``int`` objects) in a numpy array.
ObjectArray = npt.NDArray[Any]
#: Exact card removal is implemented for at most this many players (3 people).
EXACT_FINITE_PLAYERS = 2


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

    def forced_rows(self, plan: SeatPlan) -> list[tuple[Fraction, ...]]:
        """The plan's rows (:func:`~analyzer.choice.plans.plan_rows`) with the rules' forced
        plays applied."""
        rules = self.rules
        out = []
        for hand, row in zip(HANDS, plan_rows(plan), strict=True):
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
        rows = self.forced_rows(plan)
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
        seats before it, as a base-3 index over ``3**seat`` vectors
        (:func:`~analyzer.choice.plans.vector_index`). The later seats' observations are
        summed out: these plans do not read them (a restricted class: the rules let a seat
        see the later naturals, which :mod:`analyzer.choice.multiplayer` models)."""
        raise NotImplementedError

    def seat_scale(self, scales: Sequence[int], seat: int) -> int:
        """The denominator factor the other seats' strategies bring to seat's numerators."""
        raise NotImplementedError


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
        """The other seats' weights of every choice vector (flat,
        :func:`~analyzer.choice.plans.vector_index` order): the product over seats of each
        seat's observation given the earlier ones (the hands are independent at the infinite
        deck)."""
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
def check_table_rules(rules: ChoiceRules, players: int) -> None:
    """Refuse rules the table game does not model, or a player count the profile does not
    seat."""
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
                * np.prod(falling(counts[None, None, :], used, 6), axis=2))  # (h1, h2)
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
    finite shoe (larger finite tables:
    :func:`~analyzer.choice.simulation.estimate_seat_values`). Cached by value (the rules,
    the shoe and the player count are hashable): the tables are read-only."""
    check_table_rules(rules, players)
    if shoe.is_infinite:
        return _infinite(rules, players)
    if players > EXACT_FINITE_PLAYERS:
        raise AnalyzerError(f"--players {players}: exact card removal covers at most "
                            f"{EXACT_FINITE_PLAYERS} players; use --infinite (exact) or the "
                            "simulation estimate")
    return _finite(rules, shoe, players)


