"""One large hand log cut into runs of whole shoes, so several processes can check it.

A log's sums merge by addition, so a file can be checked in pieces as long as no shoe is
cut: each piece starts where a shoe opens (a ``shoe`` record, or a hand numbered 1 not
right after a ``shoe`` record whose shoe id is not the previous hand's) and runs to the
next piece. :func:`find_segments` finds such cut points near equal byte fractions of an
uncompressed log (gzip told by its magic bytes, :func:`analyzer.inputs.is_gzip`);
:func:`segment_lines` reads one piece through the input layer
(:func:`analyzer.inputs.read_lines`: the same decoding, bounds and messages as the whole
file), a CSV log's header line first, and its line numbers are those of the whole file.

Rows of interleaved shoes may still straddle a cut: the checker of a piece raises
:class:`BrokenSegment` when its first record does not open a shoe or a hand continues a
shoe the piece never opened, and the file is then checked whole.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from analyzer.dealing.dialects import sniff_delimiter
from analyzer.errors import AnalyzerError
from analyzer.inputs import is_gzip, is_integer_text, open_binary, read_lines

__all__ = ["BrokenSegment", "counted", "MIN_SEGMENT_BYTES", "Segment", "UNCOUNTED",
           "find_segments", "segment_lines"]

#: Files below this many bytes per process are not worth cutting.
MIN_SEGMENT_BYTES = 1 << 20
#: Bytes read at a time when counting the lines before a run.
_COUNT_BLOCK = 1 << 20
#: ``lines_before`` of a run whose lines before it are not counted yet (:func:`counted`).
UNCOUNTED = -1


class Segment(NamedTuple):
    """Bytes ``start`` (a line start) to ``end`` of a file, after ``lines_before`` lines
    (:data:`UNCOUNTED`: not counted yet)."""

    start: int
    end: int
    lines_before: int


def counted(path: str | Path, segment: Segment) -> Segment:
    """The run with its ``lines_before`` counted (the newlines before its start) if
    :func:`find_segments` left it :data:`UNCOUNTED`. Only a reader that numbers the lines
    needs the count (the record-by-record replay): the column-wise check of a clean log
    never does, so the count is left to the process that reads the run, and to the case
    that needs it (half a 500 MB log took 0.5 s of CPU to count before its workers forked).
    """
    if segment.lines_before != UNCOUNTED:
        return segment
    lines, left = 0, segment.start
    with open_binary(path) as stream:
        while left > 0:
            chunk = stream.read(min(_COUNT_BLOCK, left))
            if not chunk:
                break
            lines += chunk.count(b"\n")
            left -= len(chunk)
    return segment._replace(lines_before=lines)


class BrokenSegment(AnalyzerError):
    """A piece of a log does not start a shoe of its own (rows of shoes interleave across
    the cut): the file must be checked whole."""


class _Line(NamedTuple):
    """What the cut finder needs of one line: its kind and shoe id."""

    kind: str  # "hand", "shoe", "shoe_end" or "" (anything else)
    shoe: str
    hand: int | None


def _parse(line: bytes, fmt: str, hand_column: int | None,
           shoe_column: int | None, delimiter: str = ",") -> _Line:
    text = line.decode("utf-8", "replace")
    if fmt == "jsonl":
        try:
            data: Any = json.loads(text)
        except (ValueError, RecursionError):
            return _Line("", "", None)
        if not isinstance(data, dict):
            return _Line("", "", None)
        kind = data.get("type", "hand")
        shoe = data.get("shoe")
        number = data.get("hand")
        return _Line(kind if kind in ("hand", "shoe", "shoe_end") else "",
                     shoe if isinstance(shoe, str) else str(shoe) if shoe is not None else "",
                     number if type(number) is int else None)
    if hand_column is None:
        return _Line("", "", None)
    try:
        row = next(csv.reader([text.rstrip("\r\n")], delimiter=delimiter), [])
    except csv.Error:  # e.g. a lone carriage return: a malformed record, the reader's to report
        return _Line("", "", None)
    if hand_column >= len(row):
        return _Line("", "", None)
    text = row[hand_column]  # as the reader takes it: ASCII digits only
    hand = int(text) if is_integer_text(text) and len(text) < 19 else None
    shoe_text = row[shoe_column] if shoe_column is not None and shoe_column < len(row) else ""
    return _Line("hand", shoe_text, hand)


def _opens_shoe(line: _Line, previous: _Line | None) -> bool:
    """Can a piece start at this line: a shoe record, or hand 1 of another shoe than the
    previous line's hand (a hand 1 right after a shoe record belongs to that record)?"""
    if line.kind == "shoe":
        return True
    if line.kind != "hand" or line.hand != 1 or previous is None:
        return False
    if previous.kind == "shoe_end":
        return True
    return previous.kind == "hand" and (not line.shoe or line.shoe != previous.shoe)


def find_segments(path: str | Path, fmt: str, parts: int, hand_column: int | None = None,
                  shoe_column: int | None = None, delimiter: str | None = None
                  ) -> list[Segment]:
    """Cut an uncompressed log into at most ``parts`` runs of whole shoes.

    ``hand_column`` and ``shoe_column`` are a CSV/TSV log's hand and shoe columns (its
    header is kept out of the runs; without a shoe column every shoe is unnamed), and
    ``delimiter`` its separator (None: told from the header line). A
    compressed file, a small one, or one without a shoe opening after a cut point gives
    one segment: the whole file.
    """
    size = os.path.getsize(path)
    whole = [Segment(0, size, 0)]
    if parts < 2 or size < MIN_SEGMENT_BYTES * parts or is_gzip(path):
        return whole
    cuts: list[int] = []  # byte offsets
    with open_binary(path) as stream:
        header = stream.readline() if fmt in ("csv", "tsv") else b""
        separator = sniff_delimiter(header.decode("utf-8", "replace").lstrip("\ufeff"), fmt,
                                    delimiter)
        position = len(header)
        first = position
        for k in range(1, parts):
            target = size * k // parts
            if target <= position:
                continue
            # from the target, the next shoe opening (the lines before it: counted())
            stream.seek(target)
            position = target
            partial = stream.readline()  # the rest of the line the target fell in
            position += len(partial)
            previous: _Line | None = None  # a whole line before the candidate
            while True:
                line = stream.readline()
                if not line:
                    break
                parsed = _parse(line, fmt, hand_column, shoe_column, separator)
                if _opens_shoe(parsed, previous):
                    cuts.append(position)
                    position += len(line)
                    break
                if parsed.kind or line.strip():
                    previous = parsed
                position += len(line)
    starts = [(first, 1 if header else 0), *((cut, UNCOUNTED) for cut in cuts)]
    segments = [Segment(start, next_start, before) for (start, before), next_start in
                zip(starts, [*cuts, size], strict=True) if next_start > start]
    return segments if len(segments) > 1 else whole


def segment_lines(path: str | Path, segment: Segment, header: bool) -> Iterator[str]:
    """The lines of one segment through the input layer, without their newlines (as
    :func:`analyzer.inputs.read_lines` gives them), a CSV log's header line first."""
    if header and segment.start > 0:
        lines = read_lines(path)
        try:
            yield next(lines, "")
        finally:
            lines.close()
    yield from read_lines(path, start=segment.start, end=segment.end,
                          lines_before=counted(path, segment).lines_before)
