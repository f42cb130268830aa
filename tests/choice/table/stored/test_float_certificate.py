"""A certificate evaluated in floats (the 8-person route, here at 4 people): the file states
the method and the rounding bound, reads back with them, is checked again in floats within
the bounds, and a figure moved beyond them is refused in one line; a cut float run resumes
with its bounds; the list and JSON never call it exact or certified."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from analyzer.choice.table.dealt.wide import wide_table
from analyzer.choice.table.solve import TableEquilibrium
from analyzer.choice.table.stored.certificate import (
    FLOAT_EVALUATION,
    certificate_text,
    check_certificate,
    read_certificate,
)
from analyzer.choice.table.stored.progress import WorkFolder
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.present.certificates import render_certificates
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)


@pytest.fixture(scope="module")
def floated() -> TableEquilibrium:
    return wide_table(LUCKY9, ONE_DECK, 3, "total", iterations=0, float_from=3)


def _write(folder: Path, table: TableEquilibrium) -> Path:
    path = folder / "lucky9-home-4-people-1-deck-by-total.json"
    path.write_text(certificate_text(table, LUCKY9, 1.0, "nine certify --float-from 3",
                                     float_from=3))
    return path


def test_the_file_states_the_method_and_the_bound_and_is_checked_again(
        tmp_path: Path, floated: TableEquilibrium) -> None:
    path = _write(tmp_path, floated)
    document = json.loads(path.read_text())
    assert document["certified"] is False and document["evaluation"] == FLOAT_EVALUATION
    assert floated.rounding is not None
    bound = Fraction(document["rounding_bound"])
    assert bound == floated.rounding.max_regret and 0 < bound < Fraction(1, 10**9)
    assert document["epsilon_at_most"] >= float(floated.values.max_regret + bound)
    found = read_certificate(path, LUCKY9, ONE_DECK, 4, "total")
    assert found.rounding == floated.rounding and found.float_from == 3
    assert found.epsilon_at_most == floated.values.max_regret + bound
    again = check_certificate(found, LUCKY9)
    assert again.rounding is not None and not again.certified
    text = render_certificates((found,), "text")
    assert "float evaluation, rounding bound" in text and "certified (" not in text
    listed = json.loads(render_certificates((found,), "json"))["certificates"][0]
    assert listed["certified"] is False and listed["evaluation"] == FLOAT_EVALUATION
    assert listed["epsilon_at_most"] >= listed["epsilon"]


def test_a_figure_beyond_the_bounds_or_a_certified_float_file_is_one_line(
        tmp_path: Path, floated: TableEquilibrium) -> None:
    path = _write(tmp_path, floated)
    document = json.loads(path.read_text())
    moved = Fraction(document["bank_value"]) + Fraction(1, 10**8)  # beyond 2 bounds
    document["bank_value"] = str(moved)
    path.write_text(json.dumps(document))
    found = read_certificate(path, LUCKY9, ONE_DECK, 4, "total")
    with pytest.raises(AnalyzerError, match="bank value evaluated again in floats"):
        check_certificate(found, LUCKY9)
    document["rounding_bound"] = "1/3"
    path.write_text(json.dumps(document))
    with pytest.raises(AnalyzerError, match="rounding_bound is not the largest"):
        read_certificate(path, LUCKY9, ONE_DECK, 4, "total")


def test_a_cut_float_run_resumes_with_its_bounds(tmp_path: Path,
                                                  floated: TableEquilibrium) -> None:
    folder = WorkFolder(tmp_path / "run.work").open()
    wide_table(LUCKY9, ONE_DECK, 3, "total", iterations=0, float_from=3, progress=folder)
    saved = [json.loads(p.read_text()) for p in folder.path.glob("*.json")]
    assert sum("regret_bounds" in d for d in saved) == 1  # the one subgame of 3 live seats
    again = WorkFolder(folder.path).open()
    resumed = wide_table(LUCKY9, ONE_DECK, 3, "total", iterations=0, float_from=3,
                         progress=again)
    assert len(again.reused) == len(saved)
    assert resumed.values == floated.values and resumed.rounding == floated.rounding
    # an exact run does not take the float files
    exact = WorkFolder(folder.path).open()
    with pytest.raises(Cut):
        wide_table(LUCKY9, ONE_DECK, 3, "total", iterations=0, apply=_cut, progress=exact)
    assert len(exact.reused) == len(saved) - 1  # all but the float one


class Cut(Exception):
    """The run stopped before computing anything."""


def _cut(function: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    assert len(items) == 1  # only the subgame of 3 live seats is computed again
    raise Cut
