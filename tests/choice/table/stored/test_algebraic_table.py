"""The shipped 5-person one-deck certificate by total, closed exactly: every side's regret 0
with the one irrational subgame's equilibrium in its number field, the bank's edge an exact
algebraic number."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.stored.algebraic import close_table, decimal
from analyzer.choice.table.stored.certificate import certificate_path, read_certificate
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)


@pytest.mark.certificates  # the 5-person check again (about 10 s of CPU): make check-certificates
def test_the_five_person_table_by_total_is_an_exact_equilibrium() -> None:
    path = certificate_path(LUCKY9.name, 5, ONE_DECK, "total")
    shipped = read_certificate(path, LUCKY9, ONE_DECK, 5, "total")
    table = solve_table(LUCKY9, ONE_DECK, 4, "total", known=shipped.strategies,
                        given_only=True)
    assert not table.certified and table.values.max_regret == shipped.max_regret
    closed = close_table(table)
    assert closed.certified and closed.key == (2, ((4, 5), (4, 5)))
    field = closed.field
    assert field.degree == 4
    assert decimal(field, closed.bank_value) == "0.013729430950"
    assert [decimal(field, v) for v in closed.seat_values] == [
        "-0.003462961384", "-0.003444439365", "-0.003408022006", "-0.003414008195"]
    # the bank's value is irrational, and below the fraction profile's (1.37295%)
    assert any(closed.bank_value[1:])
    assert field.sign(field.sub(closed.bank_value, field.rational(table.bank_value))) == -1
    assert float(table.bank_value - Fraction(13729430950, 10**12)) == pytest.approx(
        5.7e-8, rel=0.01)


def test_a_certified_table_has_nothing_to_close() -> None:
    table = solve_table(LUCKY9, Shoe.decks(1), 2, "total")
    with pytest.raises(AnalyzerError, match="0 subgames with a regret"):
        close_table(table)
