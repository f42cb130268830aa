"""Shoe-aware moments: each hand against its exact distribution given the cards dealt.

Card-level profiles test every bet against its exact null (two- and four-card forms, exact
odds per hand, or the full shoe past the exact-hands limit).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from analyzer.analysis.drift import remaining_before_hands, shoe_positions
from analyzer.dealing.simulate import simulate
from analyzer.engine.forms import TwoCardForm
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import (
    NULL_EXACT,
    NULL_FOUR_CARD,
    NULL_FULL,
    NULL_TWO_CARD,
    NULL_VALUES,
    shoe_evaluator,
)
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.moments import BATCH, RUN, ShoeMoments
from analyzer.verify.partial import load_partial, save_partial
from analyzer.verify.run import collect, verify_logs
from analyzer.verify.verdict import EXIT_PASS, EXIT_VIOLATIONS


def test_shoe_moments_add_each_hand_given_its_shoe() -> None:
    model = build_model("punto-banco", 8)
    moments = ShoeMoments(model)
    full = list(model.shoe.value_counts())
    for _ in range(BATCH + 1):  # the whole runs evaluated as a batch fills, the last queued
        moments.add(full[:], [100, 0, 0])
    assert moments.queued == BATCH + 1 - (BATCH // RUN - 1) * RUN
    moments.flush()
    table = odds(model.profile, model.shoe)
    banker = table.bet("banker")
    hands = BATCH + 1
    assert moments.expected[0].sum() == pytest.approx(hands)
    assert moments.ev_sum[0] == pytest.approx(hands * float(banker.ev), rel=1e-9)
    assert moments.variance_sum[0] == pytest.approx(hands * float(banker.variance), rel=1e-9)
    assert moments.money_ev[0] == pytest.approx(100 * hands * float(banker.ev), rel=1e-9)
    assert moments.money_ev[1] == 0.0  # not staked
    start = [32] * 13
    moments.add_shoe(start, [0, 4, 0], [True, False, True])  # AS, 2S burned, AS
    assert moments.rank_mean.sum() == pytest.approx(2)  # two tested cards
    assert moments.rank_mean[0] == pytest.approx(32 / 416 + 31 / 414)
    fixed = ShoeMoments(model)
    fixed.add_shoe(start, [0, 0], [True, True], fixed=True)  # each from the full shoe
    assert fixed.rank_mean[0] == pytest.approx(2 / 13)


def depleted_shoes(name: str, count: int, seed: int) -> np.ndarray:
    """Real depleted shoes: the cards left before some hands of seeded shoes."""
    profile = load_profile(name)
    orders, starts = shoe_positions(profile, 8, 2, seed)
    rows = np.concatenate([remaining_before_hands(o, s, 8)
                           for o, s in zip(orders, starts, strict=True)])
    pick = np.linspace(0, rows.shape[0] - 1, count).astype(int)
    chosen: np.ndarray = rows[pick]
    return chosen


def exact_label_probabilities(name: str, row: np.ndarray) -> list[list[float]]:
    """Each bet's (lose, line 1, ...) probabilities from exact odds() on one shoe."""
    table = odds(load_profile(name), Shoe(tuple(int(x) for x in row), label="depleted"))
    return [[float(b.lose_probability), *(float(line.probability) for line in b.lines)]
            for b in table.bets]


