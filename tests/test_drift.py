"""Shoes dealt by the procedure: a hand-checked position, exact EVs, seeded reproduction."""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner

from analyzer.cards import DECK, Card, parse_cards
from analyzer.cli import main
from analyzer.drift import (
    Procedure,
    ShoeEvaluator,
    deal_shoe,
    procedure_of,
    remaining_before_hands,
    shoe_positions,
    simulate_shoes,
)
from analyzer.odds import odds
from analyzer.profile import load_profile
from analyzer.shoe import Shoe

#: Exposed 5S burns five more; hand 1 = Player natural 9 (4 cards); hand 2 = Player 4 draws
#: a 5 to make 9, Banker 7 stands (5 cards); hand 3 starts at position 15.
HAND_CHECKED = "5S AC AD AH AS 2C  9S 2S KS 3S  2H 3H 2D 4D 5H"


def _order() -> list[int]:
    head = [card.index for card in parse_cards(HAND_CHECKED)]
    rest = [card.index for card in DECK if card.index not in head]
    return head + rest


def test_hand_checked_shoe_position() -> None:
    tableau = load_profile("punto-banco").tableau
    assert tableau is not None
    starts = deal_shoe(tableau, _order(), Procedure("first-card", 16, (), "test"))
    assert starts[:3] == [6, 10, 15]
    assert starts[-1] < 52 - 16 <= starts[-1] + 6
    rows = remaining_before_hands(np.array(_order()), starts, 1)
    before_hand_3 = Shoe(tuple(int(n) for n in rows[2]))
    assert before_hand_3.counts == Shoe.decks(1).remove(parse_cards(HAND_CHECKED)).counts
    assert before_hand_3.count(Card.parse("5S")) == 0 and before_hand_3.size == 37
    evaluator = ShoeEvaluator.for_profile("punto-banco")
    exact = odds("punto-banco", before_hand_3)
    ev = evaluator.evaluate(rows[2:3])[0]
    for j, bet in enumerate(exact.bets):
        assert abs(ev[j] - float(bet.ev)) <= 1e-12 * abs(float(bet.ev))


def test_card_level_bets_exact_on_depleted_shoes() -> None:
    profile = load_profile("lucky-baccarat")
    evaluator = ShoeEvaluator.for_profile(profile)
    assert evaluator.pair_columns  # colours and pairs by the two-card quadratic form
    orders, starts = shoe_positions(profile, 2, 1, seed=5)
    rows = remaining_before_hands(orders[0], starts[0], 2)[[0, 8, 15]]
    got = evaluator.evaluate(rows)
    for row, values in zip(rows, got, strict=True):
        exact = odds(profile, Shoe(tuple(int(n) for n in row)))
        for j, bet in enumerate(exact.bets):
            assert abs(values[j] - float(bet.ev)) <= 1e-12 * max(abs(float(bet.ev)), 1e-3)


def test_lucky_baccarat_windows_from_profile() -> None:
    procedure = procedure_of(load_profile("lucky-baccarat"))
    assert procedure.window("lucky-6") == 30
    assert procedure.window("player-red") == 40
    assert procedure.window("lucky-banker-pair") == 60
    assert procedure.window("banker") is None
    assert procedure_of(load_profile("punto-banco")).cut_card == 16


def test_seeded_runs_reproduce_and_windows_cut_counter_gain() -> None:
    first = simulate_shoes("lucky-baccarat", 8, 20, seed=9, quiet=True)
    second = simulate_shoes("lucky-baccarat", 8, 20, seed=9, quiet=True)
    assert first.hands_per_shoe == second.hands_per_shoe
    assert first.bets == second.bets
    lucky6 = first.bet("lucky-6")
    assert lucky6.window == 30
    assert lucky6.counter_units_per_shoe_window <= lucky6.counter_units_per_shoe
    assert all(70 <= hands <= 85 for hands in first.hands_per_shoe)
    assert simulate_shoes("lucky-baccarat", 8, 20, seed=10, quiet=True).bets != first.bets


def test_shoe_and_eor_commands() -> None:
    result = CliRunner().invoke(main, ["shoe", "--profile", "punto-banco", "--decks", "2",
                                       "--shoes", "3", "--seed", "4", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "3 shoes of 2 decks, seed 4" in result.stdout
    assert result.stderr == ""
    result = CliRunner().invoke(main, ["eor", "--profile", "punto-banco", "--samples", "50"])
    assert result.exit_code == 0
    assert "+0.01157" in result.stdout  # Banker, removing a 4, 8 decks
    result = CliRunner().invoke(main, ["formula", "--bet", "nope"])
    assert result.exit_code == 2
