"""Advice for one information set, and bad input in one line."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.choice.table.advice import advise_bank, advise_seat
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe


def test_a_mixed_cell_is_indifferent_and_names_its_fraction() -> None:
    advice = advise_seat(LUCKY9, Shoe.infinite(), people=4, seat=2, cards="TH 5S",
                         earlier="stood")
    assert advice.action == "draw 32/65" and advice.margin == 0
    assert advice.house_action == "draw" and advice.house_ev_draw > advice.house_ev_stand


def test_earlier_choices_with_or_without_the_naturals_mean_the_same() -> None:
    first = advise_seat(LUCKY9, Shoe.infinite(), 4, "8H 7S", seat=3, naturals="1",
                        earlier="stood")
    second = advise_seat(LUCKY9, Shoe.infinite(), 4, "8H 7S", seat=3, earlier="natural,stood")
    assert (first.draw, first.ev_draw, first.ev_stand) == (second.draw, second.ev_draw,
                                                          second.ev_stand)
    assert first.action == "stand" and first.margin < 0


def test_the_bank_mixes_on_six_after_three_stands() -> None:
    advice = advise_bank(LUCKY9, Shoe.infinite(), "7D 9S", "stood,stood,stood")
    assert advice.draw == Fraction(121635, 146432) and advice.ev_draw == advice.ev_stand


def test_finite_shoe_advice_uses_the_naturals_cards() -> None:
    advice = advise_seat(LUCKY9, Shoe.decks(1), 3, "TH 5S", seat=1, naturals="2=9H KD",
                         by="total")
    table = solve_table(LUCKY9, Shoe.decks(1), 2, "total")
    solution = table.solution((1, ((0, 9),)))
    index = [c.label for c in solution.game.seat_classes].index("5")
    assert advice.draw == solution.seats[0][0][index] and advice.certified


@pytest.mark.parametrize(("kwargs", "message"), [
    (dict(people=10, cards="8H 7S"), "--people 10: home Lucky 9 is played by 2 to 9 people"),
    (dict(people=1, cards="8H 7S"), "--people 1"),
    (dict(people=4, cards="8H 7S", seat=4), "--seat 4: a table of 4 people has seats 1 to 3"),
    (dict(people=4, cards="8H 7S", seat=2, naturals="2"), "the seat asking cannot hold"),
    (dict(people=4, cards="8H 7S", seat=2, earlier="drew,stood"), "2 choices, but seat 2 has"),
    (dict(people=4, cards="9H TS"), "a natural 9 is settled"),
    (dict(people=4, cards="8H"), "exactly two cards"),
    (dict(people=3, cards="8H 8H", shoe=Shoe.decks(1)), "8H: 1 deck holds 1 of it"),
    (dict(people=3, cards="8H 7S", seat=1, naturals="2", shoe=Shoe.decks(1)),
     "give them, e.g. 2=9K"),
    (dict(people=4, cards="8H 7S", seat=3, earlier="drew"), "give each choice"),
    (dict(people=4, cards="8H 7S", earlier="maybe"), "expected drew, stood or natural"),
])
def test_bad_input_is_one_clear_line(kwargs: dict[str, object], message: str) -> None:
    shoe = kwargs.pop("shoe", Shoe.infinite())
    with pytest.raises(AnalyzerError, match=message) as caught:
        advise_seat(LUCKY9, shoe, **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


def test_bad_bank_input_is_one_clear_line() -> None:
    with pytest.raises(AnalyzerError, match="the bank's natural ends the hand"):
        advise_bank(LUCKY9, Shoe.infinite(), "9D TS", "stood")
    with pytest.raises(AnalyzerError, match="one entry per seat"):
        advise_bank(LUCKY9, Shoe.infinite(), "7D TS", "stood", people=4)
    with pytest.raises(AnalyzerError, match="every seat holds a natural"):
        advise_bank(LUCKY9, Shoe.infinite(), "7D TS", "natural,natural")
