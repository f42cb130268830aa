"""``nine certify``: a shipped certificate checked again (PASS, certified); bad input and an
existing file it did not write refused in one line, exit 2, nothing written."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.choice.table.stored.certificate import certificate_path
from analyzer.cli import certify
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe


def _one_line_error(result: object) -> str:
    output = result.output  # type: ignore[attr-defined]
    assert result.exit_code == 2, output  # type: ignore[attr-defined]
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in output, output
    return str(lines[0])


def test_check_passes_a_shipped_certificate_exactly() -> None:
    path = certificate_path("lucky9-home", 4, Shoe.decks(1), "total")
    result = CliRunner().invoke(main, ["certify", "--check", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{path}: PASS, 4 people, 1 deck, by total: certified (every exact regret 0)" in (
        result.output)


def test_a_file_that_is_not_a_certificate_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"kind": "something else"}))
    line = _one_line_error(CliRunner().invoke(main, ["certify", "--check", str(path)]))
    assert "other.json: not a certificate" in line


def test_a_certificate_of_another_profile_is_one_line(tmp_path: Path) -> None:
    shipped = certificate_path("lucky9-home", 4, Shoe.decks(1), "total")
    line = _one_line_error(CliRunner().invoke(main, ["certify", "--profile", "lucky9-bank-ties",
                                                     "--check", str(shipped)]))
    assert "written for profile 'lucky9-home', the rules of 'lucky9-bank-ties'" in line


def test_a_file_it_did_not_write_is_not_overwritten(tmp_path: Path) -> None:
    mine = tmp_path / "lucky9-home-4-people-1-deck-by-total.json"
    mine.write_text("my notes\n")
    line = _one_line_error(CliRunner().invoke(main, ["certify", "--people", "4", "--by", "total",
                                                     "--out", str(tmp_path)]))
    assert "exists and is not a certificate; not overwritten" in line
    assert mine.read_text() == "my notes\n"


def test_no_table_size_is_one_line() -> None:
    line = _one_line_error(CliRunner().invoke(main, ["certify"]))
    assert "--people" in line


@pytest.fixture(scope="module")
def listing() -> tuple[str, str]:
    """``nine certify --list`` as text and JSON, run once for the tests that read it (every
    shipped file read and its algebraic block verified: a few seconds each time)."""
    text = CliRunner().invoke(main, ["certify", "--list"])
    assert text.exit_code == 0, text.output
    document = CliRunner().invoke(main, ["certify", "--list", "--format", "json"])
    assert document.exit_code == 0, document.output
    return text.output, document.output


def test_the_list_names_every_shipped_certificate_with_its_status(
        listing: tuple[str, str]) -> None:
    listed = {(c["people"], c["by"]): c for c in json.loads(listing[1])["certificates"]}
    assert listed[(4, "total")]["certified"] is True and listed[(4, "total")]["max_regret"] == "0"
    for entry in listed.values():
        path = certificate_path("lucky9-home", entry["people"], Shoe.decks(1), entry["by"])
        document = json.loads(path.read_text())
        assert entry["max_regret"] == document["max_regret"]
        assert entry["certified"] == document["certified"] == (entry["max_regret"] == "0")


def test_advise_at_six_people_one_deck_names_the_shipped_epsilon_never_regret_0() -> None:
    path = certificate_path("lucky9-home", 6, Shoe.decks(1), "total")
    document = json.loads(path.read_text())
    # two naturals out leave three live seats: the play's values exact, in a second (the
    # float path of five live seats is the label test's, tests/cli/test_choice.py)
    args = ["advise", "--people", "6", "--decks", "1", "--by", "total", "--seat", "2",
            "--cards", "A 4", "--earlier", "stood", "--naturals", "4=9K,5=9Q"]
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    advice = json.loads(result.output)
    shipped = advice["one_deck_certificate"]
    assert advice["certified"] is False and shipped["certified"] is False
    assert shipped["max_regret"] == document["max_regret"] != "0"
    assert shipped["solved_at"] == "1 deck" and shipped["file"] == path.name
    text = CliRunner().invoke(main, args).output
    assert f"no side gains more than {float(document['epsilon']):.3g} of a stake" in text
    assert "regret 0" not in text and "(exact)" not in text and "Certified" not in text


def test_a_work_folder_it_did_not_make_is_one_line_and_untouched(tmp_path: Path) -> None:
    work = tmp_path / "lucky9-home-6-people-1-deck-by-total.work"
    work.mkdir()
    (work / "plan.txt").write_text("mine\n")
    line = _one_line_error(CliRunner().invoke(main, ["certify", "--people", "6", "--by",
                                                     "total", "--out", str(tmp_path)]))
    assert "by-total.work: exists and is not a nine certify work folder" in line
    assert [p.name for p in work.iterdir()] == ["plan.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [work.name]


def test_floats_where_a_table_is_solved_exactly_or_in_the_joint_tables_is_one_line(
        tmp_path: Path) -> None:
    exact = CliRunner().invoke(main, ["certify", "--people", "4", "--by", "total",
                                      "--float-from", "3", "--out", str(tmp_path)])
    assert "--float-from: 4 people are solved exactly" in _one_line_error(exact)
    joint = CliRunner().invoke(main, ["certify", "--people", "4", "--by", "total",
                                      "--infinite-play", "--float-from", "2",
                                      "--out", str(tmp_path)])
    assert "--float-from 2: subgames of up to 2 live seats" in _one_line_error(joint)
    assert not list(tmp_path.glob("*.json"))


def test_no_iterations_at_six_people_is_the_infinite_play_never_the_exact_solver(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--iterations 0`` from 6 people evaluates the infinite deck's play as it is (the help
    says so): it must reach the wide evaluator with no iterations, floats from 8 people, and
    never the exact solver (hours at 8 people)."""
    calls: list[tuple[int, int, int | None]] = []

    def wide(rules: object, shoe: object, players: int, by: str, **options: object) -> None:
        calls.append((players, int(options["iterations"]),  # type: ignore[call-overload]
                      options["float_from"]))  # type: ignore[arg-type]
        raise AnalyzerError("stopped by the test")

    def exact(*arguments: object, **options: object) -> None:
        raise AssertionError("the exact solver was called")

    monkeypatch.setattr(certify, "wide_table", wide)
    monkeypatch.setattr(certify, "solve_table", exact)
    for people, floats in ((6, None), (8, 6)):
        line = _one_line_error(CliRunner().invoke(main, [
            "certify", "--people", str(people), "--by", "total", "--iterations", "0",
            "--out", str(tmp_path)]))
        assert "stopped by the test" in line
        assert calls[-1] == (people - 1, 0, floats)
    assert list(tmp_path.iterdir()) == []


