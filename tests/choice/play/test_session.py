"""Sessions with a rotating bank: exact expected nets and seeded ledgers."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from analyzer.choice.headsup.game import banker_vector, build_game, player_vector
from analyzer.choice.headsup.solver import evaluate_game
from analyzer.choice.play.session import Person, expected_session, play_session
from analyzer.choice.strategy import load_strategy, parse_strategy
from analyzer.choice.table.tree import LUCKY9
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
    game = build_game(LUCKY9, Shoe.decks(1), "cards")
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


def test_a_seat_reading_the_earlier_choices_is_valued_exactly_and_dealt_alike() -> None:
    # A seat that draws on 5 only after a live seat before it stood: the certified model's
    # information; the exact expected nets agree with a seeded simulation of the same dealer.
    reads = parse_strategy('side = "player"\ndefault = "stand"\n[draw]\n"0-4" = 1\n'
                           '[draw."live:S+0"]\n"5" = 1\n', "reads.toml", "player")
    people = [Person("A", player=reads), Person("B"), Person("C")]
    exact = expected_session(people, 1, Shoe.infinite())
    assert exact.exact and sum(exact.nets) == 0 and exact.nets[0] != 0
    assert expected_session(people, 1, Shoe.decks(8)).exact  # card removal, three people
    four = [*people, Person("D")]
    exact = expected_session(four, 1, Shoe.infinite())
    estimate = expected_session(four, 1, Shoe.decks(8), hands=4000, seed=3)
    assert not estimate.exact and estimate.label == "estimate"
    assert all(abs(e - x) <= 4 * w + Fraction(1, 100)  # eight decks: near the infinite deck
               for e, x, w in zip(estimate.nets, exact.nets, estimate.half_widths, strict=True))
