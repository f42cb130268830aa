"""Strategy charts: every cell and every exception against the solved equilibrium's own draw
probabilities, every situation in exactly one column."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.choice.table.chart import Chart, Situation, table_charts
from analyzer.choice.table.solve import TableEquilibrium, solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.present.report.chart import render_charts
from analyzer.present.tables.published import published_strategies
from analyzer.rules.shoe import Shoe

TABLES = Path(__file__).resolve().parents[3] / "tables" / "lucky9" / "charts"


def _column(chart: Chart, situation: Situation) -> str:
    """The one column naming the situation, by its counts or its exact order."""
    names = {situation.words(exact_order=False), situation.words(exact_order=True)}
    found = [c.letter for c in chart.columns if names & set(c.situations)]
    assert len(found) == 1, (chart.side, names, found)
    return found[0]


def _check_every_cell(table: TableEquilibrium) -> int:
    """Walk the solution arrays (not the chart's own grouping) and compare each holding's
    draw probability with what the chart says; returns how many were compared."""
    charts = table_charts(table)
    checked = 0
    for pattern in table.patterns:
        if pattern.bank is not None or not pattern.live:
            continue
        solution = table.solution(pattern.key)
        live = len(pattern.live)
        for position, seat in enumerate(pattern.live):
            for earlier in range(2**position):
                choices = format(earlier, f"0{position}b").replace("1", "D").replace("0", "S") \
                    if position else ""
                letter = _column(charts[seat], Situation(choices, live - position - 1,
                                                         pattern.key[1]))
                for info, draw in zip(solution.game.seat_classes,
                                      solution.seats[position][earlier], strict=True):
                    assert charts[seat].play(info.total, info.label, letter) == draw
                    checked += 1
        for vector in range(2**live):
            choices = format(vector, f"0{live}b").replace("1", "D").replace("0", "S")
            letter = _column(charts[-1], Situation(choices, None, pattern.key[1]))
            for info, row in zip(solution.game.bank_classes, solution.bank, strict=True):
                assert charts[-1].play(info.total, info.label, letter) == row[vector]
                checked += 1
    return checked


@pytest.mark.parametrize("players", [1, 2, 3])
def test_every_cell_is_the_solved_play_at_the_infinite_deck(players: int) -> None:
    table = solve_table(LUCKY9, Shoe.infinite(), players, "total")
    assert _check_every_cell(table) >= 9 * (players + 2)
    assert all(not c.exceptions for c in table_charts(table))  # by total: no exception


@pytest.mark.parametrize("players", range(4, 9))
def test_every_cell_of_the_published_charts_of_5_to_9_people(players: int) -> None:
    # the published equilibria, certified again (solving 9 people takes seconds), whose
    # charts tables/lucky9/charts/ prints
    table = solve_table(LUCKY9, Shoe.infinite(), players, "total",
                        known=published_strategies(LUCKY9))
    assert table.certified and _check_every_cell(table) >= 9 * 2**players
    published = (TABLES / f"{players + 1}-people-infinite.md").read_text(encoding="utf-8")
    assert published.endswith(render_charts(table_charts(table), "markdown"))


@pytest.mark.parametrize(("players", "by"), [(1, "cards"), (1, "total"), (2, "total")])
def test_every_cell_and_exception_is_the_solved_play_at_one_deck(players: int, by: str) -> None:
    table = solve_table(LUCKY9, Shoe.decks(1), players, by)
    assert table.certified and _check_every_cell(table) > 0
    charts = table_charts(table)
    assert any(c.exceptions for c in charts) == (by == "cards")


def test_heads_up_one_deck_lists_t5_as_an_exception() -> None:
    seat, bank = table_charts(solve_table(LUCKY9, Shoe.decks(1), 1, "cards"))
    assert seat.cell(5, "A") == 0 and seat.play(5, "T+5", "A") == Fraction(863, 1200)
    assert [(e.total, e.holding) for e in seat.exceptions] == [(5, "T+5"), (5, "6+9")]
    assert bank.columns[0].situations == ("live seats: 1 drew",)


def test_columns_merge_situations_with_the_same_play() -> None:
    charts = table_charts(solve_table(LUCKY9, Shoe.infinite(), 3, "total"))
    seat3 = charts[2]
    assert len(seat3.columns) == 3 and seat3.columns[2].situations == (
        "before you: 1 stood; after you: 0 live seats",
        "before you: 2 stood; after you: 0 live seats")
    assert [c.letter for c in charts[-1].columns] == list("ABCDE")
    assert charts[-1].cell(6, "E") == Fraction(121635, 146432)


def test_one_chart_by_seat_or_bank_and_bad_seats() -> None:
    table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    assert [c.side for c in table_charts(table, seat=2)] == ["seat 2"]
    assert [c.side for c in table_charts(table, bank=True)] == ["bank"]
    with pytest.raises(AnalyzerError, match="--seat 3: the table has seats 1 to 2"):
        table_charts(table, seat=3)
