"""The brute-force matrix game: an independent second opinion on the heads-up solver."""

from __future__ import annotations

import pytest

from analyzer.choice.headsup.matrix_game import matrix_game_value
from analyzer.choice.headsup.solver import solve
from analyzer.rules.cards import parse_cards
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

LUCKY9 = load_profile("lucky9-home").choice_rules()
CHEMIN = load_profile("chemin-de-fer").choice_rules()
#: A 12-card shoe: few information sets, every choice still matters.
TINY = Shoe.from_cards(parse_cards("TS TH JD KC 3S 3H 4S 4H 5S 5H 6S 6H"), "tiny shoe")


@pytest.mark.parametrize(("rules", "shoe", "by"), [
    (LUCKY9, TINY, "total"), (LUCKY9, TINY, "cards"), (CHEMIN, TINY, "cards"),
    (CHEMIN, Shoe.decks(1), "cards"),
])
def test_brute_force_matrix_game_agrees(rules: ChoiceRules, shoe: Shoe, by: str) -> None:
    check = matrix_game_value(rules, shoe, by)
    assert check.value == pytest.approx(float(solve(rules, shoe, by).value), abs=1e-14)