def test_two_card_forms_equal_exact_odds_on_depleted_shoes() -> None:
    profile = load_profile("lucky-baccarat")
    forms = {i: TwoCardForm.for_bet(profile, i) for i in range(len(profile.bets))}
    assert {profile.bets[i].id for i, f in forms.items() if f is not None} == {
        "player-black", "player-red", "banker-black", "banker-red",
        "lucky-player-pair", "lucky-banker-pair"}
    rows = depleted_shoes("lucky-baccarat", 4, seed=31)
    rows[0, 12:16] = 0  # no fours left at all: the 4-diamonds lines cannot pay
    for row in rows:
        exact = exact_label_probabilities("lucky-baccarat", row)
        for i, form in forms.items():
            if form is None:
                continue
            got = form.evaluate(row[None, :])[0]
            np.testing.assert_allclose(got, exact[i], rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", ["lucky-baccarat", "side-bets", "nine-and-nines"])
def test_shoe_evaluator_rows_equal_exact_odds_for_every_bet(name: str) -> None:
    model = build_model(name, 8)
    evaluator = shoe_evaluator(model)
    rows = depleted_shoes(name, 2, seed=5)
    got = evaluator.evaluate(rows.astype(np.float64))
    for r, row in enumerate(rows):
        exact = exact_label_probabilities(name, row)
        for i, part in enumerate(evaluator.bet_slices):
            # highest-line bets: label 0 loses, label j + 1 is line j
            np.testing.assert_allclose(got[r, part], exact[i], rtol=1e-12, atol=1e-300,
                                       err_msg=f"{name} {model.bets[i].bet.id}")


def test_shoe_evaluator_null_models() -> None:
    nulls = dict(zip([b.bet.id for b in build_model("lucky-baccarat").bets],
                     shoe_evaluator(build_model("lucky-baccarat")).nulls, strict=True))
    assert nulls["lucky-player-pair"] == nulls["banker-red"] == NULL_TWO_CARD
    assert nulls["banker"] == nulls["tie-total-7-9"] == NULL_VALUES
    side = build_model("side-bets")
    side_nulls = dict(zip([b.bet.id for b in side.bets], shoe_evaluator(side).nulls,
                          strict=True))
    assert side_nulls["perfect-9-bonus"] == side_nulls["player-pair"] == NULL_TWO_CARD
    # both hands' first two cards: the exact four-card form
    assert side_nulls["either-pair"] == side_nulls["perfect-pair-both"] == NULL_FOUR_CARD
    assert shoe_evaluator(side, exact=False).nulls[side.bet_index()["either-pair"]] == \
        NULL_FOUR_CARD
    assert side_nulls["lucky-99"] == NULL_VALUES  # two-card totals: point values only


def lucky_log(path: Path, shoes: int, seed: int) -> None:
    with path.open("w", encoding="utf-8", newline="") as stream:
        simulate("lucky-baccarat", decks=8, shoes=shoes, seed=seed, out=stream)


def test_lucky_baccarat_whole_shoes_pass_shoe_aware_for_every_bet(tmp_path: Path) -> None:
    path = tmp_path / "lucky.jsonl"
    lucky_log(path, shoes=6, seed=2025)
    verdict = verify_logs([str(path)], "lucky-baccarat")
    assert verdict.model == "shoe" and verdict.exit_code == EXIT_PASS
    assert verdict.shoe_aware_hands == verdict.hands > 400
    frequency = {t.bet: t.method for t in verdict.tests if t.name == "result frequencies"}
    assert len(frequency) == len(load_profile("lucky-baccarat").bets)
    assert frequency["lucky-player-pair"] == f"Wald chi-square, {NULL_TWO_CARD}"
    assert frequency["banker"] == f"Wald chi-square, {NULL_VALUES}"
    assert all("shoe-aware" in method for method in frequency.values())
    assert not any("full" in note for note in verdict.notes)
    assert any("lucky-player-pair" in note and NULL_TWO_CARD in note for note in verdict.notes)


def test_a_wrong_pair_payout_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "lucky.jsonl"
    lucky_log(path, shoes=3, seed=11)
    lines = path.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines):
        record = json.loads(line)
        pair = record.get("bets", {}).get("lucky-player-pair")
        if pair and pair[1] > 0:
            pair[1] += 100  # one unit too much on a paying pair line
            lines[n] = json.dumps(record)
            target = (record["shoe"], record["hand"])
            break
    else:
        pytest.fail("no winning pair in the seeded log")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdict = verify_logs([str(bad)], "lucky-baccarat")
    assert verdict.model == "shoe" and verdict.exit_code == EXIT_VIOLATIONS
    assert [(v.shoe, v.hand, v.kind) for v in verdict.violations] == [(*target, "payout")]
    assert "lucky-player-pair" in verdict.violations[0].message


