"""Column matching: every header used with its meaning or listed as ignored, bet columns by
any spelling, one bet a row, exact decimal amounts."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.dealing.columns import bet_spellings, find_columns, json_layout
from analyzer.dealing.dialects import LogOptions, parse_column_options
from analyzer.dealing.handlog import Hand, read_log
from analyzer.dealing.records import Layout, NotChecked, decimal_number, money_pair
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile

CARDS = ["Shoe", "Hand", "Player Cards", "Banker Cards"]


@pytest.mark.parametrize(("stake", "back", "profit"), [
    ("Banker Stake", "Banker Returned", False),
    ("BankBet", "BankWin", False),
    ("b_wager", "b_payout", False),
    ("BANKER-AMOUNT", "banker.paid", False),
    ("Bank Bet", "Bank PnL", True),
    ("banco_stake", "banco net", True),
])
def test_bet_columns_are_matched_by_any_spelling(stake: str, back: str, profit: bool) -> None:
    found = find_columns([*CARDS, stake, back, "Dealer"], LogOptions(), "x.csv")
    assert found.bets == {"banker": (4, 5)}
    assert found.net == (frozenset({"banker"}) if profit else frozenset())
    assert dict(found.used)[stake] == "banker stake"
    assert dict(found.used)[back] == ("banker profit (net of stake)" if profit
                                      else "banker returned")
    assert found.ignored == ("Dealer",) and "money" in found.roles


def test_pair_bets_are_named_as_in_the_profile() -> None:
    rules = load_profile("side-bets")
    options = LogOptions(bets=tuple((b.id, b.name) for b in rules.bets))
    found = find_columns([*CARDS, "Player Pair Stake", "Player Pair Won", "Tie Bet",
                          "Tie Win"], options, "x.csv")
    assert found.bets == {"player-pair": (4, 5), "tie": (6, 7)}
    assert bet_spellings(options.bets)["egalite"] == "tie"


def test_a_stake_without_its_returned_column_is_ignored_and_said() -> None:
    found = find_columns([*CARDS, "Banker Stake", "Player Stake", "Player Returned"],
                         LogOptions(), "x.csv")
    assert found.bets == {"player": (5, 6)}
    assert found.ignored == ("Banker Stake",)
    (said,) = found.not_checked
    assert said.what == "payouts" and "--column banker_returned=HEADER" in said.why
    # an unknown name before a money word is no bet: ignored, not an error
    other = find_columns([*CARDS, "Total Bet", "Session Win"], LogOptions(), "x.csv")
    assert other.bets == {} and other.ignored == ("Total Bet", "Session Win")


def test_one_bet_a_row_logs_are_found() -> None:
    found = find_columns(["round", "player_cards", "banker_cards", "bet_on", "amount",
                          "payout"], LogOptions(), "x.csv")
    assert {k: found.single[k] for k in ("bet_on", "stake", "returned")} == {
        "bet_on": 3, "stake": 4, "returned": 5}
    assert found.ignored == () and "money" in found.roles
    profit = find_columns(["hand", "player", "banker", "side", "wager", "pnl"], LogOptions(),
                          "x.csv")
    assert (profit.single["stake"], profit.single["profit"]) == (4, 5)


def test_one_bet_a_row_rows_of_a_hand_are_one_hand(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_text("shoe,hand,player_cards,banker_cards,winner,bet_on,stake,profit\n"
                    "1,1,Td Kd,9s Ts,B,Banker,10,9.5\n1,1,Td Kd,9s Ts,B,P,10,-10\n"
                    "1,2,Td Kd,9s Ts,B,tie,5,-5\n", encoding="utf-8")
    hands = [r for r in read_log(path) if isinstance(r, Hand)]
    assert [h.hand for h in hands] == [1, 2]
    assert hands[0].bets == (("banker", 10, Fraction(39, 2)), ("player", 10, 0))
    assert hands[1].bets == (("tie", 5, 0),)


def test_amounts_are_exact_decimals() -> None:
    assert decimal_number("195.0") == 195 and type(decimal_number("195.0")) is int
    assert decimal_number("0.95") == Fraction(19, 20)
    assert decimal_number(".5") == Fraction(1, 2)
    assert money_pair("banker", "10", "9.5", profit=True) == (10, Fraction(39, 2))
    assert money_pair("banker", "100", "-150", profit=True) == (100, -50)  # paid back less
    for bad in ("1e3", "0x10", "nan", "1.2.3", ""):
        with pytest.raises(ValueError):
            decimal_number(bad)
    with pytest.raises(AnalyzerError, match="bet 'banker' stake must be a number"):
        money_pair("banker", "ten", "20")


def test_json_lines_keys_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text('{"shoe": "1", "hand": 1, "player": ["Td", "Kd"], "banker": ["9s", "Ts"],'
                    ' "winner": "B", "table": 7, "bets": {"banker": [10.0, 19.5]}}\n',
                    encoding="utf-8")
    records = list(read_log(path))
    layout = records[-1]
    assert isinstance(layout, Layout)
    assert dict(layout.used)["winner"] == "outcome" and layout.ignored == ("table",)
    (hand,) = [r for r in records if isinstance(r, Hand)]
    assert hand.bets == (("banker", 10, Fraction(39, 2)),)
    _, ignored, _ = json_layout({("hand", ("player", "player_cards", "banker"))})
    assert ignored == ("player_cards",)  # read only when "player" is absent


def test_refusals_name_the_line_and_the_fix() -> None:
    # a header of one column (its separator is none of , ; tab | which are told apart)
    with pytest.raises(AnalyzerError, match=r"x\.csv: line 1: the header "
                                            r"'shoe:hand:player_cards:banker_cards' is a single "
                                            r"column.*--delimiter SEP") as found:
        find_columns(["shoe:hand:player_cards:banker_cards"], LogOptions(), "x.csv")
    assert "--column" not in str(found.value)
    with pytest.raises(AnalyzerError, match=r"line 1: --column stake=Wager: no such column"):
        find_columns([*CARDS, "bet_on"], LogOptions(
            columns=parse_column_options(["stake=Wager"])), "x.csv")
    assert NotChecked.of("cards", "outcomes only").what == "cards"
    with pytest.raises(ValueError, match="unknown check"):
        NotChecked.of("everything", "?")
