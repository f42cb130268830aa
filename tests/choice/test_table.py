"""Tables of several players: exact seat values, best responses, dynamics."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.choice.game import build_game
from analyzer.choice.solver import evaluate_game, solve_game
from analyzer.choice.strategy import banker_vector, load_strategy, player_vector
from analyzer.choice.table import (
    LUCKY9_RULES,
    BankerPlan,
    InformedPlan,
    TableGame,
    banker_best_response,
    banker_from_function,
    banker_from_strategy,
    build_table,
    dynamics,
    house_banker,
    house_player,
    informed_plan,
    own_hand_best_response,
    play_hand,
    player_best_response,
    regrets,
    seat_values,
    table_report,
)
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.present.report import render_table_report
from analyzer.rules.cards import parse_cards
from analyzer.rules.choice_rules import HANDS
from analyzer.rules.shoe import Shoe

RULES = LUCKY9_RULES()
#: Ten cards, four point values: every three-person deal can be listed by hand.
TINY = Shoe.from_cards(parse_cards("TS TH TD TC 5S 5H 4S 4H 9S 9H"), "tiny shoe")


@cache
def table(decks: int, players: int) -> TableGame:
    return build_table(RULES, Shoe.infinite() if decks == 0 else Shoe.decks(decks), players)


def _heads_up_profile(shoe: Shoe) -> tuple[tuple[Fraction, ...], BankerPlan, Fraction]:
    """The heads-up solver's certified equilibrium as table strategies."""
    game = build_game(RULES, shoe, "cards")
    equilibrium = solve_game(game)
    player = dict.fromkeys(HANDS, Fraction(0))
    for choice, info in zip(equilibrium.player, game.player_sets, strict=True):
        player.update(dict.fromkeys(info.hands, choice.draw))
    banker = {(hand, cell.observation): choice.draw
              for choice, cell in zip(equilibrium.banker, game.banker_cells, strict=True)
              for hand in cell.hands}

    def rule(hand: tuple[int, int], seen: tuple[str, ...]) -> Fraction:
        return banker.get((hand, "drew" if seen[0] == "drew" else "stood"), Fraction(0))

    return tuple(player[h] for h in HANDS), banker_from_function(1, rule), equilibrium.value


@pytest.mark.parametrize("decks", [0, 1])
def test_one_player_gives_the_heads_up_value_exactly(decks: int) -> None:
    shoe = Shoe.infinite() if decks == 0 else Shoe.decks(1)
    game = table(decks, 1)
    heads_up = build_game(RULES, shoe, "cards")
    stand_five = load_strategy("house", "player")
    banker = load_strategy("house", "banker")
    pair = evaluate_game(heads_up, player_vector(stand_five, heads_up),
                         banker_vector(banker, heads_up))
    values = seat_values(game, [house_player()], banker_from_strategy(game, banker))
    assert values.players == (pair.value,) == (Fraction(0),)
    # The banker's best response to the house rule: the heads-up solver's figure.
    _, banker_best = banker_best_response(game, [house_player()])
    assert banker_best == -pair.banker_best_response
    assert banker_best == (Fraction(3584, 371293) if decks == 0
                           else Fraction(1237841, 114516675))
    plan, bank, value = _heads_up_profile(shoe)
    assert seat_values(game, [plan], bank).players[0] == value
    if decks == 0:  # zero regret at the certified equilibrium (one deck: same code, slower)
        found = regrets(game, [plan], bank)
        assert found.players == (0,) and found.banker == 0
        assert dynamics(game, [plan], bank, rounds=3).equilibrium


def test_three_people_match_dealing_every_card_sequence() -> None:
    game = build_table(RULES, TINY, 2)
    rng = random.Random(3)
    plans = [tuple(Fraction(rng.randint(0, 1)) for _ in HANDS) for _ in range(2)]
    bank = BankerPlan(2, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(9))
                               for _ in HANDS))
    values = seat_values(game, plans, bank)
    counts = Counter(v for v, n in enumerate(TINY.value_counts()) for _ in range(n))
    totals = [0, 0]
    deals = 0

    def deal(sequence: list[int], ways: int) -> None:
        nonlocal deals
        if len(sequence) == 9:
            results, _ = play_hand(sequence, plans, bank, RULES, random.Random(0))
            for seat in range(2):
                totals[seat] += ways * results[seat]
            deals += ways
            return
        for value, left in list(counts.items()):
            if left:
                counts[value] -= 1
                deal([*sequence, value], ways * left)
                counts[value] += 1

    deal([], 1)
    assert deals == 10 * 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2
    assert values.players == (Fraction(totals[0], deals), Fraction(totals[1], deals))
    assert values.players[0] != values.players[1]  # this banker plan treats seats unequally
    assert values.banker == -sum(values.players)


