"""``nine solve --players N``, ``nine evaluate --players N``, ``nine advise`` and ``nine game``:
options, output fields, strategy files round trip, bad input in one line."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import analyzer.choice.table.solve
import analyzer.choice.table.stored.certificate
import analyzer.choice.table.summary
import analyzer.cli.choice
import analyzer.cli.lucky9
from analyzer.choice.table.dealt.played import MAX_AT_SHOE_PEOPLE
from analyzer.choice.table.stored.certificate import certificate_path
from analyzer.choice.table.tree import LUCKY9
from analyzer.cli.commands import main
from analyzer.rules.shoe import Shoe


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
    assert code == 0 and "121635/146432" not in out and out.startswith("Draw 83% of the time")
    code, out, _ = _run("advise", "--banker", "--cards", "7D 9S", "--choices",
                        "stood,stood,stood", "--infinite", "--exact")
    assert code == 0 and "Exact: play draw 121635/146432" in out


def test_the_answer_is_a_sentence_with_the_margin_of_the_better_play() -> None:
    """The first line names the play and how much better it is, in points of a stake, the
    numbers those of the JSON (the exact fractions) rounded."""
    for args in (("--people", "4", "--cards", "T5", "--earlier", "drew"),
                 ("--banker", "--cards", "5 2", "--choices", "drew,stood,natural"),
                 ("--banker", "--cards", "3 3", "--choices", "drew,drew,drew")):
        code, out, _ = _run("advise", *args, "--infinite")
        _, document_text, _ = _run("advise", *args, "--infinite", "--format", "json")
        document = json.loads(document_text)
        draw, stand = Fraction(document["ev_draw"]), Fraction(document["ev_stand"])
        better = "Drawing" if draw > stand else "Standing"
        first = out.splitlines()[0]
        assert code == 0 and first == document["advice"]
        assert first.startswith({"draw": "Draw. ", "stand": "Stand. "}[document["action"]])
        assert (f"{better} is better by {abs(float(draw - stand)) * 100:.2f} points" in first)
        assert f"you expect {float(draw) * 100:+.2f}% drawing" in first
        assert "/" not in out  # no fraction without --exact


@pytest.mark.parametrize("cards", ["8 7", "87", "8,7", "8♥ 7♠", "7 8", "8h7s"])
def test_cards_without_suits_mean_the_same_hand(cards: str) -> None:
    _, reference, _ = _run("advise", "--people", "3", "--cards", "8H 7S", "--decks", "1",
                           "--naturals", "2=9H KD", "--format", "json")
    code, out, _ = _run("advise", "--people", "3", "--cards", cards, "--decks", "1",
                        "--naturals", "2=9 K", "--format", "json")
    document, expected = json.loads(out), json.loads(reference)
    assert code == 0 and document["holding"] == "7+8"
    assert (document["ev_draw"], document["action"]) == (expected["ev_draw"], expected["action"])


@pytest.mark.parametrize("cards", ["T5", "10 5", "K 5", "5,J"])
def test_a_ten_is_a_ten_however_written(cards: str) -> None:
    code, out, _ = _run("advise", "--people", "4", "--cards", cards, "--earlier", "stood",
                        "--infinite", "--format", "json")
    assert code == 0 and json.loads(out)["holding"] == "T+5"


@pytest.mark.parametrize("command", [
    ("solve", "--no-costs", "--infinite"), ("evaluate", "--infinite"),
    ("game", "--export", "{tmp}/g.efg"),
])
def test_people_and_players_name_the_same_table(command: tuple[str, ...], tmp_path: Path,
                                                ) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    by_people = _run(*args, "--people", "3")
    by_players = _run(*args, "--players", "2")
    both = _run(*args, "--people", "3", "--players", "2")
    assert by_people[0] == 0 and by_people == by_players == both
    code, _, err = _run(*args, "--people", "4", "--players", "2")
    assert code == 2 and "--people 4 and --players 2 disagree" in err


def test_advise_and_session_take_players_too() -> None:
    assert _run("advise", "--players", "3", "--cards", "T5", "--infinite") == \
        _run("advise", "--people", "4", "--cards", "T5", "--infinite")
    session = ("session", "--rotations", "1", "--seed", "1", "--infinite")
    by_players = _run(*session, "--players", "2")
    assert by_players[0] == 0 and by_players == _run(*session, "--people", "3")
    code, _, err = _run(*session)
    assert code == 2 and "--people" in err


@pytest.mark.parametrize(("typo", "right"), [("--person", "--people"),
                                               ("--peple", "--people"),
                                               ("--player", "--players")])
def test_did_you_mean_names_the_table_size_options(typo: str, right: str) -> None:
    code, _, err = _run("solve", typo, "3")
    assert code == 2 and f"'{right}'" in err.split("Did you mean")[1]


@pytest.mark.parametrize(("args", "message"), [
    (("--people", "4", "--cards", "8 7", "--naturals", "1", "--earlier", "drew"),
     "seat 1 holds a natural, it did not choose"),
    (("--people", "4", "--cards", "9 K"), "a natural 9 is settled at once"),
    (("--people", "4", "--cards", "T9", "--seat", "2"), "a natural 9 is settled at once"),
    (("--people", "4", "--cards", "8 7", "--seat", "4"), "a table of 4 people has seats 1 to 3"),
    (("--people", "4", "--cards", "8 7", "--seat", "0"), "a table of 4 people has seats 1 to 3"),
    (("--people", "4", "--cards", "8 7", "--naturals", "7"), "the table has seats 1 to 3"),
    (("--people", "3", "--banker", "--cards", "8 7", "--choices", "drew,stood,stood"),
     "give one entry per seat (2 seats)"),
    (("--banker", "--cards", "8 7", "--choices", "drew,stood", "--naturals", "2"),
     "seat 2 holds a natural, it did not choose"),
    (("--banker", "--cards", "4 5", "--choices", "drew"), "the bank's natural"),
    (("--people", "3", "--cards", "8 8 8"), "exactly two cards"),
    (("--people", "3", "--cards", "8 X"), "cannot read 'X'"),
    (("--people", "3", "--cards", "8 7", "--naturals", "2=8 8 8 8 8", "--decks", "1"),
     "1 deck holds 4 of that rank"),
])
def test_impossible_situations_are_one_line(args: tuple[str, ...], message: str) -> None:
    code, _, err = _run("advise", *args, "--infinite" if "--decks" not in args else "--by",
                        *(() if "--decks" not in args else ("total",)))
    assert code == 2 and message in err and err.count("\n") == 1


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


# -- honest labels: exact, regret and certified only for the shoe they were computed at -------
_CLAIM = re.compile(r"exact|regret|certif", re.IGNORECASE)
_INFINITE = re.compile(r"infinite[ -]deck", re.IGNORECASE)
_SHOES = {"--decks 1": ("1 deck", ("--decks", "1")), "--decks 2": ("2 decks", ("--decks", "2")),
          "--infinite": ("infinite deck", ("--infinite",))}
#: The table sizes of each test below, by shoe option (the test with 9 people also checks the
#: edge by every table size). At one deck 5 and 7-9 people go together: the sizes' rows then
#: find the 5-person certificate's exact evaluation by cards (about 11 s of CPU) in memory,
#: and the 7-9 people's infinite-deck tables, instead of computing them again.
_SIZES = {option: [(2, 3, 4), (5, 7, 8, 9), (6,)] if option == "--decks 1" else
          [(2, 3, 4), (5,), (6,), (7, 8, 9)] for option in _SHOES}


def _span(sizes: tuple[int, ...]) -> str:
    """A test id's sizes: ``5``, ``2-4``, ``5,7-9``."""
    if len(sizes) > 1 and sizes[0] + 1 != sizes[1]:
        return f"{sizes[0]},{_span(sizes[1:])}"
    return str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"


