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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from analyzer.choice.table.exact.algebraic import (
    APPROXIMATION_DIGITS,
    AlgebraicCertificate,
    AlgebraicSolution,
    Element,
    NumberField,
    certify_support,
    close_algebraic,
    decimal,
)
from analyzer.choice.table.exact.evaluation import Cell
from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import SubgameKey, TableEquilibrium, solve_table
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["AlgebraicBlock", "AlgebraicTable", "algebraic_document", "approximated",
           "check_algebraic_document", "close_profile", "close_table", "read_algebraic_document"]

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
        "approximation_digits": APPROXIMATION_DIGITS,
        "approximation": (f"the file's subgames hold each unknown as its nearest decimal of "
                          f"{APPROXIMATION_DIGITS} digits: a rational approximation, not the "
                          "exact value (fraction_profile: that profile's exact regret)"),
    }


def _element(texts: Any, degree: int, where: str) -> Element:
    if not isinstance(texts, list) or len(texts) != degree:
        raise AnalyzerError(f"{where}: {degree} coefficients expected")
    try:
        return tuple(Fraction(str(t)) for t in texts)
    except (ValueError, ZeroDivisionError):
        raise AnalyzerError(f"{where}: coefficients must be fractions") from None


@dataclass(frozen=True)
class AlgebraicBlock:
    """A certificate's algebraic block as read (:func:`read_algebraic_document`): its field
    verified, every stated decimal that of its element; not yet checked against the
    subgame (:func:`check_algebraic_document`)."""

    key: SubgameKey
    field: NumberField
    unknowns: tuple[Cell, ...]
    values: tuple[Element, ...]
    seat_values: tuple[Element, ...]
    bank_value: Element
    #: The stated decimals of the seats' and the bank's values (rounded, not exact).
    seat_decimals: tuple[str, ...]
    bank_decimal: str

    def describe(self) -> str:
        """The irrational subgame in words: its live seats, its naturals out, the degree."""
        removed = " and ".join(f"{a}+{b}" for a, b in self.key[1]) or "none"
        degree = {2: "quadratic", 3: "cubic", 4: "quartic"}.get(
            self.field.degree, f"polynomial of degree {self.field.degree}")
        return (f"{self.key[0]} live seats, naturals {removed} out, mixing at roots of an "
                f"irreducible {degree}")


def _stated(entry: Any, field: NumberField, where: str) -> tuple[Element, str]:
    """An element and its stated decimal, refused when the decimal is not the element's."""
    if not isinstance(entry, dict):
        raise AnalyzerError(f"{where}: coefficients and decimal expected")
    value = _element(entry.get("coefficients"), field.degree, where)
    if entry.get("decimal") != decimal(field, value):
        raise AnalyzerError(f"{where}: decimal {entry.get('decimal')!r} is not its value's "
                            f"({decimal(field, value)})")
    return value, str(entry["decimal"])


def read_algebraic_document(document: Any, where: str = "algebraic") -> AlgebraicBlock:
    """The block :func:`algebraic_document` wrote, read: the minimal polynomial monic and
    irreducible with one root in the interval, every element's decimal its own and the
    largest regret "0"; a one-line error naming the field at fault. Whether it is the
    subgame's equilibrium needs the subgame: :func:`check_algebraic_document`."""
    if not isinstance(document, dict):
        raise AnalyzerError(f"{where}: a block (subgame, minimal_polynomial, ...) expected")
    try:
        key = (int(document["subgame"]["live"]),
               tuple(sorted((int(a), int(b)) for a, b in document["subgame"]["removed"])))
        minimal = tuple(Fraction(str(c)) for c in document["minimal_polynomial"])
        low, high = (Fraction(str(c)) for c in document["root_interval"])
        cells = tuple((int(u["cell"][0]), int(u["cell"][1]), int(u["cell"][2]))
                      for u in document["unknowns"])
        field = NumberField(minimal, low, high)
        seats_found = document["seat_values"]
        bank_found = document["bank_value"]
        regret = document["max_regret"]
    except KeyError as missing:
        raise AnalyzerError(f"{where}: field {missing} missing") from None
    except (TypeError, ValueError, ZeroDivisionError, IndexError):
        raise AnalyzerError(f"{where}: malformed (subgame, minimal_polynomial, root_interval, "
                            "unknowns)") from None
    if regret != "0":
        raise AnalyzerError(f"{where}: max_regret must be \"0\" (got {regret!r})")
    try:
        field.verify()
    except AnalyzerError as refused:
        raise AnalyzerError(f"{where}: minimal_polynomial/root_interval: {refused}") from None
    values = tuple(_stated(u, field, f"{where}: unknowns[{i}]")[0]
                   for i, u in enumerate(document["unknowns"]))
    if not isinstance(seats_found, list):
        raise AnalyzerError(f"{where}: seat_values: a list expected")
    seats = [_stated(v, field, f"{where}: seat_values[{j}]") for j, v in enumerate(seats_found)]
    bank = _stated(bank_found, field, f"{where}: bank_value")
    return AlgebraicBlock(key, field, cells, values, tuple(v for v, _ in seats), bank[0],
                          tuple(d for _, d in seats), bank[1])


