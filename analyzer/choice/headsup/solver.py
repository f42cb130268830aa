"""Exact equilibria of heads-up choice games (home Lucky 9, chemin de fer), certified.

Each side chooses once, so a behaviour strategy is one draw probability per information set
and the player's expected result is bilinear in the two strategies (see
:mod:`analyzer.choice.headsup.game`). The solver:

1. solves both sides' linear programs in floating point (HiGHS through
   ``scipy.optimize.linprog``) -- the player maximises the sum over banker cells of the
   banker's best reply, the banker minimises the sum over player information sets of the
   player's best reply (the classical LP of a matrix game, von Neumann 1928 / Dantzig 1951,
   written per information set);
2. reads which choices are mixed, and solves the indifference equations exactly in
   :class:`fractions.Fraction` (a mixed banker cell makes the player's strategy leave the
   banker indifferent there, and vice versa);
3. certifies the result: it computes, exactly, the value of the player's strategy against
   the banker's best response and the value of the banker's strategy against the player's
   best response. They bound the game value from below and above; when they are equal the
   pair is an equilibrium with zero regret and that number is the value of the game.

Chemin de fer with replacement and totals only reproduces Kemeny & Snell (1957): Player
draws on 5 with probability 9/11.

>>> result = solve("chemin-de-fer", Shoe.infinite(), "total")
>>> result.player[0].draw, result.certificate.certified
(Fraction(9, 11), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from math import lcm
from typing import Any

import numpy as np

from analyzer.choice.headsup.game import ChoiceGame, banker_vector, build_game, player_vector
from analyzer.choice.strategy import load_strategy
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import STOOD, ChoiceRules, hand_label
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["BankerChoice", "Certificate", "Equilibrium", "evaluate_game", "evaluate_strategies",
           "Evaluation", "METHOD", "MIXED_TOLERANCE", "observation_is_stand", "PlayerChoice",
           "solve", "solve_game", "solve_linear"]

#: How far from 0 or 1 a floating-point draw probability must be to count as mixed.
MIXED_TOLERANCE = 1e-7

METHOD = ("HiGHS linear programs (floating point) for the support; indifference equations "
          "solved exactly in fractions; certified by exact best responses")


@dataclass(frozen=True)
class PlayerChoice:
    """The player's draw probability in one information set (a total or a two-card holding)."""

    #: The information set as the strategy card names it (a total, or a holding ``T+T``).
    label: str
    #: The hand's point total.
    total: int
    #: The two-card holdings in the set.
    hands: tuple[str, ...]
    #: The probability of drawing a third card (0 stand, 1 draw, else mixed).
    draw: Fraction


@dataclass(frozen=True)
class BankerChoice:
    """The banker's draw probability holding ``label`` after seeing ``observation``.

    ``forced`` marks a cell the rules decide; ``relevant`` is false where the choice cannot
    change the result (the cell cannot occur, or both choices give the same result).
    """

    #: The banker's holding as the strategy card names it (a total, or two cards).
    label: str
    #: The banker's point total.
    total: int
    #: What the banker saw of the player: ``stood``, or the third card it drew.
    observation: str
    #: The probability of drawing a third card (0 stand, 1 draw, else mixed).
    draw: Fraction
    #: The rules decide this cell (no choice).
    forced: bool
    #: The choice can change the result here.
    relevant: bool


@dataclass(frozen=True)
class Certificate:
    """Both sides' exact best-response values; equal values prove an equilibrium.

    ``player_best_response`` is the player's value when it best-responds to the banker's
    strategy (an upper bound on the game value); ``banker_best_response`` the player's value
    when the banker best-responds to the player's strategy (a lower bound).
    """

    #: The player's exact value when it best-responds to the banker's strategy.
    player_best_response: Fraction
    #: The player's exact value when the banker best-responds to the player's strategy.
    banker_best_response: Fraction

    @property
    def certified(self) -> bool:
        """Zero regret: neither side gains by deviating."""
        return self.player_best_response == self.banker_best_response

    @property
    def gap(self) -> Fraction:
        """The sum of both sides' regrets (zero for an equilibrium)."""
        return self.player_best_response - self.banker_best_response


