"""Choice games of the baccarat family (home Lucky 9, chemin de fer) as exact payoff arrays.

A choice game has no tableau: after the naturals settle, the player and then the banker each
choose to stand or to take one card. The rules and the information structure come from the
profile's ``[game]`` table (:class:`ChoiceRules`). :func:`build_game` turns rules, a shoe and
an information model (``"total"`` or ``"cards"``) into a :class:`ChoiceGame`: integer weights
from which the player's expected result under any pair of behaviour strategies is a bilinear
form (the game's sequence form, Koller, Megiddo & von Stengel 1994, collapses here to one
draw probability per information set because each side chooses once).

Weights count ordered six-card value sequences (docs/rules/README.md §5): a coup
that ends after four or five cards is weighted by the ways to fill the unused positions, so
every weight shares the denominator ``N(N-1)...(N-5)`` (``52**6`` for the infinite deck).

>>> from analyzer.rules.profile import load_profile
>>> from analyzer.rules.shoe import Shoe
>>> game = build_game(load_profile("lucky9-home").choice_rules(), Shoe.decks(1),
...                   "total")
>>> len(game.player_sets), len(game.banker_cells), game.denominator
(9, 18, 14658134400)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from analyzer.choice.strategy import Strategy, check_observations
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import (
    HANDS,
    STOOD,
    ChoiceRules,
    Payoffs,
    hand_label,
)
from analyzer.rules.shoe import Shoe

__all__ = ["BankerCell", "banker_vector", "build_game", "ChoiceGame", "falling", "IntArray",
           "live_score", "PlayerSet", "player_vector", "SCORES"]

#: What a game's weights may count: the player's result, its square, its wins, or the ties.
SCORES = ("result", "square", "win", "push")

IntArray = npt.NDArray[Any]


@dataclass(frozen=True)
class PlayerSet:
    """A player information set: the holdings it groups and their common total."""

    label: str
    total: int
    hands: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class BankerCell:
    """A banker information set: own holding(s) and what it saw; ``forced`` if no choice."""

    label: str
    total: int
    hands: tuple[tuple[int, int], ...]
    observation: str
    forced: Literal["draw", "stand", "choice"]


@dataclass(frozen=True, eq=False)
class ChoiceGame:
    """Exact integer weights of a heads-up choice game; payoffs are the player's.

    With ``x`` the player's draw probabilities (one per ``player_sets`` entry) and ``y`` the
    banker's (one per ``banker_cells`` entry), the player's expected result times
    ``denominator`` is ``constant + sum_c (base0[c] + x.base[:, c]) + sum_c y[c] * (gain0[c]
    + x.gain[:, c])``: ``base`` is the cell's result if the banker stands, ``gain`` what
    drawing adds. Forced player holdings are folded into ``base0``/``gain0``; forced banker
    cells are fixed through ``banker_fixed`` (draw probability, or None for a choice).
    """

    rules: ChoiceRules
    shoe: str
    information: str
    player_sets: tuple[PlayerSet, ...]
    banker_cells: tuple[BankerCell, ...]
    constant: int
    base0: IntArray
    base: IntArray
    gain0: IntArray
    gain: IntArray
    denominator: int

    @property
    def banker_fixed(self) -> tuple[int | None, ...]:
        """Each cell's forced draw probability (1 or 0), or None where the banker chooses."""
        return tuple(None if cell.forced == "choice" else int(cell.forced == "draw")
                     for cell in self.banker_cells)


def falling(n: IntArray, k: IntArray, depth: int) -> IntArray:
    """Elementwise ``n (n-1) ... (n-k+1)`` for ``0 <= k <= depth``."""
    out = np.ones(np.broadcast(n, k).shape, dtype=n.dtype)
    for j in range(depth):
        out = out * np.where(j < k, n - j, 1)
    return out


def live_score(payoffs: Payoffs, difference: IntArray) -> IntArray:
    """A live seat's net times ``payoffs.scale`` by the difference of the final totals
    (its minus the bank's): ``sign`` itself at even money."""
    scale = payoffs.scale
    if payoffs.even_money:
        return np.sign(difference)
    return np.where(difference > 0, int(payoffs.win * scale),
                    np.where(difference < 0, -scale, int(payoffs.tie * scale)))


