"""A corpus of the dialects third-party simulators write, made here from the project's own
simulator by converters (never hand-edited files), correct and with injected faults, each
verified with its expected exit code."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from analyzer.rules.cards import Card
from analyzer.verify.verdict import EXIT_INPUT, EXIT_PASS, EXIT_STATISTICS, EXIT_VIOLATIONS
from tests.verify.conftest import cli, csv_rows, write_log

Rows = list[list[str]]
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "Spades", "H": "hearts", "D": "Diamonds", "C": "clubs"}
RANK_NAMES = {"A": "Ace", "2": "two", "3": "Three", "4": "four", "5": "five", "6": "Six",
              "7": "seven", "8": "eight", "9": "nine", "T": "Ten", "J": "jack", "Q": "Queen",
              "K": "king"}
RANK_NUMBER = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 10)}}
#: Outcome words per language, with accents and case as exports write them.
WORDS = {
    "english": {"B": "Banker Wins", "P": "player win", "T": "TIE"},
    "chinese": {"B": "庄", "P": "闲", "T": "和"},
    "traditional": {"B": "莊", "P": "閒", "T": "和"},
    "spanish": {"B": "Banca", "P": "Jugador", "T": "Empate"},
    "french": {"B": "Banquier", "P": "joueur", "T": "Égalité"},
    "french-plain": {"B": "BANQUE", "P": "Joueur", "T": "egalite"},
    "portuguese": {"B": "banca", "P": "jogador", "T": "EMPATE"},
    "filipino": {"B": "Bangka", "P": "Manlalaro", "T": "Tabla"},
}
CARD_FORMS: dict[str, Callable[[list[str]], str]] = {
    "suit-first": lambda cards: " ".join(c[1].lower() + c[0] for c in cards),
    "ten-as-10": lambda cards: " ".join(("10" if c[0] == "T" else c[0]) + c[1].lower()
                                        for c in cards),
    "suit-symbols": lambda cards: " ".join(c[0] + SUITS[c[1]] for c in cards),
    "names": lambda cards: ", ".join(f"{RANK_NAMES[c[0]]} of {SUIT_NAMES[c[1]]}"
                                     for c in cards),
    "list-text": lambda cards: str([c.lower() for c in cards]),
    "bare-list": lambda cards: "[" + ",".join(cards) + "]",
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rows]:
    """The simulator's CSV logs: clean, with a drawing fault, six decks, a faulty run."""
    folder = tmp_path_factory.mktemp("corpus")
    made = {}
    for name, shoes, seed, decks, faults in (
            ("clean", 6, 19, 8, ()), ("drawing", 4, 23, 8, ("banker-stands",)),
            ("six-decks", 12, 31, 6, ()), ("natural-draw", 200, 41, 8, ("natural-draw",))):
        path = folder / f"{name}.csv"
        summary = write_log(path, shoes, seed, decks, faults, fmt="csv")
        assert not faults or summary.faulted  # the fault did happen
        made[name] = csv_rows(path)
    return made


def write(path: Path, rows: Rows, separator: str = ",") -> Path:
    with path.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, delimiter=separator, lineterminator="\n").writerows(rows)
    return path


def cards_as(rows: Rows, form: Callable[[list[str]], str]) -> Rows:
    """Every cards field (player, banker, burn) rewritten by ``form`` (a list of tokens)."""
    header = rows[0]
    columns = [header.index(name) for name in ("player_cards", "banker_cards", "burn")]
    out = [header]
    for row in rows[1:]:
        row = list(row)
        for i in columns:
            row[i] = form(row[i].split()) if row[i] else ""
        out.append(row)
    return out


def words_as(rows: Rows, words: dict[str, str]) -> Rows:
    winner = rows[0].index("winner")
    return [rows[0]] + [[words[c] if i == winner else c for i, c in enumerate(row)]
                        for row in rows[1:]]


def ranks_split(rows: Rows) -> Rows:
    """Ranks 1-13 in six columns P1..P3, B1..B3, 0 where no third card was drawn (burns
    dropped: a ranks export has none)."""
    header = rows[0]
    player, banker = header.index("player_cards"), header.index("banker_cards")
    keep = [i for i, name in enumerate(header) if name not in (
        "player_cards", "banker_cards", "burn")]
    out = [[header[i] for i in keep] + ["P1", "P2", "P3", "B1", "B2", "B3"]]
    for row in rows[1:]:
        cells = [row[i] for i in keep]
        for column in (player, banker):
            numbers = [str(RANK_NUMBER[c[0]]) for c in row[column].split()]
            cells += numbers + ["0"] * (3 - len(numbers))
        out.append(cells)
    return out


def values_only(rows: Rows) -> Rows:
    return cards_as(rows, lambda cards: " ".join(str(Card.parse(c).points) for c in cards))


