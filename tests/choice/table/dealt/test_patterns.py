"""Natural patterns: the grouped list is the full list summed by group, and every side's
value and regret combined over it are the full list's, exactly."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest

from analyzer.choice.table.dealt.patterns import Pattern, grouped_patterns, table_patterns
from analyzer.choice.table.solve import SubgameKey, combine
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.shoe import Shoe


def _group(pattern: Pattern) -> tuple[object, ...]:
    naturals = tuple(j for j, h in enumerate(pattern.seats) if h is not None)
    if pattern.bank is not None:
        return ("bank natural", naturals)
    return ("bank live", naturals, pattern.key)


@pytest.mark.parametrize(("players", "shoe"), [(1, Shoe.decks(1)), (2, Shoe.decks(1)),
                                               (3, Shoe.decks(1)), (3, Shoe.decks(2))])
def test_the_grouped_patterns_are_the_full_list_summed_by_group(players: int,
                                                                shoe: Shoe) -> None:
    every = table_patterns(LUCKY9, shoe, players)
    grouped = grouped_patterns(LUCKY9, shoe, players)
    sums: dict[tuple[object, ...], Fraction] = defaultdict(Fraction)
    for pattern in every:
        sums[_group(pattern)] += pattern.probability
    assert {_group(p): p.probability for p in grouped} == sums
    assert len(grouped) == len(sums) < len(every)
    assert sum(p.probability for p in grouped) == 1


def test_combined_values_over_the_grouped_patterns_are_the_full_lists() -> None:
    """Each subgame's values and regrets made up (distinct per key and position), combined
    over both lists: the same fractions for every seat and the bank."""
    shoe, players = Shoe.decks(1), 3

    def made_up(key: SubgameKey) -> tuple[list[Fraction], list[Fraction]]:
        live, removed = key
        base = Fraction(len(removed) + 1, 7 + sum(a + b for a, b in removed))
        return ([base * (k + 1) - Fraction(1, 3) for k in range(live)],
                [base / (k + 2) for k in range(live + 1)])

    every = combine(table_patterns(LUCKY9, shoe, players), players, made_up, LUCKY9.payoffs)
    grouped = combine(grouped_patterns(LUCKY9, shoe, players), players, made_up,
                      LUCKY9.payoffs)
    assert grouped == every
    assert len(set(every.seats)) == players  # the positions tell the seats apart


def test_nine_people_grouped_play_the_issues_687_subgames() -> None:
    """The full list at nine people runs over 6**9 holding assignments (minutes, GBs);
    grouped, the probabilities still sum to one and the subgames are the 687 counted when
    the one-deck evaluator was planned (issue 21)."""
    grouped = grouped_patterns(LUCKY9, Shoe.decks(1), 8)
    assert sum(p.probability for p in grouped) == 1
    assert len({p.key for p in grouped if p.bank is None and p.live}) == 687