@dataclass(frozen=True)
class Equilibrium:
    """An exact equilibrium of a heads-up choice game, with its certificate."""

    #: The profile's name.
    profile: str
    #: The game's title.
    title: str
    #: The shoe solved at, described (``1 deck``, ``infinite deck``).
    shoe: str
    #: What a side knows of its own hand: ``cards`` (its two cards) or ``total``.
    by: str
    #: How the equilibrium was found and certified, in words.
    method: str
    #: The player's draw probability in every information set.
    player: tuple[PlayerChoice, ...]
    #: The banker's draw probability in every cell (holding x what it saw).
    banker: tuple[BankerChoice, ...]
    #: The game's value: the player's exact expected result per unit staked.
    value: Fraction
    #: Both sides' exact best-response values (equal: a certified equilibrium).
    certificate: Certificate
    #: The rules that shaped the game, in words (naturals, ties, commission).
    rules_note: str = ""

    @property
    def mixed(self) -> int:
        """How many information sets (both sides) use a mixed choice."""
        return sum(1 for p in self.player if 0 < p.draw < 1) + sum(
            1 for b in self.banker if 0 < b.draw < 1)


@dataclass(frozen=True)
class Evaluation:
    """The exact value of a strategy pair, each side's best response, and exploitability."""

    profile: str
    shoe: str
    by: str
    value: Fraction
    player_best_response: Fraction
    banker_best_response: Fraction
    player_response: tuple[PlayerChoice, ...]
    banker_response: tuple[BankerChoice, ...]

    game_value: Fraction
    #: Whether ``game_value`` comes from a certified equilibrium (zero gap). When false it is
    #: the solver's uncertified fallback and the exploitabilities measured from it are not
    #: exact; ``game_value_gap`` is that solution's certificate gap.
    game_value_certified: bool = True
    game_value_gap: Fraction = Fraction(0)

    @property
    def player_exploitability(self) -> Fraction:
        """How far below the game value the player's strategy falls against a best reply."""
        return self.game_value - self.banker_best_response

    @property
    def banker_exploitability(self) -> Fraction:
        """How far above the game value the player gets by best-replying to the banker."""
        return self.player_best_response - self.game_value

    @property
    def player_regret(self) -> Fraction:
        """What the player would gain over ``value`` by switching to its best response."""
        return self.player_best_response - self.value

    @property
    def banker_regret(self) -> Fraction:
        """What the banker would gain over ``value`` by switching to its best response."""
        return self.value - self.banker_best_response


# -- exact bilinear algebra ---------------------------------------------------------------
def _common(values: Sequence[Fraction]) -> tuple[list[int], int]:
    """Numerators over a common denominator."""
    denominator = reduce(lcm, (v.denominator for v in values), 1)
    return [int(v * denominator) for v in values], denominator


def _int_matrix(array: Any) -> list[list[int]]:
    return [[int(v) for v in row] for row in np.asarray(array).tolist()]


@dataclass(frozen=True, eq=False)
class _Exact:
    """The game's weights as Python integers, for exact evaluation."""

    game: ChoiceGame
    base0: list[int]
    gain0: list[int]
    base: list[list[int]]
    gain: list[list[int]]
    base_rows: list[int]

    @classmethod
    def of(cls, game: ChoiceGame) -> _Exact:
        base = _int_matrix(game.base)
        return cls(game, [int(v) for v in game.base0.tolist()],
                   [int(v) for v in game.gain0.tolist()], base, _int_matrix(game.gain),
                   [sum(row) for row in base])

    def cells_given_player(self, x: Sequence[Fraction]) -> tuple[list[int], list[int], int]:
        """Per banker cell, result if standing and what drawing adds, times ``scale``."""
        nums, scale = _common(x)
        base = [b * scale for b in self.base0]
        gain = [g * scale for g in self.gain0]
        for n, base_row, gain_row in zip(nums, self.base, self.gain, strict=True):
            if n:
                for c, (b, g) in enumerate(zip(base_row, gain_row, strict=True)):
                    base[c] += n * b
                    gain[c] += n * g
        return base, gain, scale

    def sets_given_banker(self, y: Sequence[Fraction]) -> tuple[int, list[int], int]:
        """The result if the player always stands, and what drawing adds per set, scaled."""
        nums, scale = _common(y)
        standing = sum((b * scale + n * g for b, g, n in zip(self.base0, self.gain0, nums,
                                                               strict=True)), 0)
        advantage = [row_sum * scale + sum(n * g for n, g in zip(nums, gain_row, strict=True))
                     for row_sum, gain_row in zip(self.base_rows, self.gain, strict=True)]
        return standing, advantage, scale

    def value(self, x: Sequence[Fraction], y: Sequence[Fraction]) -> Fraction:
        """The player's exact expected result per unit staked."""
        base, gain, scale = self.cells_given_player(x)
        total = sum((b + yc * g for b, g, yc in zip(base, gain, y, strict=True)), Fraction(0))
        return (self.game.constant + total / scale) / self.game.denominator

    def banker_response(self, x: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]]:
        """The banker's best response to ``x`` and the player's value against it."""
        base, gain, scale = self.cells_given_player(x)
        response: list[Fraction] = []
        total = 0
        for b, g, fixed in zip(base, gain, self.game.banker_fixed, strict=True):
            draw = Fraction(fixed) if fixed is not None else Fraction(int(g < 0))
            response.append(draw)
            total += b + (g if draw else 0)
        return (self.game.constant + Fraction(total, scale)) / self.game.denominator, response

    def player_response(self, y: Sequence[Fraction]) -> tuple[Fraction, list[Fraction]]:
        """The player's best response to ``y`` and its value against ``y``."""
        standing, advantage, scale = self.sets_given_banker(y)
        response = [Fraction(int(a > 0)) for a in advantage]
        total = standing + sum(a for a in advantage if a > 0)
        return (self.game.constant + Fraction(total, scale)) / self.game.denominator, response


