"""Hand logs: JSON Lines, CSV with common or remapped column names, counts, bad records."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.dealing.handlog import (
    Hand,
    Header,
    LogOptions,
    LogStart,
    Problem,
    ShoeEnd,
    ShoeStart,
    detect_format,
    parse_column_options,
    read_log,
    token_card,
)
from analyzer.dealing.records import Layout
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
    assert [type(r) for r in records] == [Header, ShoeStart, LogStart, Hand, ShoeEnd, Layout]
    assert records[0] == Header(1, None, None) and records[2] == LogStart(3, False)
    start, hand, end = records[1], records[3], records[4]
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
    (hand,) = [r for r in read_log(common) if isinstance(r, Hand)]
    assert isinstance(hand, Hand)
    assert hand.hand == 1 and hand.outcome == "player" and hand.bets == (("banker", 100, 0),)
    odd = tmp_path / "odd.csv"
    odd.write_text("table;deal;P;B;res\n".replace(";", ",")
                   + "x,4,d9 dT,s4 h3,B\n", encoding="utf-8")
    options = LogOptions(columns=parse_column_options(
        ["shoe=table", "hand=deal", "player_cards=P", "banker_cards=B", "outcome=res"]),
        card_order="suit-first")
    (hand,) = [r for r in read_log(odd, options) if isinstance(r, Hand)]
    assert isinstance(hand, Hand)
    assert (hand.shoe, hand.hand, hand.player_values, hand.outcome) == ("x", 4, (9, 0),
                                                                         "banker")


def test_missing_column_is_a_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "log.csv"
    log.write_text("shoe,hand,player_cards,winner\n1,1,9d Td,P\n", encoding="utf-8")
    with pytest.raises(AnalyzerError, match=r"log\.csv: line 1: missing column 'banker_cards'.*"
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
    assert [type(r) for r in read_log(csv_log)] == [Layout, LogStart, Hand, Problem]


def test_remapped_money_columns(tmp_path: Path) -> None:
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


def test_the_format_is_told_in_one_place(tmp_path: Path) -> None:
    counts = tmp_path / "totals.json"
    counts.write_text('{"format": "nine-counts", "hands": 0}', encoding="utf-8")
    partial = tmp_path / "partial.json"
    partial.write_text('{"format": "nine-partial", "version": 1}', encoding="utf-8")
    lines = tmp_path / "log.json"
    lines.write_text('{"shoe": "1", "hand": 1}\n', encoding="utf-8")
    assert [detect_format(p) for p in (counts, partial, lines)] == ["counts", "partial",
                                                                     "jsonl"]
    assert detect_format("a.NDJSON.gz") == "jsonl" and detect_format("a.tsv") == "tsv"
    # a declared format wins, except over a saved partial result
    assert detect_format(counts, "jsonl") == "jsonl" and detect_format("a.csv", "tsv") == "tsv"
    assert detect_format(partial, "csv") == "partial"
    with pytest.raises(AnalyzerError, match="cannot tell the log format from the name"):
        detect_format("log.txt")
    with pytest.raises(AnalyzerError, match="holds no hands"):
        list(read_log(partial))
