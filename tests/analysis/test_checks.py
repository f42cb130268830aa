"""Paytable warnings: the player's edge, a line that never pays, lines that overlap -- each
fires on a paytable made to have it, never on a shipped profile on its own shoe."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.analysis.checks import paytable_warnings
from analyzer.cli.commands import main
from analyzer.engine.odds import odds
from analyzer.rules.profile import load_profile, shipped_profiles
from analyzer.rules.shoe import Shoe

FAULTY = '''base = "punto-banco"
name = "faulty"
decks = 1
base_bets = ["banker"]

[[bets]]
id = "generous"
name = "Tie 12:1"
lines = [{ name = "Tie", when = "winner == tie", pays = 12 }]

[[bets]]
id = "impossible"
name = "Identical pair at one deck"
lines = [
  { name = "identical pair", when = "player_identical_pair", pays = 50 },
  { name = "pair", when = "player_pair", pays = 11 },
]

[[bets]]
id = "stacked"
name = "Stacked"
pay_rule = "all"
lines = [
  { name = "Player two-card 9", when = "player_two_card_total == 9", pays = 1 },
  { name = "Player wins", when = "winner == player", pays = "1/2" },
]

[[bets]]
id = "twins"
name = "Twins"
lines = [
  { name = "Player 9", when = "player_total == 9", pays = 2 },
  { name = "Player 8-9, 3 cards", when = "player_cards == 3 and player_total >= 8", pays = 2 },
]
'''


@pytest.fixture
def faulty(tmp_path: Path) -> Path:
    path = tmp_path / "faulty.toml"
    path.write_text(FAULTY, encoding="utf-8")
    return path


def test_each_warning_fires_on_a_paytable_made_to_have_it(faulty: Path) -> None:
    profile, shoe = load_profile(faulty), Shoe.decks(1)
    found = {(w.kind, w.bet, w.lines) for w in paytable_warnings(profile, shoe)}
    table = odds(profile, shoe)
    assert table.bet("generous").house_edge < 0 and table.bet("impossible").lines[0].ways == 0
    assert found == {("player-edge", "generous", ()), ("never-pays", "impossible", (1,)),
                     ("overlap", "stacked", (1, 2)), ("overlap", "twins", (1, 2))}
    # at 8 decks an identical pair can be dealt: that warning goes, the others stay
    eight = {(w.kind, w.bet) for w in paytable_warnings(profile, Shoe.decks(8))}
    assert ("never-pays", "impossible") not in eight and ("player-edge", "generous") in eight


@pytest.mark.parametrize("profile", [p for p in shipped_profiles() if p.tableau is not None],
                         ids=lambda p: p.name)
def test_no_shipped_profile_warns_on_its_own_shoe(profile: object) -> None:
    assert paytable_warnings(profile, Shoe.decks(profile.default_decks)) == ()  # type: ignore[attr-defined]


def test_odds_prints_them_in_text_and_json_and_strict_exits_2(faulty: Path) -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["odds", "--profile", str(faulty), "--no-distributions"])
    assert text.exit_code == 0 and text.stdout.count("WARNING: ") == 4
    assert "WARNING: bet generous (Tie 12:1): the player has the edge on 1 deck" in text.stdout
    document = json.loads(runner.invoke(main, ["odds", "--profile", str(faulty), "--format",
                                               "json"]).stdout)
    assert [w["kind"] for w in document["warnings"]] == [
        "player-edge", "never-pays", "overlap", "overlap"]
    strict = runner.invoke(main, ["odds", "--profile", str(faulty), "--strict"])
    assert strict.exit_code == 2 and strict.stderr.count("\n") == 1
    assert strict.stderr.startswith("nine: error: --strict: 4 warnings, the first: bet generous")
    clean = runner.invoke(main, ["odds", "--strict", "--format", "json"])
    assert clean.exit_code == 0 and json.loads(clean.stdout)["warnings"] == []


def test_par_states_them_and_strict_writes_nothing(faulty: Path, tmp_path: Path) -> None:
    out = tmp_path / "sheets"
    result = CliRunner().invoke(main, ["par", "--profile", str(faulty), "--out", str(out),
                                       "--format", "md", "--strict"])
    assert result.exit_code == 2 and "nine: error: --strict: 4 warnings" in result.stderr
    assert not out.exists()
    result = CliRunner().invoke(main, ["par", "--profile", str(faulty), "--out", str(out),
                                       "--format", "md"])
    assert result.exit_code == 0 and result.stderr.count("nine: warning: ") == 4
    sheet = (out / "faulty-1-deck.md").read_text(encoding="utf-8")
    summary = sheet.split("## Summary", 1)[1].split("\n## ", 1)[0]
    assert summary.count("> WARNING: ") == 4
    assert "> WARNING: bet impossible: line 1 (identical pair) never pays on 1 deck." in summary
