"""``nine par``: the sheets it writes, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main


def test_writes_an_html_and_a_markdown_sheet(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["par", "--profile", "punto-banco", "--decks", "1",
                                       "--out", str(tmp_path / "sheets")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "sheets").iterdir()) == [
        "punto-banco-1-deck.html", "punto-banco-1-deck.md"]
    assert result.stdout.count("wrote ") == 2
    page = (tmp_path / "sheets" / "punto-banco-1-deck.html").read_text(encoding="utf-8")
    assert "PAR sheet: Punto banco, 1 deck" in page and "6,737,232,640" in page
    assert (tmp_path / "sheets" / "punto-banco-1-deck.md").stat().st_mode & 0o044  # readable


def test_a_game_of_choices_has_its_sheet(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["par", "--profile", "lucky9", "--profile", "chemmy",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "chemin-de-fer-6-decks.html", "chemin-de-fer-6-decks.md", "lucky9-home-1-deck.html",
        "lucky9-home-1-deck.md"]
    text = (tmp_path / "chemin-de-fer-6-decks.md").read_text(encoding="utf-8")
    card = CliRunner().invoke(main, ["solve", "--profile", "chemin-de-fer", "--card",
                                     "--format", "markdown"])
    assert card.exit_code == 0 and "### Banker card" in card.stdout
    # the card as nine solve --card prints it, its headings one level down
    assert card.stdout.replace("\n#", "\n##").strip().split("\n", 1)[1] in text


def test_format_chooses_the_files(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["par", "--profile", "pb", "--decks", "2", "--out",
                                       str(tmp_path), "--format", "md"])
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["punto-banco-2-decks.md"]


@pytest.mark.parametrize("args, message", [
    (["--profile", "chemin-de-fer", "--decks", "65"], "1 to 64 decks"),
    (["--profile", "punto-banco", "--decks", "0"], "1 to 64 decks"),
    (["--profile", "no-such-game"], "unknown profile 'no-such-game'"),
])
def test_errors_are_one_line_and_write_nothing(tmp_path: Path, args: list[str],
                                               message: str) -> None:
    result = CliRunner().invoke(main, ["par", *args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_an_output_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    result = CliRunner().invoke(main, ["par", "--profile", "punto-banco", "--decks", "1",
                                       "--out", str(target / "sub")])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert str(target) in result.stderr and "Traceback" not in result.stderr
    assert target.read_text() == "x"
    result = CliRunner().invoke(main, ["par", "--profile", "punto-banco", "--out",
                                       str(target)])
    assert result.exit_code == 2 and "is a file" in result.stderr


def test_pdf_without_a_printer_is_one_line_before_any_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("analyzer.cli.par.pdf_engine", lambda: None)
    result = CliRunner().invoke(main, ["par", "--profile", "punto-banco", "--format", "pdf",
                                       "--out", str(tmp_path / "sheets")])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "nine: error: --format pdf: PDF output needs WeasyPrint (pip install "
        "'nine-analyzer[pdf]') or Chromium; neither is installed")
    assert not (tmp_path / "sheets").exists()