def verify(*args: str) -> tuple[int, dict[str, object], str]:
    code, out, err = cli("verify", *args, "--format", "json", "--jobs", "1")
    return code, json.loads(out) if out.strip() else {}, err


@pytest.mark.parametrize("separator", [";", "\t", "|"])
def test_separators_are_told_from_the_header(logs: dict[str, Rows], tmp_path: Path,
                                             separator: str) -> None:
    rows = logs["clean"]
    titled = [[name.replace("_", " ").title() if not name.endswith(("_stake", "_returned"))
               else name for name in rows[0]], *rows[1:]]
    code, report, err = verify(str(write(tmp_path / "export.csv", titled, separator)))
    assert code == EXIT_PASS, err
    assert report["hands"] == len(rows) - 1
    bad = write(tmp_path / "bad.csv", words_as(logs["drawing"], WORDS["english"]), separator)
    assert verify(str(bad))[0] == EXIT_VIOLATIONS


def test_a_forced_delimiter_and_an_unknown_one(logs: dict[str, Rows], tmp_path: Path) -> None:
    path = write(tmp_path / "semi.csv", logs["clean"], ";")
    assert verify(str(path), "--delimiter", ";")[0] == EXIT_PASS
    code, _, err = verify(str(path), "--delimiter", "tab")  # forced wrong: one column
    assert code == EXIT_INPUT and "--delimiter" in err and "--column" not in err
    colon = write(tmp_path / "colon.csv", logs["clean"], ":")
    code, _, err = verify(str(colon))
    assert code == EXIT_INPUT and len(err.strip().splitlines()) == 1
    assert "colon.csv: line 1" in err and "--delimiter" in err and "--column" not in err


@pytest.mark.parametrize("form", sorted(CARD_FORMS))
def test_card_notations(logs: dict[str, Rows], tmp_path: Path, form: str) -> None:
    clean = write(tmp_path / "clean.csv", cards_as(logs["clean"], CARD_FORMS[form]))
    code, report, err = verify(str(clean))
    assert code == EXIT_PASS, (err, report.get("malformed"))
    assert report["whole_shoes"] == 6
    faulty = write(tmp_path / "faulty.csv", cards_as(logs["drawing"], CARD_FORMS[form]))
    code, report, _ = verify(str(faulty))
    assert code == EXIT_VIOLATIONS and "banker-draw" in report["violations"]["by_kind"]


@pytest.mark.parametrize("language", sorted(WORDS))
def test_outcome_words(logs: dict[str, Rows], tmp_path: Path, language: str) -> None:
    path = write(tmp_path / "words.csv", words_as(logs["clean"], WORDS[language]))
    assert verify(str(path))[0] == EXIT_PASS
    # a claimed winner the cards do not give is still found behind the words
    rows = words_as(logs["clean"], WORDS[language])
    winner = rows[0].index("winner")
    rows[5][winner] = next(w for w in WORDS[language].values() if w != rows[5][winner])
    code, report, _ = verify(str(write(tmp_path / "wrong.csv", rows)))
    assert code == EXIT_VIOLATIONS and report["violations"]["by_kind"].get("outcome") == 1


def test_outcome_words_of_ones_own(logs: dict[str, Rows], tmp_path: Path) -> None:
    own = {"B": "Bankir", "P": "Igrok", "T": "Nichya"}
    path = write(tmp_path / "own.csv", words_as(logs["clean"], own))
    code, _, err = verify(str(path))
    assert code == EXIT_INPUT and "--outcome-words" in err  # malformed records say how
    assert verify(str(path), "--outcome-words", "banker=bankir,player=IGROK,tie=Nichya")[0] \
        == EXIT_PASS


def test_values_and_ranks_logs(logs: dict[str, Rows], tmp_path: Path) -> None:
    values = write(tmp_path / "values.csv", values_only(logs["clean"]))
    code, report, _ = verify(str(values))
    assert code == EXIT_PASS
    ranks = write(tmp_path / "ranks.csv", ranks_split(logs["clean"]))
    code, report, err = verify(str(ranks))  # told apart by their 10-13
    assert code == EXIT_PASS, (err, report.get("malformed"))
    assert report["hands"] == len(logs["clean"]) - 1
    assert verify(str(ranks), "--cards", "ranks")[0] == EXIT_PASS
    code, _, err = verify(str(ranks), "--cards", "values")
    lines = err.strip().splitlines()
    assert code == EXIT_INPUT and len(lines) == 1 and "ranks.csv: line " in lines[0]
    assert "--cards ranks" in lines[0] and "card value 1" in lines[0]  # names 10-13
    for name, convert in (("values", values_only), ("ranks", ranks_split)):
        faulty = write(tmp_path / f"faulty-{name}.csv", convert(logs["drawing"]))
        code, report, _ = verify(str(faulty))
        assert code == EXIT_VIOLATIONS and "banker-draw" in report["violations"]["by_kind"], name


