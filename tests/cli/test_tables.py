"""``nine tables``: writing, checking, and one-line errors."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from analyzer.cli.commands import main


def test_unwritable_output_is_one_line() -> None:
    result = CliRunner().invoke(main, ["tables", "--out", "/proc/no-such-folder"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "/proc/no-such-folder" in result.stderr


def test_check_option_exits_1_when_stale(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["tables", "--out", str(tmp_path), "--check",
                                       "--section", "sample-sizes"])
    assert result.exit_code == 1
    assert "missing: verification/sample-sizes.md" in result.stdout
    result = CliRunner().invoke(main, ["tables", "--out", str(tmp_path),
                                       "--section", "sample-sizes"])
    assert result.exit_code == 0
    result = CliRunner().invoke(main, ["tables", "--out", str(tmp_path), "--check",
                                       "--section", "sample-sizes"])
    assert result.exit_code == 0 and "up to date" in result.stdout


def test_unknown_section_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["tables", "--out", "x", "--section", "nope"])
    assert result.exit_code == 2 and "unknown table section 'nope'" in result.stderr
