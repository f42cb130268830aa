"""A certify run's work folder: each finished subgame kept as it finishes, a cut run resumed
to the same exact figures, a damaged or foreign file refused in one line, and only the
command's own files removed at the end."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from analyzer.choice.table.cfr import CfrState
from analyzer.choice.table.dealt.wide import wide_table
from analyzer.choice.table.solve import TableEquilibrium
from analyzer.choice.table.stored.progress import (
    CHECKPOINT_SUFFIX,
    MARKER,
    SubgameCheckpoint,
    WorkFolder,
)
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)
ITERATIONS = 5


class Cut(Exception):
    """The session ended in the middle of the run."""


def _cut_after(finished: int) -> Callable[[Callable[[Any], Any], list[Any]], list[Any]]:
    def apply(function: Callable[[Any], Any], items: list[Any]) -> list[Any]:
        for item in items[:finished]:
            function(item)
        raise Cut

    return apply


def _never(function: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    assert not items, f"{len(items)} subgames computed again"
    return []


@pytest.fixture(scope="module")
def whole() -> TableEquilibrium:
    return wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS)


def test_a_cut_run_resumes_from_the_finished_subgames_to_the_same_figures(
        tmp_path: Path, whole: TableEquilibrium) -> None:
    folder = WorkFolder(tmp_path / "run.work").open()
    with pytest.raises(Cut):
        wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS, apply=_cut_after(3),
                   progress=folder)
    assert len(list(folder.path.glob("*.json"))) == 3
    again = WorkFolder(folder.path).open()
    resumed = wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS, progress=again)
    assert len(again.reused) == 3 and len(whole.subgames) > 3
    assert resumed.values == whole.values and resumed.values.max_regret > 0
    # a third run finds every subgame kept: nothing is computed
    last = WorkFolder(folder.path).open()
    kept = wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS, apply=_never,
                      progress=last)
    assert kept.values == whole.values and len(last.reused) == len(whole.subgames)
    # other settings (more iterations) do not reuse these files
    other = WorkFolder(folder.path).open()
    with pytest.raises(Cut):
        wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS + 1,
                   apply=_cut_after(0), progress=other)
    assert not other.reused
    # a best-reply pass of the bank keeps its subgames apart from CFR+'s, and by its step
    half = WorkFolder(folder.path).open()
    wide_table(LUCKY9, ONE_DECK, 2, "total", progress=half, bank_step=Fraction(1, 2))
    assert not half.reused
    again_half = WorkFolder(folder.path).open()
    wide_table(LUCKY9, ONE_DECK, 2, "total", apply=_never, progress=again_half,
               bank_step=Fraction(1, 2))
    assert len(again_half.reused) == len(whole.subgames)
    other_step = WorkFolder(folder.path).open()
    with pytest.raises(Cut):
        wide_table(LUCKY9, ONE_DECK, 2, "total", apply=_cut_after(0), progress=other_step,
                   bank_step=Fraction(3, 4))
    assert not other_step.reused


def test_a_damaged_file_is_one_line_and_stays(tmp_path: Path) -> None:
    folder = WorkFolder(tmp_path / "run.work").open()
    with pytest.raises(Cut):
        wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS, apply=_cut_after(1),
                   progress=folder)
    (saved,) = folder.path.glob("*.json")
    document = json.loads(saved.read_text())
    document["seats"][0][0][0] = "1/3"
    saved.write_text(json.dumps(document))
    with pytest.raises(AnalyzerError, match=f"{saved.name}: strategies_sha256 does not match"):
        wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS,
                   progress=WorkFolder(folder.path).open())
    assert json.loads(saved.read_text())["seats"][0][0][0] == "1/3"


def test_a_folder_it_did_not_make_is_refused_and_foreign_files_stay(tmp_path: Path) -> None:
    mine = tmp_path / "notes.work"
    mine.mkdir()
    (mine / "a.json").write_text("{}")
    with pytest.raises(AnalyzerError, match=f"notes.work: exists and is not a nine certify "
                                            f"work folder \\(no {MARKER}\\)"):
        WorkFolder(mine).open()
    assert [p.name for p in mine.iterdir()] == ["a.json"]
    # its own folder: clear removes the command's files only
    folder = WorkFolder(tmp_path / "run.work").open()
    with pytest.raises(Cut):
        wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS, apply=_cut_after(2),
                   progress=folder)
    (folder.path / "mine.json").write_text('{"kind": "my notes"}')
    assert not folder.clear()
    assert sorted(p.name for p in folder.path.iterdir()) == sorted([MARKER, "mine.json"])
    (folder.path / "mine.json").unlink()
    assert WorkFolder(folder.path).open().clear() and not folder.path.exists()


def test_a_subgame_cut_in_its_improvement_resumes_from_its_last_check(
        tmp_path: Path, whole: TableEquilibrium, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept CFR+ state (``.cfr.npz``) of the subgame being improved when the run was
    cut: the rerun continues it to the same exact figures, and it is removed once the
    subgame's outcome is kept; a damaged one is a one-line error and stays."""
    keep = SubgameCheckpoint.save
    saved: list[Path] = []

    def save_then_cut(self: SubgameCheckpoint, arrays: dict[str, Any]) -> None:
        keep(self, arrays)
        saved.append(self.path)
        if int(arrays["done"][0]) == ITERATIONS and len(saved) == 2:
            raise Cut  # the second subgame's improvement, at its last check

    folder = WorkFolder(tmp_path / "run.work").open()
    monkeypatch.setattr(SubgameCheckpoint, "save", save_then_cut)
    with pytest.raises(Cut):
        wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS, progress=folder)
    monkeypatch.undo()
    (state,) = folder.path.glob(f"*{CHECKPOINT_SUFFIX}")
    assert state == saved[-1] and len(list(folder.path.glob("*.json"))) == 1
    good = state.read_bytes()
    state.write_bytes(good[:-7] + b"damaged")
    with pytest.raises(AnalyzerError) as error:
        wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS,
                   progress=WorkFolder(folder.path).open())
    assert str(error.value).startswith(f"{state}: ") and "\n" not in str(error.value)
    assert state.read_bytes().endswith(b"damaged")
    state.write_bytes(good)
    restore, restored = CfrState.restore, []

    def counted(self: CfrState, arrays: dict[str, Any]) -> None:
        restored.append(int(arrays["done"][0]))
        restore(self, arrays)

    monkeypatch.setattr(CfrState, "restore", counted)
    resumed = wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=ITERATIONS,
                         progress=WorkFolder(folder.path).open())
    assert restored == [ITERATIONS] and resumed.values == whole.values
    assert not list(folder.path.glob(f"*{CHECKPOINT_SUFFIX}"))
    assert WorkFolder(folder.path).open().clear() and not folder.path.exists()
