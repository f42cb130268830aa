"""Strategy charts of a solved table: one grid per seat and one for the bank, as blackjack
basic-strategy charts are drawn.

A chart's rows are the side's two-card total (0-8); its columns are the situations that
change the play. A seat's situation is what the live seats before it did and how many live
seats follow it (and, at a finite shoe, the naturals' cards showing); the bank's is what the
live seats did. Situations are named by counts ("1 drew, 2 stood") where every order of
those choices has the same play, and by the exact order only where the equilibrium needs it;
situations with the same play on every total share one column (A, B, ...). A cell is the
draw probability of the holdings of that total; where the exact two cards change the play
(by cards at a finite shoe), the cell shows the play of most holdings and the others are
listed as exceptions under the grid.

Every cell is the solved equilibrium's own draw probability (nothing is re-solved):

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> from analyzer.choice.table.solve import solve_table
>>> charts = table_charts(solve_table(LUCKY9, Shoe.infinite(), 3, "total"))
>>> [c.side for c in charts], [len(c.columns) for c in charts]
(['seat 1', 'seat 2', 'seat 3', 'bank'], [3, 5, 3, 5])
>>> charts[1].columns[3].situations[0], charts[1].cell(5, "D")
('before you: 1 stood; after you: 1 live seat', Fraction(32, 65))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from analyzer.choice.table.solve import TableEquilibrium
from analyzer.choice.table.strategy import bank_views, choices_text, seat_views
from analyzer.choice.table.subgame import InfoClass
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import Payoffs, hand_label

__all__ = ["Chart", "ChartColumn", "ChartException", "Situation", "bank_chart", "seat_chart",
           "table_charts"]

#: One situation's play: (holding label, total, draw probability) per information class.
Play = tuple[tuple[str, int, Fraction], ...]


@dataclass(frozen=True)
class Situation:
    """One thing a side can see: the live seats' choices before it (``D``/``S``, seat
    order; every live seat's for the bank), how many live seats follow (None for the bank)
    and the naturals' holdings out of the shoe (a finite shoe only)."""

    choices: str
    after: int | None
    naturals: tuple[tuple[int, int], ...] = ()

    def words(self, exact_order: bool) -> str:
        """The situation in words, by counts or (``exact_order``) choice by choice."""
        words = {"D": "drew", "S": "stood"}
        if exact_order:
            done = ", ".join(words[c] for c in self.choices) + " (in seat order)"
        else:
            counts = [f"{self.choices.count(c)} {words[c]}" for c in "DS"
                      if self.choices.count(c)]
            done = ", ".join(counts)
        if self.after is None:
            text = f"live seats: {done}"
        else:
            text = f"before you: {done or 'no live seat'}; after you: {self.after} live seat" + (
                "s" if self.after != 1 else "")
        if self.naturals:
            text += "; naturals showing: " + ", ".join(hand_label(h) for h in self.naturals)
        return text

    @property
    def counts(self) -> tuple[int, int, int | None, tuple[tuple[int, int], ...]]:
        """The situation without the order of the choices."""
        return self.choices.count("D"), self.choices.count("S"), self.after, self.naturals


@dataclass(frozen=True)
class ChartException:
    """A holding whose play differs from its total's cell in one column."""

    column: str
    total: int
    holding: str
    draw: Fraction


@dataclass(frozen=True)
class ChartColumn:
    """One column: its letter, the situations it covers (in words) and its cells: the draw
    probability per total (None: no live holding has that total)."""

    letter: str
    situations: tuple[str, ...]
    cells: tuple[Fraction | None, ...]


@dataclass(frozen=True)
class Chart:
    """One side's chart: rows ``totals``, the ``columns``, the by-cards ``exceptions``, and
    what the side is worth playing it (``value``, per unit staked; the bank's net per hand
    in units of one stake)."""

    side: str
    seat: int | None
    people: int
    shoe: str
    by: str
    certified: bool
    exact: bool
    model: str
    value: Fraction
    totals: tuple[int, ...]
    columns: tuple[ChartColumn, ...]
    exceptions: tuple[ChartException, ...]
    game: str = "Home Lucky 9"
    payoffs: Payoffs = field(default_factory=Payoffs)
    #: What the table is where it is not evaluated at its shoe (:attr:`TableEquilibrium.scope`).
    scope: str = ""
    solved_at: str = ""

    def cell(self, total: int, letter: str) -> Fraction | None:
        """The draw probability shown for ``total`` in column ``letter``."""
        for column in self.columns:
            if column.letter == letter:
                return column.cells[self.totals.index(total)]
        raise AnalyzerError(f"no column {letter!r}")

    def column_of(self, situation: str) -> ChartColumn:
        """The column covering a situation (as its words)."""
        for column in self.columns:
            if situation in column.situations:
                return column
        raise AnalyzerError(f"no column covers {situation!r}")

    def play(self, total: int, holding: str, letter: str) -> Fraction | None:
        """What the chart says for ``holding`` (of ``total``) in column ``letter``: its
        exception if listed, else the cell."""
        for exception in self.exceptions:
            if (exception.column, exception.holding) == (letter, holding):
                return exception.draw
        return self.cell(total, letter)