def _ok(*args: str) -> str:
    code, out, err = _run(*args)
    assert code == 0, err
    return out


def _claims_only_the_infinite_deck(text: str) -> None:
    """Every line that says exact, regret or certified names the infinite deck it is
    about, or is a shipped epsilon-certificate's sentence saying it is not an equilibrium;
    nothing claims a zero regret."""
    for line in text.splitlines():
        epsilon = "shipped certificate" in line and "not an equilibrium there" in line
        assert not _CLAIM.search(line) or _INFINITE.search(line) or epsilon, line
    assert "regret 0" not in text and "regret is 0" not in text


def _percent(value: float) -> str:
    return f"{100 * value:.4f}%"


def _check_solve(people: int, shoe: str, options: tuple[str, ...], computed: bool) -> None:
    args = ("solve", "--players", str(people - 1), *options, "--no-costs")
    text, card = _ok(*args), _ok(*args, "--card")
    document = json.loads(_ok(*args, "--format", "json"))
    assert document["shoe"] == shoe
    seat_one = document["seats"][0]["value_float"]
    seat_line = next(line for line in text.splitlines()
                     if line.startswith(("seat 1 ", "Value for the player")))
    assert _percent(seat_one) in seat_line  # the text shows the JSON's value
    if people == 2:  # heads-up: solved and certified at every shoe
        assert document["solved_at"] == document["values_at"] == shoe
        assert document["certified"] is True and document["max_regret"] == "0"
        assert "certified equilibrium (zero regret)" in text
        return
    if computed:
        assert document["solved_at"] == document["values_at"] == shoe
        assert document["certified"] is True and document["exact"] is True
        assert document["max_regret"] == "0" and document["scope"] is None
        assert {s["regret"] for s in document["seats"]} == {"0"}
        if document.get("algebraic") is not None:  # 5 people at one deck by total
            _check_algebraic_solve(text, card, document, people)
            return
        assert "value (exact)" in text and "every side's exact regret is 0" in text
        assert "every side's exact regret is 0" in card
        if shoe != "infinite deck" and people > 3:  # a shipped certificate's strategies
            _agrees_with_its_certificate(document, people)
        return
    played = document["played_at_shoe"]
    if people <= MAX_AT_SHOE_PEOPLE:  # the infinite deck's play evaluated exactly there
        assert played["shoe"] == shoe and float(played["max_regret"]["float"]) > 0
        assert document["scope"].startswith("Solved and certified at the infinite deck")
        line = next(line for line in text.splitlines() if line.startswith("Played at"))
        assert f"Played at {shoe}" in line and played["max_regret"]["exact"] in line
        text = text.replace(line, "")
    else:
        assert played is None
    scope = ("Solved and certified at the infinite deck; no equilibrium is solved at "
             f"{shoe}" if people <= MAX_AT_SHOE_PEOPLE else
             f"Solved at the infinite deck; not evaluated at {shoe}")
    assert document["solved_at"] == document["values_at"] == "infinite deck"
    assert document["certified"] is False and document["exact"] is False
    assert document["max_regret"] is None and document["max_regret_float"] is None
    assert [s["regret"] for s in document["seats"]] == [None] * (people - 1)
    assert document["banker"]["regret"] is None and "exact" not in document["edge"]["total"]
    assert document["scope"].startswith(scope) and document["by"] == "total"
    for output in (text, card):
        # the answer is by total; only the sentence naming a shipped epsilon-certificate
        # (its own information model, not an equilibrium) may say "by cards"
        answer = "\n".join(line for line in output.splitlines()
                           if not ("shipped certificate" in line
                                   and "not an equilibrium there" in line))
        assert f"{document['scope']}." in output and "by cards" not in answer
        _claims_only_the_infinite_deck(output)


