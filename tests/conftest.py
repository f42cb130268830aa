"""Shared fixtures: the reference figures and an independent punto banco dealer."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REFERENCE = Path(__file__).parent / "reference"

if "PYTEST_XDIST_WORKER" in os.environ:  # the test workers hold the cores: one thread each
    os.environ.setdefault("NINE_THREADS", "1")  # (tests that need threads set it themselves)


@pytest.fixture(scope="session", autouse=True)
def _private_plan_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compiled plans (and kept table strategies) go to a folder of this test session, not
    the user's cache; under xdist one folder shared by the session's workers (its files are
    written atomically), so a plan compiled by one worker is read by the others."""
    before = os.environ.get("NINE_CACHE_DIR")
    if "PYTEST_XDIST_WORKER" not in os.environ:  # not under xdist
        folder = tmp_path_factory.mktemp("nine-cache")
    else:  # the session's folder: every worker's base folder is inside it
        folder = tmp_path_factory.getbasetemp().parent / "nine-cache"
        folder.mkdir(exist_ok=True)
    os.environ["NINE_CACHE_DIR"] = str(folder)
    yield
    if before is None:
        os.environ.pop("NINE_CACHE_DIR", None)
    else:
        os.environ["NINE_CACHE_DIR"] = before


@pytest.fixture(scope="session", autouse=True)
def _kernels_compiled_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under xdist, numba's kernels are compiled once for the session, not once per worker
    (see :mod:`tests.kernels_warm`; imported here only then, since it loads numba)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and worker[2:].isdigit():
        from tests.kernels_warm import warm

        warm(int(worker[2:]), tmp_path_factory.getbasetemp().parent)


def reference(name: str) -> dict[str, Any]:
    """A reference file of published figures, by stem."""
    return tomllib.loads((REFERENCE / f"{name}.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def punto_banco_reference() -> dict[str, Any]:
    return reference("punto_banco")


#: A bet that reads the cards and the coup together: no two- or four-card form prices it.
MIXED_BET = """
[[bets]]
id = "suited-player-win"
name = "Player wins on a suited start"
lines = [{ name = "suited win", when = "winner == player and player_suited", pays = 3 }]
"""


@pytest.fixture
def mixed_profile(tmp_path: Path) -> Path:
    """A profile file: punto banco (named "mixed") with :data:`MIXED_BET` added."""
    text = (Path(__file__).parent.parent / "analyzer" / "profiles" / "punto-banco.toml"
            ).read_text(encoding="utf-8")
    text = text.replace('name = "punto-banco"', 'name = "mixed"').replace(
        'aliases = ["baccarat", "punto", "pb", "mini-baccarat"]', "aliases = []") + MIXED_BET
    path = tmp_path / "mixed.toml"
    path.write_text(text, encoding="utf-8")
    return path


def brute_force_deal(values: tuple[int, ...]) -> tuple[str, int, int, int]:
    """Deal punto banco from point values in shoe order (docs/rules/punto-banco.md §2-§4).

    Deliberately independent of the engine (no profile, no tableau table): returns the
    winner, Player's and Banker's final totals and the number of cards used.
    """
    player = [values[0], values[2]]
    banker = [values[1], values[3]]
    used = 4
    p, b = sum(player) % 10, sum(banker) % 10
    if p < 8 and b < 8:
        third = None
        if p <= 5:
            third = values[used]
            used += 1
            player.append(third)
        if third is None:
            draw = b <= 5
        elif b <= 2:
            draw = True
        elif b == 3:
            draw = third != 8
        elif b == 4:
            draw = 2 <= third <= 7
        elif b == 5:
            draw = 4 <= third <= 7
        elif b == 6:
            draw = third in (6, 7)
        else:
            draw = False
        if draw:
            banker.append(values[used])
            used += 1
    p, b = sum(player) % 10, sum(banker) % 10
    winner = "player" if p > b else "banker" if b > p else "tie"
    return winner, p, b, used


#: Tests that evaluate the shipped one-deck certificates of 5 people exactly, by cards and by
#: total (the publication's tables, the certificate's check, the label test's outputs): run
#: together in this order where the first is collected, so that under xdist one worker takes
#: them one after the other and the later ones find the subgames' exact passes in its memory
#: (each still computes whatever it does not find; about 12 s of CPU each otherwise).
TOGETHER = ("tests/present/test_tables.py::test_tables_folder_is_current",
            "tests/choice/table/stored/test_certificate.py::"
            "test_the_five_person_certificate_by_total_checks_again_exactly",
            # the same module fixture (the file's check): kept next to the test above
            "tests/choice/table/stored/test_certificate.py::"
            "test_a_tampered_block_fails_the_exact_check",
            "tests/cli/test_choice.py::test_the_one_deck_tables_by_total_are_the_shipped_"
            "certificates[5]",
            "tests/cli/test_choice.py::test_no_output_claims_exact_values_at_a_shoe_they_were_"
            "not_computed_at[--decks 1-5,7-9]")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of :data:`TOGETHER` in its order where its first is; the others as
    collected."""
    found = {item.nodeid: item for item in items if item.nodeid in TOGETHER}
    if TOGETHER[0] not in found:  # a selection without the publication: as collected
        return
    group = [found[nodeid] for nodeid in TOGETHER if nodeid in found]
    rest = [item for item in items if item.nodeid not in found]
    at = next(i for i, item in enumerate(items) if item.nodeid == TOGETHER[0])
    before = sum(1 for item in items[:at] if item.nodeid not in found)
    items[:] = rest[:before] + group + rest[before:]
