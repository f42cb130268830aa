"""Per-shoe bookkeeping: shoes told apart with or without ids, composition, followed shoes."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.dealing.handlog import ShoeStart, make_hand
from analyzer.engine.lookup import build_model
from analyzer.verify.inference.moments import ShoeMoments
from analyzer.verify.partial import IssueLog
from analyzer.verify.run import verify_logs
from analyzer.verify.shoes import ShoeTracker
from analyzer.verify.verdict import EXIT_PASS, EXIT_VIOLATIONS
from tests.verify.conftest import cli, csv_rows, drop_columns, write_rows


@pytest.mark.parametrize("model", ["independent", "shoe"])
def test_a_csv_log_without_shoe_ids_opens_a_shoe_at_hand_one(clean_csv: Path, tmp_path: Path,
                                                              model: str) -> None:
    no_shoe = tmp_path / "no-shoe.csv"
    write_rows(no_shoe, drop_columns(csv_rows(clean_csv), "shoe"))
    with_ids = verify_logs([str(clean_csv)], model_name=model)
    verdict = verify_logs([str(no_shoe)], model_name=model)
    assert verdict.malformed_count == 0, verdict.malformed[:3]
    assert verdict.exit_code == with_ids.exit_code == EXIT_PASS
    assert (verdict.shoes, verdict.whole_shoes, verdict.hands) == (8, 8, with_ids.hands)
    assert [t.statistic for t in verdict.tests] == pytest.approx(
        [t.statistic for t in with_ids.tests])
    # hand numbers running on across shoes: the burn entry on each shoe's first hand opens it
    rows = drop_columns(csv_rows(clean_csv), "shoe")
    for number, row in enumerate(rows[1:], start=1):
        row[0] = str(number)
    running = tmp_path / "running.csv"
    write_rows(running, rows)
    verdict = verify_logs([str(running)], model_name=model)
    assert verdict.malformed_count == 0 and verdict.shoes == 8
    assert verdict.exit_code == EXIT_PASS


def test_shoes_that_cannot_be_told_apart_skip_the_composition_check(clean_csv: Path,
                                                                     tmp_path: Path) -> None:
    rows = drop_columns(csv_rows(clean_csv), "shoe", "burn", "cards_left")
    for number, row in enumerate(rows[1:], start=1):
        row[0] = str(number)
    blind = tmp_path / "blind.csv"
    write_rows(blind, rows)
    verdict = verify_logs([str(blind)], model_name="independent")
    assert verdict.malformed_count == 0 and verdict.exit_code == EXIT_PASS
    assert any("could not be told apart" in note for note in verdict.notes)
    code, out, _ = cli("verify", str(blind), "--model", "independent")
    assert code == EXIT_PASS and "could not be told apart" in out
    # a real shoe without an id that holds too many of a card is still caught
    one_deck = tmp_path / "one-deck.csv"
    one_deck.write_text("hand,player_cards,banker_cards\n1,As 2c,3d Kh\n2,As 5c,Td Jh\n",
                        encoding="utf-8")
    for model in ("independent", "shoe"):
        verdict = verify_logs([str(one_deck)], decks=1, model_name=model)
        assert verdict.exit_code == EXIT_VIOLATIONS, model
        assert [i.kind for i in verdict.violations if i.kind == "composition"] == [
            "composition"]


def test_a_followed_shoe_deals_its_cards_in_order() -> None:
    model = build_model("punto-banco", 1)
    issues = IssueLog("log.jsonl")
    whole: list[list[int]] = []
    shoes = ShoeTracker(model, issues, ShoeMoments(model), on_whole_shoe=whole.append)
    shoes.shoe_start(ShoeStart(1, "7", 1, (0,)))  # AS burned
    assert (shoes.shoes, shoes.tracking) == (1, True)
    full = list(model.shoe.value_counts())
    left = shoes.depleted()
    assert sum(left) == sum(full) - 1 and left[1] == full[1] - 1  # an ace fewer
    hand = make_hand(2, "7", 1, (38, 35), (4, 8, 12))  # TD 9C, 2S 3S 4S
    shoe = shoes.hand(hand)
    shoes.deal(hand)
    assert shoe.sequence == [0, 38, 4, 35, 8, 12] and shoe.tested == [False] + [True] * 5
    assert sum(shoes.depleted()) == sum(full) - 6
    shoes.shoe_end("7")  # its end record: a whole shoe
    assert (shoes.whole_shoes, shoes.cut_shoes) == (1, 0)
    assert whole == [[0, 38, 4, 35, 8, 12]]
    assert sum(shoes.card_counts) == 5 and shoes.card_counts[0] == 0  # burns are not dealt
    assert issues.malformed_count == issues.violation_count == 0
    shoes.open_shoe("8", False, (), 3)
    assert shoes.depleted() == full  # not followed: the full shoe
    shoes.take((0, 0), 4, 1, True)  # two aces of spades in a one-deck shoe
    assert issues.violation_count == 1 and issues.violations[0].kind == "composition"
    assert "card AS appears 2 times in shoe 8" in issues.violations[0].message
    shoes.close_shoe()
    assert len(whole) == 1  # a shoe not followed from its start is no whole shoe


def test_a_gap_in_the_hand_numbers_stops_following_the_shoe() -> None:
    model = build_model("punto-banco", 8)
    issues = IssueLog("log.csv")
    shoes = ShoeTracker(model, issues)
    shoes.hand(make_hand(2, "1", 1, (38, 35), (0, 4)))
    assert shoes.tracking and shoes.current is not None and shoes.current.whole
    assert shoes.last_hand == 1
    shoes.hand(make_hand(3, "1", 3, (38, 35), (0, 4)))
    assert not shoes.tracking
    assert [(i.line, i.kind) for i in issues.malformed] == [(3, "sequence")]
    assert "hand number 3 follows 1 in shoe 1" in issues.malformed[0].message


def interleave(rows: list[list[str]]) -> list[list[str]]:
    """The data rows of a CSV log with the rows of its shoes alternating."""
    by_shoe: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        by_shoe.setdefault(row[0], []).append(row)
    mixed = []
    queues = list(by_shoe.values())
    while any(queues):
        for queue in queues:
            if queue:
                mixed.append(queue.pop(0))
    return [rows[0], *mixed]


@pytest.mark.parametrize("model", ["independent", "shoe"])
def test_composition_is_checked_per_shoe_however_rows_interleave(clean_csv: Path,
                                                                 tmp_path: Path,
                                                                 model: str) -> None:
    rows = csv_rows(clean_csv)
    mixed = tmp_path / "mixed.csv"
    write_rows(mixed, interleave(rows))
    straight = verify_logs([str(clean_csv)], model_name=model)
    verdict = verify_logs([str(mixed)], model_name=model)
    assert verdict.exit_code == EXIT_PASS and verdict.malformed_count == 0
    assert (verdict.shoes, verdict.whole_shoes, verdict.hands) == (
        straight.shoes, straight.whole_shoes, straight.hands)
    # a ninth copy of a card in shoe 2, its rows interleaved with shoe 1's: a violation
    # at the hand where it goes past the shoe
    rows = interleave(csv_rows(clean_csv))
    shoe_two = [row for row in rows[1:] if row[0] == "2"]
    card = shoe_two[0][2].split()[0]
    copies = sum(" ".join(row[2:4] + [row[5]]).split().count(card) for row in shoe_two)
    for row in shoe_two[1:9 - copies + 1]:
        cards = row[2].split()
        row[2] = " ".join([card, *cards[1:]])
    bad = tmp_path / "bad.csv"
    write_rows(bad, rows)
    verdict = verify_logs([str(bad)], model_name=model)
    assert verdict.exit_code == EXIT_VIOLATIONS
    excess = [i for i in verdict.violations if i.kind == "composition"]
    assert excess and excess[0].shoe == "2" and "appears 9 times in shoe 2" in \
        excess[0].message


def test_an_undelimited_shoe_lets_its_hands_go() -> None:
    """Independent model, a log without shoe columns: its one unnamed "shoe" holds more
    cards than a shoe, so its hands are counted and let go as they come (memory of one
    shoe, not of the log); its composition is not checked."""
    model = build_model("punto-banco", 1)
    issues = IssueLog("log.csv")
    shoes = ShoeTracker(model, issues)
    kept = []
    for number in range(1, 1001):
        hand = make_hand(number + 1, "", number, (number % 52, (number + 1) % 52),
                         ((number + 2) % 52, (number + 3) % 52))
        shoe = shoes.hand(hand)
        shoe.hand_records.append(hand)  # as check_file keeps them
        if len(shoe.hand_records) >= shoe.spill_at:
            shoes.spill(shoe)
        kept.append(len(shoe.hand_records))
    assert max(kept) <= 52 and shoes.shoes == 1
    shoes.close_shoe()
    assert shoes.undelimited == 1 and issues.violation_count == 0
    dealt = [(number + j) % 52 for number in range(1, 1001) for j in range(4)]
    assert shoes.card_counts == [dealt.count(c) for c in range(52)]
    # a shoe of 13 hands (52 cards) is not let go: it is one shoe, checked whole
    shoes = ShoeTracker(model, issues)
    for number in range(1, 14):
        hand = make_hand(number + 1, "", number, (4 * number - 4, 4 * number - 3),
                         (4 * number - 2, 4 * number - 1))
        shoe = shoes.hand(hand)
        shoe.hand_records.append(hand)
        shoes.spill(shoe)
    assert len(shoe.hand_records) == 13 and shoes.undelimited == 0
