"""The output layer: whole files or none, named by the user's path, never over an input."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import analyzer.outputs as outputs
from analyzer.errors import AnalyzerError
from analyzer.outputs import inside, is_temporary, output_stream, refuse_inputs, write_file


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _fail(code: int, after: int = 0):  # type: ignore[no-untyped-def]
    """A stand-in for os.write / os.fsync that fails with ``code`` after ``after`` calls."""
    calls = [0]
    real = {"write": os.write, "fsync": os.fsync}

    def make(name: str):  # type: ignore[no-untyped-def]
        def failing(*args):  # type: ignore[no-untyped-def]
            calls[0] += 1
            if calls[0] > after:
                raise OSError(code, os.strerror(code))
            return real[name](*args)
        return failing
    return make


@pytest.mark.parametrize("what", ["write", "fsync"])
def test_a_full_disk_keeps_the_old_file_and_no_temporary(tmp_path: Path, what: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.xml"
    target.write_text("the good old report")
    monkeypatch.setattr(outputs.os, what, _fail(errno.ENOSPC)(what))
    with pytest.raises(AnalyzerError) as caught:
        write_file(target, "x" * 100_000)
    assert str(caught.value) == (f"{target}: cannot write (no space left on device); "
                                 "nothing was written")
    assert target.read_text() == "the good old report"
    assert _names(tmp_path) == ["report.xml"]


def test_a_stream_cut_by_a_full_disk_leaves_the_old_log(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "log.jsonl"
    target.write_text("good log\n")
    monkeypatch.setattr(outputs.os, "fsync", _fail(errno.ENOSPC)("fsync"))
    with pytest.raises(AnalyzerError, match="log.jsonl: cannot write .no space left"), \
            output_stream(target) as stream:
        stream.write("half a new log\n" * 1000)
    assert target.read_text() == "good log\n" and _names(tmp_path) == ["log.jsonl"]


def test_an_exception_while_streaming_removes_the_temporary(tmp_path: Path) -> None:
    target = tmp_path / "log.csv"
    with pytest.raises(KeyboardInterrupt), output_stream(target) as stream:
        stream.write("a,b\n")
        assert any(is_temporary(name) for name in _names(tmp_path))
        raise KeyboardInterrupt
    assert _names(tmp_path) == []


def test_permission_denied_names_the_users_path(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who may write anywhere (root)")
        with pytest.raises(AnalyzerError) as caught:
            write_file(folder / "a.txt", "x")
        assert str(caught.value) == f"{folder / 'a.txt'}: cannot write (permission denied); " \
                                    "nothing was written"
    finally:
        folder.chmod(0o700)


def test_a_file_keeps_its_mode_and_a_new_one_gets_the_umask(tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_text("a")
    old.chmod(0o640)
    write_file(old, "b")
    write_file(tmp_path / "new.txt", "c")
    mask = os.umask(0o022)
    os.umask(mask)
    assert old.stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize(("path", "message"), [
    ("a\x00b", "a NUL byte"),
    ("n" * 300, "longer than 255 bytes"),
    (".", "is a folder, not a file"),
])
def test_impossible_names_are_one_line(tmp_path: Path, path: str, message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        write_file(tmp_path / path if path != "." else tmp_path, "x")


def test_a_long_name_still_gets_a_temporary_it_can_hold(tmp_path: Path) -> None:
    target = tmp_path / ("n" * 250)
    write_file(target, "x")
    assert target.read_text() == "x"


@pytest.mark.parametrize("name", ["../x", "/etc/passwd", "a/b", "..", "", "a\x00"])
def test_inside_refuses_names_leaving_the_folder(tmp_path: Path, name: str) -> None:
    with pytest.raises(AnalyzerError, match="not a file name inside the folder"):
        inside(tmp_path, name)


def test_refuse_inputs_by_path_and_by_inode(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text("x")
    (tmp_path / "hard.csv").hardlink_to(source)
    (tmp_path / "soft.csv").symlink_to(source)
    for alias in ("in.csv", "hard.csv", "soft.csv", "./in.csv"):
        with pytest.raises(AnalyzerError, match="--out would overwrite the input"):
            refuse_inputs([("--out", tmp_path / alias)], [str(source), "punto-banco"])
    refuse_inputs([("--out", tmp_path / "other.csv"), ("--junit", None)], [str(source)])