def test_three_people_one_deck_house_rule() -> None:
    game = table(1, 2)
    plans = [house_player()] * 2
    bank = banker_from_strategy(game, house_banker())
    values = seat_values(game, plans, bank)
    assert values.players == (0, 0) and values.banker == 0  # same rule on both sides
    _, banker_best = banker_best_response(game, plans)
    assert banker_best == Fraction(1853644006, 118524758625)
    # A player facing a banker who ignores the choices gains what it gains heads-up.
    _, best = player_best_response(game, plans, bank, 1)
    assert best == Fraction(310084, 114516675)


@settings(max_examples=4, deadline=None)
@given(st.data())
def test_banker_best_response_beats_any_fixed_banker(data: st.DataObject) -> None:
    game = table(0, 2)
    probability = st.fractions(min_value=0, max_value=1, max_denominator=4)
    plans = [tuple(data.draw(probability) for _ in HANDS) for _ in range(2)]
    bank = BankerPlan(2, tuple(tuple(data.draw(probability) for _ in range(9))
                               for _ in HANDS))
    values = seat_values(game, plans, bank)
    _, banker_best = banker_best_response(game, plans)
    assert banker_best >= values.banker
    for seat in range(2):
        informed, best = player_best_response(game, plans, bank, seat)
        _, own = own_hand_best_response(game, plans, bank, seat)
        assert best >= own >= values.players[seat]
        if seat == 0:  # the first seat sees no earlier choice
            assert best == own and not informed.uses_earlier_choices


def test_seat_does_not_matter_for_equal_strategies_and_a_symmetric_banker() -> None:
    # Players' strategies see only their own cards, and dealing is exchangeable, so only a
    # banker who treats seats differently can make seats differ.
    game = table(0, 3)
    plans = [house_player()] * 3

    def by_count(hand: tuple[int, int], seen: tuple[str, ...]) -> Fraction:
        return Fraction(int(sum(hand) % 10 <= 4 + seen.count("drew") - seen.count("stood")))

    values = seat_values(game, plans, banker_from_function(3, by_count))
    assert values.players[0] == values.players[1] == values.players[2] != 0

    def watches_seat_one(hand: tuple[int, int], seen: tuple[str, ...]) -> Fraction:
        return Fraction(int(sum(hand) % 10 <= (6 if seen[0] == "drew" else 3)))

    values = seat_values(game, plans, banker_from_function(3, watches_seat_one))
    assert values.players[0] != values.players[1] == values.players[2]


def test_dynamics_reduce_regret_and_report_it_exactly() -> None:
    game = table(0, 2)
    plans = [house_player()] * 2
    bank = banker_from_strategy(game, house_banker())
    for informed in (False, True):
        found = dynamics(game, plans, bank, rounds=3, informed=informed)
        assert found.informed is informed
        assert found.history[0] == Fraction(11412480, 815730721)  # the banker's at start
        if not informed:  # own-hand strategies: both regrets, the restricted one smaller
            assert all(o <= r for o, r in zip(found.regrets.own_hand, found.regrets.players,
                                              strict=True))
        assert found.regrets.largest == min(found.history) < found.history[0]
        assert found.regrets.largest > 0 and not found.equilibrium
        assert found.values.banker == -sum(found.values.players)
        assert found.banker_best_response == found.values.banker + found.regrets.banker


def test_larger_finite_tables_are_estimates() -> None:
    report = table_report(RULES, Shoe.decks(1), 3, hands=2000, seed=5)
    assert report.values is None and len(report.estimates) == 3
    assert all(e.label == "estimate" and abs(e.mean) < 4 * e.half_width + 0.05
               for e in report.estimates)
    with pytest.raises(AnalyzerError, match="exact card removal"):
        build_table(RULES, Shoe.decks(1), 3)
    with pytest.raises(AnalyzerError, match="seats 1 to 8"):
        build_table(RULES, Shoe.infinite(), 9)