def test_large_logs_say_which_bets_used_the_full_shoe(tmp_path: Path, mixed_profile: Path
                                                     ) -> None:
    # A bet reading cards and the coup together has no batch form: exact odds per hand,
    # or, past the exact-hands limit, the full-shoe model, and the report says which.
    profile = mixed_profile
    path = tmp_path / "mixed.jsonl"
    with path.open("w", encoding="utf-8", newline="") as stream:
        # seed 3 deals a shoe with twice the expected ties (p about 0.005): a true alarm
        simulate(str(profile), decks=8, shoes=1, seed=4, out=stream)
    exact = verify_logs([str(path)], str(profile))
    fallback = verify_logs([str(path)], str(profile), exact_hands=10)
    for verdict, null in ((exact, NULL_EXACT), (fallback, NULL_FULL)):
        assert verdict.exit_code == EXIT_PASS
        methods = {t.bet: t.method for t in verdict.tests if t.name == "result frequencies"}
        assert methods["suited-player-win"] == f"Wald chi-square, {null}"
        assert methods["banker"] == f"Wald chi-square, {NULL_VALUES}"
    assert any("NOT the cards already dealt" in note and "suited-player-win" in note
               for note in fallback.notes)
    # the per-bet null models survive a saved partial result
    partial, _ = collect([str(path)], str(profile), exact_hands=10)
    saved = tmp_path / "partial.json"
    save_partial(partial, saved)
    assert load_partial(saved).bet_nulls == partial.bet_nulls
    assert replace(partial, sources=()).bet_nulls.count(NULL_FULL) == 1


def test_queued_shoes_add_up_as_shoe_by_shoe() -> None:
    """Rank moments are added SHOE_BATCH shoes at a time (one cumulative sum restarted at
    each shoe): the same as shoe by shoe to rounding, whole and fixed shoes mixed."""
    from analyzer.verify.inference.moments import SHOE_BATCH

    model = build_model("punto-banco", 8)
    rng = np.random.default_rng(5)
    start = [32] * 13
    categories = [c // 4 for c in range(52)]
    batched = ShoeMoments(model)
    mean, covariance = np.zeros(13), np.zeros((13, 13))
    for s in range(SHOE_BATCH + 7):
        cards = rng.permutation(np.repeat(np.arange(52), 8))[:int(rng.integers(5, 400))]
        tested = (rng.random(cards.size) > 0.1).tolist()
        fixed = s % 9 == 4
        batched.add_shoe(list(start), cards.tolist(), tested, list(categories), fixed)
        before = np.tile(np.array(start, float), (cards.size, 1))
        if not fixed:
            for i in range(1, cards.size):
                before[i] = before[i - 1]
                before[i, categories[cards[i - 1]]] -= 1
        p = before[np.array(tested)] / before[np.array(tested)].sum(axis=1)[:, None]
        mean += p.sum(axis=0)
        covariance += np.diag(p.sum(axis=0)) - p.T @ p
    assert len(batched.shoes) == 7  # one batch added, seven shoes queued
    np.testing.assert_allclose(batched.rank_mean, mean, rtol=1e-12)
    np.testing.assert_allclose(batched.rank_covariance, covariance, rtol=1e-9, atol=1e-9)
    assert not batched.shoes and batched.rank_mean.sum() > 1000


def test_a_fixed_shoe_of_a_million_cards_is_added_in_closed_form() -> None:
    """A log without shoe columns is one undelimited "shoe": its cards (each from the full
    shoe) are k equal rows, added up without building them (memory as for a few cards)."""
    import tracemalloc

    model = build_model("punto-banco", 8)
    start = [32] * 13
    cards = [c % 52 for c in range(1_000_000)]
    tested = [c % 7 != 0 for c in range(1_000_000)]
    moments = ShoeMoments(model)
    tracemalloc.start()
    moments.add_shoe(start, cards, tested, fixed=True)
    moments.add_shoe(start, [0], [True])  # a whole shoe queued beside it (1/13 each)
    moments.flush()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    k = sum(tested) + 1
    assert peak < 2_000_000  # one row per card would be 1e6 x 13 floats: 104 MB
    np.testing.assert_allclose(moments.rank_mean, [k / 13] * 13, rtol=1e-12)
    assert moments.rank_covariance[0, 1] == pytest.approx(-k / 169, rel=1e-12)
    assert moments.rank_covariance[0, 0] == pytest.approx(k * (1 / 13 - 1 / 169), rel=1e-12)