def test_bead_roads(logs: dict[str, Rows], tmp_path: Path) -> None:
    rows = logs["clean"]
    shoe, winner = rows[0].index("shoe"), rows[0].index("winner")
    per_line = tmp_path / "road.txt"
    per_line.write_text("".join(row[winner] + "\n" for row in rows[1:]), encoding="utf-8")
    shoes: dict[str, str] = {}
    for row in rows[1:]:
        shoes[row[shoe]] = shoes.get(row[shoe], "") + row[winner]
    strings = tmp_path / "shoes.log"
    strings.write_text("".join(s + "\n" for s in shoes.values()), encoding="utf-8")
    column = write(tmp_path / "road.csv", [["Shoe", "Result"]] + [
        [row[shoe], WORDS["spanish"][row[winner]]] for row in rows[1:]], ";")
    headed = tmp_path / "headed.txt"  # a result column alone, under its header
    headed.write_text("Result\n" + "".join(WORDS["chinese"][row[winner]] + "\n"
                                            for row in rows[1:]), encoding="utf-8")
    for path, runs in ((per_line, False), (strings, True), (column, True), (headed, False)):
        code, report, err = verify(str(path))
        assert code == EXIT_PASS, (path, err)
        assert report["hands"] == len(rows) - 1 and report["outcomes_only"] is True
        missing = {n["what"]: n["why"] for n in report["not_checked"]}  # type: ignore[union-attr]
        assert {"payouts", "outcomes", "cards", "shoe model", "shuffle"} <= set(missing)
        assert "outcomes only" in missing["cards"] and "replay" in missing["outcomes"]
        names = {t["name"] for t in report["tests"]}  # type: ignore[union-attr]
        assert ("runs of winners within shoes" in names) == runs, path
        assert {t["bet"] for t in report["tests"]} >= {"banker", "player", "tie"}  # type: ignore[union-attr]
    # a bead road of a faulty simulator (Player draws on a natural 8): a statistical fail
    bad = logs["natural-draw"]
    road = tmp_path / "faulty.txt"
    road.write_text("".join(row[winner] + "\n" for row in bad[1:]), encoding="utf-8")
    code, report, _ = verify(str(road))
    assert code == EXIT_STATISTICS
    assert any(t["bet"] == "player" and not t["passed"] for t in report["tests"])  # type: ignore[union-attr]
    # one unreadable line of a bead road is one malformed record
    lines = per_line.read_text(encoding="utf-8").splitlines()
    lines[3] = "Q"
    (tmp_path / "one-bad.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, report, _ = verify(str(tmp_path / "one-bad.txt"))
    assert code == EXIT_INPUT and report["malformed"]["count"] == 1  # type: ignore[index]
    assert report["malformed"]["listed"][0]["line"] == 4  # type: ignore[index]


def test_the_deck_count_the_shoes_show(logs: dict[str, Rows], tmp_path: Path) -> None:
    path = write(tmp_path / "six.csv", logs["six-decks"])
    code, report, _ = verify(str(path))
    assert code == EXIT_PASS and report["decks"] == 6 and report["decks_from"] == "log"
    assert any("as the whole shoes show" in n for n in report["notes"])  # type: ignore[union-attr]
    code, report, _ = verify(str(path), "--decks", "8")
    assert report["decks"] == 8 and report["decks_from"] == "option"
    assert any("look like 6 decks, NOT the 8" in n for n in report["notes"])  # type: ignore[union-attr]
    code, report, _ = verify(str(write(tmp_path / "eight.csv", logs["clean"])))
    assert report["decks"] == 8 and report["decks_from"] == "log"


def test_one_bad_line_is_one_malformed_record(logs: dict[str, Rows], tmp_path: Path) -> None:
    rows = [list(row) for row in logs["clean"]]
    rows[10][rows[0].index("player_cards")] = "XX YY"
    code, report, _ = verify(str(write(tmp_path / "one-bad.csv", rows, ";")))
    assert code == EXIT_INPUT
    assert report["malformed"]["count"] == 1  # type: ignore[index]
    assert [i["line"] for i in report["malformed"]["listed"]] == [11]  # type: ignore[index]


@pytest.mark.parametrize(("name", "content"), [
    ("notes.txt", "Lorem ipsum dolor\nsit amet\n"),
    ("people.csv", "name,age\nbob,3\n"),
    ("thing.json", '{"a": 1}\n'),
    ("blob.dat", "\x01\x02 binary-ish \x7f\n"),
])
def test_a_file_that_is_no_baccarat_log(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    code, out, err = cli("verify", str(path))
    assert code == EXIT_INPUT and not out and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0]
