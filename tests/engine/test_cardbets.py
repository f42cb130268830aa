"""Card-level side bets: brute force over card orderings, closed forms, published edges,
the published NINE & NINES example rounds, and the shipped side-bet profiles."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from analyzer.engine.cardbets import deal_cards
from analyzer.engine.evaluator import BatchEvaluator
from analyzer.engine.odds import odds
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import net_payout, settle
from analyzer.rules.cards import Card, parse_cards
from analyzer.rules.profile import load_profile, load_profile_file
from analyzer.rules.shoe import Shoe
from tests.conftest import reference

# ----------------------------------------------------------------------------------------
# An independent brute force: physical cards (rank 1-13, suit letter), punto banco dealt
# straight from docs/rules/punto-banco.md §2-§4, each bet settled by hand-written Python.

Hand = list[tuple[int, str]]


def points(card: tuple[int, str]) -> int:
    return card[0] if card[0] < 10 else 0


def total(hand: Hand) -> int:
    return sum(points(c) for c in hand) % 10


def deal_physical(cards: tuple[tuple[int, str], ...]) -> tuple[Hand, Hand]:
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    used = 4
    p, b = total(player), total(banker)
    if p < 8 and b < 8:
        third = None
        if p <= 5:
            player.append(cards[used])
            third = points(cards[used])
            used += 1
        if third is None:
            draw = b <= 5
        else:
            draw = (b <= 2 or (b == 3 and third != 8) or (b == 4 and 2 <= third <= 7)
                    or (b == 5 and 4 <= third <= 7) or (b == 6 and third in (6, 7)))
        if draw:
            banker.append(cards[used])
    return player, banker


def red(card: tuple[int, str]) -> bool:
    return card[1] in "HD"


def pair(hand: Hand) -> bool:
    return hand[0][0] == hand[1][0]


def identical(hand: Hand) -> bool:
    return hand[0] == hand[1]


def suited(hand: Hand) -> bool:
    return hand[0][1] == hand[1][1]


def two_card_nine(hand: Hand) -> bool:
    return (points(hand[0]) + points(hand[1])) % 10 == 9


def lucky_pair(hand: Hand) -> Fraction:
    if not pair(hand):
        return Fraction(-1)
    if hand[0] == (4, "D") and hand[1] == (4, "D"):
        return Fraction(30)
    if hand[0][0] == 4:
        return Fraction(15)
    if identical(hand) and hand[0][1] == "D":
        return Fraction(12)
    return Fraction(9)


def nine(hand: Hand) -> Fraction:
    if not two_card_nine(hand):
        return Fraction(-1)
    low = min(points(hand[0]), points(hand[1]))
    if low == 0:
        return Fraction(5 if suited(hand) else 2)
    if low in (3, 4):
        return Fraction(30 if suited(hand) else 15)
    return Fraction(20 if suited(hand) else 10)


def nines(player: Hand, banker: Hand) -> Fraction:
    p, b = two_card_nine(player), two_card_nine(banker)
    if not (p or b):
        return Fraction(-1)
    if not (p and b):
        return Fraction(2)
    four_five = sorted([(4, "D"), (5, "D")])
    if sorted(player[:2]) == four_five and sorted(banker[:2]) == four_five:
        return Fraction(30000)
    if suited(player) and suited(banker):
        return Fraction(200)
    if min(points(c) for c in player[:2]) > 0 and min(points(c) for c in banker[:2]) > 0:
        return Fraction(30)
    return Fraction(20)


def perfect_nine(hand: Hand) -> Fraction:
    if not two_card_nine(hand):
        return Fraction(-1)
    if min(points(hand[0]), points(hand[1])) == 0:
        return Fraction(5)
    return Fraction(20 if suited(hand) else 10)


def mixed(player: Hand, banker: Hand) -> Fraction:
    """The custom test bet below: coup features and card features in one line."""
    p, b = total(player), total(banker)
    if b > p and banker[0][0] == banker[1][0] and len(player) + len(banker) == 6:
        return Fraction(40)
    if p > b and suited(player) and len(player) == 3:
        return Fraction(7)
    if p == b and red(player[0]) == red(player[1]) and red(banker[0]) != red(banker[1]):
        return Fraction(3)
    return Fraction(-1)


MIXED_PROFILE = '''
name = "mixed-test"
[tableau]
naturals = [8, 9]
player_draws = [0, 1, 2, 3, 4, 5]
banker_draws_player_stood = [0, 1, 2, 3, 4, 5]
[tableau.banker_draws]
0 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
1 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
2 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
3 = [0, 1, 2, 3, 4, 5, 6, 7, 9]
4 = [2, 3, 4, 5, 6, 7]
5 = [4, 5, 6, 7]
6 = [6, 7]
7 = []
[[bets]]
id = "mixed"
lines = [
  { when = "winner == banker and banker_pair and cards_dealt == 6", pays = 40 },
  { when = "winner == player and player_suited and player_cards == 3", pays = 7 },
  { when = "winner == tie and player_colour != mixed and banker_colour == mixed", pays = 3 },
]
'''

Checker = Callable[[Hand, Hand], Fraction]
CHECKS: list[tuple[str, str, Checker]] = [
    ("lucky-baccarat", "lucky-player-pair", lambda p, b: lucky_pair(p)),
    ("lucky-baccarat", "lucky-banker-pair", lambda p, b: lucky_pair(b)),
    ("lucky-baccarat", "player-black",
     lambda p, b: Fraction(2) if not red(p[0]) and not red(p[1]) else Fraction(-1)),
    ("lucky-baccarat", "banker-red",
     lambda p, b: Fraction(2) if red(b[0]) and red(b[1]) else Fraction(-1)),
    ("side-bets", "either-pair",
     lambda p, b: Fraction(5) if pair(p) or pair(b) else Fraction(-1)),
    ("side-bets", "perfect-pair",
     lambda p, b: Fraction(25) if identical(p) or identical(b) else Fraction(-1)),
    ("side-bets", "perfect-pair-both",
     lambda p, b: Fraction(250) if identical(p) and identical(b) else
     Fraction(25) if identical(p) or identical(b) else Fraction(-1)),
    ("side-bets", "perfect-9-bonus", lambda p, b: perfect_nine(p)),
    ("nine-and-nines", "player-nine", lambda p, b: nine(p)),
    ("nine-and-nines", "banker-nine", lambda p, b: nine(b)),
    ("nine-and-nines", "nines", nines),
    ("mixed", "mixed", mixed),
]

SHOES = [
    "4D 4D 4H 5D KS 9S 9H 2C",       # identical 4D pair, pair of 4s, nines, colours
    "4D 5D 4D 5D TH 9C AS 3H",        # 4D5D on both hands, suited/unsuited nines
]


def engine_distribution(table_bet: Any) -> Counter[Fraction]:
    result: Counter[Fraction] = Counter()
    for line in table_bet.lines:
        result[line.pays] += line.ways
    result[Fraction(-1)] += table_bet.lose_ways
    return Counter({k: v for k, v in result.items() if v})


@pytest.mark.parametrize("text", SHOES)
def test_brute_force_over_card_orderings_agrees_exactly(text: str, tmp_path: Path) -> None:
    cards = [(int(c.rank), c.suit.value) for c in parse_cards(text)]
    expected: dict[str, Counter[Fraction]] = {bet: Counter() for _, bet, _ in CHECKS}
    sequences = 0
    for sequence in permutations(cards, 6):
        sequences += 1
        player, banker = deal_physical(sequence)
        for _, bet, check in CHECKS:
            expected[bet][check(player, banker)] += 1
    path = tmp_path / "mixed.toml"
    path.write_text(MIXED_PROFILE, encoding="utf-8")
    profiles = {"mixed": load_profile_file(path)}
    shoe = Shoe.from_cards(parse_cards(text))
    for profile_name, bet, _ in CHECKS:
        profile = profiles.get(profile_name) or load_profile(profile_name)
        table = odds(profile, shoe)
        assert table.denominator == sequences
        got = engine_distribution(table.bet(bet))
        assert got == +expected[bet], (profile_name, bet)


# ----------------------------------------------------------------------------------------
# Closed forms and published figures


@pytest.mark.parametrize("decks", [1, 2, 6, 8, 30])  # 30 decks: beyond int64, exact ints
def test_pair_on_one_hand_is_4d_minus_1_over_52d_minus_1(decks: int) -> None:
    table = odds("side-bets", Shoe.decks(decks))
    for bet in ("player-pair", "banker-pair"):
        assert table.bet(bet).lines[0].probability == Fraction(4 * decks - 1, 52 * decks - 1)
    # identical pair on one hand: the second card is one of the d - 1 copies of the first
    lucky = odds("lucky-baccarat", Shoe.decks(decks)).bet("lucky-player-pair")
    identical_diamond_fours = Fraction(1, 52) * Fraction(decks - 1, 52 * decks - 1)
    assert lucky.lines[0].probability == identical_diamond_fours


def test_infinite_deck_card_bets_are_over_52_to_the_fourth_times_169() -> None:
    table = odds("side-bets", Shoe.infinite())
    assert table.denominator == 13**6 * 4**4 == 52**4 * 13**2
    assert table.bet("player-pair").lines[0].probability == Fraction(1, 13)
    assert table.bet("perfect-pair-both").lines[0].probability == Fraction(1, 52**2)
    # value-level bets in the same table are scaled, not changed
    banker = table.bet("banker").lines[0].probability
    assert banker == odds("punto-banco", Shoe.infinite()).bet("banker").lines[0].probability


def test_dragon_bonus_matches_published_eight_deck_figures() -> None:
    published = reference("side_bets")["dragon_bonus"]
    table = odds("side-bets", Shoe.decks(8))
    player, banker = table.bet("dragon-bonus-player"), table.bet("dragon-bonus-banker")
    assert round(float(player.house_edge) * 100, 2) == published["player_edge_percent"]
    assert round(float(banker.house_edge) * 100, 2) == published["banker_edge_percent"]
    assert player.lines[0].ways == banker.lines[0].ways == published["natural_win"]
    assert player.lines[1].ways == published["natural_tie"]
    assert player.lines[2].ways == published["player_win_by_9"]
    assert banker.lines[2].ways == published["banker_win_by_9"]


def test_perfect_9_bonus_matches_published_eight_deck_figures() -> None:
    published = reference("side_bets")["perfect_9_bonus"]
    bet = odds("side-bets", Shoe.decks(8)).bet("perfect-9-bonus")
    assert round(float(bet.house_edge) * 100, 2) == published["edge_percent"]
    assert round(float(bet.ev), 6) == published["return_printed"]
    two_card = published["two_card_denominator"]
    for line, key in zip(bet.lines, ("suited", "unsuited", "ten_nine"), strict=True):
        assert line.probability * two_card == published[key]


# ----------------------------------------------------------------------------------------
# NINE & NINES rounds 1-11 (docs/rules/nine-and-nines.md §7), with concrete cards (P1 B1 P2 B2 ...)

SEED_ROUNDS = {
    # round: (cards, Player NINE, Banker NINE, NINES) as net payouts; -1 = lost
    1: ("2S 4D 3H KC 7C 5H", -1, -1, -1),
    2: ("AH 3D 8S 2C", 10, -1, 2),
    3: ("2C KH 4C 9S", -1, 2, 2),
    4: ("AD 3S 8C 6H", 10, 15, 30),
    5: ("5S 2D 3S 4H", -1, -1, -1),
    6: ("6H 7D QS KD", -1, -1, -1),
    7: ("TS 5C 7H AH", -1, -1, -1),
    8: ("7C 4H QD 5H", -1, 30, 2),
    9: ("3C 2H 3D 2S 9D", -1, -1, -1),
    10: ("JC 2S 9D 7S", 2, 20, 20),
    11: ("9C 9H 8D 8C", -1, -1, -1),
}


@pytest.mark.parametrize("round_number", sorted(SEED_ROUNDS))
def test_seed_001_round(round_number: int) -> None:
    cards, player_nine, banker_nine, bonus = SEED_ROUNDS[round_number]
    profile = load_profile("nine-and-nines")
    coup, features = deal_cards(profile.tableau, parse_cards(cards))
    paid = [net_payout(profile.bet(b), settle(profile.bet(b), features))
            for b in ("player-nine", "banker-nine", "nines")]
    assert paid == [player_nine, banker_nine, bonus]
    nines_made = player_nine > 0 or banker_nine > 0
    # a two-card 9 is a natural: the round ends at once; otherwise play continues
    assert features["natural"] if nines_made else not (
        features["player_two_card_total"] == 9 or features["banker_two_card_total"] == 9)
    assert len(coup.dealt) == len(parse_cards(cards))


def test_nines_is_symmetric_in_player_and_banker() -> None:
    profile = load_profile("nine-and-nines")
    bet = profile.bet("nines")
    hands = ["4D 5D", "5D 4D", "AS 8S", "AS 8H", "KC 9C", "TH 9D", "3S 6S", "2C 7H",
             "4H 4H", "QS 5C", "9S 9S"]
    for first in hands:
        for second in hands:
            p, b = parse_cards(first), parse_cards(second)
            coup, features = deal_cards(profile.tableau, (p[0], b[0], p[1], b[1], *DUMMY))
            coup, swapped = deal_cards(profile.tableau, (b[0], p[0], b[1], p[1], *DUMMY))
            assert net_payout(bet, settle(bet, features)) == net_payout(
                bet, settle(bet, swapped)), (first, second)
    table = odds(profile, Shoe.decks(8))
    assert table.bet("player-nine").ev == table.bet("banker-nine").ev


DUMMY = parse_cards("KS KH")


def test_nine_and_nines_is_labelled_illustrative() -> None:
    table = odds("nine-and-nines", Shoe.decks(8))
    assert "illustrative" in table.illustrative.lower()
    from analyzer.present.report.odds import render_odds

    for fmt in ("text", "markdown", "csv", "json", "html", "latex"):
        text = render_odds(table, fmt, distributions=False)
        rows = [row for row in text.splitlines()
                if any(name in row for name in ("Player NINE", "Banker NINE", "NINES bonus"))
                or row.split(",")[2:3] in (["player-nine"], ["nines"])]
        assert rows and all("illustrative" in row for row in rows), fmt


# ----------------------------------------------------------------------------------------
# Shipped profiles


def test_lucky_baccarat_has_the_19_bets_of_rules_section_2_and_its_procedure() -> None:
    profile = load_profile("lucky-baccarat")
    assert len(profile.bets) == 19
    ids = {bet.id for bet in profile.bets}
    windows = dict(profile.procedure.windows)
    assert set(windows) <= ids
    assert windows["lucky-6"] == 30 and windows["lucky-player-pair"] == 60
    assert windows["player-red"] == windows["tie-total-7-9"] == 40
    assert profile.procedure.burn == "first-card"  # the exposed card's rank, K counting 10
    table = odds(profile, Shoe.decks(8))
    # the Banker bet pays 1/2 on a winning 6: edge 1.46% (no-commission Banker)
    assert round(float(table.bet("banker").house_edge) * 100, 2) == 1.46
    pair = table.bet("lucky-player-pair")
    assert [line.pays for line in pair.lines] == [30, 15, 12, 9]
    assert sum(line.probability for line in pair.lines) == Fraction(31, 415)


def test_library_edges_match_published_eight_deck_values() -> None:
    """Wizard of Odds side-bet pages (8 decks), to two decimals."""
    table = odds("side-bets", Shoe.decks(8))
    expected = {"tie-9": 4.84, "banker-no-commission": 1.46, "player-pair": 10.36,
                "either-pair": 13.71, "perfect-pair": 13.03, "super-6-15": 13.82,
                "big": 4.35, "small": 5.28}
    for bet, edge in expected.items():
        assert round(float(table.bet(bet).house_edge) * 100, 2) == edge, bet
    ez = odds("ez-baccarat", Shoe.decks(8))
    assert round(float(ez.bet("dragon-7").house_edge) * 100, 2) == 7.61
    assert round(float(ez.bet("panda-8").house_edge) * 100, 2) == 10.19
    assert round(float(ez.bet("banker").house_edge) * 100, 2) == 1.02


def test_every_format_renders_card_bets() -> None:
    from analyzer.present.report.odds import render_odds

    table = odds("lucky-baccarat", Shoe.decks(8))
    for fmt in ("text", "markdown", "csv", "json", "latex", "html"):
        text = render_odds(table, fmt)
        assert "Lucky Player Pair" in text or "lucky-player-pair" in text, fmt
        assert str(table.bet("lucky-player-pair").lines[0].ways) in text, fmt


def test_batch_evaluator_refuses_card_bets_and_keeps_values_only_profiles() -> None:
    with pytest.raises(AnalyzerError, match="lucky-player-pair|player-black"):
        BatchEvaluator.for_profile("lucky-baccarat")
    evaluator = BatchEvaluator.for_profile("ez-baccarat")
    ev = evaluator.evaluate([Shoe.decks(8).value_counts()])
    assert abs(ev[0][3] - float(odds("ez-baccarat", Shoe.decks(8)).bet("dragon-7").ev)) < 1e-12


def test_values_only_profiles_never_load_the_card_engine() -> None:
    code = ("import sys; from analyzer.engine.odds import odds; "
            "from analyzer.rules.shoe import Shoe; odds('punto-banco', Shoe.decks(8)); "
            "print('analyzer.engine.cardbets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# ----------------------------------------------------------------------------------------
# Bad profiles name the file, the bet and the line

BAD_BETS = {
    "unknown feature": ('{ when = "player_shiny", pays = 2 }', "unknown feature 'player_shiny'"),
    "negative payout": ('{ when = "player_pair", pays = -3 }', "negative payout"),
    "bad cards": ('{ when = "player_first_cards == {4D, 4D}", pays = 2 }', "in quotes"),
    "bad rank": ('{ when = "player_pair_rank == 14", pays = 2 }', "cannot be 14"),
}


def _profile_text(lines: str, extra_bet: str = "") -> str:
    head = MIXED_PROFILE.split("[[bets]]")[0]
    return head + f'[[bets]]\nid = "oops"\nlines = [\n  {{ when = "player_pair", pays = 1 }},\n' \
        f'  {lines}\n]\n' + extra_bet


@pytest.mark.parametrize("case", sorted(BAD_BETS))
def test_bad_paylines_name_file_bet_and_line(case: str, tmp_path: Path) -> None:
    line, message = BAD_BETS[case]
    path = tmp_path / "bad.toml"
    path.write_text(_profile_text(line), encoding="utf-8")
    with pytest.raises(AnalyzerError) as error:
        load_profile_file(path)
    text = str(error.value)
    assert "bad.toml" in text and "bet oops" in text and "line 2" in text and message in text


def test_empty_bet_and_duplicate_ids_are_refused(tmp_path: Path) -> None:
    head = MIXED_PROFILE.split("[[bets]]")[0]
    path = tmp_path / "empty.toml"
    path.write_text(head + '[[bets]]\nid = "nothing"\nlines = []\n', encoding="utf-8")
    with pytest.raises(AnalyzerError, match=r"empty\.toml.*bet nothing.*at least one payline"):
        load_profile_file(path)
    path = tmp_path / "twice.toml"
    bet = '[[bets]]\nid = "same"\nlines = [{ when = "player_pair", pays = 11 }]\n'
    path.write_text(head + bet + bet, encoding="utf-8")
    with pytest.raises(AnalyzerError, match=r"twice\.toml.*duplicate bet id 'same'"):
        load_profile_file(path)


def test_card_literals_read_as_multisets() -> None:
    profile = load_profile("lucky-baccarat")
    bet = profile.bet("lucky-player-pair")
    for cards, pays in (("4D 4D", 30), ("4D 4H", 15), ("9D 9D", 12), ("KS KH", 9),
                        ("TS JS", -1)):
        p = parse_cards(cards)
        _, features = deal_cards(profile.tableau, (p[0], Card.parse("2C"), p[1],
                                                   Card.parse("3C"), *parse_cards("KS KH")))
        assert net_payout(bet, settle(bet, features)) == pays, cards


def test_card_feature_columns_are_hand_card_features_of_every_pair() -> None:
    from analyzer.engine.cardbets import card_feature_columns, hand_card_features
    from analyzer.rules.cards import DECK

    first = np.repeat(np.arange(52), 52)
    second = np.tile(np.arange(52), 52)
    for hand in ("player", "banker"):
        columns = card_feature_columns(hand, first, second)
        for i, j, k in ((0, 0, 0), (1, 0, 1), (55, 1, 3), (2703, 51, 51), (1352, 26, 0)):
            expected = hand_card_features(hand, DECK[j], DECK[k])
            assert {name: columns[name][i].item() for name in columns} == expected
        rows = [hand_card_features(hand, DECK[a], DECK[b])
                for a, b in zip(first.tolist(), second.tolist(), strict=True)]
        for name, column in columns.items():
            assert column.tolist() == [row[name] for row in rows], name
    assert columns["banker_colour"].tolist().count("mixed") == 2 * 26 * 26
