"""Aggregated-counts files: totals per bet line, checked as they are read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.dealing.counts import read_counts
from analyzer.errors import AnalyzerError


def test_counts_file(tmp_path: Path) -> None:
    path = tmp_path / "totals.json"
    path.write_text(json.dumps({"format": "nine-counts", "hands": 10, "bets": {
        "tie": {"results": {"Tie": 1, "lose": 9}, "stake": 1000, "returned": 900}}}),
        encoding="utf-8")
    counts = read_counts(path)
    assert counts.hands == 10 and counts.bets[0].results == (("Tie", 1), ("lose", 9))
    path.write_text(json.dumps({"format": "nine-counts", "hands": 11, "bets": {
        "tie": {"results": {"Tie": 1, "lose": 9}}}}), encoding="utf-8")
    with pytest.raises(AnalyzerError, match="results add up to 10, not hands = 11"):
        read_counts(path)
    path.write_text(json.dumps({"format": "nine-partial"}), encoding="utf-8")
    with pytest.raises(AnalyzerError, match="not an aggregated-counts file"):
        read_counts(path)
