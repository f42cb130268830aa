"""Exact win, push and loss probabilities of a strategy pair, checked by dealing every order."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from analyzer.choice.headsup.game import build_game
from analyzer.choice.headsup.outcomes import (
    Outcomes,
    equilibrium_outcomes,
    pair_value,
    strategy_outcomes,
)
from analyzer.choice.headsup.solver import solve
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import STOOD, ChoiceRules
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe
from tests.choice.conftest import TINY

LUCKY9 = load_profile("lucky9-home").choice_rules()
CHEMIN = load_profile("chemin-de-fer").choice_rules()


def _dealt(rules: ChoiceRules, shoe: Shoe, by: str, player: list[Fraction],
           banker: list[Fraction]) -> Outcomes:
    """Every ordered six-card deal of a small shoe played out by hand (P, B, P, B, then the
    player's third card, then the banker's), each side drawing with its cell's probability."""
    game = build_game(rules, shoe, by)
    sets = {hand: s for s, info in enumerate(game.player_sets) for hand in info.hands}
    cells = {(hand, cell.observation): c for c, cell in enumerate(game.banker_cells)
             for hand in cell.hands}
    values = [v for v, n in enumerate(shoe.value_counts()) for _ in range(n)]
    deals = Counter(tuple(values[i] for i in order)
                    for order in itertools.permutations(range(len(values)), 6))
    tally = {1: Fraction(0), 0: Fraction(0), -1: Fraction(0)}
    for (p1, b1, p2, b2, c5, c6), ways in deals.items():
        player_total, bank_total = (p1 + p2) % 10, (b1 + b2) % 10
        if player_total in rules.naturals or bank_total in rules.naturals:
            tally[(player_total > bank_total) - (player_total < bank_total)] += ways
            continue
        hand, bank_hand = (min(p1, p2), max(p1, p2)), (min(b1, b2), max(b1, b2))
        action = rules.player_action(player_total)
        draw = (Fraction(action == "draw") if action != "choice"
                else player[sets[hand]])
        for took, chance in ((True, draw), (False, 1 - draw)):
            if not chance:
                continue
            final = (player_total + c5) % 10 if took else player_total
            seen = (("drew" if took else STOOD) if rules.banker_sees == "choice"
                    else str(c5) if took else STOOD)
            bank_draw = banker[cells[(bank_hand, seen)]]
            for bank_took, bank_chance in ((True, bank_draw), (False, 1 - bank_draw)):
                bank_final = (bank_total + (c6 if took else c5)) % 10 if bank_took \
                    else bank_total
                result = (final > bank_final) - (final < bank_final)
                tally[result] += ways * chance * bank_chance
    total = sum(deals.values())
    win, push, lose = tally[1] / total, tally[0] / total, tally[-1] / total
    return Outcomes(win, push, lose, win - lose, win + lose)  # even money: nets +1, 0, -1


@pytest.mark.parametrize("rules", [LUCKY9, CHEMIN], ids=["lucky9-home", "chemin-de-fer"])
@pytest.mark.parametrize("by", ["total", "cards"])
def test_random_strategies_match_dealing_every_order(rules: ChoiceRules, by: str) -> None:
    rng = random.Random(14)
    game = build_game(rules, TINY, by)
    player = [Fraction(rng.randint(0, 12), 12) for _ in game.player_sets]
    banker = [Fraction(rng.randint(0, 7), 7) if fixed is None else Fraction(fixed)
              for fixed in game.banker_fixed]
    found = strategy_outcomes(rules, TINY, by, player, banker)
    assert found == _dealt(rules, TINY, by, player, banker)
    assert found.win + found.push + found.lose == 1 and found.push > 0
    # the solver's own weights agree: wins minus losses is the pair's value
    assert found.ev == pair_value(game, player, banker)


@pytest.mark.parametrize("name, decks, by", [("lucky9-home", 1, "cards"),
                                             ("chemin-de-fer", 6, "total")])
def test_the_equilibrium_outcomes_add_up_to_its_value(name: str, decks: int, by: str) -> None:
    rules = load_profile(name).choice_rules()
    result = solve(rules, Shoe.decks(decks), by)
    outcomes = equilibrium_outcomes(rules, Shoe.decks(decks), result)
    assert outcomes.win - outcomes.lose == result.value
    assert outcomes.variance == outcomes.win + outcomes.lose - result.value**2
    assert outcomes.hit_frequency == outcomes.win and outcomes.decided == 1 - outcomes.push
    # a mixed strategy changes the split, never the value: one deck's numbers, exact
    if name == "lucky9-home":
        assert outcomes.push == Fraction(1351938097, 13742001000)


def test_an_equilibrium_of_another_shoe_is_refused() -> None:
    result = solve(CHEMIN, Shoe.decks(6), "total")
    with pytest.raises(AnalyzerError, match="does not belong"):
        equilibrium_outcomes(CHEMIN, Shoe.decks(1), result)
    with pytest.raises(AnalyzerError, match="strategy sizes"):
        pair_value(build_game(CHEMIN, Shoe.decks(1), "total"), [], [])
