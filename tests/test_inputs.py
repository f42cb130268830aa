"""The input layer: encodings, gzip by magic bytes, bounded lines, nesting and numbers."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from analyzer.errors import AnalyzerError
from analyzer.inputs import (
    MAX_DEPTH,
    count_lines,
    parse_json,
    parse_toml,
    read_lines,
    read_text,
)


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_utf8_byte_order_mark_is_accepted_in_whole_files_and_logs(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.csv", b"\xef\xbb\xbfshoe,hand\r\n1,2\n")
    assert read_text(path) == "shoe,hand\r\n1,2\n"
    assert list(read_lines(path)) == ["shoe,hand", "1,2"]


@pytest.mark.parametrize(("data", "message"), [
    ("decks 8\n".encode("utf-16"), "UTF-16 encoded"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "a binary file"),
    (b"decks 8\nremove 9\xe9\n", "line 2: not UTF-8 (byte 0xe9)"),
])
def test_other_encodings_and_binary_are_named_with_the_file(tmp_path: Path, data: bytes,
                                                            message: str) -> None:
    path = _write(tmp_path, "shoe.txt", data)
    for read in (read_text, lambda p: list(read_lines(p))):
        with pytest.raises(AnalyzerError, match=re.escape(message)) as caught:
            read(path)
        assert str(caught.value).startswith(str(path))


def test_gzip_is_found_by_its_magic_bytes_whatever_the_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "log.jsonl", gzip.compress(b'{"a": 1}\n{"a": 2}\n'))
    assert list(read_lines(path)) == ['{"a": 1}', '{"a": 2}']


def test_a_truncated_gzip_stream_names_the_file(tmp_path: Path) -> None:
    whole = gzip.compress(b"".join(b"%d,1\n" % i for i in range(50_000)))
    path = _write(tmp_path, "log.csv.gz", whole[: len(whole) // 2])
    with pytest.raises(AnalyzerError, match=r"log\.csv\.gz: line \d+: the gzip stream is trunc"):
        list(read_lines(path))


def test_a_corrupt_gzip_stream_names_the_file(tmp_path: Path) -> None:
    whole = bytearray(gzip.compress(b"1,2\n" * 1000))
    whole[-6] ^= 0xFF  # the CRC
    path = _write(tmp_path, "log.csv.gz", bytes(whole))
    with pytest.raises(AnalyzerError, match=r"log\.csv\.gz: line \d+: corrupt gzip data"):
        list(read_lines(path))


def test_a_line_longer_than_the_bound_is_an_error_and_memory_stays_bounded(
        tmp_path: Path) -> None:
    path = _write(tmp_path, "log.csv", b"a,b\n" + b"x" * 5000 + b"\n")
    with pytest.raises(AnalyzerError, match="line 2: longer than 1,000 characters"):
        list(read_lines(path, max_line=1000))


def test_nesting_integers_and_non_finite_numbers_are_bounded() -> None:
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(AnalyzerError, match="nested more than"):
        parse_json(deep, "p.json")
    with pytest.raises(AnalyzerError, match="nested more than"):
        parse_toml(f"a = {deep}", "p.toml")
    with pytest.raises(AnalyzerError, match="5,001 digits"):
        parse_json("9" * 5001, "p.json")
    with pytest.raises(AnalyzerError, match="more than 100 digits"):
        parse_toml(f"a = {'9' * 200}", "p.toml")
    for text in ("NaN", "[Infinity]", "1e999"):
        with pytest.raises(AnalyzerError, match="not a finite number"):
            parse_json(text, "p.json")
    with pytest.raises(AnalyzerError, match="not a finite number"):
        parse_toml("a = nan", "p.toml")
    assert parse_toml("a = [1, {b = 2.5}]", "p.toml") == {"a": [1, {"b": 2.5}]}


def test_lines_are_counted_plain_or_gzipped_and_an_unreadable_file_is_one_line(
        tmp_path: Path) -> None:
    plain = _write(tmp_path, "a.csv", b"shoe,hand\n1,2\n1,3")
    packed = _write(tmp_path, "a.csv.gz", gzip.compress(b"x\n" * 70_000))
    assert count_lines(plain) == 2 and count_lines(packed) == 70_000
    # counted only until past at_most: the first chunk of 2**20 bytes (524,288 lines) and
    # stopped there, or every line when there are no more
    long = _write(tmp_path, "b.csv", b"x\n" * 2_000_000)
    assert count_lines(long, 10) == 524_288 and count_lines(long, 600_000) == 1_048_576
    assert count_lines(long, 2_000_000) == 2_000_000 == count_lines(long)
    assert count_lines(packed, 69_999) == 70_000 == count_lines(packed, 70_000)
    with pytest.raises(AnalyzerError, match="missing.csv: cannot read"):
        count_lines(tmp_path / "missing.csv")
