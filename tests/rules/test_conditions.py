"""The condition language: parsing, evaluation on scalars and columns, and errors."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.errors import AnalyzerError
from analyzer.rules.conditions import parse_condition


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
