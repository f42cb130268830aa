"""A whole table's exact equilibrium when one subgame's equilibrium is irrational.

A one-deck table evaluated exactly at a profile in fractions (a certificate's strategies,
:func:`~analyzer.choice.table.solve.solve_table` with ``given_only``) has every subgame's
exact regrets; where a subgame's are not 0 because its equilibrium is irrational (the
5-person table by total: two live seats with the naturals 4+5 and 4+5 out), its
indifference equations are solved and certified in their number field
(:func:`~analyzer.choice.table.exact.algebraic.close_algebraic`). The table is then an exact
equilibrium -- every side's regret exactly 0 -- whose values are elements of that field: each
seat's value is the fraction profile's plus, over the natural patterns played in that
subgame, the pattern's probability times the change of the seat's value there; the bank's is
minus the seats' sum. One irrational subgame is handled (two would need their compositum).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analyzer.choice.table.exact.algebraic import (
    AlgebraicCertificate,
    Element,
    NumberField,
    close_algebraic,
)
from analyzer.choice.table.solve import SubgameKey, TableEquilibrium
from analyzer.errors import AnalyzerError

__all__ = ["AlgebraicTable", "close_table", "decimal"]


@dataclass(frozen=True)
class AlgebraicTable:
    """The table ``table`` (a profile in fractions, evaluated exactly) with the subgame
    ``key`` replaced by its certified irrational equilibrium ``closed``: every side's exact
    value in ``closed``'s field."""

    table: TableEquilibrium
    key: SubgameKey
    closed: AlgebraicCertificate
    seat_values: tuple[Element, ...]
    bank_value: Element

    @property
    def field(self) -> NumberField:
        """The field the values lie in."""
        return self.closed.solution.field

    @property
    def certified(self) -> bool:
        """Every side's regret exactly 0: the closed subgame's in its field, every other
        subgame's in fractions."""
        return self.closed.certified and all(
            not any(r.solution.regrets) for r in self.table.subgames if r.key != self.key)


def decimal(field: NumberField, value: Element, digits: int = 12) -> str:
    """``value`` rounded to ``digits`` decimals, from rational bounds closer than that."""
    low, high = field.approximate(value, Fraction(1, 10 ** (digits + 4)))
    scaled = round((low + high) / 2 * 10**digits)
    whole, rest = divmod(abs(scaled), 10**digits)
    return f"{'-' if scaled < 0 else ''}{whole}.{rest:0{digits}d}"


def close_table(table: TableEquilibrium) -> AlgebraicTable:
    """``table`` with its one uncertified subgame closed exactly in a number field, or a
    one-line error (none, or more than one, uncertified; or no certified closure)."""
    open_keys = [r.key for r in table.subgames if any(r.solution.regrets)]
    if len(open_keys) != 1:
        raise AnalyzerError(f"{len(open_keys)} subgames with a regret: exactly one can be "
                            "closed in a number field")
    key = open_keys[0]
    solution = table.solution(key)
    closed = close_algebraic(solution.game, [[list(r) for r in rows] for rows in solution.seats],
                             [list(r) for r in solution.bank])
    if closed is None:
        raise AnalyzerError(f"the subgame of {key[0]} live seats and naturals {key[1]}: no "
                            "solution of its indifference equations certifies")
    field = closed.solution.field
    seats = [field.rational(v) for v in table.seat_values]
    for pattern in table.patterns:
        if pattern.bank is not None or pattern.key != key:
            continue
        for position, j in enumerate(pattern.live):
            change = field.sub(closed.values[position],
                               field.rational(solution.values[position]))
            seats[j] = field.add(seats[j], field.scale(change, pattern.probability))
    bank = field.rational(Fraction(0))
    for value in seats:
        bank = field.sub(bank, value)
    return AlgebraicTable(table, key, closed, tuple(seats), bank)
