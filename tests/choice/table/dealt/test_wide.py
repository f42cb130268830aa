"""The best play found at a finite shoe and its exact epsilon: the improvement lowers the
infinite deck's epsilon, every figure is the exact evaluation's, and subgames spread over any
mapper (results in any order) merge to the same fractions."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from analyzer.choice.table.dealt.played import infinite_strategies, played_at
from analyzer.choice.table.dealt.wide import BITS, wide_table
from analyzer.choice.table.exact.evaluation import exact_regrets
from analyzer.choice.table.solve import TableEquilibrium, solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)


@pytest.fixture(scope="module")
def improved() -> TableEquilibrium:
    return wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=10)


def test_the_improved_play_has_a_smaller_exact_epsilon_than_the_infinite_decks(
        improved: TableEquilibrium) -> None:
    start = played_at(LUCKY9, ONE_DECK, 2, "total")
    assert improved.exact and not improved.certified
    assert 0 < improved.values.max_regret < start.max_regret / 5
    assert improved.bank_value == -sum(improved.seat_values)
    # every mixed draw probability is a multiple of 2**-BITS
    draws = [v for r in improved.subgames for rows in r.solution.seats for row in rows
             for v in row]
    assert all((v * 2**BITS).denominator == 1 for v in draws)
    assert any(0 < v < 1 for v in draws)


def test_each_subgames_figures_are_its_exact_evaluation(improved: TableEquilibrium) -> None:
    result = max(improved.subgames, key=lambda r: r.key[0])
    solution = result.solution
    values, regrets, _ = exact_regrets(solution.game, solution.seats, solution.bank)
    assert (values, regrets) == (solution.values, solution.regrets)
    # the same strategies checked by the certificate path: the same table values
    known = {r.key: (r.solution.seats, r.solution.bank) for r in improved.subgames}
    again = solve_table(LUCKY9, ONE_DECK, 2, "total", known=known, given_only=True)
    assert again.values == improved.values


def _shuffled(function: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    order = list(range(len(items)))
    random.Random(7).shuffle(order)
    return [function(items[i]) for i in order]


def test_subgames_merge_exactly_whatever_order_they_come_back_in(
        improved: TableEquilibrium) -> None:
    known = {r.key: (r.solution.seats, r.solution.bank) for r in improved.subgames}
    spread = wide_table(LUCKY9, ONE_DECK, 2, "total", known, iterations=0, apply=_shuffled)
    assert spread.values == improved.values
    assert spread.values.max_regret == improved.values.max_regret > Fraction(0)


def test_missing_strategies_are_one_line() -> None:
    with pytest.raises(AnalyzerError, match="no strategies given for the subgame of 2 live"):
        wide_table(LUCKY9, ONE_DECK, 2, "total", {}, iterations=0)


@pytest.mark.parametrize("by", ["total", "cards"])
def test_a_bank_reply_pass_shrinks_the_banks_exact_regret_by_its_step(by: str) -> None:
    """The bank's regret is linear in its own play (the seats' kept): a step of 1/2 to its
    best reply halves it exactly, a whole step makes it 0; the seats' play is the infinite
    deck's, unchanged, and the method says what was done."""
    start = played_at(LUCKY9, ONE_DECK, 2, by)
    given = infinite_strategies(LUCKY9, ONE_DECK, 2, by)
    half = wide_table(LUCKY9, ONE_DECK, 2, by, bank_step=Fraction(1, 2))
    whole = wide_table(LUCKY9, ONE_DECK, 2, by, bank_step=Fraction(1))
    assert start.bank_regret > 0
    assert half.values.bank_regret == start.bank_regret / 2
    assert whole.values.bank_regret == 0
    assert half.exact and "moved 1/2 of the way to its best reply" in half.method
    for result in half.subgames:
        seats = [[list(row) for row in rows] for rows in given[result.key][0]]
        assert [[list(row) for row in rows] for rows in result.solution.seats] == seats
    # the seats answer the bank's move: their regrets are not those of the start
    assert half.values.seat_regrets != start.seat_regrets
    with pytest.raises(AnalyzerError, match="a step above 0 and at most 1"):
        wide_table(LUCKY9, ONE_DECK, 2, by, bank_step=Fraction(3, 2))
