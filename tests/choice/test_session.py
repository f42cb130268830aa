"""Sessions with a rotating bank: exact expected nets and seeded ledgers."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from analyzer.choice.game import build_game
from analyzer.choice.plans import LUCKY9_RULES
from analyzer.choice.session import Person, expected_session, play_session
from analyzer.choice.solver import evaluate_game
from analyzer.choice.strategy import banker_vector, load_strategy, parse_strategy, player_vector
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

STAND = parse_strategy('default = "stand"\n', "always stand", "player")


def test_expected_nets_sum_to_zero_and_scale_with_rotations() -> None:
    people = [Person("A"), Person("B", player=STAND), Person("C")]
    one = expected_session(people, 1, Shoe.decks(1))
    three = expected_session(people, 3, Shoe.decks(1))
    assert one.exact and sum(one.nets) == 0 == sum(three.nets)
    assert three.nets == tuple(3 * v for v in one.nets)
    assert one.nets[1] < 0 < one.nets[0] == one.nets[2]  # standing always costs B
    assert one.nets[1] == Fraction(-999029, 2436525)
    # Equal strategies: nobody gains over whole rotations.
    assert expected_session([Person("A"), Person("B"), Person("C")], 2,
                            Shoe.decks(1)).nets == (0, 0, 0)


def test_two_people_expected_net_is_the_heads_up_values() -> None:
    game = build_game(LUCKY9_RULES(), Shoe.decks(1), "cards")
    house_banker = load_strategy("house", "banker")
    as_player = evaluate_game(game, player_vector(STAND, game),
                              banker_vector(house_banker, game)).value
    against = evaluate_game(game, player_vector(load_strategy("house", "player"), game),
                            banker_vector(house_banker, game)).value
    found = expected_session([Person("A", player=STAND), Person("B")], 5, Shoe.decks(1))
    assert found.nets[0] == 5 * (as_player - against) == -found.nets[1]


def test_seeded_session_is_reproducible_and_balanced() -> None:
    people = [Person("A"), Person("B"), Person("C"), Person("D")]
    first = play_session(people, 3, 11, Shoe.decks(1), expectation=False)
    again = play_session(people, 3, 11, Shoe.decks(1), expectation=False)
    other = play_session(people, 3, 12, Shoe.decks(1), expectation=False)
    assert first.ledger == again.ledger and first.ledger != other.ledger
    assert len(first.ledger) == 12
    assert all(sum(line.results) == 0 and sum(line.balances) == 0 for line in first.ledger)
    bankers = [line.banker for line in first.ledger]
    assert bankers[4:8] == bankers[:4] and sorted(bankers[:4]) == ["A", "B", "C", "D"]


def test_cli_session_ledger() -> None:
    runner = CliRunner()
    arguments = ["session", "--people", "3", "--rotations", "2", "--seed", "4"]
    text = runner.invoke(main, arguments)
    assert text.exit_code == 0, text.output
    assert "Ledger" in text.stdout and "expected net (exact)" in text.stdout
    first = json.loads(runner.invoke(main, [*arguments, "--format", "json"]).stdout)
    second = json.loads(runner.invoke(main, [*arguments, "--format", "json"]).stdout)
    assert first == second and len(first["ledger"]) == 6
    assert first["expected"]["nets"] == ["0", "0", "0"] and sum(first["balances"]) == 0
    bad = runner.invoke(main, ["session", "--people", "10", "--rotations", "1", "--seed", "1"])
    assert bad.exit_code == 2 and "'--people': 10 is not in the range 2<=x<=9" in bad.stderr


def test_symmetry_shortcut_agrees_with_the_computation() -> None:
    people = [Person("A"), Person("B"), Person("C"), Person("D")]
    computed = expected_session(people, 2, Shoe.infinite(), symmetry=False)
    assert computed.nets == (0, 0, 0, 0) and len(computed.by_bank) == 4
    assert computed.by_bank[0][1] == computed.by_bank[1][2]  # seat 1 value at both positions
    assert expected_session(people, 2, Shoe.decks(1)).nets == (0, 0, 0, 0)


def test_larger_finite_sessions_are_labelled_estimates() -> None:
    people = [Person("A", player=STAND), Person("B"), Person("C"), Person("D")]
    found = expected_session(people, 1, Shoe.decks(1), hands=1500, seed=2)
    assert not found.exact and found.label == "estimate" and "estimate" in found.model
    assert abs(sum(found.nets)) < Fraction(1, 10**6)  # each simulated hand sums to zero
    assert found.nets[0] < 0 and all(w > 0 for w in found.half_widths)


def test_banker_tables_a_lucky9_banker_cannot_see_are_refused() -> None:
    peeks = parse_strategy('side = "banker"\n[draw.3]\n"0-5" = 1\n', "peek.toml", "banker")
    people = [Person("A"), Person("B", banker=peeks), Person("C")]
    with pytest.raises(AnalyzerError, match=r"peek\.toml: \[draw\.3\]"):
        expected_session(people, 1, Shoe.infinite())
    with pytest.raises(AnalyzerError, match=r"peek\.toml: \[draw\.3\]"):
        play_session(people, 1, 7, Shoe.decks(1), expectation=False)
