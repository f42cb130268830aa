"""The payoffs a choice-game profile states (issue 20 section 4): read exactly, and a field
the solver cannot take refused in one line that names it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import analyzer
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules, Payoffs
from analyzer.rules.profile import load_profile

HOME = load_profile("lucky9-home")


def _game(**payoffs: object) -> dict[str, object]:
    return {"kind": "choice", "naturals": [9], "people": [2, 9], **payoffs}


def test_the_shipped_profiles_state_their_payoffs() -> None:
    assert HOME.choice_rules().payoffs == Payoffs() and Payoffs().even_money
    ties = load_profile("lucky9-bank-ties").choice_rules().payoffs
    natural = load_profile("lucky9-natural-pays-2").choice_rules().payoffs
    assert (ties.ties, ties.tie, ties.even_money) == ("bank", -1, False)
    assert (natural.natural_pays, natural.natural_win, natural.win) == (2, 2, 1)


def test_payoffs_settle_a_seat_against_the_bank() -> None:
    house = Payoffs(natural_pays=Fraction(3, 2), pays=Fraction(1), ties="bank",
                    commission=Fraction(1, 20))
    assert house.seat(9, 4, natural=True) == Fraction(3, 2) * Fraction(19, 20)
    assert house.seat(6, 4) == Fraction(19, 20) and house.seat(4, 6) == -1
    assert house.seat(5, 5) == -1 and house.seat(9, 9, True, True) == -1
    assert house.seat(8, 9, bank_natural=True) == -1  # a natural beats every other hand
    assert house.scale == 40  # 57/40 and 19/20 made whole
    assert "the bank keeps 0.05 of a seat's winnings" in house.describe()


def test_amounts_are_read_exactly_from_integers_decimals_and_fractions() -> None:
    for raw, expected in ((0, Fraction(0)), (0.05, Fraction(1, 20)), ("19/20", Fraction(19, 20))):
        rules = ChoiceRules.from_table(_game(commission=raw), "t", "p.toml")
        assert rules.payoffs.commission == expected
    assert ChoiceRules.from_table(_game(pays=2), "t", "p.toml").payoffs.win == 2
    assert ChoiceRules.from_table(_game(natural_pays="3/2"), "t", "p.toml").payoffs.natural_pays \
        == Fraction(3, 2)


@pytest.mark.parametrize("field, value, words", [
    ("commission_on", "bank", "game.commission_on: the solver takes a commission on the "
                              "players' winnings"),
    ("pair_bonus", 5, "game.pair_bonus: the solver cannot take a pair bonus"),
    ("ties", "player", "game.ties: must be 'push' or 'bank'"),
    ("commission", 1, "game.commission: must be from 0 to below 1"),
    ("pays", "two", "game.pays: expected a number"),
    ("natural_pays", True, "game.natural_pays: expected a number"),
])
def test_a_payoff_the_solver_cannot_take_is_one_line_naming_the_field(
        field: str, value: object, words: str) -> None:
    with pytest.raises(AnalyzerError) as caught:
        ChoiceRules.from_table(_game(**{field: value}), "t", "house.toml")
    message = str(caught.value)
    assert message.startswith("house.toml: ") and words in message and "\n" not in message


def test_the_cli_refuses_such_a_profile_with_exit_2(tmp_path: Path) -> None:
    home = Path(analyzer.__file__).parent / "profiles" / "lucky9-home.toml"
    text = home.read_text(encoding="utf-8").replace(
        'name = "lucky9-home"', 'name = "lucky9-pairs"').replace(
        'commission = 0', 'commission = 0\npair_bonus = 5')
    path = tmp_path / "lucky9-pairs.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["solve", "--profile", str(path), "--players", "1",
                                       "--infinite"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "game.pair_bonus" in lines[0] and "Traceback" not in result.output
