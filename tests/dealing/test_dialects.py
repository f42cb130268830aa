"""Log dialects: split card columns, point values only, outcome words, header names."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.dealing.columns import find_columns
from analyzer.dealing.dialects import (
    CARD_VALUE,
    OUTCOME_WORDS,
    VALUE_CARD,
    LogOptions,
    is_values_field,
    normalize_outcome,
    parse_column_options,
)
from analyzer.dealing.handlog import Hand, LogStart, Problem, read_log, sniff_log
from analyzer.dealing.records import Layout
from analyzer.errors import AnalyzerError


def hands(path: Path, options: LogOptions | None = None) -> list[Hand]:
    return [r for r in read_log(path, options) if isinstance(r, Hand)]


def test_the_value_cards_stand_for_their_values() -> None:
    assert [CARD_VALUE[c] for c in VALUE_CARD] == list(range(10))


@pytest.mark.parametrize(("header", "split"), [
    ("pcard1,pcard2,pcard3,bcard1,bcard2,bcard3", True),
    ("Player Card 1,Player Card 2,Player Card 3,Banker Card 1,Banker Card 2,Banker Card 3",
     True),
    ("P1,P2,P3,B1,B2,B3", True),
    ("player_card_1,player_card_2,player_card_3,banker_card_1,banker_card_2,banker_card_3",
     True),
])
def test_split_card_columns_are_found_by_common_names(tmp_path: Path, header: str,
                                                      split: bool) -> None:
    path = tmp_path / "split.csv"
    path.write_text(f"Shoe No,Round,{header},Result\n"
                    "1,1,9d,Td,,4s,3h,Kc,Player Wins\n"
                    "1,2,2c,3c,4c,Kd,Qd,-,banker win\n", encoding="utf-8")
    first, second = hands(path)
    assert (first.shoe, first.hand, first.player_values, first.banker_values,
            first.outcome) == ("1", 1, (9, 0), (4, 3, 0), "player")
    assert second.player_values == (2, 3, 4) and second.banker_values == (0, 0)
    assert second.outcome == "banker"


def test_split_card_columns_named_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "house.csv"
    path.write_text("deal,first,second,third,b_a,b_b,b_c,win\n"
                    "1,9d,Td,,4s,3h,Kc,P\n", encoding="utf-8")
    with pytest.raises(AnalyzerError, match=r"missing column 'player_cards' \(looked for "
                                            r"player_cards or player or pcard1,pcard2"):
        hands(path, LogOptions(columns=(("hand", "deal"),)))
    options = LogOptions(columns=parse_column_options([
        "hand=deal", "player_cards=first,second,third", "banker_cards=b_a, b_b ,b_c",
        "outcome=win"]))
    (hand,) = hands(path, options)
    assert hand.player_values == (9, 0) and hand.banker_values == (4, 3, 0)
    with pytest.raises(AnalyzerError, match="no such column 'fourth'"):
        hands(path, LogOptions(columns=parse_column_options(
            ["hand=deal", "player_cards=first,fourth", "banker_cards=b_a,b_b"])))
    with pytest.raises(AnalyzerError, match="only a card field"):
        parse_column_options(["hand=a,b"])


def test_without_a_hand_column_hands_are_numbered_in_order_within_each_shoe(
        tmp_path: Path) -> None:
    path = tmp_path / "no-hand.csv"
    path.write_text("shoe,pcard1,pcard2,pcard3,bcard1,bcard2,bcard3,result\n"
                    "1,5,9,8,2,0,6,banker win\n"
                    "1,5,0,2,8,3,1,player win\n"
                    "2,9,0,,4,3,0,player win\n"
                    "1,8,0,,9,0,,banker win\n", encoding="utf-8")
    assert [(h.shoe, h.hand, h.outcome) for h in hands(path)] == [
        ("1", 1, "banker"), ("1", 2, "player"), ("2", 1, "player"), ("1", 3, "banker")]


def test_point_values_only_are_told_from_the_first_hand(tmp_path: Path) -> None:
    path = tmp_path / "values.csv"
    path.write_text("shoe,hand,player_cards,banker_cards,winner\n"
                    "1,1,9 0,4 3 0,P\n1,2,2 3 4,0 0,banker\n1,3,9d 0,4 3,P\n",
                    encoding="utf-8")
    records = list(read_log(path))
    assert isinstance(records[0], Layout) and records[0].ignored == ()
    assert isinstance(records[1], LogStart) and records[1].values
    first, second = (r for r in records if isinstance(r, Hand))
    assert first.player_values == (9, 0) and first.banker_values == (4, 3, 0)
    assert first.player == (VALUE_CARD[9], VALUE_CARD[0])
    (problem,) = [r for r in records if isinstance(r, Problem)]
    assert problem.line == 4 and "unknown card value '9d'" in problem.message
    assert sniff_log(path, LogOptions(), "csv").values is True
    jsonl = tmp_path / "values.jsonl"
    jsonl.write_text('{"shoe": "1", "hand": 1, "player": [9, 0], "banker": ["4", "3", "0"]}\n',
                     encoding="utf-8")
    (hand,) = hands(jsonl)
    assert hand.player_values == (9, 0) and hand.banker_values == (4, 3, 0)
    # declared: a card log read as values is an error per record, and the other way round
    cards = tmp_path / "cards.csv"
    cards.write_text("hand,player_cards,banker_cards\n1,9d Td,4s 3h\n", encoding="utf-8")
    assert [type(r) for r in read_log(cards, LogOptions(cards="values"))] == [
        Layout, LogStart, Problem]
    assert [type(r) for r in read_log(path, LogOptions(cards="cards"))][:3] == [
        Layout, LogStart, Problem]
    with pytest.raises(AnalyzerError, match="--cards 'suits'"):
        LogOptions(cards="suits")
    assert is_values_field([7, 0]) and not is_values_field([True]) and not is_values_field("")


@pytest.mark.parametrize(("word", "outcome"), [
    ("banker win", "banker"), ("Banker", "banker"), ("B", "banker"), ("BANKER WINS", "banker"),
    ("banker_won", "banker"), ("player wins", "player"), ("Player Win", "player"),
    ("p", "player"), ("punto", "player"), ("tie", "tie"), ("T", "tie"), ("Draw", "tie"),
    ("  tie  game ", "tie"),
])
def test_outcome_words_in_common_forms(word: str, outcome: str) -> None:
    assert normalize_outcome(word) == outcome


def test_draw_is_a_tie_only_without_a_draw_bet_and_unknown_words_name_the_line(
        tmp_path: Path) -> None:
    with pytest.raises(AnalyzerError, match="unknown outcome 'draw'"):
        normalize_outcome("draw", draw_is_tie=False)
    path = tmp_path / "words.csv"
    path.write_text("hand,player_cards,banker_cards,result\n1,9d Td,4s 3h,DRAW\n"
                    "2,9d Td,4s 3h,dragon\n", encoding="utf-8")
    records = [r for r in read_log(path) if not isinstance(r, LogStart | Layout)]
    assert isinstance(records[0], Hand) and records[0].outcome == "tie"
    assert isinstance(records[1], Problem) and records[1].line == 3
    assert "unknown outcome 'dragon'" in records[1].message
    strict = [r for r in read_log(path, LogOptions(draw_is_tie=False))
              if isinstance(r, Problem)]
    assert [p.line for p in strict] == [2, 3]
    assert set(OUTCOME_WORDS.values()) == {"player", "banker", "tie"}


def test_header_names_are_compared_without_case_spaces_or_underscores() -> None:
    columns = find_columns(["Shoe No", "Hand-Number", "Player Cards", "BANKER_CARDS",
                            "Winner", "banker_stake", "banker_returned"], LogOptions(), "x.csv")
    assert columns.single == {"shoe": 0, "hand": 1, "player_cards": 2, "banker_cards": 3,
                              "outcome": 4}
    assert columns.bets == {"banker": (5, 6)} and columns.split == {}
    assert columns[0]["hand"] == 1  # read like the (single, bets) pair it extends


def test_card_spellings_names_and_list_text() -> None:
    from analyzer.dealing.dialects import CARD_TEXT, CardCache, card_tokens

    cards = CardCache("rank-first")
    expected = tuple(CARD_TEXT.index(c) for c in ("6S", "9D"))
    for field in ("6s 9d", "s6 d9", "[6s,9d]", "['6s', '9d']", "6♠ 9♦",
                  "Six of Spades, nine of diamonds", ["six of spades", "9d"]):
        assert cards.tokens(field) == expected, field
    assert card_tokens("10h, Ace Of Hearts") == ["10h", "AH"]
    ranks = CardCache("ranks")
    assert [CARD_VALUE[c] for c in ranks.tokens("1 13 0")] == [1, 0]  # 0: no card
    with pytest.raises(AnalyzerError, match=r"card value '12' .*--cards ranks"):
        CardCache("values").tokens("12 3")


def test_separators_and_outcome_words_of_ones_own() -> None:
    from analyzer.dealing.dialects import parse_delimiter, parse_outcome_words, sniff_delimiter

    assert sniff_delimiter("a|b|c") == "|" and sniff_delimiter("a\tb") == "\t"
    assert sniff_delimiter("single", "tsv") == "\t" and sniff_delimiter("a;b", "csv", ",") == ","
    with pytest.raises(AnalyzerError, match="--delimiter ':'"):
        parse_delimiter(":")
    words = parse_outcome_words("banker=Zhuang,player=Xian,tie=He")
    assert normalize_outcome("ZHUANG", words=words) == "banker"
    assert [normalize_outcome(w) for w in ("Banque", "EMPATE", "jogador", "tabla", "莊")] == [
        "banker", "tie", "player", "tie", "banker"]
    with pytest.raises(AnalyzerError, match="--outcome-words"):
        parse_outcome_words("dealer=X")
    with pytest.raises(AnalyzerError, match="--outcome-words banker=X"):
        normalize_outcome("Zhuang")
