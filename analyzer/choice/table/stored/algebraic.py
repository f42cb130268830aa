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

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.choice.table.exact.algebraic import (
    AlgebraicCertificate,
    AlgebraicSolution,
    Element,
    NumberField,
    certify_support,
    close_algebraic,
)
from analyzer.choice.table.solve import SubgameKey, TableEquilibrium
from analyzer.errors import AnalyzerError

__all__ = ["AlgebraicTable", "algebraic_document", "check_algebraic_document", "close_table",
           "decimal"]


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
    return _combined(table, key, closed)


def _combined(table: TableEquilibrium, key: SubgameKey,
              closed: AlgebraicCertificate) -> AlgebraicTable:
    """The table's values with subgame ``key``'s replaced by ``closed``'s."""
    solution = table.solution(key)
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


def _texts(value: Element) -> list[str]:
    return [str(c) for c in value]


def algebraic_document(closed: AlgebraicTable) -> dict[str, Any]:
    """The certificate block stating the closed subgame's equilibrium and the table's exact
    values: the minimal polynomial (coefficients lowest degree first, monic), the isolating
    interval, every unknown cell and value as coefficients on ``1, alpha, ...`` with a
    decimal, the seats' and the bank's values likewise, and the largest regret (0)."""
    field = closed.field
    solution = closed.closed.solution

    def stated(value: Element) -> dict[str, Any]:
        return {"coefficients": _texts(value), "decimal": decimal(field, value)}

    return {
        "subgame": {"live": closed.key[0], "removed": [list(h) for h in closed.key[1]]},
        "minimal_polynomial": [str(c) for c in field.minimal],
        "root_interval": [str(field.low), str(field.high)],
        "unknowns": [{"cell": list(cell)} | stated(value)
                     for cell, value in zip(solution.unknowns, solution.values, strict=True)],
        "seat_values": [stated(v) for v in closed.seat_values],
        "bank_value": stated(closed.bank_value),
        "max_regret": "0" if closed.certified else "not 0",
    }


def _element(texts: Any, degree: int, where: str) -> Element:
    if not isinstance(texts, list) or len(texts) != degree:
        raise AnalyzerError(f"{where}: {degree} coefficients expected")
    try:
        return tuple(Fraction(str(t)) for t in texts)
    except (ValueError, ZeroDivisionError):
        raise AnalyzerError(f"{where}: coefficients must be fractions") from None


def check_algebraic_document(document: dict[str, Any], table: TableEquilibrium,
                             where: str = "algebraic") -> AlgebraicTable:
    """The block :func:`algebraic_document` wrote, verified from scratch against ``table``
    (the certificate's fraction profile evaluated exactly): the polynomial irreducible with
    one root in the interval, the subgame's form interpolated again from exact evaluations,
    every side's regret exactly 0 in the field, and every stated value equal to the one
    recomputed; a one-line error naming the first difference."""
    try:
        key = (int(document["subgame"]["live"]),
               tuple(sorted((int(a), int(b)) for a, b in document["subgame"]["removed"])))
        minimal = tuple(Fraction(str(c)) for c in document["minimal_polynomial"])
        low, high = (Fraction(str(c)) for c in document["root_interval"])
        cells = [tuple(int(x) for x in u["cell"]) for u in document["unknowns"]]
        field = NumberField(minimal, low, high)
        values = [_element(u["coefficients"], field.degree, f"{where}: unknowns")
                  for u in document["unknowns"]]
        seats = [_element(v["coefficients"], field.degree, f"{where}: seat_values")
                 for v in document["seat_values"]]
        bank = _element(document["bank_value"]["coefficients"], field.degree,
                        f"{where}: bank_value")
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        raise AnalyzerError(f"{where}: malformed (subgame, minimal_polynomial, root_interval, "
                            "unknowns, seat_values, bank_value)") from None
    field.verify()
    solution_found = table.solution(key)
    fixed = _fixed(solution_found.seats, solution_found.bank, solution_found.game.live)
    unknowns = tuple((c[0], c[1], c[2]) for c in cells)
    rest = {c: v for c, v in fixed.items() if c not in unknowns}
    closed = certify_support(solution_found.game, rest,
                             AlgebraicSolution(field, unknowns, tuple(values)))
    if not closed.certified:
        raise AnalyzerError(f"{where}: not an equilibrium: a deviation gains at "
                            f"{list(closed.gaining)}")
    found = _combined(table, key, closed)
    if not found.certified:
        raise AnalyzerError(f"{where}: another subgame has a regret")
    if list(found.seat_values) != seats or found.bank_value != bank:
        raise AnalyzerError(f"{where}: the values recomputed exactly are not the file's")
    return found


def _fixed(seats: Sequence[Sequence[Sequence[Fraction]]], bank: Sequence[Sequence[Fraction]],
           live: int) -> dict[tuple[int, int, int], Fraction]:
    out = {(k, e, c): x for k, rows in enumerate(seats) for e, row in enumerate(rows)
           for c, x in enumerate(row)}
    return out | {(live, v, c): x for c, row in enumerate(bank) for v, x in enumerate(row)}
