"""Checking one file: malformed records, odd field types, remapped columns, the tally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.dealing.handlog import LogOptions, parse_column_options
from analyzer.engine.lookup import build_model
from analyzer.verify.check import Tally, check_file
from analyzer.verify.replay import Settler
from analyzer.verify.run import verify_logs
from analyzer.verify.verdict import EXIT_INPUT, EXIT_PASS, EXIT_VIOLATIONS
from tests.verify.conftest import (
    as_split_columns,
    as_values,
    cli,
    csv_rows,
    write_log,
    write_rows,
)


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
    assert verdict.exit_code == EXIT_VIOLATIONS and verdict.malformed_count == 0
    (excess,) = [i for i in verdict.violations if i.kind == "composition"]
    assert excess.line == 2 and excess.hand == 2
    assert "card AS appears 2 times in shoe 1, more than 1 deck(s) hold" in excess.message
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
    # shoe B runs on from shoe A's hand numbers: both are followed from their start; A
    # ends where B opens, B's end is not in the log (no cards_left): cut, not whole
    assert (partial.hands, partial.shoes, partial.whole_shoes, partial.cut_shoes) == (
        3, 2, 1, 1)
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


def test_a_log_of_point_values_verifies_at_the_level_of_values(clean_csv: Path,
                                                               tmp_path: Path) -> None:
    values = tmp_path / "values.csv"
    write_rows(values, as_values(csv_rows(clean_csv)))
    for model in ("independent", "shoe"):
        cards = verify_logs([str(clean_csv)], model_name=model)
        verdict = verify_logs([str(values)], model_name=model)
        assert verdict.exit_code == EXIT_PASS, (model, verdict.failed_tests)
        assert verdict.partial.values_only and verdict.hands == cards.hands
        names = [t.name for t in verdict.tests]
        assert "suits" not in names and "ranks among tens and faces" not in names
        assert "card point values" in names
        assert any("point values only" in item for item in verdict.unsupported)
        # the bets are settled by values: their statistics are the card log's
        assert [t.statistic for t in verdict.tests if t.bet] == pytest.approx(
            [t.statistic for t in cards.tests if t.bet])
    code, out, _ = cli("verify", str(values))
    assert code == EXIT_PASS and "Not checked" in out and "point values only" in out


def test_a_buggy_values_only_log_exits_3_with_its_violations(tmp_path: Path) -> None:
    buggy = tmp_path / "buggy.csv"
    write_log(buggy, shoes=3, seed=11, fmt="csv", faults=("banker-stands",))
    values = tmp_path / "buggy-values.csv"
    write_rows(values, as_values(csv_rows(buggy)))
    code, out, _ = cli("verify", str(values), "--format", "json")
    report = json.loads(out)
    assert code == EXIT_VIOLATIONS and report["violations"]["by_kind"]["banker-draw"] > 0
    # a shoe holding more zero-valued cards than 8 decks hold (128): a composition
    # violation per value, listed with the hand where it went past the shoe
    rows = as_values(csv_rows(buggy))
    shoe_one = [row for row in rows[1:] if row[0] == "1"]
    zeros = sum(" ".join(row[2:4] + [row[5]]).split().count("0") for row in shoe_one)
    extra = 129 - zeros
    changed = 0
    for row in shoe_one:
        cards = row[2].split()
        if changed < extra and cards[0] != "0":
            row[2] = " ".join(["0", *cards[1:]])
            changed += 1
    assert changed == extra
    write_rows(values, rows)
    code, out, _ = cli("verify", str(values), "--format", "json")
    report = json.loads(out)
    assert code == EXIT_VIOLATIONS and report["violations"]["by_kind"]["composition"] == 1
    (excess,) = [i for i in report["violations"]["listed"] if i["kind"] == "composition"]
    assert excess["shoe"] == "1" and "point value 0 appears 129 times" in excess["message"]


def test_values_only_against_a_profile_with_card_bets(tmp_path: Path) -> None:
    lucky = tmp_path / "lucky.csv"
    write_log(lucky, shoes=1, seed=8, fmt="csv", profile="lucky-baccarat")
    values = tmp_path / "lucky-values.csv"
    write_rows(values, as_values(csv_rows(lucky)))
    verdict = verify_logs([str(values)], "lucky-baccarat")
    assert verdict.violation_count == 0 and verdict.malformed_count == 0
    assert verdict.exit_code == EXIT_PASS
    assert "lucky-player-pair" in verdict.partial.skipped_bets
    assert "player-black" in verdict.partial.skipped_bets  # colour is a suit
    tested = {t.bet for t in verdict.tests if t.bet}
    assert "banker" in tested and "lucky-6" in tested and "player-black" not in tested
    assert any("lucky-player-pair" in item for item in verdict.unsupported)
    # logs of values and logs of cards are not mixed
    code, _, err = cli("verify", str(values), str(lucky), "--profile", "lucky-baccarat")
    assert code == EXIT_INPUT and "writes point values only" in err


def test_split_columns_and_outcome_words_verify_like_the_original(clean_csv: Path,
                                                                  tmp_path: Path) -> None:
    split = tmp_path / "split.csv"
    write_rows(split, as_split_columns(csv_rows(clean_csv)))
    assert "Banker wins" in split.read_text(encoding="utf-8")
    original = verify_logs([str(clean_csv)])
    verdict = verify_logs([str(split)])
    assert verdict.exit_code == EXIT_PASS and verdict.hands == original.hands
    assert [t.statistic for t in verdict.tests] == pytest.approx(
        [t.statistic for t in original.tests])


def test_a_stake_outside_its_betting_window_is_a_violation(tmp_path: Path) -> None:
    lucky = tmp_path / "lucky.jsonl"
    write_log(lucky, shoes=1, seed=5, profile="lucky-baccarat")
    clean = verify_logs([str(lucky)], "lucky-baccarat", model_name="independent")
    assert clean.violation_count == 0
    lines = lucky.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    first = next(r for r in records if r.get("hand") == 1)
    late = next(r for r in records if r.get("hand") == 45)
    assert "player-black" in first["bets"] and "player-black" not in late["bets"]
    late["bets"]["lucky-6"] = [100, 0]  # Lucky 6's window closes after hand 30
    late["bets"]["lucky-player-pair"] = [100, 0]  # ... the pair bets' after hand 60
    where = records.index(late)
    lines[where] = json.dumps(late)
    lucky.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = cli("verify", str(lucky), "--profile", "lucky-baccarat", "--model",
                       "independent", "--format", "json")
    report = json.loads(out)
    assert code == EXIT_VIOLATIONS and report["violations"]["by_kind"].get("window") == 1
    (window,) = [i for i in report["violations"]["listed"] if i["kind"] == "window"]
    assert window["hand"] == 45 and window["line"] == where + 1
    assert "lucky-6: staked 100 on hand 45 of shoe 1" in window["message"]
    assert "closes after hand 30" in window["message"]
