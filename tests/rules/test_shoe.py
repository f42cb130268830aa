"""Shoes: construction, removal, composition files and every kind of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.errors import AnalyzerError
from analyzer.rules.cards import Card, parse_cards
from analyzer.rules.shoe import Shoe, make_shoe


def test_decks_and_value_counts() -> None:
    shoe = Shoe.decks(6)
    assert shoe.size == 312
    assert shoe.value_counts() == (96,) + (24,) * 9
    assert Shoe.infinite().value_counts() == (16,) + (4,) * 9


def test_remove_is_immutable() -> None:
    shoe = Shoe.decks(1)
    smaller = shoe.remove(parse_cards("4S 4H TD"))
    assert shoe.size == 52 and smaller.size == 49
    assert smaller.count(Card.parse("4S")) == 0 and smaller.count(Card.parse("4C")) == 1


def test_composition_file(tmp_path: Path) -> None:
    path = tmp_path / "shoe.txt"
    path.write_text("# two decks less two aces\ndecks 2\nremove AS AH\nKD 5\n")
    shoe = Shoe.from_file(path)
    assert shoe.size == 104 - 2 - 2 + 5
    assert shoe.count(Card.parse("KD")) == 5


def test_removing_a_card_the_shoe_lacks() -> None:
    with pytest.raises(AnalyzerError, match="cannot remove 4S"):
        Shoe.decks(1).remove(parse_cards("4S 4S"))


def test_negative_counts() -> None:
    with pytest.raises(AnalyzerError, match="non-negative"):
        Shoe((-1,) + (1,) * 51)


def test_negative_count_in_a_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("decks 1\n4S -3\n")
    with pytest.raises(AnalyzerError, match=r"bad.txt:2: negative count -3"):
        Shoe.from_file(path)


def test_unknown_card_in_a_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("decks 1\nremove 4S QX\n")
    with pytest.raises(AnalyzerError, match=r"bad.txt:2: unknown card 'QX'"):
        Shoe.from_file(path)


def test_shoe_too_small_to_finish_a_coup() -> None:
    with pytest.raises(AnalyzerError, match="too small"):
        Shoe.from_cards(parse_cards("AS 2S 3S 4S 5S"))


def test_make_shoe_rejects_contradictions() -> None:
    with pytest.raises(AnalyzerError, match="--infinite"):
        make_shoe(decks=2, infinite=True)
    with pytest.raises(AnalyzerError, match="infinite"):
        make_shoe(infinite=True, remove="AS")
    with pytest.raises(AnalyzerError, match="positive"):
        make_shoe(decks=0)
    assert make_shoe().size == 416