def test_cli_solve_players() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "--players", "2", "--infinite", "--rounds", "1",
                                  "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["estimate"] is False
    assert document["banker_best_response_value"] == "11412480/815730721"
    assert document["dynamics"]["banker_regret"] == document["dynamics"]["largest_regret"]
    text = runner.invoke(main, ["solve", "--players", "3", "--decks", "1"]).stdout
    assert "estimate" in text and "ESTIMATE" in text


def test_later_seats_best_respond_to_the_earlier_choices() -> None:
    # RULES.md section 4: a player choosing knows the earlier seats' choices, and the banker's
    # play depends on every choice, so seat 2's regret must be taken over (own total, seat
    # 1's natural / drew / stood). Own-total-only deviations understate it 540/62748517 vs
    # 1039644/815730721 (reviewer's figures, infinite deck, 2 players, by total).
    game = table(0, 2)
    bank = banker_from_strategy(game, house_banker())
    found = dynamics(game, [house_player()] * 2, bank, rounds=3, by="total", informed=False)
    assert found.regrets.own_hand == (Fraction(540, 62748517),) * 2
    assert found.regrets.players == (Fraction(540, 62748517), Fraction(1039644, 815730721))
    assert found.regrets.largest == found.regrets.banker == Fraction(265920, 62748517)
    assert found.player_best_responses[1] == found.values.players[1] + Fraction(
        1039644, 815730721)
    informed, value = player_best_response(game, list(found.plans), found.banker, 1, "total")
    assert informed.uses_earlier_choices and informed.seat == 1
    assert value - found.values.players[1] == Fraction(1039644, 815730721)
    assert not found.equilibrium
    document = json.loads(render_table_report(table_report(
        RULES, Shoe.infinite(), 2, "total", 3, informed=False), "json"))["dynamics"]
    assert document["player_regrets"] == ["540/62748517", "1039644/815730721"]
    assert document["player_regrets_own_hand_only"] == ["540/62748517"] * 2
    assert "fictitious" not in document["method"]


def test_informed_best_response_matches_dealing_every_card_sequence() -> None:
    # Independent check of seat 2's full-information best response at exact card removal:
    # play its plan, which reads seat 1's revealed choice, on every deal of the tiny shoe.
    game = build_table(RULES, TINY, 2)
    rng = random.Random(1)
    plans = [tuple(Fraction(rng.randint(0, 1)) for _ in HANDS) for _ in range(2)]
    bank = BankerPlan(2, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(9))
                               for _ in HANDS))
    values = seat_values(game, plans, bank)
    informed, best = player_best_response(game, plans, bank, 1)
    _, own = own_hand_best_response(game, plans, bank, 1)
    assert best > own >= values.players[1] and informed.uses_earlier_choices
    counts = Counter(v for v, n in enumerate(TINY.value_counts()) for _ in range(n))
    total = deals = 0
    seat_plans: list[tuple[Fraction, ...] | InformedPlan] = [plans[0], informed]

    def deal(sequence: list[int], ways: int) -> None:
        nonlocal total, deals
        if len(sequence) == 9:
            results, _ = play_hand(sequence, seat_plans, bank, RULES, random.Random(0))
            total += ways * results[1]
            deals += ways
            return
        for value, left in list(counts.items()):
            if left:
                counts[value] -= 1
                deal([*sequence, value], ways * left)
                counts[value] += 1

    deal([], 1)
    assert best == Fraction(total, deals) == Fraction(1151, 9450)
    assert own == Fraction(22, 189)


def test_verdict_needs_zero_regret_over_full_information_sets() -> None:
    text = render_table_report(table_report(RULES, Shoe.infinite(), 2, "total", 3))
    assert "exact equilibrium" not in text and "not an equilibrium" in text
    assert "seat 2 regret (own hand + earlier choices)" in text
    assert "fictitious play" not in text


