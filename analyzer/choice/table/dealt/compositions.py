"""Removed-card compositions of a finite shoe: the states a seat-by-seat walk carries.

Dealing ``j`` two-card hands from a shoe of point-value counts ``n`` removes a *composition*
``c`` (how many cards of each point value are out). The number of ordered ways to deal a
given sequence of holdings ``h_1 .. h_j`` is ``prod_i order(h_i) * prod_v falling(n_v, c_v)``
(``order`` 2 for two different values, 1 for a pair): it depends on the holdings only
through their orders and the total composition. So a walk over the seats can carry one
number per composition (and per prefix of earlier choices) instead of one per sequence of
holdings: 55 / 715 / 4,915 / 22,330 / 74,396 compositions of 2 / 4 / 6 / 8 / 10 cards of one
deck (705 / 4,909 / 22,328 of 4 / 6 / 8 cards reachable by live holdings), against 50**j
sequences of live holdings.

:class:`Levels` lists the compositions reachable by ``0 .. depth`` live holdings and the
transition table ``next[level][c, h]`` (the composition ``c + h``, or -1 when the shoe has
too few cards); :func:`live_ways` counts, exactly, the ordered ways to deal ``hands`` hands
none of which is natural.

>>> from analyzer.choice.table.tree import LUCKY9
>>> one_deck = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
>>> levels = Levels.of(LUCKY9, one_deck, 2)
>>> [len(c) for c in levels.compositions]
[1, 50, 705]
>>> live_ways(LUCKY9, one_deck, 1) == 52 * 51 - sum(2 * 16 * 4 if a == 0 else 2 * 4 * 4
...                                                  for a in range(5))
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from analyzer.rules.choice_rules import HANDS, ChoiceRules

__all__ = ["falling_table", "Holdings", "Levels", "live_ways"]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Holdings:
    """The live (non-natural) two-card holdings of the rules, as arrays: point values,
    card usage per value, total and order (ways to deal it as two ordered cards, per card
    count product)."""

    hands: tuple[tuple[int, int], ...]
    usage: IntArray  # (H, 10)
    total: IntArray  # (H,)
    order: IntArray  # (H,)

    @classmethod
    def live(cls, rules: ChoiceRules) -> Holdings:
        """Every holding that is not a natural, in :data:`HANDS` order."""
        hands = tuple(h for h in HANDS if sum(h) % 10 not in rules.naturals)
        usage = np.zeros((len(hands), 10), dtype=np.int64)
        for i, (a, b) in enumerate(hands):
            usage[i, a] += 1
            usage[i, b] += 1
        return cls(hands, usage, np.asarray([sum(h) % 10 for h in hands], dtype=np.int64),
                   np.asarray([1 if a == b else 2 for a, b in hands], dtype=np.int64))


@dataclass(frozen=True, eq=False)
class Levels:
    """Compositions reachable by ``j`` live holdings, ``j = 0 .. depth``, and transitions."""

    counts: tuple[int, ...]
    holdings: Holdings
    compositions: tuple[IntArray, ...]  # level j: (K_j, 10)
    next: tuple[npt.NDArray[np.int32], ...]  # level j < depth: (K_j, H), index in j + 1

    @property
    def depth(self) -> int:
        """How many holdings the deepest level holds."""
        return len(self.compositions) - 1

    @classmethod
    def of(cls, rules: ChoiceRules, counts: Sequence[int], depth: int) -> Levels:
        """Breadth first from the empty composition: each level's keys (mixed radix in the
        counts, so adding a holding adds its key) made unique and sorted."""
        return _levels(rules, tuple(int(c) for c in counts), depth)

    def stacked_next(self) -> tuple[npt.NDArray[np.int32], IntArray]:
        """Every level's transitions in one array and each level's first row."""
        starts = np.zeros(len(self.compositions) + 1, dtype=np.int64)
        for j, level in enumerate(self.compositions):
            starts[j + 1] = starts[j] + len(level)
        width = len(self.holdings.hands)
        rows = [*self.next, np.full((len(self.compositions[-1]), width), -1, dtype=np.int32)]
        return np.ascontiguousarray(np.concatenate(rows)), starts


@lru_cache(maxsize=64)
def _levels(rules: ChoiceRules, counts: tuple[int, ...], depth: int) -> Levels:
    holdings = Holdings.live(rules)
    n = np.asarray(counts, dtype=np.int64)
    radix = np.concatenate([[1], np.cumprod(n[:-1] + 1)]).astype(np.int64)
    hand_keys = holdings.usage @ radix
    levels = [np.zeros((1, 10), dtype=np.int64)]
    transitions = []
    for _ in range(depth):
        level = levels[-1]
        fits = np.all(level[:, None, :] + holdings.usage[None, :, :] <= n, axis=-1)
        keys = (level @ radix)[:, None] + hand_keys[None, :]
        found = np.unique(keys[fits])
        index = np.full(keys.shape, -1, dtype=np.int32)
        index[fits] = np.searchsorted(found, keys[fits]).astype(np.int32)
        transitions.append(index)
        levels.append((found[:, None] // radix[None, :]) % (n + 1)[None, :])
    return Levels(counts, holdings, tuple(levels), tuple(transitions))


def falling_table(counts: Sequence[int]) -> list[list[int]]:
    """``table[v][c]``: ``counts[v] (counts[v] - 1) ... (counts[v] - c + 1)``, exact."""
    return [[math.perm(n, c) for c in range(n + 1)] for n in counts]


@lru_cache(maxsize=256)
def live_ways(rules: ChoiceRules, counts: tuple[int, ...], hands: int) -> int:
    """Ordered ways to deal ``hands`` two-card hands, none natural, from ``counts``, by
    inclusion and exclusion: the deals where a given ``j`` of the hands are natural (any
    ``j`` of them, the deal being exchangeable) number the ordered ways to deal ``j``
    natural hands times the ordered ways to deal the other ``2 (hands - j)`` cards from what
    is left, so ``sum over j of (-1)**j C(hands, j) naturals(j) perm(N - 2 j, 2 hands - 2 j)``;
    ``naturals(j)`` walks the few compositions of natural cards (exact integers throughout)."""
    size = sum(counts)
    naturals = [(a, b) for a, b in HANDS if (a + b) % 10 in rules.naturals]
    ways, states = 0, {tuple(counts): 1}
    for j in range(hands + 1):
        dealt = sum(states.values())  # ordered ways to deal j natural hands
        ways += (-1) ** j * math.comb(hands, j) * dealt * math.perm(size - 2 * j,
                                                                    2 * (hands - j))
        if j == hands:
            break
        following: dict[tuple[int, ...], int] = {}
        for rest, count in states.items():
            for a, b in naturals:
                pairs = rest[a] * (rest[a] - 1) if a == b else 2 * rest[a] * rest[b]
                if pairs:
                    left = list(rest)
                    left[a] -= 1
                    left[b] -= 1
                    key = tuple(left)
                    following[key] = following.get(key, 0) + count * pairs
        states = following
    return ways
