"""The one depleted-shoe evaluator: label probabilities, and EVs as probabilities times nets,
against the exact odds of the same shoes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import (
    NULL_EXACT,
    NULL_FOUR_CARD,
    NULL_FULL,
    NULL_TWO_CARD,
    NULL_VALUES,
    ShoeEvaluator,
    ValueForm,
    shoe_evaluator,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

#: Cards left before a hand of a seeded 8-deck Lucky Baccarat shoe (20 cards): the Lucky
#: Player Pair's exact EV is 0 there.
ZERO_EV_SHOE = (0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
                0, 0, 2, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 2, 0, 1, 0, 1, 0, 0, 1, 0)


def depleted(decks: int, dealt: int, seed: int) -> list[int]:
    """A shoe of ``decks`` decks less ``dealt`` cards drawn at random."""
    generator = np.random.default_rng(seed)
    gone = generator.choice(np.repeat(np.arange(52), decks), size=dealt, replace=False)
    return (decks - np.bincount(gone, minlength=52)).tolist()


@pytest.mark.parametrize("name", ["punto-banco", "lucky-baccarat", "side-bets",
                                  "nine-and-nines"])
def test_ev_is_probabilities_times_nets_and_equals_exact_odds(name: str) -> None:
    evaluator = shoe_evaluator(build_model(name, 8))
    rows = [depleted(8, 300, 2), depleted(1, 30, 3)]
    ev = evaluator.ev(rows)
    probabilities = evaluator.evaluate(rows)
    assert ev.shape == (2, len(evaluator.model.bets))
    for r, row in enumerate(rows):
        table = odds(evaluator.model.profile, Shoe(tuple(row), label="depleted"))
        for i, (bet, part) in enumerate(zip(table.bets, evaluator.bet_slices, strict=True)):
            scale = max(abs(float(bet.ev)), 1e-3)
            assert abs(ev[r, i] - float(bet.ev)) <= 1e-12 * scale, bet.id
            nets = [float(n) for n in evaluator.model.bets[i].nets]
            assert abs(probabilities[r, part] @ nets - ev[r, i]) <= 1e-13 * scale, bet.id
            assert probabilities[r, part].sum() == pytest.approx(1, abs=1e-14)


def test_an_exactly_zero_ev_is_zero_and_signs_are_exact() -> None:
    evaluator = shoe_evaluator(build_model("lucky-baccarat", 8))
    shoe = Shoe(ZERO_EV_SHOE, label="depleted")
    assert odds("lucky-baccarat", shoe).bet("lucky-player-pair").ev == 0
    column = evaluator.model.bet_index()["lucky-player-pair"]
    assert evaluator.nulls[column] == NULL_TWO_CARD
    assert evaluator.ev([ZERO_EV_SHOE])[0, column] == 0.0  # not a rounding residue


def test_value_counts_rows_for_a_model_of_point_values_only() -> None:
    evaluator = shoe_evaluator(build_model("punto-banco", 8))
    cards = [depleted(8, 100, 4), depleted(8, 250, 5)]
    values = [Shoe(tuple(row)).value_counts() for row in cards]
    assert np.array_equal(evaluator.evaluate(values), evaluator.evaluate(cards))
    assert evaluator.nulls == (NULL_VALUES,) * 3
    assert evaluator.method == ("label probabilities times net payouts: point-value form "
                                "(float64) for bets on point values")


def test_methods_named_per_bet() -> None:
    side = shoe_evaluator(build_model("side-bets", 8))
    index = side.model.bet_index()
    assert side.nulls[index["player-pair"]] == NULL_TWO_CARD
    assert side.nulls[index["either-pair"]] == NULL_FOUR_CARD
    assert side.nulls[index["banker"]] == NULL_VALUES
    assert "two-card" in side.method and "four-card" in side.method
    assert "exact odds per shoe" not in side.method


def test_bets_without_a_form_exactly_per_shoe_or_at_the_full_shoe(mixed_profile: Path) -> None:
    model = build_model(str(mixed_profile), 1)
    row = depleted(1, 12, 6)
    exact_odds = odds(model.profile, Shoe(tuple(row))).bet("suited-player-win")
    full_odds = odds(model.profile, Shoe.decks(1)).bet("suited-player-win")
    exact, full = ShoeEvaluator(model), ShoeEvaluator(model, exact=False)
    column = model.bet_index()["suited-player-win"]
    assert (exact.nulls[column], full.nulls[column]) == (NULL_EXACT, NULL_FULL)
    assert exact.ev([row])[0, column] == float(exact_odds.ev)  # exact, rounded once
    assert full.ev([row])[0, column] == float(full_odds.ev)
    assert exact.evaluate([row])[0, exact.bet_slices[column]].tolist() == [
        float(exact_odds.lose_probability), float(exact_odds.lines[0].probability)]
    assert "NOT the depleted shoe" in full.method
    assert exact_odds.ev != full_odds.ev


def test_bad_rows_are_refused() -> None:
    lucky = shoe_evaluator(build_model("lucky-baccarat", 8))
    with pytest.raises(AnalyzerError, match="52 card counts"):
        lucky.ev([Shoe.decks(8).value_counts()])
    with pytest.raises(AnalyzerError, match="at least 6 cards"):
        lucky.ev([[1] * 5 + [0] * 47])
    with pytest.raises(AnalyzerError, match="rows of 52"):
        lucky.evaluate([[1, 2, 3]])


def test_a_value_form_read_from_the_cache_evaluates_as_one_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_model("punto-banco", 8)
    rows = np.array([Shoe.decks(8).value_counts(), [20, 25, 31, 28, 30, 29, 32, 27, 26, 100]],
                    dtype=np.float64)
    monkeypatch.setenv("NINE_CACHE_DIR", "off")
    built = ValueForm(model, compact=True)
    monkeypatch.setenv("NINE_CACHE_DIR", str(tmp_path))
    stored = ValueForm(model, compact=True)  # built and stored
    assert len(list((tmp_path / "evaluators").glob("*.npz"))) == 1
    read = ValueForm(model, compact=True)  # read back
    for form in (stored, read):
        assert form.bet_slices == built.bet_slices and form.complements == built.complements
        for kernel in ("numpy", "numba"):
            assert np.array_equal(form.evaluate(rows, kernel), built.evaluate(rows, kernel))


def test_lucky_baccarat_value_columns_are_sums_of_fewer_atoms() -> None:
    """Lucky-baccarat's value bets: twelve atoms (combinations of labels) with fewer nonzero
    payoffs than its fourteen columns; punto banco keeps its two columns."""
    lucky = shoe_evaluator(build_model("lucky-baccarat", 8)).value_form
    assert lucky is not None
    plan = lucky.plan
    assert plan.columns == 12 and plan.combine_start.size - 1 == lucky.batch.payoff.shape[0]
    assert plan.entry_high.size < np.count_nonzero(lucky.batch.payoff)
    punto = shoe_evaluator(build_model("punto-banco", 8)).value_form
    assert punto is not None and punto.plan.columns == punto.batch.payoff.shape[0] == 2
