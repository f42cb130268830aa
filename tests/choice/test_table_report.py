"""The table report of ``nine solve --players N``: the command, its JSON and its verdict."""

from __future__ import annotations

import json

from click.testing import CliRunner

from analyzer.choice.table_report import table_report
from analyzer.cli.commands import main
from analyzer.present.report.choice import render_table_report
from analyzer.rules.shoe import Shoe
from tests.choice.conftest import RULES


def test_cli_solve_players() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "--players", "2", "--infinite", "--dynamics",
                                  "--rounds", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["estimate"] is False
    assert document["banker_best_response_value"] == "11412480/815730721"
    assert document["dynamics"]["banker_regret"] == document["dynamics"]["largest_regret"]
    text = runner.invoke(main, ["solve", "--players", "3", "--decks", "1", "--dynamics"]).stdout
    assert "estimate" in text and "ESTIMATE" in text


def test_verdict_needs_zero_regret_over_full_information_sets() -> None:
    text = render_table_report(table_report(RULES, Shoe.infinite(), 2, "total", 3))
    assert "exact equilibrium" not in text and "not an equilibrium" in text
    assert "seat 2 regret (own hand + earlier choices)" in text
    assert "fictitious play" not in text
