"""The one input layer: every file the tool reads is opened and decoded here.

* Text is UTF-8. A UTF-8 byte-order mark is accepted and dropped, in every kind of file.
  UTF-16/UTF-32 (by their byte-order marks), other encodings (an invalid UTF-8 byte) and
  binary data (a NUL byte) are refused by name, with the file and line.
* gzip is recognised by its magic bytes, whatever the file is called; a truncated or
  corrupt stream is an error naming the file and the line reached.
* Sizes are bounded so that one hostile record cannot exhaust time or memory: a line of
  a log at most :data:`MAX_LINE` characters, a whole file read at once (profile, shoe,
  strategy, partial) at most :data:`MAX_FILE` bytes, nesting of brackets at most
  :data:`MAX_DEPTH`, integers at most :data:`MAX_DIGITS` digits, and no NaN or infinity.

* A log is read in bounded time: at most :data:`MAX_LINES` lines, and a gzip stream
  expands to at most :data:`MAX_EXPANSION` times the compressed bytes read so far, plus
  :data:`EXPANSION_FLOOR` (so a bomb is stopped within its first megabytes);
  ``NINE_MAX_LINES`` and ``NINE_MAX_EXPANSION`` in the environment raise them (``nine
  verify --max-lines/--max-expansion`` set those).
* Only regular files are read: a FIFO, a device, a socket or a folder given as a file is
  refused by name at once (it is opened without blocking, then checked), and a loop of
  symbolic links is named as such.

Every failure is one :class:`analyzer.errors.AnalyzerError` whose message starts with the
file name.

>>> decode(b"\\xef\\xbb\\xbfdecks 8\\n", "shoe.txt")
'decks 8\\n'
>>> decode(b"caf\\xe9\\n", "shoe.txt")
Traceback (most recent call last):
...
analyzer.errors.AnalyzerError: shoe.txt: line 1: not UTF-8 (byte 0xe9); save the file as UTF-8
>>> parse_json('{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
"""

from __future__ import annotations

import codecs
import errno
import gzip
import io
import json
import math
import os
import stat
import tomllib
import zlib
from collections.abc import Generator
from pathlib import Path
from typing import IO, Any

from analyzer.errors import AnalyzerError

__all__ = ["EXPANSION_FLOOR", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPANSION", "MAX_FILE",
           "MAX_LINE", "MAX_LINES", "count_lines", "decode", "is_integer_text", "limits",
           "is_gzip", "nesting_depth", "open_binary", "open_regular", "parse_json",
           "parse_number", "parse_toml", "peek_text", "read_bytes", "read_lines", "read_text",
           "toml_text"]

#: Longest line of a log (characters). The longest legitimate record, a Lucky 9 hand of
#: nine seats with every stake written out, is well under 10,000 characters.
MAX_LINE = 1_000_000
#: Largest file read whole (bytes): profiles, shoes, strategies and partial results are
#: a few kilobytes to a few megabytes.
MAX_FILE = 64 * 1024 * 1024
#: Deepest nesting of brackets ([ { ( ) in JSON, TOML and conditions: real files use 4.
MAX_DEPTH = 64
#: Most digits in one integer of a record (counts of tens of billions of hands need 11;
#: exact sums of stakes stay far below 100).
MAX_DIGITS = 100

#: Most lines of one log (a billion hands; shard larger runs, or raise it).
MAX_LINES = 1_000_000_000
#: Most a gzip stream may expand, as a multiple of its compressed size: hand logs compress
#: 5 to 15 times; a stream of one byte repeated (a decompression bomb) a thousand times.
MAX_EXPANSION = 100
#: Bytes any gzip stream may expand to beyond its ratio (a small file is never refused).
EXPANSION_FLOOR = 16 * 1024 * 1024

_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 16


def _where(path: str | Path) -> str:
    return str(path)


def _setting(name: str, default: int) -> int:
    text = os.environ.get(name, "")
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise AnalyzerError(f"{name}={text!r}: expected a whole number from 1")
    return int(text)


def limits() -> tuple[int, int]:
    """(most lines of a log, most expansion of a gzip stream): the defaults, or as the
    environment sets them (``NINE_MAX_LINES``, ``NINE_MAX_EXPANSION``)."""
    return _setting("NINE_MAX_LINES", MAX_LINES), _setting("NINE_MAX_EXPANSION",
                                                           MAX_EXPANSION)


class _BoundedGzip(gzip.GzipFile):
    """A gzip stream that refuses to expand past its bound (a decompression bomb)."""

    def __init__(self, raw: IO[bytes], where: str) -> None:
        super().__init__(fileobj=raw, mode="rb")
        self.raw = raw
        self.where = where
        self.ratio = limits()[1]
        self.expanded = 0

    def read(self, size: int | None = -1) -> bytes:
        """Decompressed bytes, counted against the bound."""
        data = super().read(size)
        self.expanded += len(data)
        if self.expanded > EXPANSION_FLOOR + self.ratio * self.raw.tell():
            raise AnalyzerError(
                f"{self.where}: the gzip stream expands more than {self.ratio:,} times its "
                f"size (a decompression bomb?); raise the limit with --max-expansion")
        return data


