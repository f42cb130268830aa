"""What every command shares: one-line errors for bad input (never a traceback), the shoe
options, and the progress bar drawn from a library ``on_progress`` callback."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.cli.common import build_shoe, progress_bar


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def assert_one_line_error(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err


def test_unknown_card() -> None:
    assert_one_line_error(["odds", "--remove", "4S QX"], "unknown card 'QX'")


def test_removing_a_card_the_shoe_lacks() -> None:
    assert_one_line_error(["odds", "--decks", "1", "--remove", "4S 4S"], "cannot remove 4S")


def test_negative_counts(tmp_path: Path) -> None:
    path = tmp_path / "shoe.txt"
    path.write_text("decks 1\nAS -2\n")
    assert_one_line_error(["odds", "--shoe", str(path)], "shoe.txt:2: negative count -2")


def test_shoe_too_small(tmp_path: Path) -> None:
    path = tmp_path / "tiny.txt"
    path.write_text("AS 1\nKD 2\n9C 2\n")
    assert_one_line_error(["odds", "--shoe", str(path)], "too small to finish a coup")


def test_negative_decks() -> None:
    assert_one_line_error(["odds", "--decks", "-2"], "-2 is not in the range 1<=x<=100000")


def test_unknown_profile() -> None:
    assert_one_line_error(["odds", "--profile", "no-such-game"], "unknown profile")


def test_bad_profile_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("name = 3\n")
    assert_one_line_error(["odds", "--profile", str(path)], "bad.toml: name:")


def test_the_shoe_options_default_to_the_profiles_decks() -> None:
    assert build_shoe(6, None, False, "", None, "rank-first").size == 6 * 52
    assert build_shoe(6, 1, False, "AS", None, "rank-first").size == 51
    assert build_shoe(6, None, True, "", None, "rank-first").is_infinite


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with progress_bar("nine shoe", quiet=False) as on_progress:
        for done in (4096, 8192, 10000):
            on_progress(done, 10000)
    drawn = terminal.getvalue()
    assert "nine shoe" in drawn and "100%" in drawn and "10000/10000" in drawn
    for stream, quiet in ((_Terminal(), True), (io.StringIO(), False)):
        monkeypatch.setattr("sys.stderr", stream)
        with progress_bar("nine shoe", quiet=quiet) as on_progress:
            on_progress(10, 10)
        assert stream.getvalue() == ""