# -- floating-point linear programs ---------------------------------------------------------
def _float_strategies(game: ChoiceGame) -> tuple[np.ndarray, np.ndarray]:
    """Both sides' optimal strategies of the game's linear programs, in floating point."""
    # scipy.optimize costs ~0.3 s to import; only this linear program needs it.
    from scipy.optimize import linprog

    scale = float(max(np.abs(game.base).max(initial=1), np.abs(game.gain).max(initial=1),
                      np.abs(game.base0).max(initial=1), np.abs(game.gain0).max(initial=1)))
    base = np.asarray(game.base, dtype=float) / scale
    gain = np.asarray(game.gain, dtype=float) / scale
    base0 = np.asarray(game.base0, dtype=float) / scale
    gain0 = np.asarray(game.gain0, dtype=float) / scale
    sets, cells = base.shape
    fixed = game.banker_fixed

    # Player: max sum_c v_c, v_c <= value of cell c under each banker choice allowed there.
    rows: list[np.ndarray] = []
    rhs: list[float] = []
    for c in range(cells):
        forced = fixed[c]
        for draw in ((0, 1) if forced is None else (forced,)):
            row = np.zeros(sets + cells)
            row[:sets] = -(base[:, c] + draw * gain[:, c])
            row[sets + c] = 1.0
            rows.append(row)
            rhs.append(base0[c] + draw * gain0[c])
    objective = np.concatenate([np.zeros(sets), -np.ones(cells)])
    bounds: list[tuple[float | None, float | None]] = [(0.0, 1.0)] * sets
    bounds += [(None, None)] * cells
    player = linprog(objective, A_ub=np.array(rows), b_ub=np.array(rhs), bounds=bounds,
                     method="highs")
    if player.status != 0:
        raise AnalyzerError(f"player's linear program failed: {player.message}")

    # Banker: min sum_c y_c gain0_c + sum_s w_s, w_s >= 0, w_s >= advantage of drawing in s.
    a_ub = np.zeros((sets, cells + sets))
    a_ub[:, :cells] = gain
    a_ub[:, cells:] = -np.eye(sets)
    b_ub = -base.sum(axis=1)
    objective = np.concatenate([gain0, np.ones(sets)])
    bounds = [(0.0, 1.0) if f is None else (float(f), float(f)) for f in fixed]
    bounds += [(0.0, None)] * sets
    banker = linprog(objective, A_ub=a_ub if sets else None, b_ub=b_ub if sets else None,
                     bounds=bounds, method="highs")
    if banker.status != 0:
        raise AnalyzerError(f"banker's linear program failed: {banker.message}")
    return np.asarray(player.x[:sets]), np.asarray(banker.x[:cells])


def solve_linear(rows: list[list[Fraction]], rhs: list[Fraction], hints: list[Fraction],
                  ) -> tuple[list[Fraction], list[int]] | None:
    """``rows . z = rhs`` in fractions; free unknowns take ``hints``; None if inconsistent.
    Returns the solution and the free columns."""
    unknowns = len(hints)
    matrix = [[*row, r] for row, r in zip(rows, rhs, strict=True)]
    pivots: list[int] = []
    for col in range(unknowns):
        pivot = next((r for r in range(len(pivots), len(matrix)) if matrix[r][col] != 0), None)
        if pivot is None:
            continue
        rank = len(pivots)
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        lead = matrix[rank][col]
        matrix[rank] = [v / lead for v in matrix[rank]]
        for r in range(len(matrix)):
            if r != rank and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [v - factor * w for v, w in zip(matrix[r], matrix[rank],
                                                            strict=True)]
        pivots.append(col)
    if any(row[-1] != 0 for row in matrix[len(pivots):]):
        return None
    free = [c for c in range(unknowns) if c not in pivots]
    solution = list(hints)
    for r, col in enumerate(pivots):
        solution[col] = matrix[r][-1] - sum((matrix[r][f] * hints[f] for f in free),
                                            Fraction(0))
    return solution, free


