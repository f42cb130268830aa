"""Partial results: exact merging, saved partials across machines, aggregated counts."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from analyzer.dealing.handlog import LogOptions
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile
from analyzer.verify.check import check_file
from analyzer.verify.partial import (
    BetTally,
    IssueLog,
    Partial,
    load_partial,
    merge,
    save_partial,
)
from analyzer.verify.run import verify_logs
from analyzer.verify.verdict import EXIT_INPUT, EXIT_PASS, EXIT_STATISTICS
from tests.verify.conftest import cli, split_log


def test_partial_results_merge_exactly_and_in_parallel(clean_log: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # one evaluator throughout: in auto the kernels take over once this process has done
    # enough work, which depends on the tests run before this one
    monkeypatch.setenv("NINE_KERNELS", "numpy")
    first, second = split_log(clean_log, tmp_path)
    model = build_model("punto-banco", 8)
    whole = check_file(clean_log, model, LogOptions())
    merged = merge([check_file(first, model), check_file(second, model)])
    assert merged.bets == whole.bets and merged.card_counts == whole.card_counts
    assert merged.hands == whole.hands
    serial = verify_logs([str(first), str(second)], model_name="shoe")
    parallel = verify_logs([str(first), str(second)], model_name="shoe", jobs=2)
    # the shoe-aware moments are float sums: the same up to rounding in the last bits
    # (the evaluator's batch sizes depend on what the process evaluated before)
    assert [t.statistic for t in serial.tests] == pytest.approx(
        [t.statistic for t in parallel.tests], rel=1e-12)
    assert [t.passed for t in serial.tests] == [t.passed for t in parallel.tests]
    code, out, _ = cli("verify", str(tmp_path / "[ab].jsonl"), "--jobs", "2",
                       "--format", "markdown")
    assert code == EXIT_PASS and f"{whole.hands:,} hands" in out and "| bet" in out


def test_partials_of_different_profiles_or_models_do_not_merge() -> None:
    one = Partial("punto-banco", 8, "independent", ("a",), 1, 0, 0, 0, 0, (), 0, (), (),
                  (BetTally("tie", (1, 0)),), ())
    with pytest.raises(AnalyzerError, match="nothing to merge"):
        merge([])
    with pytest.raises(AnalyzerError, match="different profiles, decks or models"):
        merge([one, replace(one, model="shoe")])
    with pytest.raises(AnalyzerError, match="different null models"):
        merge([replace(one, bet_nulls=("a",)), replace(one, bet_nulls=("b",))])


def test_the_issue_log_counts_everything_and_lists_the_first() -> None:
    issues = IssueLog("log.jsonl")
    for line in range(150):
        issues.problem(line, "bad")
    assert issues.malformed_count == 150 and len(issues.malformed) == 100
    assert issues.malformed[0].where() == "log.jsonl:0"


def test_saved_partials_combine_runs_from_different_machines(clean_log: Path,
                                                              tmp_path: Path) -> None:
    first, second = split_log(clean_log, tmp_path)
    for log in (first, second):
        code, _, _ = cli("verify", str(log), "--partial-out", str(log.with_suffix(".json")))
        assert code in (EXIT_PASS, EXIT_STATISTICS)
    combined = verify_logs([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    direct = verify_logs([str(clean_log)])
    assert combined.model == direct.model == "shoe"
    assert combined.hands == direct.hands
    assert [t.statistic for t in combined.tests] == pytest.approx(
        [t.statistic for t in direct.tests], rel=1e-9)
    assert [b.rtp for b in combined.bets] == [b.rtp for b in direct.bets]
    saved = load_partial(tmp_path / "a.json")
    save_partial(saved, tmp_path / "again.json")
    assert load_partial(tmp_path / "again.json") == saved
    (tmp_path / "other.json").write_text('{"format": "nine-counts"}', encoding="utf-8")
    with pytest.raises(AnalyzerError, match="not a saved partial result"):
        load_partial(tmp_path / "other.json")


def test_counts_input_reports_what_it_cannot_check(tmp_path: Path) -> None:
    path = tmp_path / "totals.json"
    path.write_text(json.dumps({"format": "nine-counts", "profile": "punto-banco",
                                "hands": 100_000, "bets": {
                                    "banker": {"results": {"Banker wins": 45_860,
                                                           "Tie (push)": 9_516,
                                                           "lose": 44_624}},
                                    "tie": {"results": {"Tie": 9_516, "lose": 90_484},
                                            "stake": 10_000_000, "staked_hands": 100_000,
                                            "returned": 8_564_400}}}), encoding="utf-8")
    verdict = verify_logs([str(path)])
    assert verdict.exit_code == EXIT_PASS
    assert any("replay" in item for item in verdict.unsupported)
    tie = next(b for b in verdict.bets if b.id == "tie")
    assert tie.basis == "logged stakes" and tie.rtp == pytest.approx(0.85644)


def test_counts_money_without_stake_squares_falls_back_to_unit_stake(tmp_path: Path) -> None:
    """A bet staked on 37% of hands: assuming every hand was staked shrinks its SD."""
    hands, staked, stake = 100_000, 37_000, 100
    tie = odds(load_profile("punto-banco"), build_model("punto-banco", 8).shoe).bet("tie")
    expected = float(1 + tie.ev) * staked * stake
    sd_money = tie.sd * stake * math.sqrt(staked)
    returned = round(expected + 2.5 * sd_money)  # true z = 2.5
    bet = {"results": {"Tie": 9_516, "lose": 90_484}, "stake": staked * stake,
           "returned": returned}
    path = tmp_path / "window.json"

    def run(**extra: int) -> object:
        path.write_text(json.dumps({"format": "nine-counts", "hands": hands,
                                    "bets": {"tie": {**bet, **extra}}}), encoding="utf-8")
        return next(b for b in verify_logs([str(path)]).bets if b.id == "tie")

    summary = run()
    assert summary.basis == "result counts, unit stake"  # type: ignore[attr-defined]
    verdict = verify_logs([str(path)])
    assert any("stake_squares or staked_hands" in note for note in verdict.notes)
    for extra in ({"staked_hands": staked}, {"stake_squares": staked * stake * stake}):
        summary = run(**extra)
        assert summary.basis == "logged stakes"  # type: ignore[attr-defined]
        assert summary.z == pytest.approx(2.5, abs=1e-3)  # type: ignore[attr-defined]
    path.write_text(json.dumps({"format": "nine-counts", "hands": hands, "bets": {"tie": {
        **bet, "stake_squares": 10}}}), encoding="utf-8")
    code, _, err = cli("verify", str(path))
    assert code == EXIT_INPUT and "stake_squares 10 is too small" in err
