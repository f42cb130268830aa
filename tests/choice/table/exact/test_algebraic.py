"""The irrational equilibrium of the 5-person one-deck table by total, certified exactly.

The subgame of two live seats with the naturals 4+5 and 4+5 out: its indifference equations
(seat 1 on 5, seat 2 on 4 after seat 1 stood and after it drew, the bank on 6 after both
stood and after only seat 1 drew) reduce to an irreducible quartic, so no profile in
fractions has regret 0 there; in ``QQ(alpha)`` every side's regret is exactly 0."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.choice.table.exact.algebraic import (
    AlgebraicCertificate,
    AlgebraicSolution,
    NumberField,
    certify_support,
    close_algebraic,
    solve_support,
)
from analyzer.choice.table.exact.evaluation import exact_counterfactual, exact_regrets
from analyzer.choice.table.exact.multilinear import all_cells, evaluate_polynomial, interpolate
from analyzer.choice.table.solve import subgame_of
from analyzer.choice.table.subgame import Subgame
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)
KEY = (2, ((4, 5), (4, 5)))
SUPPORT = [(0, 0, 5), (1, 0, 4), (1, 1, 4), (2, 0, 6), (2, 2, 6)]
#: The quartic (integer coefficients, highest degree first) seat 1's draw on 5 is a root of.
QUARTIC = (829604462321999387509046058029051805, 6903976921486815013326424103533710817,
           -18802332468869731697822696636117721106, -173077088475790649016832842327651548132,
           66574201330481035261847011184981242680)
Rows = tuple[list[list[list[Fraction]]], list[list[Fraction]]]
#: The profile an earlier solve (``nine certify --people 5 --by total`` before its closing in
#: QQ(alpha)) found in that subgame: the closure's best in fractions, an epsilon of 1.03e-8
#: (the shipped certificate now holds the exact equilibrium's rational approximations).
EARLIER = ([[["1", "1", "1", "1", "1", "384695/822272", "0", "0", "0"]],
            [["1", "1", "1", "1", "0", "0", "0", "0", "0"],
             ["1", "1", "1", "1", "285203073971458/289059139649873", "1", "0", "0", "0"]]],
           [["1", "1", "1", "1"]] * 4 + [["1", "1", "1", "0"]] * 2
           + [["112582009016049911122024118934173585/168505984892588690575481130834808952",
               "0", "189525800675/1071312042373", "0"], ["0", "0", "0", "0"],
              ["0", "0", "0", "0"]])


@pytest.fixture(scope="module")
def subgame() -> tuple[Subgame, Rows]:
    """The subgame and the earlier solve's profile there (:data:`EARLIER`)."""
    seats, bank = EARLIER
    return (subgame_of(LUCKY9, ONE_DECK, KEY, "total"),
            ([[[Fraction(x) for x in r] for r in rows] for rows in seats],
             [[Fraction(x) for x in r] for r in bank]))


def _cells(game: Subgame, rows: Rows) -> dict[tuple[int, int, int], Fraction]:
    seats, bank = rows
    out = {(k, e, c): x for k, r in enumerate(seats) for e, row in enumerate(r)
           for c, x in enumerate(row)}
    return out | {(game.live, v, c): x for c, row in enumerate(bank) for v, x in enumerate(row)}


def test_the_multilinear_form_is_the_evaluator(subgame: tuple[Subgame, Rows]) -> None:
    """Every cell of the subgame an unknown: the interpolated advantages at the earlier
    profile are the exact evaluator's, cell by cell."""
    game, rows = subgame
    form = interpolate(game, {}, all_cells(game))
    at = [_cells(game, rows)[c] for c in form.unknowns]
    seat_cf, bank_cf = exact_counterfactual(game, *rows)
    assert len(form.unknowns) == 63
    for k, e, c in form.unknowns:
        stand, draw = (seat_cf[k][e][c] if k < game.live else bank_cf[c][e])
        assert evaluate_polynomial(form.advantage[(k, e, c)], at) == draw - stand


def test_a_rational_field_gives_the_exact_regrets(subgame: tuple[Subgame, Rows]) -> None:
    """In the degree-1 field (QQ), the algebraic check is the evaluator's exact regrets:
    the earlier profile's seat 2 gains 5.35e-5 there by drawing on 4 after seat 1 stood."""
    game, rows = subgame
    cells = _cells(game, rows)
    r = cells[(0, 0, 5)]
    field = NumberField((-r, Fraction(1)), r - 1, r + 1)
    solution = AlgebraicSolution(field, tuple(SUPPORT),
                                 tuple(field.rational(cells[c]) for c in SUPPORT))
    found = certify_support(game, {c: x for c, x in cells.items() if c not in SUPPORT},
                            solution)
    values, regrets, gaining = exact_regrets(game, *rows)
    assert tuple(v[0] for v in found.values) == values
    assert tuple(v[0] for v in found.regrets) == regrets
    assert found.gaining == tuple(gaining) == ((1, 0, 4),)
    assert 5.34e-5 < float(regrets[1]) < 5.36e-5 and not found.certified


