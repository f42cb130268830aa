"""One log checked by several processes in runs of whole shoes gives the sums of one
process, and its problems keep the line numbers of the whole file."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest

from analyzer.dealing import segments
from analyzer.dealing.simulate import simulate
from analyzer.verify.run import collect


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
