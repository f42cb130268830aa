"""Hand logs: JSON Lines, CSV with common or remapped column names, counts, bad records."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from analyzer.dealing.handlog import (
    Hand,
    LogOptions,
    LogWriter,
    Problem,
    ShoeEnd,
    ShoeStart,
    parse_column_options,
    read_counts,
    read_log,
    token_card,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.cards import Card


def index(text: str) -> int:
    return Card.parse(text).index


def test_card_tokens_in_every_spelling() -> None:
    assert token_card("Td") == token_card("10d") == token_card("TD") == index("TD")
    assert token_card("K♠") == index("KS")
    assert token_card("d9", "suit-first") == index("9D")
    with pytest.raises(AnalyzerError, match="unknown card '9x'"):
        token_card("9x")
    with pytest.raises(AnalyzerError, match="unknown card"):
        token_card("1d")  # an ace is A, never 1


def test_jsonl_records_in_order(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join([
        '{"type": "header", "format": "nine-handlog", "version": 1}',
        '{"type": "shoe", "shoe": "7", "decks": 8, "burn": ["3h", "2c", "Kd", "9s"]}',
        '{"shoe": "7", "hand": 1, "player": ["9d", "Td"], "banker": "4s 3h Kc", '
        '"outcome": "P", "bets": {"player": [100, 200], "banker": {"stake": 100, '
        '"returned": 0}}}',
        '{"type": "shoe_end", "shoe": "7", "cards_left": 15}',
    ]) + "\n", encoding="utf-8")
    records = list(read_log(log))
    assert [type(r) for r in records] == [ShoeStart, Hand, ShoeEnd]
    start, hand, end = records
    assert isinstance(start, ShoeStart) and start.decks == 8 and len(start.burn) == 4
    assert isinstance(hand, Hand)
    assert (hand.line, hand.shoe, hand.hand, hand.outcome) == (3, "7", 1, "player")
    assert hand.player == (index("9D"), index("TD")) and hand.player_values == (9, 0)
    assert hand.banker_values == (4, 3, 0)
    assert hand.bets == (("player", 100, 200), ("banker", 100, 0))
    assert isinstance(end, ShoeEnd) and end.cards_left == 15


def test_csv_common_names_and_remapped_columns(tmp_path: Path) -> None:
    common = tmp_path / "common.csv"
    common.write_text("Shoe,Round,Player_Cards,Banker_Cards,Winner,banker_stake,"
                      "banker_returned\n1,1,9d 10d,4s 3h Kc,player,100,0\n", encoding="utf-8")
    (hand,) = list(read_log(common))
    assert isinstance(hand, Hand)
    assert hand.hand == 1 and hand.outcome == "player" and hand.bets == (("banker", 100, 0),)
    odd = tmp_path / "odd.csv"
    odd.write_text("table;deal;P;B;res\n".replace(";", ",")
                   + "x,4,d9 dT,s4 h3,B\n", encoding="utf-8")
    options = LogOptions(columns=parse_column_options(
        ["shoe=table", "hand=deal", "player_cards=P", "banker_cards=B", "outcome=res"]),
        card_order="suit-first")
    (hand,) = list(read_log(odd, options))
    assert isinstance(hand, Hand)
    assert (hand.shoe, hand.hand, hand.player_values, hand.outcome) == ("x", 4, (9, 0),
                                                                         "banker")


def test_missing_column_is_a_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text("shoe,hand,player_cards,winner\n1,1,9d Td,P\n", encoding="utf-8")
    with pytest.raises(AnalyzerError, match=r"log\.csv: missing column 'banker_cards'.*"
                                            r"--column banker_cards=HEADER"):
        list(read_log(log))
    with pytest.raises(AnalyzerError, match="expected FIELD=HEADER"):
        parse_column_options(["hand"])


def test_bad_records_become_problems_with_line_numbers(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    good = '{"shoe": "1", "hand": 1, "player": ["9d", "Td"], "banker": ["4s", "5h"]}'
    log.write_text("\n".join([
        good,
        '{"shoe": "1", "hand": 2, "player": ["9d", "Xd"], "banker": ["4s", "5h"]}',
        '{"shoe": "1", "hand": 3, "player": ["9d"',
        '{"shoe": "1", "hand": 4, "player": ["9d", "Td"], "banker": ["4s", "5h"], '
        '"outcome": "dragon"}',
    ]), encoding="utf-8")
    records = list(read_log(log))
    problems = [r for r in records if isinstance(r, Problem)]
    assert [p.line for p in problems] == [2, 3, 4]
    assert "unknown card 'Xd'" in problems[0].message
    assert problems[1].message.startswith("truncated or invalid JSON")
    assert "unknown outcome 'dragon'" in problems[2].message
    csv_log = tmp_path / "log.csv"
    csv_log.write_text("shoe,hand,player_cards,banker_cards\n1,1,9d Td,4s 5h\n1,2,9d\n",
                       encoding="utf-8")
    assert [type(r) for r in read_log(csv_log)] == [Hand, Problem]


def test_writer_round_trip_in_both_formats() -> None:
    for fmt in ("jsonl", "csv"):
        out = io.StringIO()
        writer = LogWriter(out, fmt, ("banker",))
        writer.header({"profile": "punto-banco"})
        writer.shoe_start("1", 8, (index("5S"),))
        writer.hand("1", 1, (index("9D"), index("TD")), (index("4S"), index("5H")), "player",
                    {"banker": (100, 0)}, (index("5S"),) if fmt == "csv" else ())
        suffix = ".jsonl" if fmt == "jsonl" else ".csv"
        path = Path(f"{__file__}.tmp{suffix}")
        try:
            path.write_text(out.getvalue(), encoding="utf-8")
            hands = [r for r in read_log(path) if isinstance(r, Hand)]
        finally:
            path.unlink()
        assert hands[0].player_values == (9, 0) and hands[0].bets == (("banker", 100, 0),)


def test_counts_file(tmp_path: Path) -> None:
    path = tmp_path / "totals.json"
    path.write_text(json.dumps({"format": "nine-counts", "hands": 10, "bets": {
        "tie": {"results": {"Tie": 1, "lose": 9}, "stake": 1000, "returned": 900}}}),
        encoding="utf-8")
    counts = read_counts(path)
    assert counts.hands == 10 and counts.bets[0].results == (("Tie", 1), ("lose", 9))
    path.write_text(json.dumps({"format": "nine-counts", "hands": 11, "bets": {
        "tie": {"results": {"Tie": 1, "lose": 9}}}}), encoding="utf-8")
    with pytest.raises(AnalyzerError, match="results add up to 10, not hands = 11"):
        read_counts(path)


def test_remapped_money_columns_and_running_hand_numbers(tmp_path: Path) -> None:
    from analyzer.engine.lookup import build_model
    from analyzer.verify.run import check_file

    log = tmp_path / "house.csv"
    log.write_text("Shoe No,Round,Player,Banker,Result,BankBet,BankPaid\n"
                   "A,1,9d Td,4s 3h Kc,P,100,0\n"
                   "A,2,2c 3c 4c,Kd Qd 5h,P,100,0\n"
                   "B,3,Ah Kh,Kd Qd,P,20,0\n", encoding="utf-8")
    options = LogOptions(columns=parse_column_options(
        ["shoe=Shoe No", "banker_stake=BankBet", "banker_returned=BankPaid"]))
    hands = [r for r in read_log(log, options) if isinstance(r, Hand)]
    assert [h.bets for h in hands] == [(("banker", 100, 0),), (("banker", 100, 0),),
                                       (("banker", 20, 0),)]
    partial = check_file(log, build_model("punto-banco", 8), options)
    # shoe B runs on from shoe A's hand numbers: both are whole shoes
    assert (partial.hands, partial.shoes, partial.whole_shoes) == (3, 2, 2)
    banker = partial.bets[0]
    assert (banker.staked_hands, banker.stake, banker.stake_squares, banker.returned) == (
        3, 220, 100 * 100 * 2 + 20 * 20, 0)
