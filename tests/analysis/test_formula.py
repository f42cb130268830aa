"""EV as an exact rational function of the number of decks: engine agreement at d = 1..8."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from analyzer.analysis.formula import CHECK_DECKS, FIT_DECKS, deck_formula, interpolate
from analyzer.engine.odds import odds
from analyzer.present.report.analysis import render_formula
from analyzer.rules.shoe import Shoe


@pytest.mark.parametrize(("profile", "bet"), [("punto-banco", "banker"),
                                              ("punto-banco", "tie"),
                                              ("lucky-baccarat", "lucky-player-pair")])
def test_formula_matches_engine_at_every_deck_count(profile: str, bet: str) -> None:
    result = deck_formula(profile, bet)
    d = sympy.Symbol("d")
    expression = sympy.sympify(result.formula, locals={"d": d})
    # d = 1..7 fixed the formula (agreement there proves nothing): check the others
    checked = sorted((set(range(1, 9)) | set(CHECK_DECKS)) - set(FIT_DECKS))
    assert set(checked).isdisjoint(FIT_DECKS) and len(checked) >= 3
    assert result.checked == tuple(d for d, _ in result.engine if d not in FIT_DECKS)
    for decks in checked:
        engine = odds(profile, Shoe.decks(decks)).bet(bet).ev
        value = expression.subs(d, decks)
        assert Fraction(int(value.p), int(value.q)) == engine
    limit = sympy.limit(expression, d, sympy.oo)
    assert Fraction(int(limit.p), int(limit.q)) == odds(profile, Shoe.infinite()).bet(bet).ev
    assert result.verified


def test_banker_infinite_deck_edge() -> None:
    # 1.0640% house edge in the infinite-deck limit (Wizard of Odds, "Baccarat").
    assert deck_formula("punto-banco", "banker").limit == Fraction(-256786, 24134045)


def test_interpolation_is_exact() -> None:
    points = [(x, Fraction(3 * x**3 - x, 7)) for x in range(1, 6)]
    assert interpolate(points) == (Fraction(0), Fraction(-1, 7), Fraction(0), Fraction(3, 7))


def test_fit_points_are_not_claimed_as_checks() -> None:
    result = deck_formula("punto-banco", "tie")
    text = render_formula([result])
    for decks in FIT_DECKS:
        assert f"\n{decks}  " in text
    assert text.count("fit point") == len(FIT_DECKS)
    assert "verified against the engine at d = 8, 9, 10, 12, 16" in text
