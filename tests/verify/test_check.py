"""Checking one file: malformed records, odd field types, remapped columns, the tally."""

from __future__ import annotations

import json
from pathlib import Path

from analyzer.dealing.handlog import LogOptions, parse_column_options
from analyzer.engine.lookup import build_model
from analyzer.verify.check import Tally, check_file
from analyzer.verify.replay import Settler
from analyzer.verify.run import verify_logs
from analyzer.verify.verdict import EXIT_INPUT
from tests.verify.conftest import cli


def test_malformed_logs_give_clear_errors(clean_log: Path, tmp_path: Path) -> None:
    lines = clean_log.read_text(encoding="utf-8").splitlines()
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text("\n".join(lines[:40] + [lines[40][:25]]) + "\n", encoding="utf-8")
    verdict = verify_logs([str(truncated)])
    assert verdict.exit_code == EXIT_INPUT and verdict.malformed_count == 1
    assert verdict.malformed[0].line == 41
    assert "truncated or invalid JSON" in verdict.malformed[0].message
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text("\n".join(lines[:5] + [lines[5].replace('"', '"Z', 1)
                                              .replace('"Zshoe"', '"shoe"')
                                              .replace('["', '["Zq', 1)]) + "\n",
                       encoding="utf-8")
    code, out, _ = cli("verify", str(unknown))
    assert code == EXIT_INPUT and ":6" in out and "unknown card 'Zq" in out
    # one deck: the same card twice in a shoe is more than the shoe holds
    one_deck = tmp_path / "one-deck.jsonl"
    one_deck.write_text(
        '{"shoe": "1", "hand": 1, "player": ["As", "2c"], "banker": ["3d", "Kh"]}\n'
        '{"shoe": "1", "hand": 2, "player": ["As", "5c"], "banker": ["Td", "Jh"]}\n',
        encoding="utf-8")
    verdict = verify_logs([str(one_deck)], decks=1)
    assert verdict.exit_code == EXIT_INPUT
    assert verdict.malformed[0].line == 2 and verdict.malformed[0].kind == "composition"
    assert "card AS appears 2 times in shoe 1, more than 1 deck(s) hold" in \
        verdict.malformed[0].message
    missing = tmp_path / "missing.csv"
    missing.write_text("shoe,round,player_cards,winner\n1,1,9d Td,P\n", encoding="utf-8")
    code, _, err = cli("verify", str(missing))
    assert code == EXIT_INPUT and "missing column 'banker_cards'" in err
    code, _, err = cli("verify", str(tmp_path / "nothing-*.csv"))
    assert code == EXIT_INPUT and "no file matches" in err


def test_jsonl_fields_of_the_wrong_type_are_malformed_records(tmp_path: Path) -> None:
    good = {"shoe": "1", "hand": 1, "player": ["9d", "Td"], "banker": ["4s", "5h"]}
    bad = [{"player": 5}, {"outcome": 7}, {"banker": {"a": 1}}, {"burn": 3},
           {"outcome": ["P"]}, {"bets": [1, 2]}, {"player": ["9d", 5]}]
    lines = [json.dumps(good)] + [json.dumps({**good, "hand": i + 2, **b})
                                  for i, b in enumerate(bad)]
    path = tmp_path / "types.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdict = verify_logs([str(path)], model_name="independent")
    assert verdict.exit_code == EXIT_INPUT
    assert [i.line for i in verdict.malformed] == list(range(2, 2 + len(bad)))
    assert "player must be a list of cards" in verdict.malformed[0].message
    assert "outcome must be a string" in verdict.malformed[1].message
    code, out, err = cli("verify", str(path))
    assert code == EXIT_INPUT and "Traceback" not in out + err and ":2" in out


def test_remapped_money_columns_and_running_hand_numbers(tmp_path: Path) -> None:
    log = tmp_path / "house.csv"
    log.write_text("Shoe No,Round,Player,Banker,Result,BankBet,BankPaid\n"
                   "A,1,9d Td,4s 3h Kc,P,100,0\n"
                   "A,2,2c 3c 4c,Kd Qd 5h,P,100,0\n"
                   "B,3,Ah Kh,Kd Qd,P,20,0\n", encoding="utf-8")
    options = LogOptions(columns=parse_column_options(
        ["shoe=Shoe No", "banker_stake=BankBet", "banker_returned=BankPaid"]))
    partial = check_file(log, build_model("punto-banco", 8), options)
    # shoe B runs on from shoe A's hand numbers: both are whole shoes
    assert (partial.hands, partial.shoes, partial.whole_shoes) == (3, 2, 2)
    banker = partial.bets[0]
    assert (banker.staked_hands, banker.stake, banker.stake_squares, banker.returned) == (
        3, 220, 100 * 100 * 2 + 20 * 20, 0)


def test_the_tally_checks_a_cell_once_and_folds_exactly() -> None:
    model = build_model("punto-banco", 8)
    settler = Settler(model)
    tally = Tally(model, settler)
    labels = (0, 4, 7)
    by_bet = {b.bet.id: labels[i] for i, b in enumerate(model.bets)}
    bets = (("banker", 100, 0), ("tie", 0, 0))
    cell = tally.cell(labels, by_bet, bets)
    assert cell == [0, ()] and tally.cells[(labels, bets)] is cell
    cell[0] += 3
    tally.fold()
    assert tally.cells == {} and tally.hands == 3
    assert [tally.counts[i] for i in labels] == [3, 3, 3] and sum(tally.counts) == 9
    # the zero stake on tie is no staked hand
    assert tally.money[model.bet_index()["banker"]] == [3, 300, 30_000, 0]
    assert tally.money[model.bet_index()["tie"]] == [0, 0, 0, 0]
