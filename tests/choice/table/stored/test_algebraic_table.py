"""The shipped 5-person one-deck certificate by total, closed exactly: every side's regret 0
with the one irrational subgame's equilibrium in its number field, the bank's edge an exact
algebraic number; the certificate block stating it, checked again from scratch."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from analyzer.choice.table.exact.algebraic import decimal
from analyzer.choice.table.solve import TableEquilibrium, solve_table
from analyzer.choice.table.stored.algebraic import (
    AlgebraicTable,
    algebraic_document,
    check_algebraic_document,
    close_table,
)
from analyzer.choice.table.stored.certificate import certificate_path, read_certificate
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)


@pytest.fixture(scope="module")
def table() -> TableEquilibrium:
    """The shipped certificate's fraction profile (the irrational subgame's mixing rounded
    to 20 decimals) evaluated exactly (about 10 s of CPU)."""
    path = certificate_path(LUCKY9.name, 5, ONE_DECK, "total")
    shipped = read_certificate(path, LUCKY9, ONE_DECK, 5, "total")
    found = solve_table(LUCKY9, ONE_DECK, 4, "total", known=shipped.strategies,
                        given_only=True)
    assert not found.certified and found.values.max_regret == shipped.fraction_max_regret
    assert 0 < found.values.max_regret < Fraction(1, 10**26)
    return found


@pytest.fixture(scope="module")
def closed(table: TableEquilibrium) -> AlgebraicTable:
    return close_table(table)


@pytest.mark.certificates  # the 5-person check again: make check-certificates
def test_the_five_person_table_by_total_is_an_exact_equilibrium(
        table: TableEquilibrium, closed: AlgebraicTable) -> None:
    assert closed.certified and closed.key == (2, ((4, 5), (4, 5)))
    field = closed.field
    assert field.degree == 4
    assert decimal(field, closed.bank_value) == "0.013729430950"
    assert [decimal(field, v) for v in closed.seat_values] == [
        "-0.003462961384", "-0.003444439365", "-0.003408022006", "-0.003414008195"]
    # the bank's value is irrational; the rounded profile's is within 1e-20 of it
    assert any(closed.bank_value[1:])
    gap = field.sub(closed.bank_value, field.rational(table.bank_value))
    assert field.sign(gap) != 0
    low, high = field.approximate(gap, Fraction(1, 10**30))
    assert -Fraction(1, 10**20) < low <= high < Fraction(1, 10**20)


@pytest.mark.certificates
def test_the_certificate_block_is_checked_again(table: TableEquilibrium,
                                                closed: AlgebraicTable) -> None:
    document = algebraic_document(closed)
    assert document["max_regret"] == "0" and len(document["minimal_polynomial"]) == 5
    assert document["bank_value"]["decimal"] == "0.013729430950"
    assert [u["cell"] for u in document["unknowns"]] == [
        [0, 0, 5], [1, 0, 4], [1, 1, 4], [2, 0, 6], [2, 2, 6]]
    again = check_algebraic_document(copy.deepcopy(document), table)
    assert again.bank_value == closed.bank_value and again.certified
    changed = copy.deepcopy(document)
    changed["bank_value"]["coefficients"][0] = str(
        Fraction(changed["bank_value"]["coefficients"][0]) + Fraction(1, 10**30))
    with pytest.raises(AnalyzerError, match="bank_value recomputed exactly is not the file's"):
        check_algebraic_document(changed, table)
    moved = copy.deepcopy(document)
    moved["unknowns"][3]["coefficients"] = ["1/2", "0", "0", "0"]  # the bank mixing 1/2
    moved["unknowns"][3]["decimal"] = "0.500000000000"
    with pytest.raises(AnalyzerError, match="unknowns: not an equilibrium: a deviation gains"):
        check_algebraic_document(moved, table)
    stated = copy.deepcopy(document)
    stated["unknowns"][3]["coefficients"] = ["1/2", "0", "0", "0"]  # its decimal left
    with pytest.raises(AnalyzerError, match=r"unknowns\[3\]: decimal '0.693712720183' is not"):
        check_algebraic_document(stated, table)
    wide = copy.deepcopy(document)
    wide["root_interval"] = ["-100", "100"]  # two real roots of the quartic inside
    with pytest.raises(AnalyzerError, match="does not isolate"):
        check_algebraic_document(wide, table)


def test_a_certified_table_has_nothing_to_close() -> None:
    table = solve_table(LUCKY9, Shoe.decks(1), 2, "total")
    with pytest.raises(AnalyzerError, match="0 subgames with a regret"):
        close_table(table)
