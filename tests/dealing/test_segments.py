"""Cutting a hand log into runs of whole shoes: each run opens a shoe, the runs tile the
file, and reading the runs one after another gives every record of the file, line numbers
included."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from analyzer.dealing import segments
from analyzer.dealing.handlog import Hand, ShoeStart, read_log
from analyzer.dealing.records import Layout
from analyzer.dealing.simulate import simulate


def _log(folder: Path, fmt: str, shoes: int = 6) -> Path:
    path = folder / f"log.{fmt}"
    buffer = io.StringIO()
    simulate("punto-banco", 8, shoes, 3, buffer, fmt)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_runs_open_shoes_tile_the_file_and_read_back_every_record(
        tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _log(tmp_path, fmt)
    runs = segments.find_segments(path, fmt, 3, 1 if fmt == "csv" else None)
    assert len(runs) == 3
    assert runs[-1].end == path.stat().st_size
    assert all(a.end == b.start for a, b in zip(runs, runs[1:], strict=False))
    whole = [r for r in read_log(path) if type(r) is not Layout]
    pieces = [record for run in runs for record in read_log(path, segment=run)
              if type(record) is not Layout]  # each run says what its columns were for
    assert pieces == whole
    for run in runs[1:]:
        first = next(r for r in read_log(path, segment=run) if type(r) is not Layout)
        assert type(first) is ShoeStart or (type(first) is Hand and first.hand == 1)


def test_small_or_compressed_files_are_not_cut(tmp_path: Path) -> None:
    path = _log(tmp_path, "csv", 2)
    assert segments.find_segments(path, "csv", 2, 1) == [
        segments.Segment(0, path.stat().st_size, 0)]


def test_gzip_is_told_by_its_magic_bytes_not_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    plain = _log(tmp_path, "csv")
    packed = tmp_path / "packed.csv"  # gzip under a plain name
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert segments.find_segments(packed, "csv", 3, 1) == [
        segments.Segment(0, packed.stat().st_size, 0)]
    assert list(read_log(packed)) == list(read_log(plain))


def test_a_run_reads_its_own_lines_through_the_input_layer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's lines, read through the input layer, are exactly the whole file's lines
    between its line numbers."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _log(tmp_path, "jsonl")
    runs = segments.find_segments(path, "jsonl", 3)
    assert len(runs) == 3
    lines = path.read_text(encoding="utf-8").splitlines()
    first, second = (segments.counted(path, run).lines_before for run in runs[1:])
    assert list(segments.segment_lines(path, runs[1], False)) == lines[first:second]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_lines_before_a_run_are_counted_only_when_asked(
        tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cut finder does not count the lines before a run (the first run's are its header
    line, or none); counted() gives the number of newlines before the run's start."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _log(tmp_path, fmt)
    runs = segments.find_segments(path, fmt, 3, 1 if fmt == "csv" else None)
    assert runs[0].lines_before == (1 if fmt == "csv" else 0)
    assert [run.lines_before for run in runs[1:]] == [segments.UNCOUNTED] * 2
    data = path.read_bytes()
    for run in runs:
        assert segments.counted(path, run) == run._replace(
            lines_before=data[:run.start].count(b"\n"))


def test_a_line_the_csv_module_cannot_read_opens_no_shoe(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lone carriage return inside a line (the csv module refuses it): the line cannot
    open a run, so a log made only of such lines is one run, whole (the reader reports
    each line), never an internal error."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _log(tmp_path, "csv")
    header, *rows = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([header, *(b"\r" + row if row else row for row in rows)]))
    assert segments.find_segments(path, "csv", 3, 1) == [
        segments.Segment(0, path.stat().st_size, 0)]