def test_the_list_says_the_five_person_table_by_total_is_certified_with_an_irrational_subgame(
        listing: tuple[str, str]) -> None:
    text, document = listing
    row = next(line for line in text.splitlines() if line.startswith("5         total"))
    assert ("certified (every exact regret 0; one subgame's equilibrium irrational: 2 live "
            "seats, naturals 4+5 and 4+5 out, mixing at roots of an irreducible quartic, exact "
            "in QQ(alpha))  1.3729%") in row
    assert "its bank figure is their decimal, not a fraction" in text
    listed = json.loads(document)["certificates"]
    entry = next(c for c in listed if (c["people"], c["by"]) == (5, "total"))
    assert entry["certified"] is True and entry["max_regret"] == "0"
    # never a rounded bank value stated as an exact fraction
    assert entry["bank"] is None and entry["bank_decimal"] == "0.013729430950"
    assert len(entry["bank_in_qq_alpha"]) == 4 and entry["alpha_minimal_polynomial"][-1] == "1"


def test_a_bank_reply_pass_reaches_the_wide_evaluator_with_its_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bank-reply 3/4`` at 9 people: the wide evaluator gets the step as a fraction (no
    CFR+ asked for), floats from 6 live seats by default."""
    calls: list[tuple[object, object]] = []

    def wide(rules: object, shoe: object, players: int, by: str, **options: object) -> None:
        calls.append((options["bank_step"], options["float_from"]))
        raise AnalyzerError("stopped by the test")

    monkeypatch.setattr(certify, "wide_table", wide)
    line = _one_line_error(CliRunner().invoke(main, [
        "certify", "--people", "9", "--by", "total", "--bank-reply", "3/4",
        "--out", str(tmp_path)]))
    assert "stopped by the test" in line
    assert calls == [(Fraction(3, 4), 6)]


@pytest.mark.parametrize(("options", "said"), [
    (["--people", "9", "--bank-reply", "3/4", "--iterations", "10"],
     "--bank-reply replaces CFR+: give it without --iterations"),
    (["--people", "9", "--bank-reply", "1/2", "--infinite-play"],
     "--bank-reply replaces CFR+: give it without --infinite-play"),
    (["--people", "9", "--bank-reply", "5/4"], "--bank-reply 5/4: a step above 0 and at most 1"),
    (["--people", "9", "--bank-reply", "0"], "--bank-reply 0: a step above 0 and at most 1"),
    (["--people", "9", "--bank-reply", "most"], "--bank-reply most: not a fraction (e.g. 3/4)"),
    (["--people", "5", "--bank-reply", "1/2"], "--bank-reply: 5 people are solved exactly"),
])
def test_a_bank_reply_it_cannot_take_is_one_line(options: list[str], said: str,
                                                 tmp_path: Path) -> None:
    line = _one_line_error(CliRunner().invoke(main, [
        "certify", "--by", "total", *options, "--out", str(tmp_path)]))
    assert said in line
    assert list(tmp_path.iterdir()) == []
