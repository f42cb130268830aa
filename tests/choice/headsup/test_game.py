"""The heads-up choice game's exact payoff arrays: shape, denominators, symmetric play."""

from __future__ import annotations

import math

import pytest

from analyzer.choice.headsup.game import build_game
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

LUCKY9 = load_profile("lucky9-home").choice_rules()


@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(1), Shoe.decks(8)])
def test_identical_play_on_both_sides_is_worth_nothing(shoe: Shoe) -> None:
    # Home Lucky 9 forces no play and the deal is exchangeable between the two hands, so when
    # both sides always stand, or both always draw, the player's value is exactly zero.
    for information in ("total", "cards"):
        game = build_game(LUCKY9, shoe, information)
        assert all(fixed is None for fixed in game.banker_fixed)
        stand = game.constant + int(game.base0.sum())
        draw = stand + int(game.base.sum()) + int(game.gain0.sum()) + int(game.gain.sum())
        assert stand == 0 == draw


def test_weights_share_the_ordered_six_card_denominator() -> None:
    assert build_game(LUCKY9, Shoe.infinite(), "total").denominator == 52**6
    assert build_game(LUCKY9, Shoe.decks(2), "cards").denominator == math.perm(104, 6)


def test_information_sets_group_the_same_holdings() -> None:
    by_total = build_game(LUCKY9, Shoe.decks(1), "total")
    by_cards = build_game(LUCKY9, Shoe.decks(1), "cards")
    assert all(sum(hand) % 10 == info.total for info in by_total.player_sets
               for hand in info.hands)
    assert sorted(h for info in by_total.player_sets for h in info.hands) == sorted(
        h for info in by_cards.player_sets for h in info.hands)
    assert len(by_cards.banker_cells) == len(LUCKY9.observations) * len(by_cards.player_sets)
    with pytest.raises(AnalyzerError, match="information must be one of"):
        build_game(LUCKY9, Shoe.decks(1), "suits")


def test_a_game_counts_wins_or_pushes_on_request() -> None:
    # both sides always stand: by symmetry the player wins as often as it loses
    win = build_game(LUCKY9, Shoe.decks(1), "total", "win")
    push = build_game(LUCKY9, Shoe.decks(1), "total", "push")
    stand_win = win.constant + int(win.base0.sum())
    stand_push = push.constant + int(push.base0.sum())
    assert 2 * stand_win + stand_push == win.denominator
    assert 0 < stand_push < stand_win
    with pytest.raises(AnalyzerError, match="score must be one of result, square, win, push"):
        build_game(LUCKY9, Shoe.decks(1), "total", "lose")
