"""Tables of several players: exact seat values, best responses, regrets, dynamics."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.choice.plans import (
    BankerPlan,
    InformedPlan,
    banker_from_function,
    banker_from_strategy,
    house_banker,
    house_player,
)
from analyzer.choice.responses import (
    banker_best_response,
    dynamics,
    own_hand_best_response,
    player_best_response,
    seat_values,
)
from analyzer.choice.simulation import play_hand
from analyzer.choice.table import build_table
from analyzer.choice.table_report import table_report
from analyzer.present.report.choice import render_table_report
from analyzer.rules.choice_rules import HANDS
from analyzer.rules.shoe import Shoe
from tests.choice.conftest import RULES, TINY, random_informed, table


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


def test_later_seats_best_respond_to_the_earlier_choices() -> None:
    # docs/rules/lucky9-home.md §7: a player choosing knows the earlier seats' choices, and
    # the banker's play depends on every choice, so seat 2's regret must be taken over (own
    # total, seat 1's natural / drew / stood). Own-total-only deviations understate it
    # 540/62748517 vs 1039644/815730721 (reviewer's figures, infinite deck, 2 players, by total).
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


def test_informed_best_responses_are_exact_at_three_players() -> None:
    # Infinite deck, three players: a seat's informed best response, evaluated as a strategy
    # (product of conditional choice probabilities), is worth what the best response says.
    game = table(0, 3)
    rng = random.Random(2)
    plans: list[tuple[Fraction, ...] | InformedPlan] = [house_player(),
                                                         random_informed(rng, 1),
                                                         random_informed(rng, 2)]
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
