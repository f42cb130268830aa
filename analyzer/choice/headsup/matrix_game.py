"""A second, independent solution method for heads-up choice games: the brute-force matrix game.

It shares nothing with :mod:`analyzer.choice.headsup.game` and
:mod:`analyzer.choice.headsup.solver` but the rules record:
it enumerates every ordered six-card value sequence of the shoe (deal order P B P B, then
third cards) with its exact number of ways, plays each coup under the rules, and builds the
normal form over pure strategies. Banker cells where one choice is weakly best against every
player pure strategy are fixed (iterated dominance, as in Ethier & Gamez 2013 section 4);
the remaining ``2**m x 2**k`` matrix game is solved by linear programming (von Neumann's
minimax theorem; Dantzig 1951).

>>> from analyzer.rules.profile import load_profile
>>> rules = load_profile("chemin-de-fer").choice_rules()
>>> check = matrix_game_value(rules, Shoe.infinite(), "total")
>>> round(check.value, 9), check.player_strategies
(-0.01279912, 2)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["matrix_game_value", "MatrixGameCheck", "MAX_FREE_CELLS", "payoff_tables", "sequences"]

#: Largest number of undominated banker cells the brute force accepts (2**k columns).
MAX_FREE_CELLS = 16


@dataclass(frozen=True)
class MatrixGameCheck:
    """The value of the brute-force matrix game and its size after dominance."""

    value: float
    player_strategies: int
    banker_strategies: int
    free_banker_cells: int


def sequences(shoe: Shoe) -> tuple[np.ndarray, np.ndarray, int]:
    """Every ordered six-card value sequence with its exact number of ways, and the total."""
    counts = np.array(shoe.value_counts(), dtype=np.int64)
    values = np.array([v for v in range(10) if counts[v] > 0], dtype=np.int64)
    grid = values[np.indices((len(values),) * 6).reshape(6, -1).T]
    ways = np.ones(len(grid), dtype=np.int64)
    for i in range(6):
        earlier = 0 if shoe.is_infinite else (grid[:, :i] == grid[:, i:i + 1]).sum(axis=1)
        ways *= np.maximum(counts[grid[:, i]] - earlier, 0)
    keep = ways > 0
    return grid[keep], ways[keep], int(ways.sum())


def payoff_tables(rules: ChoiceRules, shoe: Shoe, by: str) -> dict[str, Any]:
    """Sums of ways x result by (player key, player action, banker cell), from sequences."""
    grid, ways, total = sequences(shoe)
    player_total = (grid[:, 0] + grid[:, 2]) % 10
    banker_total = (grid[:, 1] + grid[:, 3]) % 10
    naturals = sorted(rules.naturals)
    # The player's net by (player total, banker total, player natural, banker natural),
    # times the payoffs' scale (sign of the difference at even money).
    scale = rules.payoffs.scale
    net = np.array([[[[int(rules.payoffs.seat(p, b, bool(n), bool(m)) * scale)
                       for m in (0, 1)] for n in (0, 1)] for b in range(10)]
                    for p in range(10)], dtype=np.int64)
    player_natural = np.isin(player_total, naturals)
    banker_natural = np.isin(banker_total, naturals)
    natural = player_natural | banker_natural
    constant = int((ways * net[player_total, banker_total, player_natural.astype(int),
                               banker_natural.astype(int)])[natural].sum())
    live = ~natural
    grid, ways = grid[live], ways[live]
    player_total, banker_total = player_total[live], banker_total[live]
    if by == "cards":
        player_key = np.minimum(grid[:, 0], grid[:, 2]) * 10 + np.maximum(grid[:, 0], grid[:, 2])
        banker_key = np.minimum(grid[:, 1], grid[:, 3]) * 10 + np.maximum(grid[:, 1], grid[:, 3])
    else:
        player_key, banker_key = player_total, banker_total
    tables: dict[tuple[int, int, int, int], list[int]] = {}
    for action in (0, 1):
        action_of = np.array([rules.player_action(t) for t in range(10)])
        allowed = np.isin(action_of[player_total], ["choice", ("stand", "draw")[action]])
        if action == 0:
            final, observation, third = player_total, np.full(len(grid), 10), grid[:, 4]
        else:
            final = (player_total + grid[:, 4]) % 10
            observation = (np.zeros(len(grid), dtype=np.int64) if rules.banker_sees == "choice"
                           else grid[:, 4])
            third = grid[:, 5]
        stand_result = net[final, banker_total, 0, 0]
        draw_result = net[final, (banker_total + third) % 10, 0, 0]
        forced = action_of[player_total] != "choice"
        code = ((((np.where(forced, -1, player_key) + 1) * 2 + action) * 1000
                 + banker_key * 10 + banker_total) * 11 + observation)[allowed]
        stand_weight = (ways * stand_result)[allowed]
        gain_weight = (ways * (draw_result - stand_result))[allowed]
        unique, inverse = np.unique(code, return_inverse=True)
        stand_sum = np.zeros(len(unique), dtype=np.int64)
        gain_sum = np.zeros(len(unique), dtype=np.int64)
        np.add.at(stand_sum, inverse.ravel(), stand_weight)
        np.add.at(gain_sum, inverse.ravel(), gain_weight)
        for number, s, g in zip(unique.tolist(), stand_sum.tolist(), gain_sum.tolist(),
                                strict=True):
            rest, observed = divmod(number, 11)
            rest, banker = divmod(rest, 1000)
            key, played = divmod(rest, 2)
            tables[(key - 1, played, banker, observed)] = [s, g]
    return {"constant": constant, "total": total * scale, "tables": tables}


def matrix_game_value(rules: ChoiceRules, shoe: Shoe, by: str) -> MatrixGameCheck:
    """The value (player's, per unit staked) of the brute-force matrix game."""
    data = payoff_tables(rules, shoe, by)
    tables: dict[tuple[int, int, int, int], list[int]] = data["tables"]
    player_keys = sorted({k[0] for k in tables if k[0] >= 0})
    cells = sorted({(k[2], k[3]) for k in tables})
    cell_index = {c: i for i, c in enumerate(cells)}
    key_index = {k: i for i, k in enumerate(player_keys)}
    banker_totals = [c[0] % 10 for c in cells]
    # base[s, a, c] and gain[s, a, c]; forced holdings in row -1 (index len(player_keys)).
    shape = (len(player_keys) + 1, 2, len(cells))
    base = np.zeros(shape)
    gain = np.zeros(shape)
    for (key, action, banker, observation), (s, g) in tables.items():
        row = key_index.get(key, len(player_keys))
        base[row, action, cell_index[(banker, observation)]] += s
        gain[row, action, cell_index[(banker, observation)]] += g
    pure = np.array(list(itertools.product((0, 1), repeat=len(player_keys))), dtype=np.int64)
    pure = pure.reshape(len(pure), len(player_keys))
    rows = np.arange(len(player_keys))
    stand_part = base[-1].sum(axis=0) + base[rows[None, :], pure].sum(axis=1)
    gain_part = gain[-1].sum(axis=0) + gain[rows[None, :], pure].sum(axis=1)
    fixed_value = stand_part.sum(axis=1)
    choice_cells = [c for c, t in enumerate(banker_totals) if rules.banker_action(t) == "choice"]
    for c, t in enumerate(banker_totals):
        if rules.banker_action(t) == "draw":
            fixed_value = fixed_value + gain_part[:, c]
    alive = np.ones(len(pure), dtype=bool)
    free = choice_cells
    while True:  # iterated elimination of dominated strategies, both sides
        settled = []
        for c in free:
            column = gain_part[alive, c]
            if np.all(column <= 0):
                fixed_value = fixed_value + gain_part[:, c]
                settled.append(c)
            elif np.all(column >= 0):
                settled.append(c)
        free = [c for c in free if c not in settled]
        removed = False
        rows_alive = np.flatnonzero(alive)
        for r in rows_alive:
            others = rows_alive[(rows_alive != r) & alive[rows_alive]]
            if len(others) == 0:
                break
            worst = (fixed_value[others] - fixed_value[r]
                     + np.minimum(gain_part[others][:, free] - gain_part[r, free], 0).sum(axis=1))
            if np.any(worst > 0):
                alive[r] = False
                removed = True
        if not settled and not removed:
            break
    pure = pure[alive]
    fixed_value = fixed_value[alive]
    gain_part = gain_part[alive]
    gains = gain_part[:, free]
    if len(free) <= MAX_FREE_CELLS:
        columns = np.array(list(itertools.product((0, 1), repeat=len(free))), dtype=float)
        columns = columns.reshape(len(columns), len(free))
    else:  # double oracle: add the banker's pure best response until none improves
        columns = (gains.mean(axis=0) < 0).astype(float)[None, :]
    constant, total = data["constant"], data["total"]
    while True:
        matrix = (fixed_value[:, None] + gains @ columns.T + constant) / total
        mix, value = _solve_matrix_game(matrix)
        reply = ((mix @ gains) < 0).astype(float)
        reply_value = (mix @ fixed_value + np.minimum(mix @ gains, 0).sum() + constant) / total
        if len(free) <= MAX_FREE_CELLS or reply_value >= value - 1e-15 or any(
                np.array_equal(reply, column) for column in columns):
            break
        columns = np.vstack([columns, reply])
    return MatrixGameCheck(value=value, player_strategies=len(pure),
                           banker_strategies=2 ** len(free), free_banker_cells=len(free))


def _solve_matrix_game(matrix: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's optimal mix and the value of a matrix game (row player maximises)."""
    from scipy.optimize import linprog  # ~0.3 s to import; only this check needs it

    players, bankers = matrix.shape
    # max v subject to v <= p . matrix[:, j] for all j, p a probability vector.
    objective = np.concatenate([np.zeros(players), [-1.0]])
    a_ub = np.hstack([-matrix.T, np.ones((bankers, 1))])
    a_eq = np.concatenate([np.ones(players), [0.0]])[None, :]
    result = linprog(objective, A_ub=a_ub, b_ub=np.zeros(bankers), A_eq=a_eq, b_eq=[1.0],
                     bounds=[(0, None)] * players + [(None, None)], method="highs")
    if result.status != 0:
        raise AnalyzerError(f"brute-force matrix game LP failed: {result.message}")
    return np.asarray(result.x[:players]), float(-result.fun)
