"""The float evaluation of a table with its rounding bound: every float value and regret lies
within the stated bound of the exact one (residues and CRT), on the seats' and the bank's
sides, by cards and by total, through the dense terminal matrix and the compiled loop; the
bound is rigorous, so it is also small enough to matter (far below an epsilon of 1e-6)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from analyzer.choice.table.dealt import dense
from analyzer.choice.table.dealt.game import dealt_subgame
from analyzer.choice.table.dealt.played import infinite_strategies
from analyzer.choice.table.dealt.rounding import (
    UNIT,
    float_evaluation,
    gamma,
    roundings,
)
from analyzer.choice.table.dealt.wide import wide_table
from analyzer.choice.table.exact.evaluation import exact_regrets
from analyzer.choice.table.solve import combine, table_patterns
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

ONE_DECK = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


def _random_profile(game: object, seed: int) -> tuple[list[list[list[Fraction]]],
                                                      list[list[Fraction]]]:
    """Mixed strategies with awkward denominators (none exact in binary)."""
    rng = random.Random(seed)
    classes = len(game.seat_classes)  # type: ignore[attr-defined]
    seats = [[[Fraction(rng.randint(0, 7), 7) for _ in range(classes)] for _ in range(2**k)]
             for k in range(game.live)]  # type: ignore[attr-defined]
    bank = [[Fraction(rng.randint(0, 11), 11) for _ in range(game.vectors)]  # type: ignore[attr-defined]
            for _ in game.bank_classes]  # type: ignore[attr-defined]
    return seats, bank


@pytest.mark.parametrize(("live", "by", "compiled"), [
    (2, "cards", False), (2, "total", True), (3, "total", False), (2, "cards", True)])
def test_float_values_and_regrets_lie_within_the_bound_of_the_exact_ones(
        live: int, by: str, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled:  # no dense matrix: the compiled terminal loop
        monkeypatch.setattr(dense, "DENSE_BYTES", 0)
    game = dealt_subgame(LUCKY9, ONE_DECK, live, by, f"1 deck {compiled}")
    seats, bank = _random_profile(game, live * 10 + compiled)
    found = float_evaluation(game, seats, bank)
    values, regrets, _ = exact_regrets(game, seats, bank)
    assert found.roundings == roundings(live, len(game.levels.holdings.hands),
                                        max(len(c) for c in game.levels.compositions),
                                        not compiled)
    for side in range(live + 1):
        assert abs(found.values[side] - values[side]) <= found.value_bounds[side]
        assert abs(found.regrets[side] - regrets[side]) <= found.regret_bounds[side]
        assert regrets[side] > 0  # the check is not vacuous
        assert 0 < found.regret_bounds[side] < Fraction(1, 10**10)
    # the float figures are not the exact ones: the bound has something to bound
    assert found.values != values


def test_gamma_is_highams_and_refuses_too_many_roundings() -> None:
    assert gamma(3) == 3 * UNIT / (1 - 3 * UNIT)
    assert gamma(10**6) > 10**6 * UNIT
    with pytest.raises(AnalyzerError, match="no float bound"):
        gamma(2**53)


def test_a_draw_probability_too_close_to_zero_is_refused_in_one_line() -> None:
    game = dealt_subgame(LUCKY9, ONE_DECK, 2, "total", "1 deck")
    seats, bank = _random_profile(game, 1)
    seats[0][0][0] = Fraction(1, 2**120)
    with pytest.raises(AnalyzerError, match="within 2\\^-100"):
        float_evaluation(game, seats, bank)


def test_a_float_table_lies_within_its_rounding_bounds_of_the_exact_table() -> None:
    """4 people by total, the infinite deck's play: the subgame of three live seats in
    floats, the others exactly; the exact table merges the same subgames evaluated exactly."""
    shoe = Shoe.decks(1)
    table = wide_table(LUCKY9, shoe, 3, "total", iterations=0, float_from=3)
    assert not table.exact and not table.certified and table.rounding is not None
    assert "floats" in table.method and "rounding bound" in table.model
    strategies = infinite_strategies(LUCKY9, shoe, 3, "total")
    exact = {}
    for result in table.subgames:
        if result.key[0] >= 3:
            game = dealt_subgame(LUCKY9, ONE_DECK, 3, "total", "1 deck")
            values, regrets, _ = exact_regrets(game, *strategies[result.key])
            exact[result.key] = (values, regrets)
        else:
            exact[result.key] = (result.solution.values, result.solution.regrets)
    truth = combine(table_patterns(LUCKY9, shoe, 3), 3, exact.__getitem__, LUCKY9.payoffs)
    bounds = table.rounding
    for computed, right, bound in [
            *zip(table.values.seats, truth.seats, bounds.seats, strict=True),
            (table.values.bank, truth.bank, bounds.bank),
            *zip(table.values.seat_regrets, truth.seat_regrets, bounds.seat_regrets,
                 strict=True),
            (table.values.bank_regret, truth.bank_regret, bounds.bank_regret)]:
        assert abs(computed - right) <= bound < Fraction(1, 10**9)
    assert abs(table.values.max_regret - truth.max_regret) <= bounds.max_regret


def test_float_from_refuses_the_joint_tables_subgames() -> None:
    with pytest.raises(AnalyzerError, match="--float-from 2"):
        wide_table(LUCKY9, Shoe.decks(1), 3, "total", iterations=0, float_from=2)
