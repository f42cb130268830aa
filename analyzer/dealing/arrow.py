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

Columns the caller names as integers (stakes, amounts returned, hand numbers) are parsed
by Arrow straight to int64 (an empty cell: null), which spares building their strings;
a block is read so only when its text is each integer's plain decimal digits, which
:func:`_typed` checks by length (see there). Any other block is read as strings, and the
run's integer columns are then strings too (the plain digits again, empty for null).

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "log.csv")
>>> with open(path, "w") as f:
...     _ = f.write("shoe,hand\\n1,1\\n1,2\\n2,1\\n")
>>> [[c.to_pylist() for c in run] for run in shoe_runs(path, 9, None, 2, ",", 0)]
[[['1', '1'], ['1', '2']], [['2'], ['1']]]
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Collection, Iterator
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_LINE, open_binary

IntArray = npt.NDArray[np.int64]

__all__ = ["BLOCK", "empty_cells", "field_lengths", "int_cells", "keep_freed_memory",
           "MAX_PENDING_ROWS", "PLAIN_DIGITS", "plain_integers", "shoe_runs", "text_buffers"]

#: Bytes read and parsed at a time (whole lines): half a megabyte, about 10,000 rows of
#: punto banco, keeps a shoe-aware worker's arrays near 25 MB (a megabyte: about 50 MB)
#: at no measurable cost in CPU.
BLOCK = 1 << 19
#: A shoe of more rows than this is left to the reference (the caller may give fewer:
#: :func:`shoe_runs`'s ``max_rows``).
MAX_PENDING_ROWS = 1 << 20
#: An integer column is read as int64 only when every value has at most this many
#: digits (the column-wise path reads no longer integer).
PLAIN_DIGITS = 18
_POWERS = 10 ** np.arange(1, PLAIN_DIGITS, dtype=np.int64)  # 10 ... 10**17


