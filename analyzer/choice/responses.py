"""Home Lucky 9 with several players: exact per-seat values, best responses, regrets, dynamics.

Every seat's value under given strategies (:mod:`analyzer.choice.plans`) is read exactly from
the table's weights (:mod:`analyzer.choice.table`); the banker's value is minus the sum of
the players' (it covers every stake).

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
guarantee: what it reports is each side's exact regret over its information sets here --
zero for every side would certify an exact equilibrium of that model.

*Information.* The plans here read the own hand and the earlier seats' observations; they
do not read the later seats' naturals, which the rules let a seat see
(``docs/rules/lucky9-home.md`` section 7). A zero regret here is therefore an equilibrium of
the game with the later naturals hidden, not of the rules' game, which
:mod:`analyzer.choice.multiplayer` solves and certifies. This module values own-hand and
earlier-choice plans exactly (sessions, strategy comparisons) and its dynamics are the
baseline of the table benchmarks.

>>> from analyzer.choice.plans import (
...     LUCKY9_RULES, banker_from_strategy, house_banker, house_player)
>>> from analyzer.choice.table import build_table
>>> from analyzer.rules.shoe import Shoe
>>> game = build_table(LUCKY9_RULES(), Shoe.infinite(), 2)
>>> house = [house_player()] * 2
>>> values = seat_values(game, house, banker_from_strategy(game, house_banker()))
>>> values.players[0] == values.players[1], values.banker == -sum(values.players)
(True, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.choice.plans import (
    TOTALS,
    BankerPlan,
    InformedPlan,
    PlayerPlan,
    SeatPlan,
    informed_plan,
    own_hand_plan,
)
from analyzer.choice.table import InfiniteTable, ObjectArray, TableGame
from analyzer.errors import AnalyzerError

__all__ = ["banker_best_response", "Dynamics", "dynamics", "own_hand_best_response",
           "player_best_response", "Regrets", "regrets", "seat_values", "SeatValues"]


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
    plan = [row[0] for row in game.forced_rows(plans[seat])]
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
    naturals and the choices of the seats before it (docs/rules/lucky9-home.md §7; the profile's
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
    choices, docs/rules/lucky9-home.md §7); ``own_hand``: among strategies seeing the own hand only
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