def _agrees_with_its_certificate(document: dict[str, Any], people: int) -> None:
    """solve evaluated the shipped by-cards certificate's strategies again exactly: the
    figures it prints are the file's (what ``check_certificate`` asserts; this is the
    five-person by-cards file's exact check in make test)."""
    by = document["by"]
    found = analyzer.choice.table.stored.certificate.read_certificate(  # the test's cache
        certificate_path("lucky9-home", people, Shoe.decks(1), by), LUCKY9, Shoe.decks(1),
        people, by)
    assert found.algebraic is None and document["certified"] is found.certified is True
    assert [Fraction(seat["value"]) for seat in document["seats"]] == list(found.seat_values)
    assert Fraction(document["banker"]["value"]) == found.bank_value
    assert Fraction(document["max_regret"]) == found.max_regret == 0


def _check_algebraic_solve(text: str, card: str, document: dict[str, Any], people: int) -> None:
    """5 people at one deck by total: certified through its certificate's algebraic block.
    Every value is the block's decimal (and its coefficients in QQ(alpha)), never a fraction;
    the irrational subgame's plays are shown rounded to 20 decimals and said to be."""
    assert people == 5 and document["by"] == "total" and document["exact"] is True
    found = analyzer.choice.table.stored.certificate.read_certificate(  # the test's cache
        certificate_path("lucky9-home", 5, Shoe.decks(1), "total"), LUCKY9, Shoe.decks(1), 5,
        "total")
    block = found.algebraic
    assert block is not None
    seats, banker = document["seats"], document["banker"]
    assert [s["value_decimal"] for s in seats] == list(block.seat_decimals)
    assert banker["value_decimal"] == block.bank_decimal == "0.013729430950"
    assert [s["value_in_qq_alpha"] for s in seats] == [
        [str(c) for c in v] for v in block.seat_values]
    assert {s["value"] for s in seats} == {banker["value"], banker["per_stake"]} == {None}
    assert document["algebraic"]["minimal_polynomial"] == [str(c) for c in block.field.minimal]
    assert "exact" not in document["edge"]["total"] and document["rules"] == []
    irrational = [g for g in document["subgames"] if g.get("in_qq_alpha")]
    assert [(g["live"], g["naturals_out"], g["certified"], g["max_regret"])
            for g in irrational] == [(2, [[4, 5], [4, 5]], True, "0")]
    for decimal, seat in zip(block.seat_decimals, range(1, 5), strict=True):
        assert re.search(rf"^seat {seat} +{re.escape(decimal)} ", text, re.MULTILINE)
        assert f"Seat {seat} (value {decimal} (algebraic)" in card
    for output in (text, card):
        assert "values are algebraic numbers, exact in QQ(alpha)" in output
        assert "the mixing rounded to 20 decimals, not its exact value" in output
        assert "value (exact)" not in output and "/100000000000000000000" not in output
    # the rounded plays: each 20 decimals, the same in the card and the JSON, and each
    # within half a unit in the 20th decimal of an exact unknown (the block's 12 digits)
    shown = set(re.findall(r"draw (0\.\d+) \(\d+\.\d%; rounded to 20 decimals\)", card))
    plans = [s["strategy"] for s in seats] + [banker["strategy"]]
    stated = {draw for plan in plans for situation in plan["situations"]
              for label, draw in situation["draw"].items()
              if label in situation.get("rounded", [])}
    assert shown == stated and len(shown) == len(block.unknowns) == 5
    assert all(len(d.split(".")[1]) == 20 for d in shown)
    assert {str(Decimal(d).quantize(Decimal("1e-12"), ROUND_HALF_EVEN)) for d in shown} == {
        u["decimal"] for u in found.algebraic_document["unknowns"]}


