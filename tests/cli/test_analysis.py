"""``nine formula``, ``eor`` and ``shoe``: output, the quiet progress bar, plots.

(``nine solve-payout`` is tested with its analysis, tests/analysis/test_payout.py.)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main


def test_shoe_and_eor_commands() -> None:
    result = CliRunner().invoke(main, ["shoe", "--profile", "punto-banco", "--decks", "2",
                                       "--shoes", "3", "--seed", "4", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "3 shoes of 2 decks, seed 4" in result.stdout
    assert result.stderr == ""
    result = CliRunner().invoke(main, ["eor", "--profile", "punto-banco", "--samples", "50"])
    assert result.exit_code == 0
    assert "+0.01157" in result.stdout  # Banker, removing a 4, 8 decks
    result = CliRunner().invoke(main, ["formula", "--bet", "nope"])
    assert result.exit_code == 2


def test_no_progress_bar_when_stderr_is_not_a_terminal() -> None:
    result = CliRunner().invoke(main, ["shoe", "--profile", "punto-banco", "--decks", "1",
                                       "--shoes", "2"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                    reason="the plot extra is not installed")
def test_plot_options_write_pngs(tmp_path: Path) -> None:
    for command in (["shoe", "--decks", "1", "--shoes", "2", "--quiet"],
                    ["eor", "--samples", "20", "--bet", "banker"]):
        target = tmp_path / f"{command[0]}.png"
        result = CliRunner().invoke(main, [*command, "--plot", str(target)])
        assert result.exit_code == 0, result.output
        assert target.read_bytes().startswith(b"\x89PNG")
        assert result.stderr == f"wrote {target}\n"
