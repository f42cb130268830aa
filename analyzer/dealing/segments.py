"""One large hand log cut into runs of whole shoes, so several processes can check it.

A log's sums merge by addition, so a file can be checked in pieces as long as no shoe is
cut: each piece starts where a shoe opens (a ``shoe`` record, or a hand numbered 1 not
right after a ``shoe`` record) and runs to the next piece. :func:`find_segments` finds
such cut points near equal byte fractions of an uncompressed log; :class:`SegmentReader`
reads one piece as lines (a CSV log's header line first), and a reader of the piece adds
``lines_before`` to its line numbers so every message names the line of the whole file.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import NamedTuple

__all__ = ["MIN_SEGMENT_BYTES", "Segment", "SegmentReader", "find_segments"]

#: Files below this many bytes per process are not worth cutting.
MIN_SEGMENT_BYTES = 1 << 20
_SCAN = 1 << 16


class Segment(NamedTuple):
    """Bytes ``start`` (a line start) to ``end`` of a file, after ``lines_before`` lines."""

    start: int
    end: int
    lines_before: int


def _opens_shoe(line: bytes, fmt: str, hand_column: int | None, after_shoe: bool) -> bool:
    """Does this line open a shoe (a shoe record, or hand 1 not right after one)?"""
    text = line.decode("utf-8", "replace")
    if fmt == "jsonl":
        if b'"shoe"' not in line and b'"hand"' not in line:
            return False
        try:
            data = json.loads(text)
        except ValueError:
            return False
        if not isinstance(data, dict):
            return False
        if data.get("type") == "shoe":
            return True
        return data.get("type", "hand") == "hand" and data.get("hand") in (1, "1") \
            and not after_shoe
    delimiter = "\t" if fmt == "tsv" else ","
    row = next(csv.reader([text], delimiter=delimiter), [])
    return hand_column is not None and hand_column < len(row) \
        and row[hand_column].strip() == "1"


def _is_shoe_record(line: bytes, fmt: str) -> bool:
    return fmt == "jsonl" and b'"shoe"' in line and b'"type"' in line and (
        b'"type": "shoe"' in line or b'"type":"shoe"' in line)


def find_segments(path: str | Path, fmt: str, parts: int,
                  hand_column: int | None = None) -> list[Segment]:
    """Cut an uncompressed log into at most ``parts`` runs of whole shoes.

    ``hand_column`` is a CSV/TSV log's hand column (its header is kept out of the runs).
    A compressed file, a small one, or one without a shoe opening near a cut point gives
    one segment: the whole file.
    """
    size = os.path.getsize(path)
    whole = [Segment(0, size, 0)]
    if str(path).lower().endswith(".gz") or parts < 2 or size < MIN_SEGMENT_BYTES * parts:
        return whole
    cuts: list[tuple[int, int]] = []  # (byte offset, lines before it)
    with open(path, "rb") as stream:
        header = stream.readline() if fmt in ("csv", "tsv") else b""
        lines = 1 if header else 0
        position = len(header)
        first = position
        for k in range(1, parts):
            target = size * k // parts
            if target <= position:
                continue
            # count the lines up to the target, then look for the next shoe opening
            while position < target:
                chunk = stream.read(min(_SCAN, target - position))
                if not chunk:
                    break
                lines += chunk.count(b"\n")
                position += len(chunk)
            partial = stream.readline()  # the rest of the line the target fell in
            position += len(partial)
            lines += partial.endswith(b"\n")
            after_shoe = _is_shoe_record(partial, fmt)
            while True:
                line = stream.readline()
                if not line:
                    break
                if _opens_shoe(line, fmt, hand_column, after_shoe):
                    cuts.append((position, lines))
                    position += len(line)
                    lines += line.endswith(b"\n")
                    break
                after_shoe = _is_shoe_record(line, fmt)
                position += len(line)
                lines += line.endswith(b"\n")
    starts = [(first, 1 if header else 0), *cuts]
    segments = [Segment(start, next_start, before) for (start, before), (next_start, _) in
                zip(starts, [*cuts, (size, 0)], strict=True) if next_start > start]
    return segments if len(segments) > 1 else whole


class SegmentReader:
    """The lines of one segment as text (a CSV log's header line first), for a log reader.

    Iterating yields decoded lines with their line ends (as a text file does), so
    :mod:`csv` and the JSON Lines reader take it in place of the open file.
    """

    def __init__(self, path: str | Path, segment: Segment, header: bool) -> None:
        self._stream = open(path, "rb")  # noqa: SIM115 - closed by __exit__
        self._segment = segment
        self._header = header

    def __enter__(self) -> SegmentReader:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._stream.close()

    def __iter__(self) -> Iterator[str]:
        stream = self._stream
        if self._header and self._segment.start > 0:
            yield stream.readline().decode("utf-8-sig")
        stream.seek(self._segment.start)
        left = self._segment.end - self._segment.start
        while left > 0:
            line = stream.readline(left)
            if not line:
                return
            left -= len(line)
            yield line.decode("utf-8")