def _check_advise(people: int, shoe: str, options: tuple[str, ...], computed: bool) -> None:
    seat = ("advise", "--people", str(people), "--cards", "AH 4S",
            *(("--earlier", "stood") if people > 2 else ()), *options)
    choices = (["stood", "drew"] * 4)[:people - 1]
    naturals: tuple[str, ...] = ()
    if shoe == "1 deck" and people in (5, 6):  # the seat's answer covers the large subgame;
        # the bank's with two naturals out (2-3 live seats) takes seconds, not 10-13 s
        choices[-2:] = ["natural", "natural"]
        naturals = ("--naturals", f"{people - 2}=9K,{people - 1}=9Q")
    bank = ("advise", "--banker", "--cards", "AH 4S", "--choices", ",".join(choices),
            *naturals, *options)
    for args in (seat, bank):
        text = _ok(*args)
        document = json.loads(_ok(*args, "--format", "json"))
        assert document["shoe"] == shoe and document["certified"] is computed
        margin = abs(100 * document["margin_float"])
        assert f"better by {margin:.2f} points" in text if margin >= 0.005 else "better by" in text
        if not computed and people <= MAX_AT_SHOE_PEOPLE:  # exact margins at the shoe
            assert document["exact"] is True and document["values_at"] == shoe
            assert document["solved_at"] == "infinite deck" and document["by"] == "cards"
            assert f"exact at {shoe} against that play" in text
            assert f"At {shoe} against that play: " in text
            assert "regret" not in text
            assert "Not certified: no equilibrium is certified at" in text
            continue
        if shoe == "1 deck" and people == 6:  # the shipped epsilon-certificate's play
            _check_best_play(text, document, floats=args is seat)
            continue
        assert document["exact"] is computed
        if computed:
            assert document["solved_at"] == document["values_at"] == shoe
            assert text.rstrip().splitlines()[-1].startswith("Certified equilibrium")
            by = "total" if shoe == "infinite deck" else "cards"
            seen = "your total" if by == "total" else "your two cards"
            assert document["by"] == by and f"playing by {seen}." in text
            continue
        assert document["solved_at"] == document["values_at"] == "infinite deck"
        asked = "" if shoe == "infinite deck" else ", by total (asked: by cards)"
        assert text.startswith(f"Values at the infinite deck{asked}: ")
        assert document["by"] == "total" and "your two cards" not in text
        assert "these margins are the infinite deck's" in text
        _claims_only_the_infinite_deck(text)


