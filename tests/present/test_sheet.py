"""What every PAR sheet is (analyzer/present/sheet.py): the shared record, the two kinds as
data, the decks check, the command name, provenance and the spread figures."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.errors import AnalyzerError
from analyzer.present.par import TABLEAU, ParSheet
from analyzer.present.par_choice import CHOICE, ChoiceParSheet
from analyzer.present.sheet import (
    ALPHA,
    POWER,
    RTP_ERROR,
    Sheet,
    command_name,
    profile_sha256,
    sheet_decks,
    spread,
    win_ranges,
    z_value,
)
from analyzer.rules.profile import load_profile, profile_text
from analyzer.verify.inference.statistics import rtp_hands_needed


def test_both_kinds_are_one_record_told_apart_by_their_kind() -> None:
    shared = {f.name for f in dataclasses.fields(Sheet)}
    assert shared == {"profile", "decks", "commands", "notes", "version", "rules", "generated",
                      "profile_sha256"}
    for record, kind in ((ParSheet, TABLEAU), (ChoiceParSheet, CHOICE)):
        assert issubclass(record, Sheet) and record.kind is kind
        assert shared < {f.name for f in dataclasses.fields(record)}
    assert (TABLEAU.rounds, TABLEAU.winner, CHOICE.rounds, CHOICE.winner) == (
        "hands", "house", "coups", "bank")
    assert TABLEAU.figures[0] == CHOICE.figures[0] == "par"


def test_the_record_states_its_provenance_from_its_profile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(86400 * 365))
    profile = load_profile("punto-banco")
    sheet = Sheet(profile=profile, decks=6, commands=(("par", "nine par --profile x"),))
    assert (sheet.rules, sheet.generated) == ("docs/rules/punto-banco.md", "1971-01-01")
    assert sheet.profile_sha256 == profile_sha256(profile) and len(sheet.profile_sha256) == 64
    assert (sheet.stem, sheet.shoe, sheet.command("par")) == (
        "punto-banco-6-decks", "6 decks", "nine par --profile x")
    with pytest.raises(AnalyzerError, match="states no 'odds' command .it has par."):
        sheet.command("odds")


def test_decks_are_the_profile_s_or_1_to_64() -> None:
    profile = load_profile("chemin-de-fer")
    assert (sheet_decks(profile, None), sheet_decks(profile, 64)) == (6, 64)
    for bad in (0, 65, True):
        with pytest.raises(AnalyzerError, match="--decks: a PAR sheet is for 1 to 64 decks"):
            sheet_decks(profile, bad)


def test_a_shipped_profile_is_named_another_by_its_file(tmp_path: Path) -> None:
    assert command_name(load_profile("punto-banco")) == "punto-banco"
    copy = tmp_path / "house.toml"
    text = profile_text("punto-banco").replace('name = "punto-banco"', 'name = "house"', 1)
    text = text.replace('aliases = ["baccarat", "punto", "pb", "mini-baccarat"]', "aliases = []")
    copy.write_text(text, encoding="utf-8")
    house = load_profile(str(copy))
    assert (house.name, command_name(house)) == ("house", str(copy))
    assert profile_sha256(house) not in ("", profile_sha256(load_profile("punto-banco")))


def test_the_spread_is_the_volatility_ranges_and_hands_to_verify() -> None:
    edge, sd = Fraction(106, 10_000), 0.93
    volatility, ranges, hands = spread(edge, sd, Fraction(1, 3))
    assert volatility == pytest.approx(1.6448536 * sd)
    assert ranges == win_ranges(edge, sd, Fraction(1, 3))
    assert ranges[2].ranges[1][0] == pytest.approx(float(edge) - z_value(0.95) * sd / 100)
    assert hands == rtp_hands_needed(sd, RTP_ERROR, ALPHA, POWER)
    assert hands == math.ceil(((2.5758293 + 0.8416212) * sd / RTP_ERROR) ** 2)
