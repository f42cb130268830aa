"""docs/write-a-profile.md: its five commands run, and print what the page quotes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.present.pdf import pdf_engine, pdf_pages

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "write-a-profile.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "docs" / "examples" / "suited-nine.toml"


def _sessions() -> list[tuple[str, list[str]]]:
    """Each ``$ nine ...`` line of the page's code blocks and the output lines it quotes."""
    found = []
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```$", PAGE, re.S | re.M)
    for block in blocks:
        lines = block.splitlines()
        if lines and lines[0].startswith("$ nine "):
            found.append((lines[0][2:], [line for line in lines[1:] if line != "..."]))
    return found


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_page_walks_through_five_commands() -> None:
    assert [shlex.split(command)[1] for command, _ in _sessions()] == [
        "features", "profiles", "solve-payout", "odds", "par"]


def test_the_page_shows_the_example_file() -> None:
    toml = re.search(r"```toml\n(.*?)```", PAGE, re.S)
    assert toml is not None
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    assert toml.group(1) == "".join(line for line in lines if not line.startswith("#"))


@pytest.mark.parametrize(("command", "quoted"), _sessions()[:4],
                         ids=[c.split()[1] for c, _ in _sessions()[:4]])
def test_each_command_prints_what_the_page_quotes(command: str, quoted: list[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    printed = _words(result.stdout)
    for line in quoted:
        assert _words(line) in printed, line


@pytest.mark.skipif(pdf_engine() is None, reason="neither WeasyPrint (the pdf extra) nor "
                    "Chromium is installed: no PDF can be printed")
def test_the_last_command_writes_the_pdf_sheet(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    command, quoted = _sessions()[4]
    monkeypatch.chdir(tmp_path)
    words = [str(EXAMPLE) if word.endswith(".toml") else word
             for word in shlex.split(command)[1:]]
    result = CliRunner().invoke(main, words)
    assert result.exit_code == 0, result.output
    assert _words(result.stdout) == _words("\n".join(quoted))
    text = " ".join(pdf_pages((tmp_path / "sheets" / "suited-nine-8-decks.pdf").read_bytes()))
    assert "5.0973%" in text and "Player's two-card total is 9 and Player's first two " \
        "cards are suited" in text
