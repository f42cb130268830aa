"""The verdict: statistical failures, report formats, power, and the partial it holds."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from analyzer.errors import AnalyzerError
from analyzer.verify.run import collect, verify_logs
from analyzer.verify.verdict import (
    EXIT_INPUT,
    EXIT_PASS,
    EXIT_STATISTICS,
    EXIT_UNDERPOWERED,
    exit_code,
    finish,
)
from tests.verify.conftest import cli, write_log


def test_a_shoe_missing_a_rank_fails_the_statistics(tmp_path: Path) -> None:
    path = tmp_path / "no-sevens.jsonl"
    write_log(path, shoes=4, seed=8, faults=("missing-rank",))
    for model in ("shoe", "independent"):
        verdict = verify_logs([str(path)], model_name=model)
        assert verdict.exit_code == EXIT_STATISTICS, model
        failed = {t.name for t in verdict.failed_tests}
        assert failed & {"card ranks", "card point values"}


def test_power_and_junit(clean_log: Path, tmp_path: Path) -> None:
    junit = tmp_path / "report.xml"
    code, _, _ = cli("verify", str(clean_log), "--require-power", "--junit", str(junit))
    assert code == EXIT_UNDERPOWERED
    suite = ET.parse(junit).getroot()
    assert suite.get("failures") == "3"
    names = [case.get("name") for case in suite]
    assert "replay" in names and "tie: power" in names


def test_report_formats(clean_log: Path) -> None:
    code, out, _ = cli("verify", str(clean_log), "--format", "json", "--alpha", "0.05")
    document = json.loads(out)
    assert code == EXIT_PASS and document["status"] == "pass" and document["alpha"] == 0.05
    assert {t["name"] for t in document["tests"]} >= {"result frequencies", "return to player",
                                                       "card ranks", "suits"}
    assert document["bets"][0]["results"][0]["observed"] >= 0
    buffer = io.StringIO()
    buffer.write(out)
    code, _, err = cli("verify", str(clean_log), "--alpha", "2")
    assert code == EXIT_INPUT and "--alpha" in err


def test_the_verdict_holds_its_partial(clean_log: Path) -> None:
    partial, model = collect([str(clean_log)])
    verdict = finish(partial, model, 0.05)
    assert verdict.partial is partial
    for name in ("profile", "decks", "model", "sources", "hands", "shoes", "whole_shoes",
                 "shoe_aware_hands", "malformed_count", "malformed", "violation_count",
                 "violations", "violation_kinds"):
        assert getattr(verdict, name) == getattr(partial, name), name
    assert verdict.alpha == 0.05 and verdict.status == "pass"
    assert exit_code(verdict) == verdict.exit_code == EXIT_PASS
    with pytest.raises(AnalyzerError, match="--detect must be a positive finite number"):
        finish(partial, model, detect=0)
