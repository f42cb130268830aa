"""What ``nine solve --players N`` computes: the table report and its starting strategies.

:func:`table_report` takes the starting strategies (the house rule, strategy files, the
heads-up certified equilibrium through :func:`heads_up_start`, or the banker's exact best
response), and returns every seat's exact value, the banker's best response and
best-response dynamics with exact regrets (:mod:`analyzer.choice.responses`) -- or, for a
finite-shoe table larger than exact card removal covers, seeded estimates
(:mod:`analyzer.choice.simulation`). Rendering is :mod:`analyzer.present.report`'s.

>>> from analyzer.choice.plans import LUCKY9_RULES
>>> from analyzer.rules.shoe import Shoe
>>> report = table_report(LUCKY9_RULES(), Shoe.infinite(), 2, rounds=0)
>>> report.values.banker == -sum(report.values.players), report.dynamics.rounds
(True, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.choice.game import build_game
from analyzer.choice.plans import (
    PlayerPlan,
    banker_from_strategy,
    house_banker,
    player_from_strategy,
)
from analyzer.choice.responses import (
    Dynamics,
    SeatValues,
    banker_best_response,
    dynamics,
    seat_values,
)
from analyzer.choice.simulation import Estimate, estimate_seat_values
from analyzer.choice.solver import solve_game
from analyzer.choice.strategy import Strategy, load_strategy
from analyzer.choice.table import EXACT_FINITE_PLAYERS, build_table, check_table_rules
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS, ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["heads_up_start", "table_report", "TableReport"]


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
    banker's strategy (used at a bigger table through
    :func:`~analyzer.choice.plans.summary_observation`)."""

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
        check_table_rules(rules, players)
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
