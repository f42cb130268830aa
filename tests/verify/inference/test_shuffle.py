"""Shuffle quality: each simulator shuffle fault is caught at the documented sample size,
seeded correct logs false-alarm no more often than alpha, and the sums are exact."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from analyzer.dealing.shuffle import NEW_DECK_ORDER, new_decks, riffled
from analyzer.engine.lookup import build_model
from analyzer.verify.check import check_file
from analyzer.verify.inference.shuffle import (
    CARRY_RUN,
    ShuffleTally,
    merge_sums,
    shoe_hash,
    shuffle_tests,
)
from analyzer.verify.run import verify_logs
from analyzer.verify.shoes import shoe_composition
from analyzer.verify.verdict import EXIT_INPUT, EXIT_STATISTICS, finish
from tests.verify.conftest import cli, write_log
from tests.verify.inference.test_statistics import false_alarm_bound

#: fault -> (shoes, the shuffle tests that must fail at alpha 0.01 after Holm): the sample
#: sizes the README documents
DETECTION = {
    "repeat-seed": (2, {"shuffle: repeated shoes"}),
    "riffle-3": (1, {"shuffle: rising sequences (new-deck order)"}),
    "no-shuffle-between-shoes": (2, {"shuffle: shoe order carried over"}),
}


@pytest.mark.parametrize("fault", sorted(DETECTION))
def test_each_shuffle_fault_is_caught_at_the_documented_sample_size(tmp_path: Path,
                                                                   fault: str) -> None:
    shoes, must_fail = DETECTION[fault]
    path = tmp_path / f"{fault}.jsonl"
    summary = write_log(path, shoes=shoes, seed=31, faults=(fault,))
    assert summary.faulted  # the simulator says which shoes it broke
    verdict = verify_logs([str(path)])
    failed = {t.name for t in verdict.failed_tests}
    assert verdict.exit_code == EXIT_STATISTICS and must_fail <= failed, failed
    assert verdict.violation_count == verdict.malformed_count == 0  # the cards are legal
    code, out, _ = cli("verify", str(path))
    assert code == EXIT_STATISTICS and "shuffle:" in out and "FAIL" in out
    # the same log with the fault-free shuffle passes
    clean = tmp_path / "clean.jsonl"
    write_log(clean, shoes=shoes, seed=31)
    assert not {t.name for t in verify_logs([str(clean)]).failed_tests} & must_fail


def test_seeded_correct_logs_false_alarm_within_alpha(tmp_path: Path) -> None:
    """100 seeded correct logs of 2 shoes each: every shuffle test, unadjusted, rejects at
    alpha no more often than the one-sided binomial bound allows."""
    model = build_model("punto-banco", 8)
    runs, alarms = 100, {0.01: {}, 0.05: {}}  # type: ignore[var-annotated]
    for seed in range(runs):
        path = tmp_path / f"null-{seed}.csv"
        write_log(path, shoes=2, seed=5000 + seed, fmt="csv")
        partial = check_file(path, model)
        assert partial.shuffle is not None and partial.shuffle.shoes == 2
        for name, _, _, _, p in shuffle_tests(partial.shuffle, model,
                                              shoe_composition(model, False)):
            for alpha, counts in alarms.items():
                counts[name] = counts.get(name, 0) + (p < alpha)
    assert len(alarms[0.01]) == 6
    for alpha, counts in alarms.items():
        assert all(n <= false_alarm_bound(runs, alpha) for n in counts.values()), (alpha,
                                                                                     counts)


def test_the_sums_are_exact_on_a_small_example() -> None:
    model = build_model("punto-banco", 1)
    composition = shoe_composition(model, False)
    tally = ShuffleTally(model, composition, False)
    ordered = list(NEW_DECK_ORDER)
    tally.add(ordered)
    tally.add(ordered[26:] + ordered[:26])  # the same order, cut
    sums = tally.sums()
    assert sums.shoes == 2 and sums.pairs == 52 and sums.pair_squares == 2 * 26 * 26
    # every disjoint pair of a new deck is successive in new-deck order but one (K then A
    # never falls in a pair: K is at odd positions)
    assert sums.successions[0] == 52
    # the cut shoe: every block of 3 but the one across the cut is in the first shoe
    blocks = (52 - CARRY_RUN + 1 + CARRY_RUN - 1) // CARRY_RUN
    assert sums.carry_runs == blocks - 1 and sums.carry_pairs == 1
    assert sums.position_counts == (26, 26, 26, 26)
    assert sum(sums.position_table) == 104
    assert sums.repeats == 0 and len(sums.sketch) == 2
    tests = {name: p for name, _, _, _, p in shuffle_tests(sums, model, composition)}
    assert tests["shoe order carried over"] < 1e-6
    assert tests["rising sequences (new-deck order)"] < 1e-6
    again = ShuffleTally(model, composition, False)
    again.add(ordered)
    again.add(ordered)
    twice = again.sums()
    assert twice.repeats == 1 and twice.repeat_log_bound is not None
    assert {name: p for name, _, _, _, p in shuffle_tests(
        twice, model, composition)}["repeated shoes"] < 1e-60
    merged = merge_sums([sums, None, twice])
    # merged in order as one input read whole: the new-deck shoe three times (two
    # repeats, one across the inputs), and the shoe pair across them for the carry-over
    whole = ShuffleTally(model, composition, False)
    for shoe in (ordered, ordered[26:] + ordered[:26], ordered, ordered):
        whole.add(shoe)
    assert merged is not None and merged.shoes == 4 and merged.repeats == 2
    assert merged == whole.sums() and merged.carry_pairs == 3
    assert shoe_hash(ordered) != shoe_hash(ordered[1:] + ordered[:1])


def test_riffles_keep_the_cards_and_three_leave_rising_sequences() -> None:
    rng = random.Random(3)
    deck = new_decks(2)
    shuffled = riffled(rng, deck, 3)
    assert sorted(shuffled) == sorted(deck)
    position = {card: i for i, card in enumerate(NEW_DECK_ORDER)}
    places = np.array([position[c] for c in shuffled])
    successive = int(((places[1:] - places[:-1]) % 52 == 1).sum())
    assert successive > 10  # a random order has about 2 of 103 pairs successive


def test_the_same_shoes_in_two_inputs_are_refused(clean_csv: Path, clean_log: Path,
                                                  tmp_path: Path) -> None:
    """Not the same bytes (a CSV and a JSON Lines log of one run) but the same shoes."""
    twin = tmp_path / "twin.jsonl"
    write_log(twin, shoes=8, seed=77)  # the run clean_csv holds, written as JSON Lines
    code, _, err = cli("verify", str(clean_csv), str(twin))
    assert code == EXIT_INPUT and "hold the same shoe" in err and "Traceback" not in err
    assert cli("verify", str(clean_log), str(twin), "--model", "independent")[0] != EXIT_INPUT
    # a saved partial beside a log holding its shoes
    saved = tmp_path / "saved.json"
    cli("verify", str(clean_csv), "--partial-out", str(saved))
    code, _, err = cli("verify", str(saved), str(twin))
    assert code == EXIT_INPUT and "hold the same shoe" in err


def test_shuffle_tests_join_the_report_and_need_whole_shoes(clean_log: Path) -> None:
    verdict = verify_logs([str(clean_log)])
    names = [t.name for t in verdict.tests if t.name.startswith("shuffle: ")]
    assert len(names) == 6 and all(t.bet is None for t in verdict.tests if t.name in names)
    partial = verdict.partial
    assert partial.shuffle is not None and partial.shuffle.shoes == partial.whole_shoes
    lines = clean_log.read_text(encoding="utf-8").splitlines()
    cut = [line for line in lines if '"hand":1,' not in line and '"type":"shoe"' not in line]
    blind = clean_log.parent / "not-whole.jsonl"
    blind.write_text("\n".join(cut[:400]) + "\n", encoding="utf-8")
    partial = verify_logs([str(blind)], model_name="independent").partial
    verdict = finish(partial, build_model("punto-banco", 8))
    assert not any(t.name.startswith("shuffle: ") for t in verdict.tests)
    assert any("need whole shoes" in item for item in verdict.unsupported)


@pytest.mark.parametrize(("profile", "decks"), [("punto-banco", 8), ("punto-banco", 1),
                                                ("lucky-baccarat", 6)])
@pytest.mark.parametrize("values", [False, True])
def test_shoes_added_as_flat_arrays_give_the_reference_sums(
        monkeypatch: pytest.MonkeyPatch, profile: str, decks: int, values: bool) -> None:
    # the column-wise path's add_shoes (flat arrays) against add, one shoe at a time (the
    # padded-matrix reference): shoes of every length, some repeating the one before, in
    # runs of every size and mixed with single shoes
    from analyzer.engine import backend

    monkeypatch.setattr(backend, "loaded", lambda: False)  # (numba's fused loop: elsewhere)
    model = build_model(profile, decks)
    composition = shoe_composition(model, values)
    deck = np.repeat(np.arange(52), model.shoe.counts)
    rng = np.random.default_rng(decks * 2 + values)
    shoes: list[np.ndarray] = []
    for _ in range(300):
        k = int(rng.choice([0, 1, 2, 3, 4, 5, 7, 40, len(deck) - 14, len(deck)]))
        shoe = rng.permutation(deck)[:k]
        if rng.random() < 0.3 and shoes and len(shoes[-1]) >= k:
            shoe = shoes[-1][:k].copy()
        shoes.append(shoe)
    reference = ShuffleTally(model, composition, values)
    for shoe in shoes:
        reference.add(shoe.tolist())
    flat = ShuffleTally(model, composition, values)
    at = 0
    while at < len(shoes):
        cut = int(rng.choice([1, 2, 5, 64, 65, 150]))
        part = shoes[at:at + cut]
        at += cut
        if cut == 1:
            flat.add(part[0].tolist())
        else:
            flat.add_shoes(np.concatenate(part).astype(np.int64),
                           np.cumsum([0] + [len(s) for s in part]).tolist())
    expected, found = reference.sums(), flat.sums()
    assert found.carry_runs > 0 and found.shoes == expected.shoes
    assert found == expected
