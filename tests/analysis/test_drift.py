"""Shoes dealt by the procedure: a hand-checked position, exact EVs, seeded reproduction."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import numpy as np
import pytest

from analyzer.analysis.drift import (
    remaining_before_hands,
    shoe_positions,
    simulate_shoes,
    visible_before_hands,
)
from analyzer.dealing.shuffle import deal_shoe, hidden_burn
from analyzer.dealing.simulate import simulate
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import NULL_TWO_CARD, shoe_evaluator
from analyzer.rules.cards import DECK, Card, parse_cards
from analyzer.rules.procedure import Procedure, parse_procedure
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

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
    evaluator = shoe_evaluator(build_model("punto-banco", 1))
    exact = odds("punto-banco", before_hand_3)
    ev = evaluator.ev(rows[2:3])[0]
    for j, bet in enumerate(exact.bets):
        assert abs(ev[j] - float(bet.ev)) <= 1e-12 * abs(float(bet.ev))


def test_card_level_bets_exact_on_depleted_shoes() -> None:
    profile = load_profile("lucky-baccarat")
    evaluator = shoe_evaluator(build_model(profile, 2))
    # colours and pairs by the two-card quadratic form
    assert evaluator.nulls[evaluator.model.bet_index()["player-red"]] == NULL_TWO_CARD
    orders, starts = shoe_positions(profile, 2, 1, seed=5)
    rows = remaining_before_hands(orders[0], starts[0], 2)[[0, 8, 15]]
    got = evaluator.ev(rows)
    for row, values in zip(rows, got, strict=True):
        exact = odds(profile, Shoe(tuple(int(n) for n in row)))
        for j, bet in enumerate(exact.bets):
            assert abs(values[j] - float(bet.ev)) <= 1e-12 * max(abs(float(bet.ev)), 1e-3)


def test_lucky_baccarat_windows_from_profile() -> None:
    procedure = load_profile("lucky-baccarat").procedure
    assert procedure.window("lucky-6") == 30
    assert procedure.window("player-red") == 40
    assert procedure.window("lucky-banker-pair") == 60
    assert procedure.window("banker") is None
    assert load_profile("punto-banco").procedure.cut_card == 16


def test_seeded_runs_reproduce() -> None:
    first = simulate_shoes("lucky-baccarat", 8, 20, seed=9)
    second = simulate_shoes("lucky-baccarat", 8, 20, seed=9)
    assert first.hands_per_shoe == second.hands_per_shoe
    assert first.bets == second.bets
    assert first.bet("lucky-6").window == 30
    assert all(70 <= hands <= 85 for hands in first.hands_per_shoe)
    assert simulate_shoes("lucky-baccarat", 8, 20, seed=10).bets != first.bets


def test_counter_decides_on_seen_cards_and_is_credited_true_ev() -> None:
    """The counter's figures recomputed hand by hand from the card orders: it sees the
    exposed first card and the previous hands (not the cards burned face down), bets when
    that EV is positive, and is credited the exact EV of the remaining cards."""
    profile = load_profile("lucky-baccarat")
    shoes, decks = 3, 8
    run = simulate_shoes(profile, decks, shoes, seed=3)
    orders, starts = shoe_positions(profile, decks, shoes, 3)
    evaluator = shoe_evaluator(build_model(profile, decks))
    full = np.full(52, decks, dtype=np.int64)
    true_rows, seen_rows, hands = [], [], []
    for order, shoe_starts in zip(orders, starts, strict=True):
        first = shoe_starts[0]
        for hand, start in enumerate(shoe_starts, start=1):
            seen = [int(order[0]), *(int(c) for c in order[first:start])]
            seen_rows.append(full - np.bincount(seen, minlength=52))
            true_rows.append(full - np.bincount(order[:start], minlength=52))
            hands.append(hand)
    true_ev = evaluator.ev(np.array(true_rows))
    seen_ev = evaluator.ev(np.array(seen_rows))
    number = np.array(hands)
    disagree = 0
    for j, bet in enumerate(profile.bets):
        drift = run.bet(bet.id)
        window = number <= (drift.window or number.max())
        units = np.where(seen_ev[:, j] > 0, true_ev[:, j], 0.0)
        assert drift.counter_bets_per_shoe == pytest.approx((seen_ev[:, j] > 0).sum() / shoes)
        assert drift.counter_units_per_shoe == pytest.approx(units.sum() / shoes, abs=1e-12)
        assert drift.counter_units_per_shoe_window == pytest.approx(
            units[window].sum() / shoes, abs=1e-12)
        assert drift.mean_ev_all == pytest.approx(true_ev[:, j].mean(), abs=1e-12)
        disagree += int(((seen_ev[:, j] > 0) != (true_ev[:, j] > 0)).sum())
    assert disagree > 0  # the hidden burn changes some decisions in these shoes


def test_burned_cards_are_hidden_and_ten_burns_ten() -> None:
    """A queen exposed burns ten cards face down: the player has seen only the queen."""
    head = [card.index for card in parse_cards("QH 2C 3C 4C 5C 6C 7C 8C 9C TC JC")]
    order = head + [card.index for card in DECK if card.index not in head]
    tableau = load_profile("punto-banco").tableau
    assert tableau is not None
    procedure = Procedure("first-card", 16, (), "test")
    starts = deal_shoe(tableau, order, procedure)
    assert starts[0] == 11
    hidden = hidden_burn(order, procedure)
    assert hidden.sum() == 10 and hidden[Card.parse("QH").index] == 0
    assert hidden[Card.parse("JC").index] == 1
    rows = visible_before_hands(np.array(order), starts, 1, procedure)
    assert tuple(int(n) for n in rows[0]) == Shoe.decks(1).remove([Card.parse("QH")]).counts
    assert tuple(int(n) for n in remaining_before_hands(np.array(order), starts, 1)[0]) == \
        Shoe.decks(1).remove(parse_cards("QH 2C 3C 4C 5C 6C 7C 8C 9C TC JC")).counts


def _simulated_starts(profile: Profile, decks: int, shoes: int, seed: int) -> list[list[int]]:
    """Hand start positions of ``nine simulate``'s hand log (burn, then each hand's cards)."""
    out = io.StringIO()
    simulate(profile, decks=decks, shoes=shoes, seed=seed, out=out)
    starts: dict[str, list[int]] = {}
    position: dict[str, int] = {}
    for line in out.getvalue().splitlines():
        record = json.loads(line)
        if record.get("type") == "shoe":
            position[record["shoe"]] = len(record["burn"])
            starts[record["shoe"]] = []
        elif "hand" in record:
            starts[record["shoe"]].append(position[record["shoe"]])
            position[record["shoe"]] += len(record["player"]) + len(record["banker"])
    return list(starts.values())


@pytest.mark.parametrize("after", [0, 1, 2])
def test_shoe_deals_as_simulate_does(after: int) -> None:
    base = load_profile("punto-banco")
    profile = replace(base, procedure=parse_procedure({"cut_card": 16, "hands_after_cut": after},
                                                     (), base.name))
    assert profile.procedure.hands_after_cut == after
    _, starts = shoe_positions(profile, 1, 40, 11)
    assert starts == _simulated_starts(profile, 1, 40, 11)
    run = simulate_shoes(profile, 1, 40, seed=11)
    assert list(run.hands_per_shoe) == [len(s) for s in starts]


def test_hand_starting_at_the_cut_card_is_not_dealt() -> None:
    """Pinned: when a hand ends on the last card before the cut card, it is the last hand
    (the cut card is reached); ``hands_after_cut = 1`` deals exactly one more, from there."""
    profile = load_profile("punto-banco")
    tableau = profile.tableau
    assert tableau is not None
    plain = Procedure("first-card", 16, (), "test")
    extra = Procedure("first-card", 16, (), "test", hands_after_cut=1)
    cut = 52 - 16
    orders, _ = shoe_positions(profile, 1, 200, 5)
    found = 0
    for order in orders:
        with_extra = deal_shoe(tableau, order.tolist(), extra)
        if cut not in with_extra:
            continue
        found += 1
        starts = deal_shoe(tableau, order.tolist(), plain)
        assert starts == with_extra[:-1] and with_extra[-1] == cut
    assert found > 0


def test_progress_is_reported_through_the_callback_only(capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[tuple[int, int]] = []
    run = simulate_shoes("punto-banco", 1, 3, seed=2,
                         on_progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (run.hands_dealt, run.hands_dealt)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert capsys.readouterr() == ("", "")
