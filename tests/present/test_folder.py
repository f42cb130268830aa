"""Writing the tables folder: only files listed in its manifest are replaced or removed,
a folder ``nine tables`` did not write is refused, writes are atomic, PNG bytes are checked.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import analyzer.outputs as output_module
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.present.tables.build import build_tables
from analyzer.present.tables.folder import (
    MANIFEST,
    compare_tables,
    read_manifest,
    write_tables,
)
from analyzer.present.tables.publication import Publication, Section

TABLES = Path(__file__).resolve().parent.parent.parent / "tables"


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones included) and its bytes."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def _publication(files: dict[str, bytes], section: str = "demo",
                 complete: bool = False) -> Publication:
    return Publication(files=dict(files), sections=[Section(section, section, "", "")],
                       owner={path: section for path in files}, complete=complete)


def _notes(folder: Path) -> None:
    (folder / ".hidden").mkdir(parents=True)
    (folder / "notes.md").write_text("my notes\n")
    (folder / ".hidden" / "draft.csv").write_text("a,b\n")
    (folder / "odds").mkdir()
    (folder / "odds" / "mine.json").write_text("{}\n")
    (folder / "empty").mkdir()


def test_a_folder_of_user_notes_is_never_touched(tmp_path: Path) -> None:
    _notes(tmp_path)
    before = _snapshot(tmp_path)
    result = CliRunner().invoke(main, ["tables", "--out", str(tmp_path), "--section",
                                       "sample-sizes"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert str(tmp_path) in result.stderr and MANIFEST in result.stderr
    assert _snapshot(tmp_path) == before
    assert (tmp_path / "empty").is_dir()
    # the library refuses it too, before writing anything
    with pytest.raises(AnalyzerError, match="not empty and has no"):
        write_tables(_publication({"notes.md": b"x\n"}), tmp_path)
    assert _snapshot(tmp_path) == before


def test_section_on_a_copy_of_tables_removes_nothing_of_other_sections(tmp_path: Path) -> None:
    copy = tmp_path / "tables"
    shutil.copytree(TABLES, copy)
    (copy / "my-notes.md").write_text("kept\n")
    target = copy / "verification" / "sample-sizes.md"
    target.write_text("tampered\n")
    before = _snapshot(copy)
    result = CliRunner().invoke(main, ["tables", "--out", str(copy), "--section",
                                       "sample-sizes"])
    assert result.exit_code == 2 and "sample-sizes.md: edited since" in result.output
    assert _snapshot(copy) == before  # a hand edit is kept unless --force
    result = CliRunner().invoke(main, ["tables", "--out", str(copy), "--section",
                                       "sample-sizes", "--force"])
    assert result.exit_code == 0, result.output
    assert "(1 written, 0 removed)" in result.stdout
    after = _snapshot(copy)
    changed = {path for path in before if before[path] != after.get(path)}
    # only the tampered file of the section (and the manifest's interim listing) changed
    assert changed <= {"verification/sample-sizes.md", MANIFEST}
    assert "verification/sample-sizes.md" in changed and set(after) == set(before)
    assert after["verification/sample-sizes.md"] == (
        TABLES / "verification" / "sample-sizes.md").read_bytes()
    assert after[MANIFEST] == (TABLES / MANIFEST).read_bytes()
    # --check --section checks only that section: another section's tampering is not its
    (copy / "odds" / "punto-banco" / "punto-banco-8-decks.md").write_text("tampered\n")
    result = CliRunner().invoke(main, ["tables", "--out", str(copy), "--check",
                                       "--section", "sample-sizes"])
    assert result.exit_code == 0 and "up to date" in result.stdout
    result = CliRunner().invoke(main, ["tables", "--out", str(copy), "--check",
                                       "--section", "odds"])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["edited by hand: odds/punto-banco/punto-banco-8-decks.md"]


def test_a_stale_file_is_removed_only_if_the_manifest_lists_it(tmp_path: Path) -> None:
    wide = build_tables(sections=("odds",), profiles=("punto-banco",), decks=(1, None))
    narrow = build_tables(sections=("odds",), profiles=("punto-banco",), decks=(1,))
    assert write_tables(wide, tmp_path) == (len(wide.files), 0)
    mine = tmp_path / "odds" / "punto-banco" / "punto-banco-2-decks.md"
    mine.write_text("my own table\n")
    assert write_tables(narrow, tmp_path)[1] == 3  # the infinite deck's md, csv and json
    assert not (tmp_path / "odds" / "punto-banco" / "punto-banco-infinite.md").exists()
    assert mine.read_text() == "my own table\n"
    assert compare_tables(narrow, tmp_path) == []
    listed = read_manifest(tmp_path)
    assert listed is not None and set(listed.files) == set(narrow.files)
    # a file the build would write but the manifest does not list is refused, untouched
    two = build_tables(sections=("odds",), profiles=("punto-banco",), decks=(1, 2))
    with pytest.raises(AnalyzerError, match="punto-banco-2-decks.md: exists but is not in"):
        write_tables(two, tmp_path)
    assert mine.read_text() == "my own table\n"


def test_a_manifest_pointing_outside_the_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "precious.md"
    outside.write_text("keep\n")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / MANIFEST).write_text(f"{'0' * 64} demo ../precious.md\n")
    with pytest.raises(AnalyzerError, match="not a path inside the folder"):
        write_tables(_publication({"a.md": b"a\n"}, complete=True), folder)
    assert outside.read_text() == "keep\n"
    (folder / MANIFEST).write_bytes(b"\xff\xfe not text")
    result = CliRunner().invoke(main, ["tables", "--out", str(folder), "--section", "odds"])
    assert result.exit_code == 2 and MANIFEST in result.stderr
    assert result.stderr.count("\n") == 1


def test_writes_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _publication({"a.md": b"old a\n", "b.md": b"old b\n"})
    write_tables(first, tmp_path)
    calls: list[str] = []
    real_replace = os.replace

    def failing_replace(source: str, target: str | Path) -> None:
        calls.append(str(target))
        if str(target).endswith("b.md"):
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(output_module.os, "replace", failing_replace)
    with pytest.raises(AnalyzerError, match="b.md: cannot write .no space left on device"):
        write_tables(_publication({"a.md": b"new a\n", "b.md": b"new b\n"}), tmp_path)
    assert (tmp_path / "a.md").read_bytes() == b"new a\n"
    assert (tmp_path / "b.md").read_bytes() == b"old b\n"  # never half-written
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.md", "b.md"]
    assert calls[0].endswith(MANIFEST)  # the manifest lists every file before any is written


def test_check_compares_png_bytes(tmp_path: Path) -> None:
    picture = _publication({"plot.png": b"\x89PNG\r\n\x1a\n one", "t.md": b"t\n"},
                           complete=True)
    write_tables(picture, tmp_path)
    assert compare_tables(picture, tmp_path) == []
    (tmp_path / "plot.png").write_bytes(b"\x89PNG\r\n\x1a\n two")
    assert compare_tables(picture, tmp_path) == ["edited by hand: plot.png"]


def test_a_full_build_drops_a_section_no_longer_made(tmp_path: Path) -> None:
    old = _publication({"gone/x.md": b"x\n"}, section="gone")
    write_tables(old, tmp_path)
    (tmp_path / "gone" / "mine.md").write_text("mine\n")
    new = _publication({"t.md": b"t\n"}, complete=True)
    assert write_tables(new, tmp_path) == (1, 1)
    assert sorted(_snapshot(tmp_path)) == [MANIFEST, "gone/mine.md", "t.md"]
