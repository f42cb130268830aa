"""Replay of one hand: the drawing rules, injected faults, payouts, zero stakes, rounding."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from analyzer.dealing.handlog import make_hand
from analyzer.engine.lookup import build_model
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile
from analyzer.verify.replay import Settler, replay_rules, settled_coups
from analyzer.verify.run import verify_logs
from analyzer.verify.verdict import EXIT_PASS, EXIT_STATISTICS, EXIT_VIOLATIONS
from tests.conftest import brute_force_deal
from tests.verify.conftest import banker_hand, cli, write_log


def test_replay_rules_agree_with_the_written_rules() -> None:
    check = replay_rules(load_profile("punto-banco").tableau)  # type: ignore[arg-type]
    for first in product(range(10), repeat=4):
        for thirds in ((1, 6), (7, 2)):
            winner, _, _, used = brute_force_deal((*first, *thirds))
            values = (*first, *thirds)[:used]
            player = (values[0], values[2], *values[4:5]) if used > 4 and (
                first[0] + first[2]) % 10 <= 5 else (values[0], values[2])
            banker = (values[1], values[3], *values[4 + len(player) - 2:used])
            assert check(player, banker) is None
            if used == 4:  # a third card on a hand that must stand is a violation
                assert check(player, (*banker, 5)) is not None
            else:  # and a missing third card too
                assert check(player, banker[:2]) is not None or check(
                    player[:2], banker) is not None


def test_settled_coups_are_kept_per_profile_and_deck_count() -> None:
    model = build_model("punto-banco", 8)
    coups = settled_coups(model.profile, model.decks)
    assert settled_coups(load_profile("punto-banco"), 8) is coups
    assert settled_coups(model.profile, 6) is not coups
    settler = Settler(model)
    hand = make_hand(1, "1", 1, (38, 35), (0, 4))  # TD 9C against AS 2S: Player 9 wins
    broken, winner, labels, by_bet = settler.entry_for(hand)
    assert (broken, winner) == (None, "player") and len(labels) == len(model.bets)
    assert settler.entry_for(hand) is settler.entry_for(hand)
    assert settler.payout_problems(by_bet, (("player", 100, 200), ("tie", 10, 0))) == ()
    (kind, message), = settler.payout_problems(by_bet, (("player", 100, 150),))
    assert kind == "payout" and "returned 150, the paytable returns 200" in message
    with pytest.raises(AnalyzerError, match="unknown rounding rule 'up'"):
        Settler(model, "up")


@pytest.mark.parametrize(("fault", "kind"), [
    ("banker-stands", "banker-draw"),
    ("natural-draw", "natural-draw"),
    ("wrong-payout", "payout"),
    ("commission", "payout"),
])
def test_injected_faults_are_caught_with_their_hand_numbers(tmp_path: Path, fault: str,
                                                            kind: str) -> None:
    path = tmp_path / "faulty.jsonl"
    summary = write_log(path, shoes=3, seed=99, faults=(fault,))
    assert summary.faulted
    verdict = verify_logs([str(path)], model_name="independent")
    assert verdict.exit_code == EXIT_VIOLATIONS
    assert dict(verdict.violation_kinds) == {kind: len(summary.faulted)}
    listed = [(v.shoe, v.hand) for v in verdict.violations]
    assert listed == list(summary.faulted[:100])
    if fault == "commission":
        assert "returned 190, the paytable returns 195 (Banker wins)" in \
            verdict.violations[0].message
    code, out, _ = cli("verify", str(path), "--format", "json")
    document = json.loads(out)
    assert code == EXIT_VIOLATIONS and document["violations"]["count"] == len(summary.faulted)


def test_a_zero_stake_is_no_staked_hand_and_a_payment_on_it_a_violation(
        tmp_path: Path) -> None:
    path = tmp_path / "zero.jsonl"
    path.write_text(banker_hand('{"tie": [0, 0], "banker": [100, 195]}'), encoding="utf-8")
    verdict = verify_logs([str(path)])
    assert verdict.exit_code in (EXIT_PASS, EXIT_STATISTICS) and verdict.violation_count == 0
    tie = next(b for b in verdict.bets if b.id == "tie")
    assert tie.basis == "cards, unit stake"
    path.write_text(banker_hand('{"tie": [0, 900]}'), encoding="utf-8")
    verdict = verify_logs([str(path)])
    assert verdict.exit_code == EXIT_VIOLATIONS
    assert "tie: staked 0, returned 900" in verdict.violations[0].message
    csv_log = tmp_path / "zero.csv"
    csv_log.write_text("shoe,hand,player_cards,banker_cards,winner,tie_stake,tie_returned\n"
                       "1,1,Td Kd,9s Ts,B,0,900\n1,2,Td Kd,9s Ts,B,0,0\n1,3,Td Kd,9s Ts,B,,\n",
                       encoding="utf-8")
    verdict = verify_logs([str(csv_log)])
    assert verdict.exit_code == EXIT_VIOLATIONS and verdict.violation_count == 1
    assert verdict.violations[0].hand == 1


def test_rounding_rule_for_fractional_payouts(tmp_path: Path) -> None:
    path = tmp_path / "commission.jsonl"
    for returned, rule, ok in [(20, "down", False), (19, "down", True),
                               (20, "nearest", True), (19, "nearest", False),
                               (19, "either", True), (20, "either", True),
                               (18, "either", False)]:
        path.write_text(banker_hand(f'{{"banker": [10, {returned}]}}'), encoding="utf-8")
        args = ["verify", str(path)] + (["--rounding", rule] if rule != "down" else [])
        code, out, _ = cli(*args)
        assert (code != EXIT_VIOLATIONS) == ok, (returned, rule, out)
        if not ok and rule == "down":
            assert "returns 19.50, 19 rounding down" in out


def test_commission_amounts_are_fractions_of_the_stake() -> None:
    settler = Settler(build_model("punto-banco", 8), "either")
    banker = make_hand(1, "1", 1, (38, 50), (35, 36))  # TD KD against 9C TS: Banker 9
    _, winner, _, by_bet = settler.entry_for(banker)
    assert winner == "banker"
    assert 1 + settler.label_nets[by_bet["banker"]] == Fraction(39, 20)
    assert settler.payout_problems(by_bet, (("banker", 10, 19), ("banker", 10, 20))) == ()