def _rational(value: float) -> Fraction:
    """A float probability as a nearby simple fraction."""
    return Fraction(min(max(value, 0.0), 1.0)).limit_denominator(10**6)


def _exact_strategies(exact: _Exact, x_float: np.ndarray,
                      y_float: np.ndarray) -> tuple[list[Fraction], list[Fraction]]:
    """Exact strategies from the floating-point ones: solve the indifference equations."""
    game = exact.game

    def classify(values: np.ndarray) -> tuple[list[Fraction], list[int]]:
        fixed_values: list[Fraction] = []
        mixed: list[int] = []
        for i, v in enumerate(values.tolist()):
            if v < MIXED_TOLERANCE:
                fixed_values.append(Fraction(0))
            elif v > 1 - MIXED_TOLERANCE:
                fixed_values.append(Fraction(1))
            else:
                fixed_values.append(_rational(v))
                mixed.append(i)
        return fixed_values, mixed

    x, mixed_sets = classify(x_float)
    y, mixed_cells = classify(y_float)
    mixed_cells = [c for c in mixed_cells if game.banker_fixed[c] is None]
    # Mixed banker cells: the player's mix makes the banker indifferent there.
    if mixed_sets:
        rows = [[Fraction(exact.gain[s][c]) for s in mixed_sets] for c in mixed_cells]
        rhs = [-Fraction(exact.gain0[c]) - sum((exact.gain[s][c] * x[s] for s in range(len(x))
                                                if s not in mixed_sets), Fraction(0))
               for c in mixed_cells]
        solved = solve_linear(rows, rhs, [x[s] for s in mixed_sets])
        if solved is not None and all(0 <= v <= 1 for v in solved[0]):
            for s, v in zip(mixed_sets, solved[0], strict=True):
                x[s] = v
    # Mixed player sets: the banker's mix makes the player indifferent there.
    if mixed_cells:
        rows = [[Fraction(exact.gain[s][c]) for c in mixed_cells] for s in mixed_sets]
        rhs = [-Fraction(exact.base_rows[s]) - sum((exact.gain[s][c] * y[c]
                                                    for c in range(len(y))
                                                    if c not in mixed_cells), Fraction(0))
               for s in mixed_sets]
        solved = solve_linear(rows, rhs, [y[c] for c in mixed_cells])
        if solved is not None and all(0 <= v <= 1 for v in solved[0]):
            for c, v in zip(mixed_cells, solved[0], strict=True):
                y[c] = v
    return x, y


def _relevant(game: ChoiceGame) -> list[bool]:
    """Cells where the banker's choice can change the result."""
    gain = np.asarray(game.gain)
    gain0 = np.asarray(game.gain0)
    return [bool(gain0[c] != 0 or np.any(gain[:, c] != 0)) for c in range(len(game.banker_cells))]


def _player_choices(game: ChoiceGame, x: Sequence[Fraction]) -> tuple[PlayerChoice, ...]:

    return tuple(PlayerChoice(s.label, s.total, tuple(hand_label(h) for h in s.hands), draw)
                 for s, draw in zip(game.player_sets, x, strict=True))


def _banker_choices(game: ChoiceGame, y: Sequence[Fraction]) -> tuple[BankerChoice, ...]:
    relevant = _relevant(game)
    return tuple(BankerChoice(cell.label, cell.total, cell.observation, draw,
                              cell.forced != "choice", relevant[c])
                 for c, (cell, draw) in enumerate(zip(game.banker_cells, y, strict=True)))


def _rules(profile: str | Profile | ChoiceRules) -> tuple[ChoiceRules, str]:
    if isinstance(profile, ChoiceRules):
        return profile, profile.name
    loaded = load_profile(profile) if isinstance(profile, str) else profile
    return loaded.choice_rules(), loaded.title


def _rules_note(rules: ChoiceRules) -> str:
    """The forced plays and naturals, in words.

    >>> _rules_note(load_profile("chemin-de-fer").choice_rules())
    'naturals 8-9 settle first; player draws on 0-4 and stands on 6-7 by rule'
    """
    def listed(totals: frozenset[int]) -> str:
        ordered = sorted(totals)
        if ordered and ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) >= 2:
            return f"{ordered[0]}-{ordered[-1]}"
        return ", ".join(str(t) for t in ordered)

    parts = [f"naturals {listed(rules.naturals)} settle first"]
    for who, draws, stands in (("player", rules.player_draws, rules.player_stands),
                               ("banker", rules.banker_draws, rules.banker_stands)):
        forced = [f"draws on {listed(draws)}"] if draws else []
        forced += [f"stands on {listed(stands)}"] if stands else []
        if forced:
            parts.append(f"{who} {' and '.join(forced)} by rule")
    return "; ".join(parts)


