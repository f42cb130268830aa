"""A CSV/TSV hand log read by Arrow's CSV reader as string columns, in runs of whole shoes.

The verifier's column-wise path (:mod:`analyzer.verify.columnar`) reads a large log here:
pyarrow's CSV parser (one thread, a block of whole lines of about :data:`BLOCK` bytes at
a time, so a worker's memory stays bounded whatever the log's size) gives each column as
an Arrow string array,
and :func:`shoe_runs` cuts the rows into runs of whole shoes (the last shoe of a block
waits for the next). The text is not interpreted here: the arrays' offset and data
buffers are read as numpy arrays (:func:`text_buffers`) for the vectorised parsing.

Only what Arrow reads exactly as the ``csv`` module reads it is taken: a file (or a run of
whole shoes of it) with no NUL byte and no carriage return outside a CRLF line end. Any
other file, a row of another width, or bytes Arrow refuses stops the runs with None, and
the caller reads the file another way (in the end record by record, the reference).

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "log.csv")
>>> with open(path, "w") as f:
...     _ = f.write("shoe,hand\\n1,1\\n1,2\\n2,1\\n")
>>> [[c.to_pylist() for c in run] for run in shoe_runs(path, 9, None, 2, ",", 0)]
[[['1', '1'], ['1', '2']], [['2'], ['1']]]
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_LINE, open_binary

__all__ = ["BLOCK", "MAX_PENDING_ROWS", "shoe_runs", "text_buffers"]

#: Bytes read and parsed at a time (whole lines): half a megabyte, about 10,000 rows of
#: punto banco, keeps a shoe-aware worker's arrays near 25 MB (a megabyte: about 50 MB)
#: at no measurable cost in CPU.
BLOCK = 1 << 19
#: A shoe of more rows than this is left to the reference.
MAX_PENDING_ROWS = 1 << 20


def _blocks(path: str | Path, start: int, end: int | None) -> Iterator[bytes | None]:
    """Bytes ``start`` to ``end`` of a file in blocks of whole lines (about
    :data:`BLOCK` bytes each); None, and stop, at a NUL byte, a carriage return outside
    a CRLF line end, or a line longer than :data:`~analyzer.inputs.MAX_LINE`."""
    with open_binary(path) as stream:
        if start:
            stream.seek(start)
        left = -1 if end is None else end - start
        carry = b""
        while True:
            size = BLOCK if left < 0 else min(BLOCK, left)
            chunk = stream.read(size) if size else b""
            left -= len(chunk) if left > 0 else 0
            data = carry + chunk if carry else chunk
            cut = data.rfind(b"\n") + 1 if chunk else len(data)
            block, carry = data[:cut], data[cut:]
            # (a search for one byte is several times faster than a count)
            if len(carry) > MAX_LINE or b"\0" in block or (
                    b"\r" in block and block.count(b"\r") != block.count(b"\r\n")):
                yield None
                return
            if block:
                yield block
            elif not chunk:
                return


def shoe_runs(path: str | Path, start: int, end: int | None, width: int, delimiter: str,
              shoe: int) -> Iterator[list[pa.Array] | None]:
    """The string columns of a log's rows (bytes ``start``, after its header, to ``end``)
    in runs of whole shoes (a new shoe: another ``shoe`` column value than the row
    before); None, and stop, where Arrow cannot read the rows as the ``csv`` module does
    (see the module docstring)."""
    names = [f"c{i}" for i in range(width)]
    read = pacsv.ReadOptions(column_names=names, use_threads=False)
    parse = pacsv.ParseOptions(delimiter=delimiter)
    convert = pacsv.ConvertOptions(column_types=dict.fromkeys(names, pa.string()),
                                   strings_can_be_null=False, quoted_strings_can_be_null=False)
    pending: list[pa.Array] | None = None
    try:
        for block in _blocks(path, start, end):
            if block is None:
                yield None
                return
            if not block.strip():
                continue
            table = pacsv.read_csv(pa.BufferReader(block), read_options=read,
                                   parse_options=parse, convert_options=convert)
            columns = [table.column(i).combine_chunks() for i in range(width)]
            if pending is not None:
                columns = [pa.concat_arrays([a, b]) for a, b in zip(pending, columns,
                                                                      strict=True)]
            n = len(columns[0])
            ids = columns[shoe]
            changes = np.flatnonzero(pc.not_equal(ids.slice(1), ids.slice(0, n - 1))
                                     .to_numpy(zero_copy_only=False)) if n > 1 else \
                np.zeros(0, dtype=np.int64)
            cut = int(changes[-1]) + 1 if len(changes) else 0
            if cut:
                yield [c.slice(0, cut) for c in columns]
            pending = [c.slice(cut) for c in columns]
            if len(pending[0]) > MAX_PENDING_ROWS:
                yield None
                return
        if pending is not None and len(pending[0]):
            yield pending
    except (pa.ArrowException, AnalyzerError, OSError):
        yield None


def text_buffers(column: pa.Array) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """A string array's value offsets (n + 1, into the data) and its UTF-8 data bytes, as
    numpy arrays (no copy of the data)."""
    kind = np.int64 if column.type == pa.large_string() else np.int32
    _, offsets_buffer, data_buffer = column.buffers()
    offsets = np.frombuffer(offsets_buffer, dtype=kind)[
        column.offset:column.offset + len(column) + 1].astype(np.int64)
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else \
        np.zeros(0, dtype=np.uint8)
    return offsets, data
