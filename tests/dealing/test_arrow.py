"""Arrow's reading of a CSV/TSV log in runs of whole shoes: the csv module's fields, or
None where the two would differ."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from analyzer.dealing import arrow
from analyzer.dealing.arrow import shoe_runs, text_buffers

ROWS = [["1", "1", "AS 2H", "0"], ["1", "2", "KD 9C 3S", ""], ["2", "1", "7,7", "x\"y"],
        ["2", "2", "", "1"], ["3", "1", "ÄÖ", "ok"]]


def _write(path: Path, delimiter: str, end: str, quoting: int) -> int:
    """The rows after a header line; the header's length in bytes."""
    text = io.StringIO(newline="")
    writer = csv.writer(text, delimiter=delimiter, lineterminator=end, quoting=quoting)
    writer.writerow(["shoe", "hand", "cards", "note"])
    header = len(text.getvalue().encode())
    writer.writerows(ROWS)
    path.write_bytes(text.getvalue().encode())
    return header


@pytest.mark.parametrize(("delimiter", "end", "quoting"), [
    (",", "\n", csv.QUOTE_MINIMAL), ("\t", "\r\n", csv.QUOTE_MINIMAL),
    (";", "\n", csv.QUOTE_ALL)])
def test_runs_of_whole_shoes_hold_the_csv_modules_fields(
        tmp_path: Path, delimiter: str, end: str, quoting: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(arrow, "BLOCK", 16)  # blocks of a line or two: shoes across them
    path = tmp_path / "log.csv"
    start = _write(path, delimiter, end, quoting)
    runs = list(shoe_runs(path, start, None, 4, delimiter, 0))
    assert all(run is not None for run in runs)
    rows = [list(r) for run in runs if run is not None
            for r in zip(*(c.to_pylist() for c in run), strict=True)]
    assert rows == ROWS
    ids = [run[0].to_pylist() for run in runs if run is not None]
    assert all(len(set(shoe)) == 1 for shoe in ids)  # each run whole shoes (here one)
    offsets, data = text_buffers(runs[0][2])  # type: ignore[index]
    assert bytes(data[offsets[0]:offsets[1]]) == b"AS 2H"


@pytest.mark.parametrize("odd", [b"1,3,AS\r2H,0\n", b"1,3,AS\x002H,0\n", b"1,3,AS\n"])
def test_what_arrow_would_read_otherwise_is_left_to_the_reference(
        tmp_path: Path, odd: bytes) -> None:
    """A lone carriage return, a NUL byte, a row of another width."""
    path = tmp_path / "log.csv"
    path.write_bytes(b"shoe,hand,cards,note\n1,1,AS 2H,0\n1,2,KD 9C,0\n" + odd)
    assert list(shoe_runs(path, 21, None, 4, ",", 0))[-1] is None
