"""Whole tables: certified equilibria at every size, the rules' information model, exact card
removal, and agreement with the heads-up solver."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analyzer.choice.headsup.solver import solve
from analyzer.choice.table.solve import (
    Pattern,
    check_players,
    evaluate_table,
    solve_table,
    table_patterns,
)
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe


def test_three_people_at_the_infinite_deck_certify_with_zero_regret() -> None:
    table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    assert table.certified and table.max_regret == 0
    assert table.values.seat_regrets == (0, 0) and table.values.bank_regret == 0
    assert table.seat_values == (Fraction(-58248160, 8973037931),
                                 Fraction(-19048976, 3451168435))
    assert table.bank_value == Fraction(538877488, 44865189655)
    assert table.note.startswith("unique support solution")


def test_a_seat_reads_the_later_seats_naturals() -> None:
    """Rules section 7: seat 1 sees seat 2's natural. Holding 5 it draws 6/11 when seat 2 is
    natural (it then faces the bank alone) and 24/25 when seat 2 is live."""
    table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    alone = table.solution((1, ())).seats[0][0][5]
    with_seat_2 = table.solution((2, ())).seats[0][0][5]
    assert (alone, with_seat_2) == (Fraction(6, 11), Fraction(24, 25))

    def ignore_naturals(pattern: Pattern, seat: int, position: int, earlier: int,
                        cls: int) -> Fraction | None:
        # seat 1 playing as if seat 2 were always live
        return with_seat_2 if seat == 0 and cls == 5 else None

    # The equilibrium bank leaves seat 1 indifferent on 5, so its value does not move, but
    # that play is no equilibrium: the bank gains by answering it.
    blind = evaluate_table(table, seats=ignore_naturals)
    assert blind.seats[0] == table.seat_values[0] and blind.bank_regret > 0


@pytest.mark.parametrize(("shoe", "by"), [(Shoe.infinite(), "total"), (Shoe.decks(1), "cards"),
                                          (Shoe.decks(1), "total")])
def test_heads_up_agrees_exactly_with_the_heads_up_solver(shoe: Shoe, by: str) -> None:
    table = solve_table(LUCKY9, shoe, 1, by)
    heads_up = solve("lucky9-home", shoe, by)
    assert table.certified and table.seat_values[0] == heads_up.value
    solution = table.solution((1, ()))
    ours = {c.label: solution.seats[0][0][i] for i, c in enumerate(solution.game.seat_classes)}
    assert {p.label: p.draw for p in heads_up.player} == ours
    for cell in heads_up.banker:
        if cell.relevant:
            index = [c.label for c in solution.game.bank_classes].index(cell.label)
            assert solution.bank[index][int(cell.observation == "drew")] == cell.draw


def test_natural_patterns_are_a_distribution() -> None:
    for shoe, players in ((Shoe.infinite(), 4), (Shoe.decks(1), 2)):
        patterns = table_patterns(LUCKY9, shoe, players)
        assert sum(p.probability for p in patterns) == 1
    infinite = table_patterns(LUCKY9, Shoe.infinite(), 1)
    assert sum(p.probability for p in infinite if p.bank) == Fraction(16, 169)


def test_three_people_at_one_deck_are_exact_with_card_removal() -> None:
    table = solve_table(LUCKY9, Shoe.decks(1), 2, "total")
    assert table.certified and table.model == "exact card removal"
    # a natural's cards leave the shoe: one heads-up subgame per natural holding
    assert {key for key, *_ in ((r.key,) for r in table.subgames)} == {
        (2, ()), *((1, (h,)) for h in ((0, 9), (1, 8), (2, 7), (3, 6), (4, 5)))}


def test_larger_finite_tables_say_they_were_solved_at_the_infinite_deck() -> None:
    table = solve_table(LUCKY9, Shoe.decks(1), 3, "cards")
    assert (table.shoe, table.solved_at, table.values_at) == ("1 deck", "infinite deck",
                                                               "infinite deck")
    assert not table.certified and not table.exact and table.max_regret is None
    assert table.by == "total" and table.scope.startswith(
        "Solved at the infinite deck; not evaluated at 1 deck")
    assert table.seat_values == solve_table(LUCKY9, Shoe.infinite(), 3, "total").seat_values
    exact = solve_table(LUCKY9, Shoe.decks(1), 2, "total")
    assert exact.solved_at == exact.values_at == "1 deck" and exact.scope == ""
    assert exact.max_regret == 0


@pytest.mark.parametrize("players", [0, 9, -1])
def test_table_sizes_outside_two_to_nine_people_are_refused(players: int) -> None:
    with pytest.raises(AnalyzerError, match="2 to 9 people"):
        check_players(LUCKY9, players)


def test_a_table_is_named_by_profile_name_alias_or_rules_alike() -> None:
    by_rules = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    for name in ("lucky9-home", "lucky9", load_profile("lucky9-home")):
        assert solve_table(name, Shoe.infinite(), 2, "total").values == by_rules.values
    with pytest.raises(AnalyzerError, match="not a choice game"):
        solve_table("punto-banco", Shoe.infinite(), 2)


# -- house rules (issue 20 section 4) -------------------------------------------------------
@pytest.mark.parametrize("name", ["lucky9-bank-ties", "lucky9-natural-pays-2"])
def test_every_house_rule_table_is_certified_and_one_seat_is_the_heads_up_game(
        name: str) -> None:
    rules = load_profile(name).choice_rules()
    home = [solve_table(LUCKY9, Shoe.infinite(), players, "total") for players in (1, 2, 3)]
    for players, plain in zip((1, 2, 3), home, strict=True):
        table = solve_table(rules, Shoe.infinite(), players, "total")
        assert table.certified and table.max_regret == 0
        assert table.bank_value == -sum(table.seat_values)
        # the bank gains from taking the ties and loses from paying naturals double
        if name == "lucky9-bank-ties":
            assert table.bank_value > plain.bank_value
        else:
            assert table.bank_value < 0 < min(table.seat_values)
    one_seat = solve_table(rules, Shoe.infinite(), 1, "total")
    assert one_seat.seat_values[0] == solve(rules, Shoe.infinite(), "total").value
    at_one_deck = solve_table(rules, Shoe.decks(1), 2, "total")
    assert at_one_deck.exact and at_one_deck.certified


def test_even_money_tables_are_unchanged_to_the_last_digit() -> None:
    # the values published before payoffs became data (tables/lucky9, analyzer 0.1.0)
    infinite = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    assert infinite.seat_values == (Fraction(-58248160, 8973037931),
                                    Fraction(-19048976, 3451168435))
    assert infinite.bank_value == Fraction(538877488, 44865189655)
    one_deck = solve_table(LUCKY9, Shoe.decks(1), 2, "total")
    assert one_deck.seat_values == (
        Fraction(-605742815102249796842332183451767087,
                 86551299940486424696402082651903926250),
        Fraction(-2292456238579339651798669404846256800557,
                 387475744616900975628342723685465227166875))
