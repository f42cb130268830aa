"""Choice games of the baccarat family (home Lucky 9, chemin de fer) as exact payoff arrays.

A choice game has no tableau: after the naturals settle, the player and then the banker each
choose to stand or to take one card. The rules and the information structure come from the
profile's ``[game]`` table (:class:`ChoiceRules`). :func:`build_game` turns rules, a shoe and
an information model (``"total"`` or ``"cards"``) into a :class:`ChoiceGame`: integer weights
from which the player's expected result under any pair of behaviour strategies is a bilinear
form (the game's sequence form, Koller, Megiddo & von Stengel 1994, collapses here to one
draw probability per information set because each side chooses once).

Weights count ordered six-card value sequences (the published convention of RULES.md): a coup
that ends after four or five cards is weighted by the ways to fill the unused positions, so
every weight shares the denominator ``N(N-1)...(N-5)`` (``52**6`` for the infinite deck).

>>> from analyzer.profile import load_profile
>>> from analyzer.shoe import Shoe
>>> game = build_game(ChoiceRules.from_profile(load_profile("lucky9-home")), Shoe.decks(1),
...                   "total")
>>> len(game.player_sets), len(game.banker_cells), game.denominator
(9, 18, 14658134400)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from analyzer.errors import AnalyzerError
from analyzer.profile import Profile
from analyzer.shoe import Shoe

Information = Literal["total", "cards"]
BankerSees = Literal["choice", "third-card"]
IntArray = npt.NDArray[Any]

#: Every two-card holding as a pair of point values ``(low, high)``: 55 of them.
HANDS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(10) for b in range(a, 10))
STOOD = "stood"
DREW = "drew"


def value_symbol(value: int) -> str:
    """A point value as a card symbol: ``T`` stands for any ten-valued card, ``A`` for one.

    >>> value_symbol(0), value_symbol(1), value_symbol(7)
    ('T', 'A', '7')
    """
    return "T" if value == 0 else "A" if value == 1 else str(value)


def hand_label(hand: tuple[int, int]) -> str:
    """A two-card holding by its point values, e.g. ``T+5`` or ``A+A``.

    >>> hand_label((0, 5)), hand_label((1, 1))
    ('T+5', 'A+A')
    """
    return f"{value_symbol(hand[0])}+{value_symbol(hand[1])}"


def parse_hand(text: str) -> tuple[int, int]:
    """A holding written ``T+5``, ``5+T``, ``A+A``, ``10+5``, ``T5`` or ``Q/5``.

    (A dash is not accepted: ``2-3`` means the totals 2 to 3 in strategy files.)

    >>> parse_hand("5+t"), parse_hand("10+a"), parse_hand("K5")
    ((0, 5), (0, 1), (0, 5))
    """
    cleaned = text.strip().upper().replace("10", "T")
    for separator in ("+", "/", " "):
        if separator in cleaned:
            parts = [part.strip() for part in cleaned.split(separator)]
            break
    else:
        parts = list(cleaned)
    symbols = {"T": 0, "J": 0, "Q": 0, "K": 0, "A": 1, "0": 0,
               **{str(v): v for v in range(1, 10)}}
    if len(parts) != 2 or any(part not in symbols for part in parts):
        raise AnalyzerError(f"hand {text!r}: expected two card values like 'T+5' or 'A+A'")
    low, high = sorted(symbols[part] for part in parts)
    return (low, high)


@dataclass(frozen=True)
class ChoiceRules:
    """A choice game's rules and information structure (the profile's ``[game]`` table)."""

    name: str
    naturals: frozenset[int]
    player_draws: frozenset[int]
    player_stands: frozenset[int]
    banker_draws: frozenset[int]
    banker_stands: frozenset[int]
    banker_sees: BankerSees
    information: tuple[str, ...] = ("total", "cards")
    default_information: str = "cards"
    people: tuple[int, int] = (2, 2)
    player_sees: str = "earlier choices"

    @classmethod
    def from_profile(cls, profile: Profile) -> ChoiceRules:
        """Read the ``[game]`` table of a profile; errors name the file and field."""
        game: Mapping[str, Any] = profile.extra
        where = profile.path or profile.name
        if game.get("kind") != "choice":
            raise AnalyzerError(f"{where}: game.kind: profile {profile.name!r} is not a choice "
                                "game (needs [game] kind = \"choice\")")

        def totals(key: str) -> frozenset[int]:
            raw = game.get(key, [])
            if not isinstance(raw, list) or not all(isinstance(v, int) and 0 <= v <= 9
                                                    for v in raw):
                raise AnalyzerError(f"{where}: game.{key}: must be a list of totals 0-9")
            return frozenset(raw)

        sees = game.get("banker_sees", "choice")
        if sees not in ("choice", "third-card"):
            raise AnalyzerError(f"{where}: game.banker_sees: must be 'choice' or 'third-card'")
        information = game.get("information", ["total", "cards"])
        if not isinstance(information, list) or not set(information) <= {"total", "cards"}:
            raise AnalyzerError(f"{where}: game.information: a list of 'total' and 'cards'")
        people = game.get("people", [2, 2])
        if (not isinstance(people, list) or len(people) != 2
                or not all(isinstance(p, int) for p in people) or not 2 <= people[0] <= people[1]):
            raise AnalyzerError(f"{where}: game.people: must be [fewest, most], at least 2")
        if game.get("pays", 1) != 1 or game.get("ties", "push") != "push" or game.get(
                "commission", 0) != 0:
            raise AnalyzerError(f"{where}: game: the solver handles even money, ties push, "
                                "no commission")
        player_sees = game.get("player_sees", "earlier choices")
        if player_sees not in ("earlier choices", "own cards"):
            raise AnalyzerError(f"{where}: game.player_sees: must be 'earlier choices' or "
                                "'own cards'")
        rules = cls(name=profile.name, naturals=totals("naturals"),
                    player_draws=totals("player_draws"), player_stands=totals("player_stands"),
                    banker_draws=totals("banker_draws"), banker_stands=totals("banker_stands"),
                    banker_sees=sees, information=tuple(information),
                    default_information=str(game.get("default_information", information[0])),
                    people=(people[0], people[1]), player_sees=player_sees)
        if rules.player_draws & rules.player_stands or rules.banker_draws & rules.banker_stands:
            raise AnalyzerError(f"{where}: game: a total cannot be both a forced draw and stand")
        return rules

    def player_action(self, total: int) -> Literal["draw", "stand", "choice"]:
        """What a non-natural player holding ``total`` does: forced, or a choice."""
        if total in self.player_draws:
            return "draw"
        if total in self.player_stands:
            return "stand"
        return "choice"

    def banker_action(self, total: int) -> Literal["draw", "stand", "choice"]:
        """What a non-natural banker holding ``total`` does: forced, or a choice."""
        if total in self.banker_draws:
            return "draw"
        if total in self.banker_stands:
            return "stand"
        return "choice"

    @property
    def observations(self) -> tuple[str, ...]:
        """What the banker may see of the player: ``drew``/``stood`` or the third card."""
        if self.banker_sees == "choice":
            return (DREW, STOOD)
        return (*(str(v) for v in range(10)), STOOD)


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


def _falling(n: IntArray, k: IntArray, depth: int) -> IntArray:
    """Elementwise ``n (n-1) ... (n-k+1)`` for ``0 <= k <= depth``."""
    out = np.ones(np.broadcast(n, k).shape, dtype=n.dtype)
    for j in range(depth):
        out = out * np.where(j < k, n - j, 1)
    return out


def build_game(rules: ChoiceRules, shoe: Shoe, information: str) -> ChoiceGame:
    """The heads-up game on ``shoe`` with information ``"total"`` or ``"cards"``."""
    if information not in rules.information:
        raise AnalyzerError(f"profile {rules.name!r}: information must be one of "
                            f"{', '.join(rules.information)}, got {information!r}")
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
        ways = np.prod(_falling(n, pair, 4), axis=2)
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
    sign_two = np.sign(totals[:, None] - totals[None, :])  # (player, banker)
    either = natural[:, None] | natural[None, :]
    constant = int((four * sign_two * either).sum())

    player_final = (totals[:, None] + value[None, :]) % 10  # (player, third)
    banker_final = (totals[:, None] + value[None, :]) % 10  # (banker, third)
    stand_stand = four * sign_two
    stand_draw = (five * np.sign(totals[:, None, None] - banker_final[None, :, :])).sum(axis=2)
    draw_stand = five * np.sign(player_final[:, None, :] - totals[None, :, None])
    draw_draw = (six * np.sign(player_final[:, None, :, None]
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
                      base0=base0, base=base, gain0=gain0, gain=gain, denominator=denominator)
