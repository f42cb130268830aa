"""Equilibria kept on disk: a second advice certifies the kept strategies again instead of
solving; a file edited, solved for other rules or with the cache off is not taken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analyzer.choice.table import kept
from analyzer.choice.table.advice import advise_seat
from analyzer.choice.table.indifference import GIVEN_METHOD
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)
#: Seat 1 of 3 people at one deck, seat 2 showing a natural (a subgame with its cards out).
QUESTION = {"people": 3, "cards": "T 5", "seat": 1, "naturals": "2=9H KD", "by": "total"}


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NINE_CACHE_DIR", str(tmp_path))
    return tmp_path


def _file(cache: Path) -> Path:
    (found,) = (cache / "equilibria").iterdir()
    return found


def test_a_second_advice_certifies_the_kept_strategies(cache: Path) -> None:
    first = advise_seat(LUCKY9, ONE_DECK, **QUESTION)  # type: ignore[arg-type]
    table = solve_table(LUCKY9, ONE_DECK, 2, "total")
    stored = kept.kept_strategies(LUCKY9, ONE_DECK, 2, "total")
    assert stored is not None and _file(cache).stem == kept.table_fingerprint(
        LUCKY9, ONE_DECK, 2, "total")
    assert stored == {r.key: ([[list(row) for row in rows] for rows in r.solution.seats],
                              [list(row) for row in r.solution.bank]) for r in table.subgames}
    assert any(key[1] for key in stored)  # the natural's cards round-trip
    again = solve_table(LUCKY9, ONE_DECK, 2, "total", known=stored,
                        known_method=kept.KEPT_METHOD)
    assert again.certified and again.method == kept.KEPT_METHOD
    assert again.values == table.values
    second = advise_seat(LUCKY9, ONE_DECK, **QUESTION)  # type: ignore[arg-type]
    assert second == first and second.certified


def test_an_edited_or_foreign_file_is_not_taken(cache: Path) -> None:
    advise_seat(LUCKY9, ONE_DECK, **QUESTION)  # type: ignore[arg-type]
    path = _file(cache)
    text = path.read_text(encoding="utf-8")
    # edited after it was written: fails its digest
    document = json.loads(text)
    row = document["subgames"][0]["bank"][0]
    row[0] = "1/3" if row[0] != "1/3" else "1/5"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert kept.kept_strategies(LUCKY9, ONE_DECK, 2, "total") is None
    # the same file under the name of other rules, another shoe or table: not taken
    path.write_text(text, encoding="utf-8")
    assert kept.kept_strategies(LUCKY9, ONE_DECK, 2, "total") is not None
    bank_ties = load_profile("lucky9-bank-ties").choice_rules()
    for other in (kept.kept_path(bank_ties, ONE_DECK, 2, "total"),
                  kept.kept_path(LUCKY9, Shoe.decks(2), 2, "total"),
                  kept.kept_path(LUCKY9, ONE_DECK, 2, "cards")):
        assert other is not None and other != path
        other.write_text(text, encoding="utf-8")
    assert kept.kept_strategies(bank_ties, ONE_DECK, 2, "total") is None
    assert kept.kept_strategies(LUCKY9, Shoe.decks(2), 2, "total") is None
    assert kept.kept_strategies(LUCKY9, ONE_DECK, 2, "cards") is None


def test_strategies_that_do_not_certify_are_solved_again(cache: Path) -> None:
    table = solve_table(LUCKY9, ONE_DECK, 2, "total")
    kept.keep_strategies(LUCKY9, ONE_DECK, table)
    path = _file(cache)
    document = json.loads(path.read_text(encoding="utf-8"))
    del document["sha256"]
    bank = document["subgames"][0]["bank"]
    bank[0] = ["1" if value == "0" else "0" for value in bank[0]]  # a wrong play, re-signed
    document["sha256"] = kept._digest(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    stored = kept.kept_strategies(LUCKY9, ONE_DECK, 2, "total")
    assert stored is not None
    again = solve_table(LUCKY9, ONE_DECK, 2, "total", known=stored,
                        known_method=kept.KEPT_METHOD)
    assert again.certified and again.values == table.values
    assert again.subgames[0].solution.method not in (kept.KEPT_METHOD, GIVEN_METHOD)


def test_the_cache_off_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NINE_CACHE_DIR", "off")
    assert kept.kept_path(LUCKY9, ONE_DECK, 2, "total") is None
    kept.keep_strategies(LUCKY9, ONE_DECK, solve_table(LUCKY9, ONE_DECK, 1, "total"))
    assert kept.kept_strategies(LUCKY9, ONE_DECK, 1, "total") is None
    assert list(tmp_path.iterdir()) == []