@pytest.fixture(scope="module")
def closed(subgame: tuple[Subgame, Rows]) -> AlgebraicCertificate:
    game, rows = subgame
    found = close_algebraic(game, *rows)
    assert found is not None
    return found


def test_the_equilibrium_is_a_root_of_an_irreducible_quartic(
        closed: AlgebraicCertificate) -> None:
    field = closed.solution.field
    field.verify()
    lead = QUARTIC[0]
    assert field.minimal == tuple(Fraction(c, lead) for c in reversed(QUARTIC))
    assert closed.solution.unknowns == tuple(SUPPORT)
    assert (field.low, field.high) == (0, 1)
    low, high = field.approximate(closed.solution.values[0], Fraction(1, 10**12))
    assert Fraction(371776544639, 10**12) - Fraction(1, 10**12) <= low <= high <= Fraction(
        371776544640, 10**12)


def test_every_regret_is_exactly_zero(closed: AlgebraicCertificate) -> None:
    """Each side's regret is the zero element and no cell's sign contradicts its play; the
    mixed cells are strictly inside (0, 1); the bank's value is 1.854% of a stake."""
    field = closed.solution.field
    assert closed.certified and closed.gaining == ()
    assert all(not any(r) for r in closed.regrets)
    one = field.rational(Fraction(1))
    for value in closed.solution.values:
        assert field.sign(value) == 1 and field.sign(field.sub(one, value)) == 1
    decimals = [float(field.approximate(v)[0]) for v in closed.values]
    assert decimals == pytest.approx([-0.0095347005, -0.0090077440, 0.0185424445], abs=1e-10)
    assert field.sign(field.add(field.add(closed.values[0], closed.values[1]),
                                closed.values[2])) == 0  # the bank's net is minus the seats'
    assert any(closed.values[2][1:])  # irrational: not a rational element


def test_one_pure_cell_changed_is_caught(subgame: tuple[Subgame, Rows],
                                         closed: AlgebraicCertificate) -> None:
    """The bank drawing on 5 when both seats drew (it should stand) is found gaining, and
    with it the seats' mixed cells it reaches are no longer indifferent."""
    game, rows = subgame
    cells = _cells(game, rows)
    rest = {c: x for c, x in cells.items() if c not in SUPPORT} | {(2, 3, 5): Fraction(1)}
    found = certify_support(game, rest, closed.solution)
    assert not found.certified and found.gaining == ((0, 0, 5), (1, 1, 4), (2, 3, 5))
    assert [closed.solution.field.sign(r) for r in found.regrets] == [1, 1, 1]


def test_field_arithmetic_and_refusals() -> None:
    root2 = NumberField((Fraction(-2), Fraction(0), Fraction(1)), Fraction(1), Fraction(2))
    a = (Fraction(0), Fraction(1))
    assert root2.mul(a, a) == (2, 0)
    assert root2.sign(root2.sub(a, (Fraction(141421356, 10**8), Fraction(0)))) == 1
    assert root2.sign(root2.sub(a, (Fraction(141421357, 10**8), Fraction(0)))) == -1
    low, high = root2.approximate(a, Fraction(1, 10**20))
    assert low <= Fraction(14142135623730950488, 10**19) <= high
    with pytest.raises(AnalyzerError, match="irreducible"):
        NumberField((Fraction(-4), Fraction(0), Fraction(1)), Fraction(1), Fraction(3)).verify()
    with pytest.raises(AnalyzerError, match="isolate"):
        NumberField((Fraction(-2), Fraction(0), Fraction(1)), Fraction(-2),
                    Fraction(2)).verify()


def test_one_side_alone_has_no_solution(subgame: tuple[Subgame, Rows]) -> None:
    """Two cells of seat 2 alone: their equations hold no unknown (a side's values do not
    involve its own play), constants that are not 0, so no solution."""
    game, rows = subgame
    cells = _cells(game, rows)
    support = [(1, 0, 4), (1, 1, 4)]
    form = interpolate(game, {c: x for c, x in cells.items() if c not in support}, support)
    assert solve_support(form) == []


def test_a_cell_left_out_is_a_one_line_error(subgame: tuple[Subgame, Rows]) -> None:
    game, _ = subgame
    with pytest.raises(AnalyzerError, match=r"no draw probability given for 62 cells, the "
                                            r"first \(0, 0, 0\)"):
        interpolate(game, {}, [(2, 0, 6)])