def _score(name: str, payoffs: Payoffs) -> Callable[[IntArray], IntArray]:
    """How a showdown counts for the player, by the difference of the final totals."""
    if name == "result":
        return lambda difference: live_score(payoffs, difference)
    if name == "square":
        return lambda difference: live_score(payoffs, difference) ** 2
    if name == "win":
        return lambda difference: np.where(difference > 0, 1, 0)
    if name == "push":
        return lambda difference: np.where(difference == 0, 1, 0)
    raise AnalyzerError(f"score must be one of {', '.join(SCORES)}, got {name!r}")


def build_game(rules: ChoiceRules, shoe: Shoe, information: str,
               score: str = "result") -> ChoiceGame:
    """The heads-up game on ``shoe`` with information ``"total"`` or ``"cards"``.

    ``score`` is what the weights count (:data:`SCORES`): the player's result (its net by
    the rules' payoffs: +1 win, 0 push, -1 loss at even money) or its square, or 1 for a
    player win, or 1 for a tie. The last two give the exact outcome probabilities of a strategy pair
    (:mod:`analyzer.choice.headsup.outcomes`).
    """
    if information not in rules.information:
        raise AnalyzerError(f"profile {rules.name!r}: information must be one of "
                            f"{', '.join(rules.information)}, got {information!r}")
    compare = _score(score, rules.payoffs)
    scale = {"result": rules.payoffs.scale, "square": rules.payoffs.scale**2}.get(score, 1)
    counts = shoe.value_counts()
    size = sum(counts)
    # int64 holds every ordered six-card count below 2**62 (about 27 decks); beyond, exact
    # Python integers in object arrays.
    dtype: Any = np.int64 if (52 if shoe.is_infinite else size) ** 6 < 2**62 else object
    n = np.array(counts, dtype=dtype)
    hand_counts = np.zeros((55, 10), dtype=dtype)
    for i, (a, b) in enumerate(HANDS):
        hand_counts[i, a] += 1
        hand_counts[i, b] += 1
    orders = np.array([1 if a == b else 2 for a, b in HANDS], dtype=dtype)
    pair = hand_counts[:, None, :] + hand_counts[None, :, :]  # (player, banker, value)
    arrangements = orders[:, None] * orders[None, :]
    if shoe.is_infinite:
        ways = np.prod(n ** pair, axis=2)
        remaining = np.broadcast_to(n, pair.shape)
        both = remaining[:, :, :, None] * remaining[:, :, None, :]
        fill = (52 * 52, 52)
        denominator = 52**6
    else:
        ways = np.prod(falling(n, pair, 4), axis=2)
        remaining = np.maximum(n - pair, 0)
        both = remaining[:, :, :, None] * (remaining[:, :, None, :]
                                           - np.eye(10, dtype=dtype)[None, None])
        both = np.maximum(both, 0)
        fill = ((size - 4) * (size - 5), size - 5)
        denominator = 1
        for j in range(6):
            denominator *= size - j
    initial = arrangements * ways  # (55, 55): ordered ways to deal the four cards
    four = initial * fill[0]
    five = initial[:, :, None] * remaining * fill[1]
    six = initial[:, :, None, None] * both

    totals = np.array([(a + b) % 10 for a, b in HANDS])
    natural = np.isin(totals, sorted(rules.naturals))
    value = np.arange(10)
    two_card = compare(totals[:, None] - totals[None, :])  # (player, banker)
    either = natural[:, None] | natural[None, :]
    if score in ("result", "square") and not rules.payoffs.even_money:
        power = 1 if score == "result" else 2
        two_card = np.array([[int(rules.payoffs.seat(int(p), int(b), bool(n), bool(m)) ** power
                                  * scale) for b, m in zip(totals, natural, strict=True)]
                             for p, n in zip(totals, natural, strict=True)])
    constant = int((four * two_card * either).sum())

    player_final = (totals[:, None] + value[None, :]) % 10  # (player, third)
    banker_final = (totals[:, None] + value[None, :]) % 10  # (banker, third)
    stand_stand = four * two_card
    stand_draw = (five * compare(totals[:, None, None] - banker_final[None, :, :])).sum(axis=2)
    draw_stand = five * compare(player_final[:, None, :] - totals[None, :, None])
    draw_draw = (six * compare(player_final[:, None, :, None]
                               - banker_final[None, :, None, :])).sum(axis=3)

    live = [i for i in range(55) if not natural[i]]
    observations = rules.observations
    # Per (player holding, banker holding, observation): result if the banker stands, and
    # what drawing adds; plus whether the observation follows the player's draw or stand.
    obs_draws = [o != STOOD for o in observations]
    stand_value = np.zeros((55, 55, len(observations)), dtype=dtype)
    stand_gain = np.zeros_like(stand_value)
    if rules.banker_sees == "choice":
        stand_value[:, :, 0] = draw_stand.sum(axis=2)
        stand_gain[:, :, 0] = (draw_draw - draw_stand).sum(axis=2)
    else:
        stand_value[:, :, :10] = draw_stand
        stand_gain[:, :, :10] = draw_draw - draw_stand
    stand_value[:, :, -1] = stand_stand
    stand_gain[:, :, -1] = stand_draw - stand_stand

    def groups(indices: list[int]) -> list[tuple[str, int, tuple[int, ...]]]:
        if information == "cards":
            return [(hand_label(HANDS[i]), int(totals[i]), (i,)) for i in indices]
        found: dict[int, list[int]] = {}
        for i in indices:
            found.setdefault(int(totals[i]), []).append(i)
        return [(str(t), t, tuple(found[t])) for t in sorted(found)]

    banker_groups = groups(live)
    cells: list[BankerCell] = []
    cell_members: list[tuple[tuple[int, ...], int]] = []
    for label, total, members in banker_groups:
        for o_index, observation in enumerate(observations):
            cells.append(BankerCell(label, total, tuple(HANDS[i] for i in members), observation,
                                    rules.banker_action(total)))
            cell_members.append((members, o_index))
    player_groups = [g for g in groups(live) if rules.player_action(g[1]) == "choice"]
    player_sets = tuple(PlayerSet(label, total, tuple(HANDS[i] for i in members))
                        for label, total, members in player_groups)

    # Per (player holding, cell): contribution when the player stands / draws.
    n_cells = len(cells)
    holding_value = np.zeros((55, n_cells, 2), dtype=dtype)  # [..., 0] stand, [..., 1] draw
    holding_gain = np.zeros_like(holding_value)
    live_array = np.array(live)
    for c, (members, o_index) in enumerate(cell_members):
        side = int(obs_draws[o_index])
        value_sum = stand_value[:, list(members), o_index].sum(axis=1)
        gain_sum = stand_gain[:, list(members), o_index].sum(axis=1)
        holding_value[live_array, c, side] = value_sum[live_array]
        holding_gain[live_array, c, side] = gain_sum[live_array]
    forced_draw = [i for i in live if rules.player_action(int(totals[i])) == "draw"]
    stand_part = holding_value[:, :, 0]
    draw_part = holding_value[:, :, 1]
    base0 = stand_part[live_array].sum(axis=0) + (draw_part - stand_part)[forced_draw].sum(
        axis=0)
    gain0 = holding_gain[live_array, :, 0].sum(axis=0) + (
        holding_gain[:, :, 1] - holding_gain[:, :, 0])[forced_draw].sum(axis=0)
    base = np.zeros((len(player_sets), n_cells), dtype=dtype)
    gain = np.zeros_like(base)
    for s, (_, _, members) in enumerate(player_groups):
        rows = list(members)
        base[s] = (draw_part - stand_part)[rows].sum(axis=0)
        gain[s] = (holding_gain[:, :, 1] - holding_gain[:, :, 0])[rows].sum(axis=0)
    return ChoiceGame(rules=rules, shoe=shoe.describe(), information=information,
                      player_sets=player_sets, banker_cells=tuple(cells), constant=constant,
                      base0=base0, base=base, gain0=gain0, gain=gain,
                      denominator=denominator * scale)


def player_vector(strategy: Strategy, game: ChoiceGame) -> list[Fraction]:
    """The strategy's draw probability in each of the game's player information sets."""
    vector = []
    for info in game.player_sets:
        values = {strategy.draw(hand) for hand in info.hands}
        if len(values) > 1:
            raise AnalyzerError(f"{strategy.name}: the player's play differs within total "
                                f"{info.total}; evaluate with --by cards")
        vector.append(values.pop())
    return vector


def banker_vector(strategy: Strategy, game: ChoiceGame) -> list[Fraction]:
    """The strategy's draw probability in each of the game's banker cells."""
    check_observations(strategy, game.rules.observations, game.rules.name)
    vector = []
    for cell in game.banker_cells:
        values = {strategy.draw(hand, cell.observation) for hand in cell.hands}
        if len(values) > 1:
            raise AnalyzerError(f"{strategy.name}: the banker's play differs within total "
                                f"{cell.total}; evaluate with --by cards")
        vector.append(values.pop())
    return vector
