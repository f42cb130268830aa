"""Exact four-card forms: bets on both hands' first two cards priced for many shoes at once."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analyzer.dealing.simulate import simulate
from analyzer.engine.forms import FourCardForm
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import NULL_FOUR_CARD, NULL_TWO_CARD, shoe_evaluator
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe
from analyzer.verify import EXIT_PASS
from analyzer.verify.run import verify_logs

BETS = {
    "side-bets": ("either-pair", "perfect-pair", "perfect-pair-both"),
    "nine-and-nines": ("nines",),
}


def depleted_rows() -> list[list[int]]:
    """Depleted shoes of 1, 2 and 8 decks, one with a rank (and more) exhausted."""
    generator = np.random.default_rng(20260401)
    rows = []
    for decks, dealt in ((1, 20), (2, 61), (8, 150), (8, 380)):
        cards = np.repeat(np.arange(52), decks)
        gone = generator.choice(cards, size=dealt, replace=False)
        rows.append((decks - np.bincount(gone, minlength=52)).tolist())
    exhausted = [2] * 52
    exhausted[12:16] = [0, 0, 0, 0]  # no 4s at all
    exhausted[16] = 0  # and no 5 of clubs
    exhausted[17] = 1
    rows.append(exhausted)
    return rows


@pytest.mark.parametrize("name", sorted(BETS))
def test_forms_equal_exact_odds(name: str) -> None:
    profile = load_profile(name)
    index = {bet.id: i for i, bet in enumerate(profile.bets)}
    rows = depleted_rows()
    forms = {bet: FourCardForm.for_bet(profile, index[bet]) for bet in BETS[name]}
    got = {bet: form.evaluate(rows) for bet, form in forms.items() if form is not None}
    assert set(got) == set(BETS[name])
    for r, row in enumerate(rows):
        table = odds(profile, Shoe(tuple(row), label="depleted"))
        for bet, probabilities in got.items():
            exact = table.bets[index[bet]]
            expected = [exact.lose_probability, *(line.probability for line in exact.lines)]
            assert len(expected) == probabilities.shape[1]
            for value, truth in zip(probabilities[r], expected, strict=True):
                if truth == 0:
                    assert value == 0.0, (bet, r)
                else:
                    assert abs(Fraction(float(value)) - truth) <= truth * Fraction(1, 10**12), \
                        (bet, r)


def test_forms_refuse_bets_that_read_drawing() -> None:
    profile = load_profile("side-bets")
    index = {bet.id: i for i, bet in enumerate(profile.bets)}
    assert FourCardForm.for_bet(profile, index["banker"]) is None
    assert FourCardForm.for_bet(profile, index["dragon-bonus-player"]) is None


def test_shoe_evaluator_prices_both_hand_bets_by_forms() -> None:
    profile = load_profile("nine-and-nines")
    evaluator = shoe_evaluator(build_model(profile, 8))
    assert not evaluator.others and "four-card" in evaluator.method
    rows = depleted_rows()[2:]
    got = evaluator.ev(rows)
    for row, values in zip(rows, got, strict=True):
        exact = odds(profile, Shoe(tuple(row)))
        for j, bet in enumerate(exact.bets):
            assert abs(values[j] - float(bet.ev)) <= 1e-12 * max(abs(float(bet.ev)), 1e-3)


def test_verify_side_bets_shoe_aware_by_four_card_forms(tmp_path: Path) -> None:
    side = build_model("side-bets")
    nulls = dict(zip([b.bet.id for b in side.bets], shoe_evaluator(side).nulls, strict=True))
    for bet in BETS["side-bets"]:
        assert nulls[bet] == NULL_FOUR_CARD
    assert not shoe_evaluator(side).others  # no bet needs exact odds per hand any more
    path = tmp_path / "side.jsonl"
    with path.open("w", encoding="utf-8", newline="") as stream:
        simulate("side-bets", decks=8, shoes=2, seed=3, out=stream)
    # exact_hands=10 would have sent these bets to the full shoe before the forms
    verdict = verify_logs([str(path)], "side-bets", exact_hands=10)
    assert verdict.model == "shoe" and verdict.exit_code == EXIT_PASS
    methods = {t.bet: t.method for t in verdict.tests if t.name == "result frequencies"}
    for bet in BETS["side-bets"]:
        assert methods[bet] == f"Wald chi-square, {NULL_FOUR_CARD}"
    assert methods["player-pair"] == f"Wald chi-square, {NULL_TWO_CARD}"
    assert not any("NOT the cards already dealt" in note for note in verdict.notes)
    assert any("either-pair" in note and NULL_FOUR_CARD in note for note in verdict.notes)


@pytest.mark.parametrize("name", ["lucky-baccarat", "side-bets", "nine-and-nines"])
def test_sparse_two_card_loop_gives_the_numpy_floats(name: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The fused loop over the two-card forms' nonzero entries (default result by
    complement) gives numpy's dense quadratic forms bit for bit, on depleted shoes down to
    four cards and with ranks exhausted, each bet's probabilities adding up to 1."""
    pytest.importorskip("numba")
    from analyzer.engine import backend, kernels

    evaluator = shoe_evaluator(build_model(name, 8))
    form_set = evaluator.form_set
    if not form_set.two_card:
        pytest.skip(f"{name} has no bet on one hand's first two cards")
    rows = np.array([*depleted_rows(), [0] * 48 + [1] * 4, [0] * 12 + [4] + [0] * 39],
                    dtype=np.float64)
    width = evaluator.bet_slices[-1].stop
    floats = {}
    for fused in (False, True):
        monkeypatch.setattr(backend, "loaded", lambda fused=fused: fused)
        out = np.full((rows.shape[0], width), np.nan)
        form_set.evaluate_into(out, rows)
        floats[fused] = out
    assert kernels.two_card_probabilities(rows, form_set.sparse).shape[1] == \
        sum(form.results for form in form_set.two_card)
    columns = [c for part, _ in form_set.targets for c in range(part.start, part.stop)]
    assert columns and np.array_equal(floats[True][:, columns], floats[False][:, columns])
    assert np.allclose(floats[True][:, columns].reshape(rows.shape[0], -1).sum(axis=1),
                       len(form_set.targets))  # each bet's results: probabilities adding to 1