def check_algebraic_document(document: dict[str, Any], table: TableEquilibrium,
                             where: str = "algebraic") -> AlgebraicTable:
    """The block :func:`algebraic_document` wrote, verified from scratch against ``table``
    (the certificate's fraction profile evaluated exactly): the polynomial irreducible with
    one root in the interval, the subgame's form interpolated again from exact evaluations,
    every side's regret exactly 0 in the field, and every stated value equal to the one
    recomputed; a one-line error naming the first difference."""
    block = read_algebraic_document(document, where)
    if block.key not in {r.key for r in table.subgames}:
        raise AnalyzerError(f"{where}: subgame {block.key} is not one of the table's")
    solution_found = table.solution(block.key)
    fixed = _fixed(solution_found.seats, solution_found.bank, solution_found.game.live)
    if any(cell not in fixed for cell in block.unknowns):
        raise AnalyzerError(f"{where}: unknowns: a cell not in the subgame")
    rest = {c: v for c, v in fixed.items() if c not in block.unknowns}
    closed = certify_support(solution_found.game, rest,
                             AlgebraicSolution(block.field, block.unknowns, block.values))
    if not closed.certified:
        raise AnalyzerError(f"{where}: unknowns: not an equilibrium: a deviation gains at "
                            f"{list(closed.gaining)}")
    found = _combined(table, block.key, closed)
    if not found.certified:
        raise AnalyzerError(f"{where}: another subgame has a regret")
    if list(found.seat_values) != list(block.seat_values):
        raise AnalyzerError(f"{where}: seat_values recomputed exactly are not the file's")
    if found.bank_value != block.bank_value:
        raise AnalyzerError(f"{where}: bank_value recomputed exactly is not the file's")
    return found


def approximated(strategies: Mapping[SubgameKey, Strategies], closed: AlgebraicTable,
                 digits: int = APPROXIMATION_DIGITS) -> dict[SubgameKey, Strategies]:
    """``strategies`` with the closed subgame's unknown cells at rational approximations of
    their exact (irrational) values: each the decimal with ``digits`` digits nearest to it
    (a fraction profile is what a file's ``subgames`` hold; the exact one is the block)."""
    out = dict(strategies)
    given_seats, given_bank = strategies[closed.key]
    seats = [[list(row) for row in rows] for rows in given_seats]
    bank = [list(row) for row in given_bank]
    field = closed.field
    solution = closed.closed.solution
    for (k, e, c), value in zip(solution.unknowns, solution.values, strict=True):
        low, high = field.approximate(value, Fraction(1, 10 ** (digits + 2)))
        near = Fraction(round((low + high) / 2 * 10**digits), 10**digits)
        if k == closed.table.solution(closed.key).game.live:
            bank[c][e] = near
        else:
            seats[k][e][c] = near
    out[closed.key] = (seats, bank)
    return out


def close_profile(rules: ChoiceRules, shoe: Shoe, table: TableEquilibrium,
                  ) -> tuple[TableEquilibrium, dict[str, Any], str] | None:
    """A solved table that did not certify in fractions because one subgame's equilibrium is
    irrational, closed exactly (``nine certify``): the table with that subgame's unknowns at
    rational approximations (:func:`approximated`) evaluated exactly again, its certificate
    block, and the subgame in words; None when it has no such single subgame or the closing
    does not certify."""
    if table.certified or not table.exact or table.rounding is not None:
        return None
    try:
        closed = close_table(table)
    except AnalyzerError:
        return None
    if not closed.certified:
        return None
    strategies = {r.key: (r.solution.seats, r.solution.bank) for r in table.subgames}
    again = solve_table(rules, shoe, table.players, table.by,
                        known=approximated(strategies, closed), given_only=True)
    block = algebraic_document(closed)
    check_algebraic_document(block, again)  # the approximated profile states the same block
    return again, block, read_algebraic_document(block).describe()


def _fixed(seats: Sequence[Sequence[Sequence[Fraction]]], bank: Sequence[Sequence[Fraction]],
           live: int) -> dict[tuple[int, int, int], Fraction]:
    out = {(k, e, c): x for k, rows in enumerate(seats) for e, row in enumerate(rows)
           for c, x in enumerate(row)}
    return out | {(live, v, c): x for c, row in enumerate(bank) for v, x in enumerate(row)}
