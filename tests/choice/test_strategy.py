"""Strategy files: precedence of their tables, and tables the game's banker cannot observe."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.choice.headsup.game import banker_vector, build_game
from analyzer.choice.strategy import load_strategy, parse_strategy
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

LUCKY9 = load_profile("lucky9-home").choice_rules()
CHEMIN = load_profile("chemin-de-fer").choice_rules()


@pytest.mark.parametrize(("rules", "table", "shown"), [
    (CHEMIN, "drew", "drew"),  # chemin de fer: the banker sees the third card, not "drew"
    (LUCKY9, "3", "3"),  # home Lucky 9: the third card is face down
    (LUCKY9, "T", "T"),
])
def test_banker_tables_the_game_cannot_observe_are_refused(
        tmp_path: object, rules: ChoiceRules, table: str, shown: str) -> None:
    path = Path(str(tmp_path)) / "bank.toml"
    path.write_text(f'side = "banker"\ndefault = "stand"\n[draw]\n"0-4" = 1\n'
                    f'[draw.{table}]\n"5" = 1\n', encoding="utf-8")
    game = build_game(rules, Shoe.infinite(), "total")
    with pytest.raises(AnalyzerError, match=rf"bank\.toml: \[draw\.{shown}\]"):
        banker_vector(load_strategy(str(path), "banker"), game)
    result = CliRunner().invoke(main, ["evaluate", "--profile", rules.name, "--infinite",
                                       "--by", "total", "--banker", str(path)])
    assert result.exit_code != 0 and f"[draw.{shown}]" in result.output + result.stderr
    # Tables the game can observe are still accepted.
    fine = "stood" if rules is CHEMIN else "drew"
    path.write_text(f'side = "banker"\n[draw.{fine}]\n"5" = 1\n[draw.any]\n"0-4" = 1\n',
                    encoding="utf-8")
    assert len(banker_vector(load_strategy(str(path), "banker"), game)) == len(
        game.banker_cells)


def test_precedence_of_observation_total_over_any_holding() -> None:
    rule = parse_strategy('side = "banker"\n[draw.any]\n"T+5" = 1\n[draw.drew]\n"5" = 0\n',
                          "precedence")
    assert rule.draw((0, 5), "drew") == 0  # the observation's total beats an 'any' holding
    assert rule.draw((0, 5), "stood") == 1  # no 'stood' table: 'any' holding
    assert rule.draw((1, 4), "stood") == 0  # nothing applies: default (stand)


@pytest.mark.parametrize("key", ["-4", "4-", "-", "1--3", "a-4"])
def test_malformed_total_ranges_are_input_errors(tmp_path: Path, key: str) -> None:
    """A range with a side missing (found by tests/hostile/test_fuzz.py) is an input error,
    not an internal one."""
    path = tmp_path / "player.toml"
    path.write_text(f'side = "player"\nby = "total"\ndefault = "stand"\n[draw]\n'
                    f'"{key}" = "draw"\n"5" = "1/2"\n', encoding="utf-8")
    with pytest.raises(AnalyzerError, match="a range of totals is written like '0-4'"):
        load_strategy(str(path), "player")
    path.write_text('side = "player"\nby = "total"\ndefault = "stand"\n[draw]\n'
                    '"0-4" = "draw"\n', encoding="utf-8")
    assert load_strategy(str(path), "player") is not None