def _play(classes: Sequence[InfoClass], row: Sequence[Fraction]) -> Play:
    return tuple((c.label, c.total, d) for c, d in zip(classes, row, strict=True))


def seat_situations(table: TableEquilibrium, seat: int) -> dict[Situation, Play]:
    """Every situation seat ``seat`` (1-based) can see, with its equilibrium play."""
    out: dict[Situation, Play] = {}
    for pattern, solution, position, after, earlier in seat_views(table, seat):
        situation = Situation(choices_text(earlier, position), after, pattern.key[1])
        out.setdefault(situation, _play(solution.game.seat_classes,
                                        solution.seats[position][earlier]))
    return out


def bank_situations(table: TableEquilibrium) -> dict[Situation, Play]:
    """Every situation the bank can see (at least one live seat), with its play."""
    out: dict[Situation, Play] = {}
    for pattern, solution, vector in bank_views(table):
        situation = Situation(choices_text(vector, len(pattern.live)), None, pattern.key[1])
        out.setdefault(situation, _play(solution.game.bank_classes,
                                        [row[vector] for row in solution.bank]))
    return out


def _order(situation: Situation) -> tuple[object, ...]:
    return (len(situation.naturals), situation.naturals, len(situation.choices),
            -situation.choices.count("D"), -(situation.after or 0), situation.choices)


def _cells(play: Play, totals: Sequence[int],
           ) -> tuple[tuple[Fraction | None, ...], tuple[tuple[int, str, Fraction], ...]]:
    """A play as one cell per total (the play of most of its holdings) and the holdings
    that differ."""
    cells: list[Fraction | None] = []
    exceptions: list[tuple[int, str, Fraction]] = []
    for total in totals:
        members = [(label, draw) for label, t, draw in play if t == total]
        if not members:
            cells.append(None)
            continue
        counts = Counter(draw for _, draw in members)
        base = max(counts, key=lambda d: (counts[d], d))
        cells.append(base)
        exceptions += [(total, label, draw) for label, draw in members if draw != base]
    return tuple(cells), tuple(exceptions)


def _letter(index: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[index] if index < 26 else letters[index // 26 - 1] + letters[index % 26]


def _chart(table: TableEquilibrium, side: str, seat: int | None, value: Fraction,
           situations: dict[Situation, Play]) -> Chart:
    totals = tuple(sorted({t for play in situations.values() for _, t, _ in play}))
    by_counts: dict[tuple[object, ...], list[Situation]] = {}
    for situation in sorted(situations, key=_order):
        by_counts.setdefault(situation.counts, []).append(situation)
    groups: list[tuple[str, Play]] = []  # (words, play) in chart order
    for members in by_counts.values():
        plays = {situations[s] for s in members}
        if len(plays) == 1:
            groups.append((members[0].words(exact_order=False), situations[members[0]]))
        else:
            groups += [(s.words(exact_order=True), situations[s]) for s in members]
    columns: dict[tuple[tuple[Fraction | None, ...], tuple[tuple[int, str, Fraction], ...]],
                  list[str]] = {}
    for words, play in groups:
        columns.setdefault(_cells(play, totals), []).append(words)
    out_columns = []
    exceptions = []
    for index, ((cells, differing), named) in enumerate(columns.items()):
        letter = _letter(index)
        out_columns.append(ChartColumn(letter, tuple(named), cells))
        exceptions += [ChartException(letter, t, label, d) for t, label, d in differing]
    return Chart(side, seat, table.players + 1, table.shoe, table.by, table.certified,
                 table.exact, table.model, value, totals, tuple(out_columns),
                 tuple(exceptions), "Home Lucky 9" if table.profile == "lucky9-home"
                 else table.title, table.payoffs, table.scope, table.solved_at)


def seat_chart(table: TableEquilibrium, seat: int) -> Chart:
    """Seat ``seat``'s (1-based) chart."""
    if not 1 <= seat <= table.players:
        raise AnalyzerError(f"--seat {seat}: the table has seats 1 to {table.players}")
    return _chart(table, f"seat {seat}", seat, table.seat_values[seat - 1],
                  seat_situations(table, seat))


def bank_chart(table: TableEquilibrium) -> Chart:
    """The bank's chart."""
    return _chart(table, "bank", None, table.bank_value, bank_situations(table))


def table_charts(table: TableEquilibrium, seat: int | None = None,
                 bank: bool | None = None) -> tuple[Chart, ...]:
    """The charts of a table: one seat's (``seat``), the bank's (``bank``), or by default
    every seat's then the bank's."""
    if seat is not None:
        return (seat_chart(table, seat),)
    if bank:
        return (bank_chart(table),)
    return (*(seat_chart(table, s) for s in range(1, table.players + 1)), bank_chart(table))
