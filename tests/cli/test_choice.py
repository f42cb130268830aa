"""``nine solve --players N``, ``nine evaluate --players N``, ``nine advise`` and ``nine game``:
options, output fields, strategy files round trip, bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_three_people_json_has_every_field_and_a_certificate() -> None:
    code, out, _ = _run("solve", "--players", "2", "--infinite", "--format", "json",
                        "--no-costs")
    assert code == 0
    document = json.loads(out)
    assert document["certified"] is True and document["max_regret"] == "0"
    assert [s["seat"] for s in document["seats"]] == [1, 2]
    assert document["seats"][0]["value"] == "-58248160/8973037931"
    assert document["banker"]["value"] == "538877488/44865189655"
    assert document["banker"]["per_stake"] == "269438744/44865189655"
    assert document["seats"][0]["strategy"]["base"]["5"] in ("1", "24/25")


def test_heads_up_keeps_its_fields_and_gains_the_table_ones() -> None:
    code, out, _ = _run("solve", "--players", "1", "--infinite", "--by", "total", "--format",
                        "json")
    document = json.loads(out)
    assert code == 0 and document["certificate"]["gap"] == "0"
    assert document["seats"][0]["value"] == document["value"] == "-456160/53094899"
    assert document["banker"]["value"] == "456160/53094899" and document["max_regret"] == "0"


def test_cards_saved_files_and_their_exact_evaluation(tmp_path: Path) -> None:
    player, banker = tmp_path / "seats.toml", tmp_path / "bank.toml"
    code, out, _ = _run("solve", "--players", "3", "--infinite", "--card", "--save-player",
                        str(player), "--save-banker", str(banker))
    assert code == 0
    assert "Seat 2" in out and "draw 32/65 (49.2%)" in out and "clock's seconds" in out
    assert "T = 10, J, Q or K" in out
    code, out, _ = _run("evaluate", "--players", "3", "--infinite", "--player", str(player),
                        "--banker", str(banker), "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["certified"] and document["max_regret"] == "0"
    code, out, _ = _run("evaluate", "--players", "3", "--infinite", "--player", "house",
                        "--banker", str(banker))
    assert code == 0 and "not an equilibrium" in out


def test_advise_a_seat_and_the_bank() -> None:
    code, out, _ = _run("advise", "--people", "4", "--seat", "2", "--cards", "TH 5S",
                        "--earlier", "stood", "--infinite", "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["action"] == "draw 32/65" and document["margin"] == "0"
    code, out, _ = _run("advise", "--banker", "--cards", "7D 9S", "--choices",
                        "stood,stood,stood", "--infinite")
    assert code == 0 and "draw 121635/146432" in out


def test_game_export_writes_a_gambit_file(tmp_path: Path) -> None:
    path = tmp_path / "three.efg"
    code, out, _ = _run("game", "--players", "2", "--export", str(path))
    assert code == 0 and "12,289 nodes" in out
    assert path.read_text().startswith('EFG 2 R "home Lucky 9, 3 people, infinite deck')


@pytest.mark.parametrize(("args", "message"), [
    (("solve", "--players", "0"), "'--players': 0 is not in the range 1<=x<=8"),
    (("solve", "--players", "9"), "'--players': 9 is not in the range 1<=x<=8"),
    (("advise", "--people", "4", "--seat", "5", "--cards", "8H 7S"), "--seat 5"),
    (("advise", "--people", "3", "--cards", "8H 8H", "--decks", "1"), "1 deck holds 1 of it"),
    (("advise", "--people", "4", "--seat", "2", "--cards", "8H 7S", "--naturals", "2",
      "--infinite"), "the seat asking cannot hold a natural"),
    (("advise", "--people", "4", "--seat", "2", "--cards", "8H 7S", "--earlier",
      "drew,stood", "--infinite"), "2 choices, but seat 2 has 1 earlier seat"),
    (("game", "--players", "4", "--export", "x.efg"), "400,000 nodes"),
])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, _, err = _run(*args)
    assert code == 2 and message in err and err.count("\n") == 1


def test_the_bank_edge_by_table_size() -> None:
    code, out, _ = _run("solve", "--players", "2", "--infinite", "--by-size", "--format", "csv")
    rows = out.strip().splitlines()
    assert code == 0 and len(rows) == 3
    assert rows[1].startswith("2,1,456160/53094899") and rows[2].endswith("yes")


def test_session_estimates_say_when_they_do_not_resolve_a_sign() -> None:
    bank = str(Path(__file__).resolve().parents[1] / "reference" / "lucky9_tables"
               / "people-2-banker.toml")
    code, out, _ = _run("session", "--people", "4", "--rotations", "1", "--seed", "3",
                        "--decks", "1", "--player", "house", "--banker", "house", "--banker",
                        "house", "--banker", "house", "--banker", bank)
    assert code == 0 and "(estimate)" in out and "not resolved" in out
    assert "cannot tell its sign" in out
