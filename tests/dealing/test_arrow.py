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


@pytest.mark.parametrize("block", [16, 40, 1 << 19])
def test_integer_columns_are_int64_where_written_as_plain_digits(
        tmp_path: Path, block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand numbers and stakes read as int64 (an empty cell: null) in blocks whose every
    integer is its plain digits; a block holding one Arrow would read otherwise (padded,
    leading zeros, -0, quoted, hexadecimal) is strings, as written, and so is the rest of
    its run."""
    monkeypatch.setattr(arrow, "BLOCK", block)
    rows = [["1", "1", "AS 2H", "100"], ["1", "2", "KD 9C", ""], ["2", "1", "QH 3S", "0"],
            ["3", "1", "2C 5D", " 7"], ["3", "2", "2C 5D", "007"], ["4", "1", "2C 5D", "-0"],
            ["5", "1", "2C 5D", '"7"'], ["6", "1", "2C 5D", "0x1f"],
            ["7", "1", "2C 5D", "25"], ["7", "2", "2C 5D", "999999999999999999"]]
    path = tmp_path / "log.csv"
    path.write_bytes(("shoe,hand,cards,stake\n" + "".join(",".join(r) + "\n" for r in rows))
                     .encode())
    runs = list(shoe_runs(path, 21, None, 4, ",", 0, {1, 3}))
    assert all(run is not None for run in runs)
    read = [[("" if v is None else str(v)) for v in c.to_pylist()] for run in runs
            if run is not None for c in run]
    written = [[r[k] if r[k] != '"7"' else "7" for r in rows] for k in range(4)]
    assert [sum(read[k::4], []) for k in range(4)] == written  # the fields as written
    kinds = {str(c.type) for run in runs if run is not None for c in run[1::2]}
    assert ("int64" in kinds) == (block != 1 << 19)  # one block: strings throughout
    # a whole log of plain digits: every run's integer columns int64, values as written
    plain = tmp_path / "plain.csv"
    plain.write_bytes(b"shoe,hand,cards,stake\n1,1,AS 2H,100\n1,2,KD 9C,\n2,1,QH 3S,0\n")
    first, second = shoe_runs(plain, 21, None, 4, ",", 0, {1, 3}, 1 << 19)
    assert first is not None and second is not None
    assert [c.type for c in first] == [arrow.pa.string(), arrow.pa.int64()] * 2
    assert first[3].to_pylist() == [100, None] and second[3].to_pylist() == [0]