def _blocks(path: str | Path, start: int, end: int | None, block_size: int
            ) -> Iterator[bytes | None]:
    """Bytes ``start`` to ``end`` of a file in blocks of whole lines (about
    ``block_size`` bytes each); None, and stop, at a NUL byte, a carriage return outside
    a CRLF line end, or a line longer than :data:`~analyzer.inputs.MAX_LINE`."""
    with open_binary(path) as stream:
        if start:
            stream.seek(start)
        left = -1 if end is None else end - start
        carry = b""
        while True:
            size = block_size if left < 0 else min(block_size, left)
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
              shoe: int, integers: Collection[int] = (), block_size: int | None = None,
              max_rows: int = MAX_PENDING_ROWS) -> Iterator[list[pa.Array] | None]:
    """The columns of a log's rows (bytes ``start``, after its header, to ``end``) in
    runs of whole shoes (a new shoe: another ``shoe`` column value than the row before),
    read ``block_size`` bytes (default :data:`BLOCK`) at a time: strings, and the
    columns ``integers`` int64 where the text allows (see the module docstring); None,
    and stop, where Arrow cannot read the rows as the ``csv`` module does, or at a shoe of
    more than ``max_rows`` rows (a shoe id that never changes: its rows are not gathered
    without bound)."""
    # Arrow's memory from the C allocator, where numpy reuses it: Arrow's own mimalloc
    # pool keeps 15-20 MB of freed pages per process, against the per-worker bound
    # (a shoe-aware lucky-baccarat run: 296-299 MB of peak RSS with it, 279-285 without)
    pa.set_memory_pool(pa.system_memory_pool())
    keep_freed_memory()
    names = [f"c{i}" for i in range(width)]
    size = BLOCK if block_size is None else block_size
    # (Arrow's own blocks hold a whole block of ours: one chunk a column, no copy to join)
    read = pacsv.ReadOptions(column_names=names, use_threads=False,
                             block_size=max(size + MAX_LINE + 2, 1 << 20))
    parse = pacsv.ParseOptions(delimiter=delimiter)
    as_text = pacsv.ConvertOptions(column_types=dict.fromkeys(names, pa.string()),
                                   strings_can_be_null=False,
                                   quoted_strings_can_be_null=False)
    # (an ASCII block's text columns as bytes, seen as strings after: its UTF-8 is valid,
    # so Arrow's check of it is skipped)
    typed, typed_ascii = (pacsv.ConvertOptions(
        column_types={name: pa.int64() if i in integers else text
                      for i, name in enumerate(names)},
        null_values=[""], strings_can_be_null=False, quoted_strings_can_be_null=False)
        for text in (pa.string(), pa.binary()))
    pending: list[pa.Array] | None = None
    try:
        for block in _blocks(path, start, end, size):
            if block is None:
                yield None
                return
            if block[:1].isspace() and not block.strip():  # (a copy: only when it may be)
                continue
            columns = _typed(block, read, parse, typed_ascii if block.isascii() else typed,
                             integers) if integers else None
            if columns is None:
                table = pacsv.read_csv(pa.BufferReader(block), read_options=read,
                                       parse_options=parse, convert_options=as_text)
                columns = [_whole(table.column(i)) for i in range(width)]
            if pending is not None:
                columns = [pa.concat_arrays(_alike(a, b)) for a, b in zip(pending, columns,
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
            if len(pending[0]) > max_rows:
                yield None
                return
        if pending is not None and len(pending[0]):
            yield pending
    except (pa.ArrowException, AnalyzerError, OSError):
        yield None


#: glibc's mallopt parameters (malloc.h) and the values :func:`keep_freed_memory` sets:
#: blocks below 32 MB from the heap, and up to 64 MB of freed heap kept by the process.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEEP = {_M_MMAP_THRESHOLD: 32 << 20, _M_TRIM_THRESHOLD: 64 << 20}


@cache
def keep_freed_memory() -> bool:
    """Have the C allocator keep freed blocks for reuse (glibc; elsewhere nothing is done):
    True if set.

    The column-wise path allocates and frees arrays of a few hundred kilobytes to a few
    megabytes for every block it reads. By default glibc maps each block above 128 KB
    afresh and gives it back when freed (or trims the heap's freed top), so every array
    is page-faulted in and zeroed again: about a sixth of the CPU of an independent-model
    run of a 2M-hand log (0.3-0.45 s of system time, against 0.1 s so kept), for 5 MB
    more resident memory at most.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return all([mallopt(option, value) == 1 for option, value in _KEEP.items()])


def _typed(block: bytes, read: pacsv.ReadOptions, parse: pacsv.ParseOptions,
           convert: pacsv.ConvertOptions, integers: Collection[int]) -> list[pa.Array] | None:
    """A block's columns with the ``integers`` read as int64; None unless every integer
    field of it is written as its plain decimal digits (empty: null), at most
    :data:`PLAIN_DIGITS` of them.

    Arrow also reads ``" 7"``, ``"007"``, ``"-0"``, a quoted ``"7"`` and hexadecimal
    ``0x7``, which the string path reads otherwise. Each of those but hexadecimal (no
    ``x`` in the block) is longer than the plain digits of its value, and no field is
    shorter as read than as written (a quoted string is longer, an empty line adds a
    line end only), so the block's length equals the sum of its strings' bytes, its
    integers' plain digits, its delimiters and its line ends only when every integer
    field is plain digits.
    """
    if b"x" in block or b"X" in block:
        return None
    try:
        table = pacsv.read_csv(pa.BufferReader(block), read_options=read,
                               parse_options=parse, convert_options=convert)
    except pa.ArrowInvalid:
        return None  # (read as strings: the string path says what is wrong)
    columns = [_whole(table.column(i)) for i in range(table.num_columns)]
    columns = [c.view(pa.string()) if c.type == pa.binary() else c for c in columns]
    n = table.num_rows
    # delimiters and line ends (a byte count in numpy: several times faster than count)
    written = (len(columns) - 1) * n + int(np.count_nonzero(
        np.frombuffer(block, dtype=np.uint8) == 10)) + (block.count(b"\r") if b"\r" in block
                                                       else 0)
    full: list[IntArray] = []  # the integer columns without an empty cell, checked together
    for i, column in enumerate(columns):
        if i not in integers:
            offsets = text_buffers(column)[0]
            written += int(offsets[-1] - offsets[0])
        elif not column.null_count:
            full.append(column.to_numpy())
        else:
            values, empty = int_cells(column)
            found = _digits(values[~empty])
            if found is None:
                return None
            written += found
    if full:
        found = _digits(np.stack(full) if len(full) > 1 else full[0])
        if found is None:
            return None
        written += found
    return columns if written == len(block) else None


def _digits(held: npt.NDArray[np.int64]) -> int | None:
    """The digits of every value written plainly (None: a value below 0 or of more than
    :data:`PLAIN_DIGITS` digits): one, and one more for each power of ten it reaches (up to
    the largest value's)."""
    if not held.size:
        return 0
    low, high = int(held.min()), int(held.max())
    if low < 0 or high >= 10 ** PLAIN_DIGITS:
        return None
    return held.size + sum(int(np.count_nonzero(held >= power))
                           for power in _POWERS[:len(str(high)) - 1])


def _whole(column: pa.ChunkedArray) -> pa.Array:
    """A column of a table as one array (its one chunk as it is: no copy)."""
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def _alike(first: pa.Array, second: pa.Array) -> tuple[pa.Array, pa.Array]:
    """Two parts of a column as one type: an int64 part beside a string part as the
    strings of its plain digits (null: empty), which is how its block was written."""
    if first.type == second.type:
        return first, second
    first, second = (pc.fill_null(pc.cast(c, pa.string()), "") if c.type != pa.string()
                     else c for c in (first, second))
    return first, second


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


def field_lengths(column: pa.Array) -> IntArray:
    """Each field's length in bytes."""
    return np.diff(text_buffers(column)[0])


def int_cells(column: pa.Array) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """An int64 column's values (0 where a cell is empty: null) and which cells are empty,
    read off its buffers (no Arrow compute call: a few microseconds a column)."""
    n, at = len(column), column.offset
    validity, data = column.buffers()
    values: IntArray = np.frombuffer(data, dtype=np.int64)[at:at + n] if n else \
        np.zeros(0, dtype=np.int64)
    if not column.null_count:
        return values, np.zeros(n, dtype=bool)
    valid = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), count=at + n,
                          bitorder="little")[at:].view(bool)
    return np.where(valid, values, 0), ~valid


def empty_cells(column: pa.Array) -> npt.NDArray[np.bool_]:
    """Which cells are empty (an int64 column's nulls: see :func:`plain_integers`)."""
    if column.type == pa.int64():
        empty: npt.NDArray[np.bool_] = np.asarray(column.is_null(), dtype=bool) \
            if column.null_count else np.zeros(len(column), dtype=bool)
    else:
        empty = field_lengths(column) == 0
    return empty


def plain_integers(column: pa.Array, empty_zero: bool = False) -> IntArray | None:
    """A column of plain non-negative integers (ASCII digits, below 10**18) as int64;
    None otherwise. ``empty_zero``: an empty cell reads 0. The column is strings, or
    int64 as :func:`shoe_runs` reads one (nulls: empty cells)."""
    if column.type == pa.int64():
        if column.null_count and not empty_zero:
            return None
        numbers: IntArray = (column.fill_null(0) if column.null_count else column).to_numpy(
            zero_copy_only=False)
        if len(numbers) and (numbers.min() < 0 or numbers.max() >= 10 ** PLAIN_DIGITS):
            return None
        return numbers
    offsets, data = text_buffers(column)
    length = np.diff(offsets)
    if len(column) == 0:
        return np.zeros(0, dtype=np.int64)
    if length.max() > PLAIN_DIGITS or (not empty_zero and length.min() == 0):
        return None
    body = data[offsets[0]:offsets[-1]]
    if ((body < 48) | (body > 57)).any():
        return None
    if length.min() == 0:
        column = pc.if_else(pc.equal(column, ""), "0", column)
    result: IntArray = pc.cast(column, pa.int64()).to_numpy(zero_copy_only=False)
    return result