def _check_best_play(text: str, document: dict[str, Any], floats: bool) -> None:
    """6 people at one deck by cards: the shipped certificate's play (not an equilibrium),
    its margins at one deck in floats (five live seats) with their bound or exact (three live
    seats), never "exact" (but in the sentence naming the certificate's own exact epsilon,
    and "exact at 1 deck against that play") nor "certified"."""
    assert document["certified"] is False and document["exact"] is not floats
    assert document["solved_at"] == document["values_at"] == "1 deck"
    assert document["by"] == "cards" and "playing by your two cards." in text
    assert document["play"].startswith("best play found at 1 deck (not an equilibrium: no "
                                       "side gains more than 4.2e-06")
    assert document["one_deck_certificate"]["certified"] is False
    first = text.splitlines()[0]
    assert first.startswith("The best play found at 1 deck (not an equilibrium")
    if not floats:
        assert document["evaluation"] == "exact" and document["error_bound"] is None
        assert "float" not in text and "regret 0" not in text and "Certified" not in text
        return
    assert document["evaluation"].startswith("float evaluation, error at most")
    assert 0 < document["error_bound_float"] < 1e-8
    assert "(float evaluation, error at most" in first
    for line in text.splitlines():
        if re.search(r"exact|regret|certif", line, re.IGNORECASE):
            assert ("shipped certificate" in line and "not an equilibrium there" in line
                    or line.startswith("Not certified: no equilibrium is certified at 1 deck"
                                       )), line
    assert "regret 0" not in text and "exact at" not in text and "Certified" not in text


def _computed(shoe: str, people: int) -> bool:
    """Solved and certified at the shoe: every size at the infinite deck, 2-3 people at any
    finite shoe, 4 and 5 people at one deck (the shipped certified certificates, by cards:
    what solve and advise play at a finite shoe by default; and by total, 4 people's in
    fractions, 5 people's through its algebraic block, both checked below)."""
    return shoe == "infinite deck" or people <= 3 or (shoe == "1 deck" and people in (4, 5))


