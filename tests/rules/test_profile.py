"""Profiles load from data and fail with errors that name the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile, shipped_profiles

PUNTO_BANCO = (Path(__file__).parent.parent.parent / "analyzer" / "profiles" / "punto-banco.toml")


def test_registry_finds_names_and_aliases() -> None:
    names = {p.name for p in shipped_profiles()}
    assert "punto-banco" in names
    assert load_profile("PB").name == "punto-banco"
    assert load_profile("mini-baccarat").name == "punto-banco"


def test_tableau_is_data() -> None:
    tableau = load_profile("punto-banco").tableau
    assert tableau is not None
    assert tableau.banker_draws[3] == frozenset(range(10)) - {8}
    assert tableau.banker_draws[6] == {6, 7}
    assert not tableau.banker_draws_on(7, 5)


def test_users_own_file_loads(tmp_path: Path) -> None:
    text = PUNTO_BANCO.read_text().replace('name = "punto-banco"', 'name = "tie-nine"')
    text = text.replace('aliases = ["baccarat", "punto", "pb", "mini-baccarat"]', "aliases = []")
    text = text.replace("pays = 8 }", "pays = 9 }")
    path = tmp_path / "tie-nine.toml"
    path.write_text(text)
    profile = load_profile(str(path))
    assert profile.bet("tie").lines[0].pays == 9


def write(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "broken.toml"
    text = PUNTO_BANCO.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("old", "new", "message"), [
    ("player_draws = [0, 1, 2, 3, 4, 5]", "player_draws = [0, 12]",
     r"broken.toml: tableau.player_draws: must be a list of integers 0-9"),
    ('pays = "19/20"', 'pays = "-1"', r"broken.toml: bet banker: line 1: pays: negative payout"),
    ('when = "winner == banker"', 'when = "winer == banker"',
     r"broken.toml: bet banker: line 1: when: unknown feature 'winer'"),
    ('id = "player"', 'id = "banker"', r"broken.toml: .*duplicate bet id 'banker'"),
    ('name = "punto-banco"', 'name = "x"\ncolour = 1', r"broken.toml: colour: unknown field"),
    ("[tableau]", "[tableaux]", r"broken.toml: tableaux: unknown field"),
    # hostile input (each once a silent change of the game, a wrong value or a traceback)
    ("6 = [6, 7]\n", "", r"broken.toml: tableau.banker_draws: no row for banker total 6"),
    ("7 = []", "7 = [true]", r"broken.toml: tableau.banker_draws.7: must be a list of integers"),
    ("decks = 8", "decks = true", r"broken.toml: decks: must be an integer from 1 to 100,000"),
    ("7 = []", '"\u00b2" = []', r"broken.toml: tableau.banker_draws.\u00b2: key must be a banker"),
    ('pays = "19/20"', "pays = 1e308", r"broken.toml: bet banker: line 1: pays: payout 1e\+308 is"),
    ('pays = "19/20"', 'pays = "1e999999999"', r"line 1: pays: payout '1e999999999' is"),
    ('pays = "19/20"', "pays = 2000000", r"bet banker: line 1: pays: payout 2000000 is above"),
    ("7 = []", '7 = []\n[procedure]\ncut_card = -3',
     r"broken.toml: procedure.cut_card: must be an integer from 0 to 10,000, not -3"),
    ("7 = []", '7 = []\n[procedure]\nburn = "lots"',
     r"broken.toml: procedure.burn: 'lots' unknown"),
    ("7 = []", '7 = []\n[procedure]\ncut_cards = 16',
     r"broken.toml: procedure.cut_cards: unknown field"),
    ("7 = []", '7 = []\n[procedure.betting_windows]\ntie = 0',
     r"broken.toml: procedure.betting_windows.tie: must be an integer from 1 to 1,000"),
    ("7 = []", '7 = []\n[procedure.betting_windows]\nnope = 3',
     r"broken.toml: procedure.betting_windows: windows name unknown bets: nope"),
])
def test_bad_profiles_name_file_and_field(tmp_path: Path, old: str, new: str,
                                          message: str) -> None:
    with pytest.raises(AnalyzerError, match=message):
        load_profile(str(write(tmp_path, old, new)))


def test_empty_bet(tmp_path: Path) -> None:
    path = tmp_path / "empty.toml"
    path.write_text(PUNTO_BANCO.read_text() + '\n[[bets]]\nid = "nothing"\nlines = []\n')
    with pytest.raises(AnalyzerError, match="bet nothing: lines: a bet needs at least one"):
        load_profile(str(path))


def test_unknown_profile() -> None:
    with pytest.raises(AnalyzerError, match="unknown profile 'nope'"):
        load_profile("nope")
