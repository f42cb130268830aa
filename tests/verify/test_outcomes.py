"""Outcome-only logs checked: exact winner probabilities, the bets the winner decides, runs."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from analyzer.dealing.dialects import LogOptions
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.verify.outcomes import check_outcomes, runs_test, winner_labels, winner_probabilities


def test_winner_probabilities_are_the_exact_tables() -> None:
    model = build_model("punto-banco", 8)
    found = winner_probabilities(model)
    table = odds(model.profile, model.shoe)
    assert found["tie"] == table.bet("tie").lines[0].probability
    assert found["banker"] == table.bet("banker").lines[0].probability
    assert sum(found.values()) == Fraction(1)


def test_only_bets_the_winner_decides_are_counted() -> None:
    labels = dict(zip([b.bet.id for b in build_model("ez-baccarat", 8).bets],
                      winner_labels(build_model("ez-baccarat", 8)), strict=True))
    assert labels["player"] is not None and labels["banker"] is None  # banker 3-card 7 push
    assert labels["dragon-7"] is None


def test_counts_and_runs(tmp_path: Path) -> None:
    path = tmp_path / "road.txt"
    path.write_text("BBPT\nPPPB\nB\n", encoding="utf-8")
    model = build_model("punto-banco", 8)
    partial = check_outcomes(path, model, LogOptions(), "beads")
    assert partial.hands == 9 and partial.outcomes_only and partial.shoes == 2
    assert partial.runs == (6, 3, 2)  # BB BP PT and PP PP PB: 3 changes in 6 pairs
    banker = partial.bets[0]
    assert sum(banker.results) == 9 and sorted(banker.results) == [1, 4, 4]
    z, p, expected = runs_test(partial.runs, model)
    q = 1 - sum(float(x) ** 2 for x in winner_probabilities(model).values())
    assert math.isclose(expected, 6 * q) and 0 < p <= 1 and (z > 0) == (6 * q < 3)