@pytest.fixture
def tables_summarized_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within one test, a table asked for again with the same arguments (its text, card and
    JSON outputs; the sizes' rows) is summarized once, each certificate file read once and
    each advice (text and JSON) answered once: pure functions of their arguments, so every
    output is what a fresh call prints.
    Without it the five-person one-deck certificate was evaluated exactly five times."""
    summary, certificate = analyzer.choice.table.summary, analyzer.choice.table.stored.certificate
    # every finite-shoe subgame met in the test kept (the library's memo, asked first, keeps
    # the last 64; a by-size call builds the smaller tables' first, which pushed out the
    # 5-person one-deck table's 56 and with them its exact evaluation, remembered in each)
    monkeypatch.setattr(analyzer.choice.table.solve, "_finite",
                        functools.cache(analyzer.choice.table.solve._finite))
    summarize = functools.cache(summary.summarize_table)
    monkeypatch.setattr(summary, "summarize_table", summarize)  # by_size's calls
    monkeypatch.setattr(analyzer.cli.choice, "summarize_table", summarize)
    monkeypatch.setattr(certificate, "read_certificate",
                        functools.cache(certificate.read_certificate))
    for name in ("advise_seat", "advise_bank"):  # one answer for its text and its JSON
        monkeypatch.setattr(analyzer.cli.lucky9, name,
                            _answered_once(getattr(analyzer.cli.lucky9, name)))


def _answered_once(advise: Callable[..., Any]) -> Callable[..., Any]:
    """``advise`` called once per question: a call with the same arguments (``known``, the
    published strategies, a dict read from the same file each time, compared by value)
    returns the first call's answer."""
    answers: list[tuple[tuple[Any, ...], dict[str, Any], Any]] = []

    def answer(*args: Any, **kwargs: Any) -> Any:
        for asked, named, found in answers:
            if asked == args and named == kwargs:
                return found
        found = advise(*args, **kwargs)
        answers.append((args, kwargs, found))
        return found

    return answer


@pytest.mark.usefixtures("tables_summarized_once")
@pytest.mark.parametrize(("option", "sizes"), [
    pytest.param(option, sizes, id=f"{option}-{_span(sizes)}")
    for option, cases in _SIZES.items() for sizes in cases])
def test_no_output_claims_exact_values_at_a_shoe_they_were_not_computed_at(
        option: str, sizes: tuple[int, ...]) -> None:
    """Every table size 2-9 at every shoe option: solve (text, card, JSON), advise for a
    seat and the bank (text, JSON) and the edge by table size; 2-3 people at a finite shoe,
    4-5 at one deck and every size at the infinite deck are computed there (exact, certified),
    larger tables at a finite shoe are the infinite deck's equilibrium and say so. Split by
    shoe and size so that the test workers share it (5 and 6 people at one deck cost about
    20 s each: exact and float evaluations of the shipped certificates' subgames; the sizes
    in one test as :data:`_SIZES` says)."""
    shoe, options = _SHOES[option]
    for people in sizes:
        computed = _computed(shoe, people)
        _check_solve(people, shoe, options, computed)
        _check_advise(people, shoe, options, computed)
    if 9 in sizes:
        _check_sizes(shoe, options)


@pytest.mark.usefixtures("tables_summarized_once")
@pytest.mark.parametrize("people", [4, 5])
def test_the_one_deck_tables_by_total_are_the_shipped_certificates(people: int) -> None:
    """4 and 5 people at one deck by total: solve reports the shipped certified tables (5
    people through its algebraic block), text, card and JSON alike. Apart from the test above
    so that the two test workers share the 5-person tables (about 15 s of CPU each way)."""
    _check_solve(people, "1 deck", ("--decks", "1", "--by", "total"), True)


def _check_sizes(shoe: str, options: tuple[str, ...]) -> None:
    sizes = json.loads(_ok("solve", "--players", "8", "--by-size", *options, "--format",
                           "json"))["sizes"]
    text = _ok("solve", "--players", "8", "--by-size", *options)
    assert [row["people"] for row in sizes] == list(range(2, 10))
    for row in sizes:
        computed = _computed(shoe, row["people"])
        assert row["exact"] is row["certified"] is computed and row["shoe"] == shoe
        assert row["max_regret"] == ("0" if computed else None)
        assert row["solved_at"] == row["values_at"] == (shoe if computed else "infinite deck")
        assert ("exact" in row["total"]) is computed
        line = next(line for line in text.splitlines()
                    if line.split()[:2] == [str(row["people"]), str(row["people"] - 1)])
        assert line.endswith("yes" if computed else "no")
        assert ("not computed" in line) is not computed
    assert ("Solved at the infinite deck; not evaluated at" in text) is (shoe != "infinite deck")
