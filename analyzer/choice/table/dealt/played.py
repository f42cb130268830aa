"""A table's strategy played at a shoe it was not solved at: its exact values and regrets there.

The certified infinite-deck equilibrium of a table conditions on totals only (a holding
tells nothing more at the infinite deck) and on who holds a natural, not on the natural's
cards. :func:`infinite_rules` plays it at any shoe: every holding of a total draws as that
total does, whatever the naturals' cards. :func:`played_at` evaluates it there exactly --
every side's value and exact regret, by cards or by total -- with the finite-shoe subgames
(exact card removal at every table size, :mod:`analyzer.choice.table.dealt.game`): the
largest regret is the epsilon no side can beat by more when deviating alone.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> at = played_at(LUCKY9, Shoe.decks(1), 1, "total")
>>> at.bank > 0, at.max_regret > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import (
    Pattern,
    SubgameKey,
    TableEquilibrium,
    TableValues,
    evaluate_profile,
    grouped_patterns,
    solve_table,
)
from analyzer.choice.table.subgame import info_classes
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["infinite_rules", "infinite_strategies", "MAX_AT_SHOE_PEOPLE", "played_at"]

#: Largest table a finite-shoe answer plays the infinite deck's equilibrium at the shoe for,
#: exactly, by default (about 1.2 s of CPU at 4 people; 5 people take about 6 s, 6 minutes).
MAX_AT_SHOE_PEOPLE = 4


def infinite_rules(table: TableEquilibrium, by: str,
                   ) -> tuple[Callable[[Pattern, int, int, int, int], Fraction],
                              Callable[[Pattern, int, int], Fraction]]:
    """The infinite-deck equilibrium ``table`` (by total) as draw probabilities for the
    subgames of a finite shoe whose sides see ``by`` (each holding plays its total)."""
    classes = info_classes(table.solution((1, ())).game.rules, by)

    def total_index(pattern: Pattern, cls: int) -> tuple[int, int]:
        live = len(pattern.live)
        totals = [c.total for c in table.solution((live, ())).game.seat_classes]
        return live, totals.index(classes[cls].total)

    def seat_rule(pattern: Pattern, seat: int, position: int, earlier: int,
                  cls: int) -> Fraction:
        del seat
        live, index = total_index(pattern, cls)
        return table.solution((live, ())).seats[position][earlier][index]

    def bank_rule(pattern: Pattern, vector: int, cls: int) -> Fraction:
        live, index = total_index(pattern, cls)
        return table.solution((live, ())).bank[index][vector]

    return seat_rule, bank_rule


@lru_cache(maxsize=16)
def played_at(rules: ChoiceRules, shoe: Shoe, players: int, by: str) -> TableValues:
    """The certified infinite-deck equilibrium of the table, played at ``shoe`` by sides
    seeing ``by``: every side's exact value and exact regret at that shoe."""
    table = solve_table(rules, Shoe.infinite(), players, "total")
    seat_rule, bank_rule = infinite_rules(table, by)
    return evaluate_profile(rules, shoe, players, by, seat_rule, bank_rule)


def infinite_strategies(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
                        ) -> dict[SubgameKey, Strategies]:
    """The infinite deck's certified equilibrium (by total) as the strategies of every
    subgame of the table at ``shoe`` seen ``by`` (each holding as its total): what an
    epsilon-certificate of that play at the shoe is written from."""
    table = solve_table(rules, Shoe.infinite(), players, "total")
    seat_rule, bank_rule = infinite_rules(table, by)
    # every finite-shoe subgame's sides see the same classes (``info_classes``) and the bank
    # 2**live choice vectors: the subgames themselves (their compositions and transitions,
    # gigabytes at nine people) are not built here
    classes = len(info_classes(rules, by))
    out: dict[SubgameKey, Strategies] = {}
    for pattern in grouped_patterns(rules, shoe, players):
        if pattern.bank is not None or not pattern.live or pattern.key in out:
            continue
        live = len(pattern.live)
        out[pattern.key] = (
            [[[seat_rule(pattern, -1, k, e, c) for c in range(classes)]
              for e in range(2**k)] for k in range(live)],
            [[bank_rule(pattern, v, c) for v in range(2**live)] for c in range(classes)])
    return out
