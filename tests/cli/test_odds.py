"""``nine odds`` and ``nine profiles``: outputs in every format."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_odds_text_is_a_readable_table() -> None:
    code, out, _ = run("odds", "--decks", "8")
    assert code == 0
    assert "Denominator 4,998,398,275,503,360" in out
    assert "2292252566437888" in out
    assert "1.0579%" in out


def test_odds_json_schema() -> None:
    code, out, _ = run("odds", "--profile", "punto-banco", "--decks", "8", "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["denominator"] == "4998398275503360"
    bets = {bet["id"]: bet for bet in document["bets"]}
    assert set(bets) == {"banker", "player", "tie"}
    banker = bets["banker"]
    assert Fraction(banker["ev"]) == Fraction(-114753351728, 10847218479825)
    assert banker["ev_float"] == pytest.approx(-0.010579057842472012)
    assert banker["sd"] == pytest.approx(0.92737, abs=1e-5)
    assert banker["lines"][0]["ways"] == 2292252566437888
    assert Fraction(banker["lines"][0]["probability"]) == Fraction(2292252566437888,
                                                                   4998398275503360)


@pytest.mark.parametrize(("fmt", "marker"), [
    ("markdown", "| Banker "), ("csv", "profile,shoe,bet,line"), ("latex", "\\begin{tabular}"),
    ("html", "<table>"), ("text", "-----")])
def test_every_format(fmt: str, marker: str) -> None:
    code, out, _ = run("odds", "--decks", "1", "--format", fmt)
    assert code == 0 and marker in out


def test_infinite_and_removed_cards() -> None:
    code, out, _ = run("odds", "--infinite", "--format", "json")
    assert code == 0 and json.loads(out)["denominator"] == str(13**6)
    code, out, _ = run("odds", "--decks", "1", "--remove", "4S 4H TD", "--format", "json")
    assert code == 0
    assert json.loads(out)["denominator"] == str(49 * 48 * 47 * 46 * 45 * 44)


def test_profiles_lists_shipped_profiles() -> None:
    code, out, _ = run("profiles")
    assert code == 0 and "punto-banco" in out and "mini-baccarat" in out
