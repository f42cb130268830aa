"""Games of choices (home Lucky 9, chemin de fer): seeded sessions dealt and verified, every
rule's violation caught with exit 3, choices tested against declared strategies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analyzer.choice.play.table_log import deal_table, table_people
from analyzer.rules.profile import load_profile
from analyzer.verify.table import verify_table_logs
from analyzer.verify.verdict import EXIT_INPUT, EXIT_PASS, EXIT_STATISTICS, EXIT_VIOLATIONS
from tests.verify.conftest import cli

MIXED = 'default = "stand"\n[draw]\n"0-3" = "draw"\n"4" = "1/2"\n"5" = "1/4"\n'


def deal(path: Path, profile: str, people: int, hands: int, seed: int,
         player: tuple[str, ...] = ()) -> None:
    with path.open("w", encoding="utf-8") as stream:
        rules = load_profile(profile)
        deal_table(rules, table_people(rules.choice_rules(), people, player, ()), hands, seed,
                   stream)


@pytest.fixture(scope="module")
def lucky9(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("table") / "lucky9.jsonl"
    deal(path, "lucky9-home", 4, 200, 3)
    return path


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def rewrite(path: Path, rows: list[dict[str, Any]], name: str) -> Path:
    out = path.parent / name
    out.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return out


def test_a_correct_session_passes_with_and_without_strategies(lucky9: Path,
                                                              tmp_path: Path) -> None:
    rows = records(lucky9)
    assert rows[0]["people"] == ["A", "B", "C", "D"]
    hands = [r for r in rows if r.get("type") == "table"]
    assert [h["banker"] for h in hands[:5]] == ["A", "B", "C", "D", "A"]  # the bank rotates
    assert [s["person"] for s in hands[1]["seats"]] == ["C", "D", "A"]
    verdict = verify_table_logs([str(lucky9)], "lucky9-home", player="house", banker="house")
    assert verdict.exit_code == EXIT_PASS, (verdict.violations[:3], verdict.failed_tests)
    assert verdict.hands == 200 and {t.name for t in verdict.tests} == {
        "naturals", "card point values", "player choices", "bank choices"}
    code, out, _ = cli("verify", str(lucky9), "--profile", "lucky9")
    assert code == EXIT_PASS and "best-response check (at the infinite deck, by total" in out
    assert "a player could gain" in out
    chemmy = tmp_path / "chemmy.jsonl"
    deal(chemmy, "chemin-de-fer", 2, 200, 8)
    verdict = verify_table_logs([str(chemmy)], "chemin-de-fer", player="house",
                                banker="house")
    assert verdict.exit_code == EXIT_PASS and verdict.violation_count == 0
    code, out, err = cli("simulate", "--profile", "chemin-de-fer", "--shoes", "3", "--seed",
                         "1", "--log-format", "csv")
    assert code == EXIT_INPUT and "JSON Lines" in err


def change_hand(rows: list[dict[str, Any]], test: Any, edit: Any) -> list[dict[str, Any]]:
    """Apply ``edit`` to the first table hand passing ``test``."""
    rows = json.loads(json.dumps(rows))
    hand = next(r for r in rows if r.get("type") == "table" and test(r))
    edit(hand)
    return rows


def _third(hand: dict[str, Any]) -> None:
    hand["seats"][0]["cards"].append("2C")


CASES = [
    ("player takes two cards", lambda h: len(h["seats"][0]["cards"]) == 3,
     lambda h: h["seats"][0]["cards"].append("2C"), "card-count", "holds 4 cards"),
    ("bank draws twice", lambda h: len(h["bank"]) == 3, lambda h: h["bank"].append("2C"),
     "card-count", "the bank holds 4 cards"),
    ("a natural draws", lambda h: h["seats"][0]["cards"][:2] == ["TH", "9S"] or (
        sum(min(10, "A23456789TJQK".index(c[0]) + 1) % 10 for c in h["seats"][0]["cards"][:2])
        % 10 == 9 and len(h["seats"][0]["cards"]) == 2),
     _third, "natural-draw", "drew on its own natural"),
    ("wrong payout", lambda h: h["seats"][0]["returned"] == 200,
     lambda h: h["seats"][0].update(returned=190), "payout", "returned 190, owed 200"),
    ("bank does not rotate", lambda h: h["hand"] == 2,
     lambda h: h.update(banker="A", seats=[{**s, "person": p} for s, p in
                                           zip(h["seats"], ["B", "C", "D"], strict=True)]),
     "rotation", "the bank passes to the right"),
    ("seats out of order", lambda h: h["hand"] == 3,
     lambda h: h["seats"].reverse(), "seating", "players sit from the banker's right"),
    ("a card twice in one deck", lambda h: True,
     lambda h: h["bank"].__setitem__(0, h["seats"][0]["cards"][0]), "composition",
     "appears more often in shoe"),
]


@pytest.mark.parametrize(("name", "test", "edit", "kind", "needle"), CASES,
                         ids=[c[0] for c in CASES])
def test_every_rule_broken_exits_3(lucky9: Path, name: str, test: Any, edit: Any, kind: str,
                                   needle: str) -> None:
    bad = rewrite(lucky9, change_hand(records(lucky9), test, edit), "bad.jsonl")
    code, out, err = cli("verify", str(bad), "--profile", "lucky9-home", "--player", "house",
                         "--banker", "house", "--format", "json")
    report = json.loads(out)
    assert code == EXIT_VIOLATIONS, (name, report["violations"], err)
    assert any(v["kind"] == kind and needle in v["message"]
               for v in report["violations"]["listed"]), report["violations"]["listed"]


def test_chemin_de_fer_forced_draws_and_the_third_card_the_bank_sees(tmp_path: Path) -> None:
    chemmy = tmp_path / "chemmy.jsonl"
    deal(chemmy, "chemin-de-fer", 2, 100, 2)
    rows = records(chemmy)
    low = change_hand(rows, lambda h: len(h["seats"][0]["cards"]) == 3 and sum(
        min(10, "A23456789TJQK".index(c[0]) + 1) % 10 for c in h["seats"][0]["cards"][:2])
        % 10 <= 4 and len(h["bank"]) == 2, lambda h: h["seats"][0]["cards"].pop())
    bad = rewrite(chemmy, low, "stood.jsonl")
    verdict = verify_table_logs([str(bad)], "chemin-de-fer")
    kinds = dict(verdict.violation_kinds)
    assert verdict.exit_code == EXIT_VIOLATIONS and kinds.get("player-draw") == 1


def test_choices_are_tested_against_the_declared_strategies(tmp_path: Path) -> None:
    strategy = tmp_path / "mixed.toml"
    strategy.write_text(MIXED, encoding="utf-8")
    log = tmp_path / "mixed.jsonl"
    deal(log, "lucky9-home", 3, 400, 5, (str(strategy),))
    right = verify_table_logs([str(log)], "lucky9-home", player=str(strategy), banker="house")
    assert right.exit_code == EXIT_PASS, right.failed_tests
    (choices,) = [t for t in right.tests if t.name == "player choices"]
    assert choices.df == 2  # totals 4 and 5 are mixed
    other = tmp_path / "other.toml"
    other.write_text(MIXED.replace('"5" = "1/4"', '"5" = "3/4"'), encoding="utf-8")
    wrong = verify_table_logs([str(log)], "lucky9-home", player=str(other), banker="house")
    assert wrong.exit_code == EXIT_STATISTICS
    assert [t.name for t in wrong.failed_tests] == ["player choices"]


def test_a_log_for_another_game_or_of_coups_is_refused(lucky9: Path, tmp_path: Path,
                                                       clean_log: Path) -> None:
    code, _, err = cli("verify", str(lucky9), "--profile", "chemin-de-fer")
    assert code == EXIT_INPUT and "header says profile 'lucky9-home'" in err
    code, out, _ = cli("verify", str(clean_log), "--profile", "lucky9-home")
    assert code == EXIT_INPUT
    code, _, err = cli("verify", str(clean_log), "--player", "house")
    assert code == EXIT_INPUT and "fixed tableau" in err


def test_the_equilibrium_and_the_results_against_their_exact_expectation(
        tmp_path: Path) -> None:
    log = tmp_path / "equilibrium.jsonl"
    code, _, err = cli("simulate", "--profile", "lucky9-home", "--people", "3", "--shoes",
                       "300", "--seed", "9", "--player", "equilibrium", "--banker",
                       "equilibrium", "--out", str(log))
    assert code == 0, err
    verdict = verify_table_logs([str(log)], "lucky9-home", player="equilibrium",
                                banker="equilibrium")
    assert verdict.exit_code == EXIT_PASS, verdict.failed_tests
    # strategies that read the table (contexts) have an exact expectation too
    (results,) = [t for t in verdict.tests if t.name == "players' results"]
    assert "exact expectation" in results.method and results.p_value > 0.001
    heads_up = tmp_path / "heads-up.jsonl"
    deal(heads_up, "lucky9-home", 2, 400, 4)
    verdict = verify_table_logs([str(heads_up)], "lucky9-home", player="house",
                                banker="house")
    (results,) = [t for t in verdict.tests if t.name == "players' results"]
    assert verdict.exit_code == EXIT_PASS and "exact expectation" in results.method
    code, _, err = cli("verify", str(heads_up), "--profile", "chemin-de-fer", "--player",
                       "equilibrium")
    assert code == EXIT_INPUT
