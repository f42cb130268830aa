"""The condition language: parsing, evaluation on scalars and columns, and errors."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.rules.conditions import FEATURES, glossary, parse_condition
from analyzer.rules.profile import shipped_profiles


def test_precedence_and_parentheses() -> None:
    condition = parse_condition("winner == tie or winner == banker and banker_total == 6")
    assert condition({"winner": "tie", "banker_total": 0})
    assert not condition({"winner": "banker", "banker_total": 5})
    grouped = parse_condition("(winner == tie or winner == banker) and banker_total == 6")
    assert not grouped({"winner": "tie", "banker_total": 0})


def test_sets_ranges_and_none() -> None:
    assert parse_condition("cards_dealt in {5, 6}")({"cards_dealt": 6})
    assert parse_condition("player_third == none")({"player_third": -1})
    assert not parse_condition("player_third >= 0")({"player_third": -1})


def test_columns() -> None:
    condition = parse_condition("not natural and margin > 2")
    result = condition({"natural": np.array([True, False, False]),
                        "margin": np.array([5, 5, 1])})
    assert result.tolist() == [False, True, False]


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty condition"),
    ("winner == dragon", "unknown value 'dragon'"),
    ("winner == 12", "winner cannot be 12"),
    ("player_total in 5..2", "a range needs two numbers"),
    ("winner ==", "unexpected end"),
    ("winner == tie tie", "unexpected 'tie'"),
    ("__import__('os')", "unknown feature '__import__'"),
    ("winner < banker", "needs a number"),
])
def test_errors(text: str, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        parse_condition(text)


@pytest.mark.parametrize("text", ["(" * 330 + "winner == tie" + ")" * 330,
                                  "not " * 10_000 + "player_natural"])
def test_hostile_nesting_is_one_error_not_a_recursion(text: str) -> None:
    with pytest.raises(AnalyzerError, match="condition too long or nested"):
        parse_condition(text)


def test_the_glossary_lists_every_feature_the_parser_knows() -> None:
    entries = glossary()
    assert [e.name for e in entries] == list(FEATURES)
    for entry in entries:
        condition = parse_condition(entry.example)  # each example is a valid condition
        assert condition.features == {entry.name} and entry.meaning == FEATURES[entry.name].doc
        assert entry.needs == ("ranks and suits" if condition.level == "cards"
                               else "point values")
    by_name = {e.name: e for e in entries}
    assert (by_name["banker_cards"].type, by_name["banker_cards"].values) == ("number", "2, 3")
    assert by_name["player_third"].values == "0-9 or none"
    assert by_name["player_pair"].type == "true or false"


def test_features_prints_the_glossary() -> None:
    result = CliRunner().invoke(main, ["features", "--format", "json"])
    listed = [f["name"] for f in json.loads(result.stdout)["features"]]
    assert result.exit_code == 0 and sorted(listed) == sorted(FEATURES)
    text = CliRunner().invoke(main, ["features"]).stdout
    assert all(f"\n{name} " in text for name in FEATURES)


@pytest.mark.parametrize(("text", "nearest"), [
    ("player_identicl_pair", "did you mean player_identical_pair"),
    ("banker_card", "did you mean banker_cards"),
    ("winer == banker", "did you mean winner?"),
])
def test_an_unknown_feature_offers_the_nearest(text: str, nearest: str) -> None:
    with pytest.raises(AnalyzerError, match=nearest):
        parse_condition(text)


def test_an_unknown_bet_or_profile_offers_the_nearest() -> None:
    result = CliRunner().invoke(main, ["eor", "--bet", "tei", "--samples", "0"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "has no bet 'tei' (did you mean tie?) (bets: banker, player, tie)" in result.stderr
    result = CliRunner().invoke(main, ["odds", "--profile", "punto-banko"])
    assert result.exit_code == 2 and "(did you mean punto-banco" in result.stderr


@pytest.mark.parametrize(("text", "words"), [
    ("winner == banker and banker_total == 6 and banker_cards == 3",
     "the result is a Banker win, Banker's final total is 6 and the number of cards in "
     "Banker's final hand is 3"),
    ("winner == player and not player_natural and margin == 4",
     "the result is a Player win, Player has no natural and the difference between the "
     "final totals is 4"),
    ("player_identical_pair or banker_identical_pair",
     "either Player's first two cards are an identical pair (same rank and suit) or Banker's "
     "first two cards are an identical pair (same rank and suit)"),
    ("banker_identical_pair and banker_suit == D",
     "Banker's first two cards are an identical pair (same rank and suit) and the suit of "
     "Banker's first two cards is diamonds"),
    ("player_first_cards == {'4D', '5D'}", "Player's first two cards are 4♦ and 5♦"),
    ("banker_pair_rank == Q", "the rank of Banker's pair is Q"),
    ("not player_third >= 4", "the point value of Player's third card is less than 4 or none"),
    ("not (winner == tie or natural)", "neither the result is a tie nor either hand has a "
     "natural"),
])
def test_a_condition_reads_in_plain_english(text: str, words: str) -> None:
    assert parse_condition(text).words == words


def test_every_shipped_line_reads_in_words_without_feature_names() -> None:
    for profile in shipped_profiles():
        for bet in profile.bets:
            for line in bet.lines:
                words = line.when.words
                assert words and not re.search(r"\b[a-z]+_[a-z_]+\b", words), (line.when.text,
                                                                                  words)
