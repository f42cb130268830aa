"""Ways to deal hands without a natural (inclusion and exclusion) against two independent
counts: every ordered card sequence of a small shoe, and the walk over removed-card
compositions on one deck."""

from __future__ import annotations

import itertools
import math

import pytest

from analyzer.choice.table.dealt.compositions import Levels, falling_table, live_ways
from analyzer.choice.table.tree import LUCKY9

ONE_DECK = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


def _every_sequence(counts: tuple[int, ...], hands: int) -> int:
    """Ordered card sequences (cards told apart) whose consecutive pairs are not naturals."""
    cards = [v for v, n in enumerate(counts) for _ in range(n)]
    return sum(1 for deal in itertools.permutations(range(len(cards)), 2 * hands)
               if all((cards[deal[2 * i]] + cards[deal[2 * i + 1]]) % 10
                      not in LUCKY9.naturals for i in range(hands)))


def _by_compositions(counts: tuple[int, ...], hands: int) -> int:
    """The walk over compositions: multiplicities of holding sequences per composition,
    times the falling factorials of the final composition."""
    levels = Levels.of(LUCKY9, counts, hands)
    ways = [1]
    for j in range(hands):
        out = [0] * len(levels.compositions[j + 1])
        for c, row in enumerate(levels.next[j]):
            for h, to in enumerate(row):
                if to >= 0:
                    out[to] += ways[c] * int(levels.holdings.order[h])
        ways = out
    table = falling_table(counts)
    return sum(w * math.prod(table[v][int(n)] for v, n in enumerate(final))
               for w, final in zip(ways, levels.compositions[-1], strict=True))


@pytest.mark.parametrize(("counts", "hands"), [
    ((2, 1, 0, 0, 1, 1, 0, 1, 1, 1), 2), ((1, 1, 1, 1, 1, 0, 1, 1, 1, 0), 3),
    ((3, 0, 1, 0, 1, 0, 0, 1, 1, 0), 3)])
def test_live_ways_counts_every_ordered_sequence_of_a_small_shoe(counts: tuple[int, ...],
                                                                  hands: int) -> None:
    found = live_ways(LUCKY9, counts, hands)
    assert found == _every_sequence(counts, hands) > 0


@pytest.mark.parametrize("hands", [1, 2, 3, 4])
def test_live_ways_agrees_with_the_walk_over_compositions_at_one_deck(hands: int) -> None:
    less_a_natural = (15, 4, 4, 4, 4, 4, 4, 4, 4, 3)  # a 0+9 out
    for counts in (ONE_DECK, less_a_natural):
        assert live_ways(LUCKY9, counts, hands) == _by_compositions(counts, hands)
