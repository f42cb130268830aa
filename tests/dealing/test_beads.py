"""Outcome-only logs: the shapes told apart, each line's outcomes, bad lines as problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.dealing.beads import Beads, bead_format, parse_beads, read_beads
from analyzer.dealing.dialects import LogOptions
from analyzer.dealing.records import Problem
from analyzer.errors import AnalyzerError


def test_a_cell_holds_one_outcome_word_or_a_string_of_them() -> None:
    assert parse_beads("Égalité") == ("tie",)
    assert parse_beads("bpT") == ("banker", "player", "tie")
    assert parse_beads("庄闲和") == ("banker", "player", "tie")
    assert parse_beads("Bankir", words=(("banker", "bankir"),)) == ("banker",)
    with pytest.raises(AnalyzerError, match="--outcome-words"):
        parse_beads("BPX")


@pytest.mark.parametrize(("name", "text", "fmt", "told"), [
    ("road.txt", "B\nP\nT\nB\n", None, "beads"),
    ("road.csv", "BPPB\nTBBP\n", "csv", "beads"),
    ("road.csv", "shoe;result\n1;B\n1;P\n", "csv", "bead-csv"),
    ("road.txt", "Winner\nBanker\nPlayer\n", None, "bead-csv"),
    ("hands.csv", "shoe,hand,player,banker,result\n1,1,9d Td,4s 3h,P\n", "csv", None),
    ("prose.txt", "Lorem ipsum\ndolor sit amet\n", None, None),
])
def test_the_shapes_are_told_apart(tmp_path: Path, name: str, text: str, fmt: str | None,
                                   told: str | None) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert bead_format(path, fmt, LogOptions()) == told


def test_lines_shoes_and_problems(tmp_path: Path) -> None:
    path = tmp_path / "road.txt"
    path.write_text("BPPB\n\nTBX\nP\n", encoding="utf-8")
    records = list(read_beads(path, LogOptions(), "beads"))
    assert records[0] == Beads(1, "1", ("banker", "player", "player", "banker"))
    assert isinstance(records[1], Problem) and records[1].line == 3
    assert records[2] == Beads(4, "", ("player",))
    table = tmp_path / "road.csv"
    table.write_text("Shoe|Result\nA|B\nA|Player\nB|BBT\nB|x,y\n", encoding="utf-8")
    layout, *records = list(read_beads(table, LogOptions(), "bead-csv"))
    assert layout.used == (("Shoe", "shoe id"), ("Result", "outcome"))  # type: ignore[union-attr]
    assert [r.shoe for r in records[:3]] == ["A", "A", "B"]  # type: ignore[union-attr]
    assert records[2].outcomes == ("banker", "banker", "tie")  # type: ignore[union-attr]
    assert isinstance(records[3], Problem) and records[3].line == 5


def test_a_header_the_csv_module_cannot_read_is_no_bead_header(tmp_path: Path) -> None:
    """A lone carriage return inside the first line (found by the fuzz test): the csv
    module refuses the line; it is not a bead road's header, and the hand-log reader then
    names the file and line in one error."""
    path = tmp_path / "log.csv"
    path.write_bytes(b"\rhoe,hand,player_cards,banker_cards,winner\n1,1,7D 6D,KC 9S,B\n")
    assert bead_format(path, None, LogOptions()) is None
