"""Profiles load from data and fail with errors that name the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.engine.odds import odds
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile, profile_data, profile_text, shipped_profiles
from analyzer.rules.shoe import Shoe

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


# -- profiles that build on a base -----------------------------------------------------------
_SIDE_BET = '''[[bets]]
id = "pair-plus"
name = "Pair Plus"
lines = [
  { name = "both pairs", when = "player_pair and banker_pair", pays = 100 },
  { name = "a pair", when = "player_pair or banker_pair", pays = 5 },
]
'''


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_side_bet_on_a_base_gives_the_same_odds_as_the_full_copy(tmp_path: Path) -> None:
    full = PUNTO_BANCO.read_text(encoding="utf-8")
    full = full.split("[[bets]]", 1)[0].replace('name = "punto-banco"', 'name = "copy"')
    full = "\n".join(line for line in full.splitlines() if not line.startswith("aliases"))
    copy = load_profile(_write(tmp_path, "copy.toml", full + "\n" + _SIDE_BET))
    based = load_profile(_write(tmp_path, "based.toml", 'base = "baccarat"\nname = "based"\n'
                                'base_bets = []\n' + _SIDE_BET))
    assert based.tableau == copy.tableau and based.default_decks == 8
    assert [b.id for b in based.bets] == ["pair-plus"] and based.title == "based"
    shoe = Shoe.decks(2)
    mine, theirs = odds(based, shoe).bet("pair-plus"), odds(copy, shoe).bet("pair-plus")
    assert mine.ev == theirs.ev and mine.ev != 0
    assert [line.probability for line in mine.lines] == [line.probability
                                                         for line in theirs.lines]


def test_a_base_s_bets_are_kept_replaced_or_chosen(tmp_path: Path) -> None:
    _write(tmp_path, "mid.toml", 'base = "punto-banco"\nname = "mid"\ndecks = 6\n'
           '[tableau]\nplayer_draws = [0, 1, 2, 3, 4]\n' + _SIDE_BET)
    top = load_profile(_write(tmp_path, "top.toml", '''base = "mid.toml"
name = "top"
[[bets]]
id = "tie"
name = "Tie 9:1"
lines = [{ name = "Tie", when = "winner == tie", pays = 9 }]
'''))
    assert [b.id for b in top.bets] == ["banker", "player", "tie", "pair-plus"]
    assert top.bet("tie").lines[0].pays == 9 and top.default_decks == 6
    assert top.tableau is not None and top.tableau.player_draws == frozenset(range(5))
    assert top.tableau.naturals == frozenset({8, 9})  # merged key by key
    assert top.aliases == () and top.title == "top"  # the identity is the file's own
    chosen = load_profile(_write(tmp_path, "chosen.toml",
                                 'base = "mid.toml"\nname = "c"\nbase_bets = ["tie"]\n'))
    assert [b.id for b in chosen.bets] == ["tie"]


def test_show_prints_the_merged_profile_which_loads_the_same(tmp_path: Path) -> None:
    path = _write(tmp_path, "based.toml", 'base = "punto-banco"\nname = "b"\n' + _SIDE_BET)
    result = CliRunner().invoke(main, ["profiles", "--show", str(path)])
    assert result.exit_code == 0 and "[tableau.banker_draws]" in result.stdout
    assert result.stdout.splitlines()[1] == 'name = "b"' and "base" not in profile_text(path)
    again = _write(tmp_path, "again.toml", result.stdout)
    assert profile_data(again) == profile_data(path) and load_profile(again).bets
    assert [b.id for b in load_profile(again).bets] == ["banker", "player", "tie", "pair-plus"]


@pytest.mark.parametrize(("files", "message"), [
    ({"a.toml": 'base = "b.toml"\nname = "a"\n', "b.toml": 'base = "a.toml"\nname = "b"\n'},
     "b.toml: base: a cycle of bases ("),
    ({"a.toml": 'base = "a.toml"\nname = "a"\n'}, "a.toml: base: a cycle of bases"),
    ({"a.toml": 'base = "punto-bancoo"\nname = "a"\n'}, "a.toml: base: no profile "
     "'punto-bancoo' (did you mean punto-banco?) (shipped: "),
    ({"a.toml": 'base = 3\nname = "a"\n'}, "a.toml: base: must be a profile name or"),
    ({"a.toml": 'base = "punto-banco"\nname = "a"\nbase_bets = ["dragon"]\n'},
     "a.toml: base_bets: the base has no bet 'dragon' (bets: banker, player, tie)"),
    ({"a.toml": 'name = "a"\nbase_bets = []\n[game]\nkind = "choice"\n'},
     "a.toml: base_bets: only a profile with a base"),
    ({"a.toml": 'base = "punto-banco"\nname = "a"\n[tableau]\nnaturals = [10]\n'},
     "a.toml: tableau.naturals: must be a list of integers 0-9"),
])
def test_bases_that_cannot_be_merged_are_one_line_errors(tmp_path: Path, files: dict[str, str],
                                                          message: str) -> None:
    for name, text in files.items():
        _write(tmp_path, name, text)
    result = CliRunner().invoke(main, ["odds", "--profile", str(tmp_path / "a.toml")])
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1