def solve_game(game: ChoiceGame, title: str = "") -> Equilibrium:
    """The certified exact equilibrium of a built game."""
    exact = _Exact.of(game)
    x_float, y_float = _float_strategies(game)
    x, y = _exact_strategies(exact, x_float, y_float)
    relevant = _relevant(game)
    y = [v if relevant[c] else Fraction(int(game.banker_fixed[c] or 0))
         for c, v in enumerate(y)]
    lower, _ = exact.banker_response(x)
    upper, _ = exact.player_response(y)
    method = METHOD
    if lower != upper:  # degenerate support: fall back to rounding the float solution
        x_round = [_rational(v) for v in x_float.tolist()]
        y_round = [_rational(v) if relevant[c] else Fraction(int(game.banker_fixed[c] or 0))
                   for c, v in enumerate(y_float.tolist())]
        lower_round, _ = exact.banker_response(x_round)
        upper_round, _ = exact.player_response(y_round)
        if upper_round - lower_round < upper - lower:
            x, y, lower, upper = x_round, y_round, lower_round, upper_round
            method = METHOD.replace("indifference equations solved exactly in fractions",
                                    "floating-point solution rounded to fractions")
    value = exact.value(x, y)
    return Equilibrium(profile=game.rules.name, title=title or game.rules.name, shoe=game.shoe,
                       by=game.information, method=method, player=_player_choices(game, x),
                       banker=_banker_choices(game, y), value=value,
                       certificate=Certificate(upper, lower), rules_note=_rules_note(game.rules))


def solve(profile: str | Profile | ChoiceRules, shoe: Shoe, by: str = "cards") -> Equilibrium:
    """The exact equilibrium of the heads-up game (one player against the bank), certified.

    >>> result = solve("lucky9-home", Shoe.infinite(), "total")
    >>> result.certificate.certified, result.value == result.certificate.banker_best_response
    (True, True)
    """
    rules, title = _rules(profile)
    return solve_game(build_game(rules, shoe, by), title)


def evaluate_game(game: ChoiceGame, x: Sequence[Fraction],
                  y: Sequence[Fraction]) -> Evaluation:
    """The exact value of ``(x, y)`` on a built game and each side's best response.

    The game value comes from :func:`solve_game`; if that solution is not certified the
    evaluation says so (``game_value_certified``) rather than passing it off as exact.
    """
    if len(x) != len(game.player_sets) or len(y) != len(game.banker_cells):
        raise AnalyzerError("strategy sizes do not match the game's information sets")
    fixed = game.banker_fixed
    y = [Fraction(f) if f is not None else v for v, f in zip(y, fixed, strict=True)]
    exact = _Exact.of(game)
    lower, banker_reply = exact.banker_response(x)
    upper, player_reply = exact.player_response(y)
    equilibrium = solve_game(game)
    return Evaluation(profile=game.rules.name, shoe=game.shoe, by=game.information,
                      value=exact.value(x, y), player_best_response=upper,
                      banker_best_response=lower,
                      player_response=_player_choices(game, player_reply),
                      banker_response=_banker_choices(game, banker_reply),
                      game_value=equilibrium.value,
                      game_value_certified=equilibrium.certificate.certified,
                      game_value_gap=equilibrium.certificate.gap)


def observation_is_stand(observation: str) -> bool:
    """Whether a banker cell follows the player standing."""
    return observation == STOOD


def evaluate_strategies(game: ChoiceGame, player: str, banker: str) -> Evaluation:
    """:func:`evaluate_game` for strategies named as ``nine evaluate`` names them: a strategy
    file, ``"house"`` (draw on 0-4) or ``"equilibrium"`` (the certified solution)."""
    equilibrium = solve_game(game) if "equilibrium" in (player, banker) else None
    x = ([cell.draw for cell in equilibrium.player] if equilibrium and player == "equilibrium"
         else player_vector(load_strategy(player, "player"), game))
    y = ([cell.draw for cell in equilibrium.banker] if equilibrium and banker == "equilibrium"
         else banker_vector(load_strategy(banker, "banker"), game))
    return evaluate_game(game, x, y)
