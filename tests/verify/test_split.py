"""One log checked by several processes in runs of whole shoes gives the sums of one
process, and its problems keep the line numbers of the whole file."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest

from analyzer.dealing import segments
from analyzer.dealing.handlog import LogOptions
from analyzer.dealing.simulate import simulate
from analyzer.verify.run import Work, _check_piece, _split, collect


@pytest.mark.parametrize("model", ["shoe", "independent"])
def test_split_log_merges_to_the_single_process_sums(
        tmp_path: Path, model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    buffer = io.StringIO()
    simulate("punto-banco", 8, 4, 5, buffer, "csv")
    lines = buffer.getvalue().splitlines(keepends=True)
    broken = len(lines) - 10
    lines[broken] = "not,a,valid,row\n"  # a malformed record in the last shoe
    path = tmp_path / "log.csv"
    path.write_text("".join(lines), encoding="utf-8")
    one, _ = collect([str(path)], "punto-banco", model_name=model, jobs=1)
    two, _ = collect([str(path)], "punto-banco", model_name=model, jobs=2)
    assert two.sources == one.sources == (str(path),)
    for name in ("hands", "shoes", "whole_shoes", "shoe_aware_hands", "malformed_count",
                 "malformed", "violation_count", "card_counts"):
        assert getattr(two, name) == getattr(one, name), name
    assert one.malformed[0].line == broken + 1
    for a, b in zip(one.bets, two.bets, strict=True):
        assert (a.results, a.stake, a.returned) == (b.results, b.stake, b.returned)
        assert all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12)
                   for x, y in zip(a.expected, b.expected, strict=True))


def _rows(shoes: int, seed: int) -> tuple[str, list[list[str]]]:
    buffer = io.StringIO()
    simulate("punto-banco", 8, shoes, seed, buffer, "csv")
    header, *rows = buffer.getvalue().splitlines(keepends=True)
    by_shoe: dict[str, list[str]] = {}
    for row in rows:
        by_shoe.setdefault(row.split(",", 1)[0], []).append(row)
    return header, list(by_shoe.values())


@pytest.mark.parametrize("model", ["shoe", "independent"])
def test_interleaved_shoes_across_a_cut_are_checked_whole(
        tmp_path: Path, model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second shoe opens while the first is still being dealt, then their rows
    alternate: a run that starts at hand 1 of the second is refused by its worker and
    the file checked whole."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    header, shoes = _rows(6, 7)
    lines = [header]
    for a, b in zip(shoes[0::2], shoes[1::2], strict=True):
        lines.extend(a[:60])
        for k in range(max(len(a) - 60, len(b))):
            lines.extend(x[k] for x in (a[60:], b) if k < len(x))
    path = tmp_path / "log.csv"
    path.write_text("".join(lines), encoding="utf-8")
    work = Work(str(path), "csv", "punto-banco", 8, LogOptions(cards="cards"),
                model == "shoe", True)
    pieces = [w for _, w in _split([work], 5)]
    assert len(pieces) > 1
    assert any(_check_piece(w) is None for w in pieces)  # a cut inside a shoe
    one, _ = collect([str(path)], "punto-banco", model_name=model, jobs=1)
    five, _ = collect([str(path)], "punto-banco", model_name=model, jobs=5)
    assert five.sources == one.sources == (str(path),)
    for name in ("hands", "shoes", "whole_shoes", "shoe_aware_hands", "malformed_count",
                 "violation_count", "violations", "card_counts"):
        assert getattr(five, name) == getattr(one, name), name
    assert one.violation_count == 0


def test_a_shoe_id_that_restarts_its_hands_is_never_cut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One shoe id for every shoe: hand 1 after hand 70 of the same id is a gap in the
    whole file, so no run may start there."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    header, shoes = _rows(4, 3)
    lines = [header, *("T" + row[row.index(","):] for shoe in shoes for row in shoe)]
    path = tmp_path / "log.csv"
    path.write_text("".join(lines), encoding="utf-8")
    assert len(segments.find_segments(path, "csv", 4, 1, 0)) == 1
    one, _ = collect([str(path)], "punto-banco", model_name="independent", jobs=1)
    four, _ = collect([str(path)], "punto-banco", model_name="independent", jobs=4)
    assert (four.hands, four.malformed_count, four.malformed) == (
        one.hands, one.malformed_count, one.malformed)