def _random_informed(rng: random.Random, seat: int) -> InformedPlan:
    return InformedPlan(seat, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(3**seat))
                                    for _ in HANDS))


def test_informed_strategies_match_dealing_every_card_sequence() -> None:
    # Both seats' exact values when seat 2's strategy reads seat 1's natural / drew / stood
    # (exact card removal), checked by playing every deal of the tiny shoe.
    game = build_table(RULES, TINY, 2)
    rng = random.Random(7)
    plans = [tuple(Fraction(rng.randint(0, 1)) for _ in HANDS), _random_informed(rng, 1)]
    assert plans[1].uses_earlier_choices
    bank = BankerPlan(2, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(9))
                               for _ in HANDS))
    values = seat_values(game, plans, bank)
    counts = Counter(v for v, n in enumerate(TINY.value_counts()) for _ in range(n))
    totals = [0, 0]
    deals = 0

    def deal(sequence: list[int], ways: int) -> None:
        nonlocal deals
        if len(sequence) == 9:
            results, _ = play_hand(sequence, plans, bank, RULES, random.Random(0))
            for seat in range(2):
                totals[seat] += ways * results[seat]
            deals += ways
            return
        for value, left in list(counts.items()):
            if left:
                counts[value] -= 1
                deal([*sequence, value], ways * left)
                counts[value] += 1

    deal([], 1)
    assert values.players == (Fraction(totals[0], deals), Fraction(totals[1], deals))
    # The banker's and seat 1's best responses see seat 2's informed play.
    _, banker_best = banker_best_response(game, plans)
    assert banker_best >= values.banker
    _, first = player_best_response(game, plans, bank, 0)
    assert first >= values.players[0]


@pytest.mark.parametrize("decks", [0, 1])
def test_own_hand_plans_are_informed_plans_that_ignore_the_earlier_choices(decks: int) -> None:
    game = table(decks, 2)
    plans = [house_player()] * 2
    bank = banker_from_strategy(game, house_banker())
    informed = [informed_plan(plan, seat) for seat, plan in enumerate(plans)]
    assert not any(p.uses_earlier_choices for p in informed)
    assert seat_values(game, informed, bank) == seat_values(game, plans, bank)
    assert banker_best_response(game, informed) == banker_best_response(game, plans)
    with pytest.raises(AnalyzerError, match="seat 2 given to seat 1"):
        seat_values(game, [informed[1], informed[1]], bank)


def test_informed_best_responses_are_exact_at_three_players() -> None:
    # Infinite deck, three players: a seat's informed best response, evaluated as a strategy
    # (product of conditional choice probabilities), is worth what the best response says.
    game = table(0, 3)
    rng = random.Random(2)
    plans: list[tuple[Fraction, ...] | InformedPlan] = [house_player(),
                                                         _random_informed(rng, 1),
                                                         _random_informed(rng, 2)]
    bank = BankerPlan(3, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(27))
                               for _ in HANDS))
    for seat in range(3):
        reply, value = player_best_response(game, plans, bank, seat, "total")
        played = list(plans)
        played[seat] = reply
        assert seat_values(game, played, bank).players[seat] == value
        assert value >= seat_values(game, plans, bank).players[seat]


def test_informed_dynamics_get_closer_to_equilibrium_than_own_hand_dynamics() -> None:
    # Infinite deck, two players, by total, from house players and the banker's best response,
    # four rounds: with strategies that see only their own hand seat 2 cannot remove its
    # regret over (own total, seat 1's choice); informed strategies can.
    game = table(0, 2)
    plans = [house_player()] * 2
    bank, _ = banker_best_response(game, plans, "total")
    own = dynamics(game, plans, bank, rounds=4, by="total", informed=False)
    informed = dynamics(game, plans, bank, rounds=4, by="total")
    assert own.history[0] == informed.history[0] == Fraction(138480, 62748517)
    assert own.regrets.largest == Fraction(683160, 815730721)  # seat 2, after one round
    assert informed.regrets.largest == Fraction(3719168, 7843564625)  # the banker's, round 4
    assert informed.regrets.largest < own.regrets.largest
    assert informed.regrets.own_hand == () and not informed.equilibrium
    assert isinstance(informed.plans[1], InformedPlan) and informed.plans[1].uses_earlier_choices