def _check_lines(where: str, lines: int, most: int) -> None:
    if lines > most:
        raise AnalyzerError(f"{where}: more than {most:,} lines; raise the limit with "
                            "--max-lines (or split the log)")


def _refuse_encoding(head: bytes, where: str) -> None:
    """Name UTF-16/32 (by byte-order mark) and binary data (a NUL byte)."""
    for mark, name in ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
                       (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16")):
        if head.startswith(mark):
            raise AnalyzerError(f"{where}: the file is {name} encoded; save it as UTF-8")
    if b"\x00" in head:
        raise AnalyzerError(f"{where}: a binary file, not text")


def decode(data: bytes, where: str, first_line: int = 1) -> str:
    """UTF-8 bytes as text (a leading byte-order mark dropped); errors name file and line."""
    if first_line == 1:
        _refuse_encoding(data[:4096], where)
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        raise AnalyzerError(f"{where}: line {line}: not UTF-8 (byte 0x{data[exc.start]:02x}); "
                            "save the file as UTF-8") from None


def _unreadable(where: str, exc: OSError) -> AnalyzerError:
    """The one-line error for a file that cannot be opened."""
    if exc.errno == errno.ELOOP:
        return AnalyzerError(f"{where}: cannot read (a loop of symbolic links)")
    return AnalyzerError(f"{where}: cannot read ({exc.strerror or exc})")


def _kind(mode: int) -> str:
    """What a file that is not a regular one is."""
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def open_regular(path: str | Path) -> io.BufferedReader:
    """A regular file's raw bytes as a stream; a FIFO, device, socket or folder is refused
    by name without waiting on it (it is opened without blocking, then checked)."""
    where = _where(path)
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise _unreadable(where, exc) from None
    except ValueError:  # a NUL byte in the name
        raise AnalyzerError(f"{where!r}: a NUL byte in a file name") from None
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise AnalyzerError(f"{where}: {_kind(mode)}, not a regular file")
        os.set_blocking(handle, True)
        return open(handle, "rb")  # noqa: SIM115 - returned to the caller
    except BaseException:
        os.close(handle)
        raise


def _open(path: str | Path) -> IO[bytes] | gzip.GzipFile:
    """The file's bytes, through gzip when it starts with gzip's magic bytes."""
    where = _where(path)
    raw = open_regular(path)
    try:
        magic = raw.peek(2)[:2]
    except OSError as exc:
        raw.close()
        raise AnalyzerError(f"{where}: cannot read ({exc.strerror})") from None
    if magic == _GZIP_MAGIC:
        return _BoundedGzip(raw, where)
    return raw


def open_binary(path: str | Path) -> IO[bytes]:
    """A file's bytes as a stream, through gzip when it starts with gzip's magic bytes;
    AnalyzerError naming the file if it cannot be opened."""
    stream = _open(path)
    return stream  # type: ignore[return-value]  # GzipFile reads bytes like IO[bytes]


def _gzip_failure(where: str, exc: BaseException, line: int) -> AnalyzerError:
    if isinstance(exc, EOFError):
        return AnalyzerError(f"{where}: line {line}: the gzip stream is truncated")
    return AnalyzerError(f"{where}: line {line}: corrupt gzip data ({exc})")


def _read_failure(where: str, exc: BaseException, line: int) -> AnalyzerError:
    """Why a file could not be read: the system's reason, or its gzip stream's fault."""
    if isinstance(exc, OSError) and not isinstance(exc, gzip.BadGzipFile):
        return AnalyzerError(f"{where}: cannot read ({exc.strerror or exc})")
    return _gzip_failure(where, exc, line)


def _head(path: str | Path, size: int) -> bytes:
    """The first ``size`` bytes of a (possibly gzipped) file."""
    stream = _open(path)
    try:
        return stream.read(size)
    except (EOFError, OSError, zlib.error) as exc:
        raise _read_failure(_where(path), exc, 1) from None
    finally:
        stream.close()


def read_bytes(path: str | Path, limit: int = MAX_FILE) -> bytes:
    """A whole (possibly gzipped) file's bytes, at most ``limit`` of them."""
    data = _head(path, limit + 1)
    if len(data) > limit:
        raise AnalyzerError(f"{_where(path)}: larger than {limit:,} bytes")
    return data


def read_text(path: str | Path, limit: int = MAX_FILE) -> str:
    """A whole text file, decoded and checked (see the module docstring)."""
    return decode(read_bytes(path, limit), _where(path))


def read_lines(path: str | Path, max_line: int = MAX_LINE, start: int = 0,
               end: int | None = None, lines_before: int = 0) -> Generator[str, None, None]:
    """The lines of a (possibly gzipped) text file, streamed, each without its newline.

    Memory stays bounded by ``max_line``: a longer line is an error naming its number.
    Lines are decoded a block at a time (every complete line of a chunk together), so a
    log's millions of lines cost one decode per chunk, not one per line.

    ``start`` and ``end``: only the (uncompressed) bytes from ``start``, a line start, up
    to ``end``; ``lines_before`` is how many lines come before ``start``, so that every
    message names the line of the whole file (:mod:`analyzer.dealing.segments`).
    """
    where = _where(path)
    stream = _open(path)
    most = limits()[0]
    number = lines_before
    pending: list[bytes] = []  # the chunks of an unfinished line
    size = 0
    first = start == 0
    left = -1 if end is None else end - start  # bytes still to read (-1: to the end)
    try:
        if start:
            try:
                stream.seek(start)
            except (EOFError, OSError, zlib.error) as exc:
                raise AnalyzerError(f"{where}: cannot read ({exc})") from None
        while left:
            try:
                chunk = stream.read(_CHUNK if left < 0 else min(_CHUNK, left))
            except (EOFError, OSError, zlib.error) as exc:
                raise _read_failure(where, exc, number + 1) from None
            if not chunk:
                break
            if left > 0:
                left -= len(chunk)
            if first:
                first = False
                _refuse_encoding(chunk[:4096], where)
                if chunk.startswith(codecs.BOM_UTF8):
                    chunk = chunk[len(codecs.BOM_UTF8):]
            cut = chunk.rfind(b"\n")
            if cut < 0:  # no line ends here: keep the piece, bounded
                pending.append(chunk)
                size += len(chunk)
                if size > 4 * max_line:
                    raise AnalyzerError(f"{where}: line {number + 1}: longer than "
                                        f"{max_line:,} characters")
                continue
            block = b"".join(pending) + chunk[:cut] if pending else chunk[:cut]
            rest = chunk[cut + 1:]
            pending, size = ([rest], len(rest)) if rest else ([], 0)
            lines = _block(block, where, number + 1, max_line)
            number += len(lines)
            _check_lines(where, number, most)
            yield from lines
        if pending:
            yield from _block(b"".join(pending), where, number + 1, max_line)
    finally:
        stream.close()


def _block(raw: bytes, where: str, first_line: int, max_line: int) -> list[str]:
    """Complete lines (joined by newlines) decoded and checked together."""
    if b"\x00" in raw:
        line = first_line + raw.count(b"\n", 0, raw.index(b"\x00"))
        raise AnalyzerError(f"{where}: line {line}: a NUL byte (a binary file, not text)")
    text = decode(raw, where, first_line=first_line)
    lines = text.split("\n")
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if len(text) > max_line and max(map(len, lines)) > max_line:
        long = next(i for i, line in enumerate(lines) if len(line) > max_line)
        raise AnalyzerError(f"{where}: line {first_line + long}: longer than {max_line:,} "
                            "characters")
    return lines


def is_gzip(path: str | Path) -> bool:
    """Does the file start with gzip's magic bytes (whatever it is called)?"""
    stream = _open(path)
    try:
        return isinstance(stream, gzip.GzipFile)
    finally:
        stream.close()


def count_lines(path: str | Path, at_most: int | None = None) -> int:
    """How many newlines a (possibly gzipped) file holds, read in chunks; with
    ``at_most``, counted only until there are more (a number above ``at_most`` then)."""
    where = _where(path)
    stream = _open(path)
    most = limits()[0]
    lines = 0
    try:
        while chunk := stream.read(1 << 20):
            lines += chunk.count(b"\n")
            _check_lines(where, lines, most)
            if at_most is not None and lines > at_most:
                break
    except (EOFError, OSError, zlib.error) as exc:
        raise _read_failure(where, exc, lines + 1) from None
    finally:
        stream.close()
    return lines


def peek_text(path: str | Path, size: int = 4096) -> str:
    """The first ``size`` bytes of a (possibly gzipped) text file, decoded (a character cut
    at the end is dropped); for telling a file's format."""
    where = _where(path)
    head = _head(path, size)
    _refuse_encoding(head, where)
    if head.startswith(codecs.BOM_UTF8):
        head = head[len(codecs.BOM_UTF8):]
    return head.decode("utf-8", "ignore") if len(head) >= size - 3 else decode(head, where)


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[ { (`` outside quoted strings.

    >>> nesting_depth('{"a": [[1], "[[["]}')
    3
    """
    depth = deepest = 0
    quote = ""
    escaped = False
    for char in text:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{(":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]})":
            depth -= 1
    return deepest


def _check_depth(text: str, where: str) -> None:
    if nesting_depth(text) > MAX_DEPTH:
        raise AnalyzerError(f"{where}: nested more than {MAX_DEPTH} levels deep")


def is_integer_text(text: str, signed: bool = False) -> bool:
    """Is ``text`` a whole number as the files' one rule writes it: ASCII digits only, a
    leading ``-`` only when ``signed`` (where a negative value means something); no
    spaces, ``+``, ``_`` or digits of other scripts (which ``int`` would take).

    >>> [is_integer_text(t) for t in ("100", " 100 ", "+100", "1_00", "\uff11\uff10\uff10")]
    [True, False, False, False, False]
    >>> is_integer_text("-5"), is_integer_text("-5", signed=True)
    (False, True)
    """
    digits = text[1:] if signed and text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


def _integer(text: str, where: str) -> int:
    digits = text.lstrip("+-").replace("_", "")
    if len(digits) > MAX_DIGITS:
        raise AnalyzerError(f"{where}: an integer of {len(digits):,} digits (at most "
                            f"{MAX_DIGITS})")
    return int(text)


def _finite(text: str, where: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise AnalyzerError(f"{where}: {text!r} is not a finite number")
    return value


def parse_number(text: str, where: str) -> int | float:
    """A number from a record: bounded digits, finite.

    >>> parse_number("12", "f"), parse_number("-0.5", "f")
    (12, -0.5)
    >>> parse_number("nan", "f")
    Traceback (most recent call last):
    ...
    analyzer.errors.AnalyzerError: f: 'nan' is not a finite number
    """
    stripped = text.strip()
    if stripped.lstrip("+-").replace("_", "").isdigit():
        return _integer(stripped, where)
    try:
        value = float(stripped)
    except ValueError:
        raise AnalyzerError(f"{where}: {text!r} is not a number") from None
    return _finite(stripped, where) if not math.isfinite(value) else value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a finite number")


def parse_json(text: str, where: str) -> Any:
    """JSON with bounded nesting and integers, no NaN or infinity."""
    _check_depth(text, where)
    try:
        return json.loads(text, parse_int=lambda s: _integer(s, where),
                          parse_float=lambda s: _finite(s, where), parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise AnalyzerError(f"{where}: line {exc.lineno}: invalid JSON ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise AnalyzerError(f"{where}: {exc}") from None


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML with bounded nesting and integers, no NaN or infinity."""
    _check_depth(text, where)
    try:
        data = tomllib.loads(text, parse_float=lambda s: _finite(s, where))
    except tomllib.TOMLDecodeError as exc:
        raise AnalyzerError(f"{where}: invalid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise AnalyzerError(f"{where}: {exc}") from None
    _check_integers(data, where)
    return data


def _check_integers(value: Any, where: str) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _check_integers(item, where)
    elif isinstance(value, list):
        for item in value:
            _check_integers(item, where)
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 333:
        raise AnalyzerError(f"{where}: an integer of more than {MAX_DIGITS} digits")


_BARE_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _toml_key(key: str) -> str:
    return key if key and set(key) <= _BARE_KEY else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}"
                                for k, v in value.items()) + " }"
    raise AnalyzerError(f"cannot write {type(value).__name__} as TOML")


def _toml_rows(value: Any) -> str:
    """A value, an array of inline tables one to a line."""
    if not _is_table_array(value):
        return _toml_value(value)
    return "[\n" + "".join(f"  {_toml_value(v)},\n" for v in value) + "]"


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def toml_text(data: dict[str, Any], prefix: str = "") -> str:
    """TOML text of parsed TOML data (what :func:`parse_toml` reads back unchanged):
    plain keys first, then tables (``[a.b]``) and arrays of tables (``[[bets]]``, their
    own arrays of tables written inline, one to a line), in the data's order.

    >>> print(toml_text({"name": "x", "tableau": {"naturals": [8, 9]},
    ...                  "bets": [{"id": "b", "lines": [{"pays": 1}]}]}), end="")
    name = "x"
    <BLANKLINE>
    [tableau]
    naturals = [8, 9]
    <BLANKLINE>
    [[bets]]
    id = "b"
    lines = [
      { pays = 1 },
    ]
    """
    plain = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items()
             if not isinstance(v, dict) and not _is_table_array(v)]
    parts = ["\n".join(plain) + "\n"] if plain else []
    for key, value in data.items():
        name = f"{prefix}{_toml_key(key)}"
        if isinstance(value, dict):
            inner = toml_text(value, name + ".")
            parts.append(f"[{name}]\n" + (inner if not inner.startswith("[") else "\n" + inner))
        elif _is_table_array(value):
            for item in value:
                body = "\n".join(f"{_toml_key(k)} = {_toml_rows(v)}" for k, v in item.items())
                parts.append(f"[[{name}]]\n{body}\n")
    return "\n".join(parts)
