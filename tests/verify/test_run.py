"""nine verify: replay catches each injected fault, statistics hold their alpha, input errors."""

from __future__ import annotations

import io
import json
import math
import xml.etree.ElementTree as ET
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.dealing.handlog import LogOptions
from analyzer.dealing.simulate import SimulationSummary, simulate
from analyzer.engine.lookup import build_model
from analyzer.rules.profile import load_profile
from analyzer.verify.run import (
    EXIT_INPUT,
    EXIT_PASS,
    EXIT_STATISTICS,
    EXIT_UNDERPOWERED,
    EXIT_VIOLATIONS,
    BetTally,
    Partial,
    check_file,
    finish,
    hands_needed,
    merge,
    replay_rules,
    verify_logs,
)
from tests.conftest import brute_force_deal


def write_log(path: Path, shoes: int, seed: int, decks: int = 8,
              faults: tuple[str, ...] = (), fmt: str = "jsonl") -> SimulationSummary:
    with path.open("w", encoding="utf-8", newline="") as stream:
        return simulate("punto-banco", decks=decks, shoes=shoes, seed=seed, out=stream,
                        fmt=fmt, faults=faults)


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def clean_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "clean.jsonl"
    write_log(path, shoes=12, seed=2024)
    return path


def test_replay_rules_agree_with_the_written_rules() -> None:
    check = replay_rules(load_profile("punto-banco").tableau)  # type: ignore[arg-type]
    for first in product(range(10), repeat=4):
        for thirds in ((1, 6), (7, 2)):
            winner, _, _, used = brute_force_deal((*first, *thirds))
            values = (*first, *thirds)[:used]
            player = (values[0], values[2], *values[4:5]) if used > 4 and (
                first[0] + first[2]) % 10 <= 5 else (values[0], values[2])
            banker = (values[1], values[3], *values[4 + len(player) - 2:used])
            assert check(player, banker) is None
            if used == 4:  # a third card on a hand that must stand is a violation
                assert check(player, (*banker, 5)) is not None
            else:  # and a missing third card too
                assert check(player, banker[:2]) is not None or check(
                    player[:2], banker) is not None


def test_the_simulators_own_logs_pass(clean_log: Path, tmp_path: Path) -> None:
    code, out, _ = cli("verify", str(clean_log))
    assert code == EXIT_PASS, out
    assert "PASS (exit 0)" in out and "shoe model" in out
    verdict = verify_logs([str(clean_log)], model_name="independent")
    assert verdict.exit_code == EXIT_PASS and verdict.model == "independent"
    assert verdict.violation_count == 0 and verdict.malformed_count == 0
    assert all(t.passed for t in verdict.tests)
    as_csv = tmp_path / "clean.csv"
    write_log(as_csv, shoes=12, seed=2024, fmt="csv")
    same = verify_logs([str(as_csv)])
    shoe_aware = verify_logs([str(clean_log)])
    assert same.hands == shoe_aware.hands == verdict.hands
    assert [t.statistic for t in same.tests] == pytest.approx(
        [t.statistic for t in shoe_aware.tests])


@pytest.mark.parametrize(("fault", "kind"), [
    ("banker-stands", "banker-draw"),
    ("natural-draw", "natural-draw"),
    ("wrong-payout", "payout"),
    ("commission", "payout"),
])
def test_injected_faults_are_caught_with_their_hand_numbers(tmp_path: Path, fault: str,
                                                            kind: str) -> None:
    path = tmp_path / "faulty.jsonl"
    summary = write_log(path, shoes=3, seed=99, faults=(fault,))
    assert summary.faulted
    verdict = verify_logs([str(path)], model_name="independent")
    assert verdict.exit_code == EXIT_VIOLATIONS
    assert dict(verdict.violation_kinds) == {kind: len(summary.faulted)}
    listed = [(v.shoe, v.hand) for v in verdict.violations]
    assert listed == list(summary.faulted[:100])
    if fault == "commission":
        assert "returned 190, the paytable returns 195 (Banker wins)" in \
            verdict.violations[0].message
    code, out, _ = cli("verify", str(path), "--format", "json")
    document = json.loads(out)
    assert code == EXIT_VIOLATIONS and document["violations"]["count"] == len(summary.faulted)


def test_a_shoe_missing_a_rank_fails_the_statistics(tmp_path: Path) -> None:
    path = tmp_path / "no-sevens.jsonl"
    write_log(path, shoes=4, seed=8, faults=("missing-rank",))
    for model in ("shoe", "independent"):
        verdict = verify_logs([str(path)], model_name=model)
        assert verdict.exit_code == EXIT_STATISTICS, model
        failed = {t.name for t in verdict.failed_tests}
        assert failed & {"card ranks", "card point values"}


def test_malformed_logs_give_clear_errors(clean_log: Path, tmp_path: Path) -> None:
    lines = clean_log.read_text(encoding="utf-8").splitlines()
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text("\n".join(lines[:40] + [lines[40][:25]]) + "\n", encoding="utf-8")
    verdict = verify_logs([str(truncated)])
    assert verdict.exit_code == EXIT_INPUT and verdict.malformed_count == 1
    assert verdict.malformed[0].line == 41
    assert "truncated or invalid JSON" in verdict.malformed[0].message
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text("\n".join(lines[:5] + [lines[5].replace('"', '"Z', 1)
                                              .replace('"Zshoe"', '"shoe"')
                                              .replace('["', '["Zq', 1)]) + "\n",
                       encoding="utf-8")
    code, out, _ = cli("verify", str(unknown))
    assert code == EXIT_INPUT and ":6" in out and "unknown card 'Zq" in out
    # one deck: the same card twice in a shoe is more than the shoe holds
    one_deck = tmp_path / "one-deck.jsonl"
    one_deck.write_text(
        '{"shoe": "1", "hand": 1, "player": ["As", "2c"], "banker": ["3d", "Kh"]}\n'
        '{"shoe": "1", "hand": 2, "player": ["As", "5c"], "banker": ["Td", "Jh"]}\n',
        encoding="utf-8")
    verdict = verify_logs([str(one_deck)], decks=1)
    assert verdict.exit_code == EXIT_INPUT
    assert verdict.malformed[0].line == 2 and verdict.malformed[0].kind == "composition"
    assert "card AS appears 2 times in shoe 1, more than 1 deck(s) hold" in \
        verdict.malformed[0].message
    missing = tmp_path / "missing.csv"
    missing.write_text("shoe,round,player_cards,winner\n1,1,9d Td,P\n", encoding="utf-8")
    code, _, err = cli("verify", str(missing))
    assert code == EXIT_INPUT and "missing column 'banker_cards'" in err
    code, _, err = cli("verify", str(tmp_path / "nothing-*.csv"))
    assert code == EXIT_INPUT and "no file matches" in err


def test_false_alarm_rate_stays_within_alpha() -> None:
    """Null samples from the exact distribution: Holm-adjusted rejections <= alpha."""
    model = build_model("punto-banco", 8)
    from analyzer.engine.odds import odds

    table = odds(model.profile, model.shoe)
    probabilities = [[float(b.lose_probability), *(float(x.probability) for x in b.lines)]
                     for b in table.bets]
    rng = np.random.default_rng(7)
    runs, alarms = 400, {0.01: 0, 0.05: 0}
    hands = 20_000
    for _ in range(runs):
        coups = rng.multinomial(hands, [probabilities[1][1], probabilities[0][1],
                                        probabilities[2][1]])  # player, banker, tie wins
        player, banker, tie = (int(x) for x in coups)
        bets = (BetTally("banker", (player, banker, tie)),
                BetTally("player", (banker, player, tie)),
                BetTally("tie", (player + banker, tie)))
        partial = Partial("punto-banco", 8, "independent", ("null",), hands, 0, 0, 0, 0, (),
                          0, (), (), bets, (), counts_only=True)
        for alpha in alarms:
            alarms[alpha] += finish(partial, model, alpha).exit_code == EXIT_STATISTICS
    for alpha, count in alarms.items():
        assert count / runs <= alpha, (alpha, count)


def false_alarm_bound(runs: int, alpha: float, level: float = 0.001) -> int:
    """The most alarms ``runs`` null runs may raise at ``alpha`` before a one-sided binomial
    test rejects "the false-alarm rate is at most alpha" at ``level``."""
    from scipy.stats import binom

    return int(binom.ppf(1 - level, runs, alpha))


def test_seeded_simulator_logs_raise_no_false_alarms(tmp_path: Path) -> None:
    """The simulator's own logs (shoe-aware, the default model) alarm no more often than
    alpha allows: each run's sums are collected once and judged at three alphas."""
    from analyzer.verify.run import collect

    runs = 100
    alarms = {0.01: 0, 0.05: 0, 0.10: 0}
    for seed in range(runs):
        path = tmp_path / f"null-{seed}.jsonl"
        write_log(path, shoes=2, seed=1000 + seed)
        partial, model = collect([str(path)])
        assert partial.model == "shoe"
        for alpha in alarms:
            code = finish(partial, model, alpha).exit_code
            assert code in (EXIT_PASS, EXIT_STATISTICS), (seed, alpha, code)
            alarms[alpha] += code == EXIT_STATISTICS
    for alpha, count in alarms.items():
        assert count <= false_alarm_bound(runs, alpha), (alpha, count, alarms)
    assert false_alarm_bound(runs, 0.01) <= 5  # the bound is tight enough to mean something


def test_partial_results_merge_exactly_and_in_parallel(clean_log: Path, tmp_path: Path) -> None:
    lines = clean_log.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if '"type":"shoe"' in line and i > 10)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    model = build_model("punto-banco", 8)
    whole = check_file(clean_log, model, LogOptions())
    merged = merge([check_file(first, model), check_file(second, model)])
    assert merged.bets == whole.bets and merged.card_counts == whole.card_counts
    assert merged.hands == whole.hands
    serial = verify_logs([str(first), str(second)], model_name="shoe")
    parallel = verify_logs([str(first), str(second)], model_name="shoe", jobs=2)
    assert [t.statistic for t in serial.tests] == [t.statistic for t in parallel.tests]
    code, out, _ = cli("verify", str(tmp_path / "[ab].jsonl"), "--jobs", "2",
                       "--format", "markdown")
    assert code == EXIT_PASS and f"{whole.hands:,} hands" in out and "| bet" in out


def test_counts_input_reports_what_it_cannot_check(tmp_path: Path) -> None:
    path = tmp_path / "totals.json"
    path.write_text(json.dumps({"format": "nine-counts", "profile": "punto-banco",
                                "hands": 100_000, "bets": {
                                    "banker": {"results": {"Banker wins": 45_860,
                                                           "Tie (push)": 9_516,
                                                           "lose": 44_624}},
                                    "tie": {"results": {"Tie": 9_516, "lose": 90_484},
                                            "stake": 10_000_000, "staked_hands": 100_000,
                                            "returned": 8_564_400}}}), encoding="utf-8")
    verdict = verify_logs([str(path)])
    assert verdict.exit_code == EXIT_PASS
    assert any("replay" in item for item in verdict.unsupported)
    tie = next(b for b in verdict.bets if b.id == "tie")
    assert tie.basis == "logged stakes" and tie.rtp == pytest.approx(0.85644)


def test_power_junit_and_hands_needed(clean_log: Path, tmp_path: Path) -> None:
    junit = tmp_path / "report.xml"
    code, _, _ = cli("verify", str(clean_log), "--require-power", "--junit", str(junit))
    assert code == EXIT_UNDERPOWERED
    suite = ET.parse(junit).getroot()
    assert suite.get("failures") == "3"
    names = [case.get("name") for case in suite]
    assert "replay" in names and "tie: power" in names
    needed = hands_needed("punto-banco", 8)
    assert needed["tie"] > needed["banker"] > 10_000_000
    # Player: SD**2 = P(no tie) - EV**2 = 0.9048440 - 0.0123508**2 (8 decks, nine odds)
    sd = math.sqrt(0.9048440 - 0.0123508**2)
    z = 2.5758293035489004 + 0.8416212335729143  # alpha 0.01 two-sided, power 0.8
    assert needed["player"] == pytest.approx((z * sd / 0.001) ** 2, rel=1e-5)


def test_report_formats(clean_log: Path) -> None:
    code, out, _ = cli("verify", str(clean_log), "--format", "json", "--alpha", "0.05")
    document = json.loads(out)
    assert code == EXIT_PASS and document["status"] == "pass" and document["alpha"] == 0.05
    assert {t["name"] for t in document["tests"]} >= {"result frequencies", "return to player",
                                                       "card ranks", "suits"}
    assert document["bets"][0]["results"][0]["observed"] >= 0
    buffer = io.StringIO()
    buffer.write(out)
    code, _, err = cli("verify", str(clean_log), "--alpha", "2")
    assert code == EXIT_INPUT and "--alpha" in err


def test_saved_partials_combine_runs_from_different_machines(clean_log: Path,
                                                              tmp_path: Path) -> None:
    lines = clean_log.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if '"type":"shoe"' in line and i > 10)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    for log in (first, second):
        code, _, _ = cli("verify", str(log), "--partial-out", str(log.with_suffix(".json")))
        assert code in (EXIT_PASS, EXIT_STATISTICS)
    combined = verify_logs([str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    direct = verify_logs([str(clean_log)])
    assert combined.model == direct.model == "shoe"
    assert combined.hands == direct.hands
    assert [t.statistic for t in combined.tests] == pytest.approx(
        [t.statistic for t in direct.tests], rel=1e-9)
    assert [b.rtp for b in combined.bets] == [b.rtp for b in direct.bets]


def test_a_local_dask_cluster_gives_the_same_sums(clean_log: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    lines = clean_log.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if '"type":"shoe"' in line and i > 10)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        on_dask = verify_logs([str(first), str(second)], model_name="independent",
                              dask=cluster.scheduler_address)
    direct = verify_logs([str(first), str(second)], model_name="independent")
    assert on_dask.hands == direct.hands
    assert [t.statistic for t in on_dask.tests] == [t.statistic for t in direct.tests]


# -- review fixes: shoes without ids, odd field types, zero stakes, counts, rounding, power -----
def csv_rows(path: Path) -> list[list[str]]:
    import csv

    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.reader(stream))


def write_rows(path: Path, rows: list[list[str]]) -> None:
    import csv

    with path.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, lineterminator="\n").writerows(rows)


def drop_columns(rows: list[list[str]], *names: str) -> list[list[str]]:
    keep = [i for i, name in enumerate(rows[0]) if name not in names]
    return [[row[i] for i in keep] for row in rows]


@pytest.fixture(scope="module")
def clean_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("csv") / "clean.csv"
    write_log(path, shoes=8, seed=77, fmt="csv")
    return path


@pytest.mark.parametrize("model", ["independent", "shoe"])
def test_a_csv_log_without_shoe_ids_opens_a_shoe_at_hand_one(clean_csv: Path, tmp_path: Path,
                                                              model: str) -> None:
    no_shoe = tmp_path / "no-shoe.csv"
    write_rows(no_shoe, drop_columns(csv_rows(clean_csv), "shoe"))
    with_ids = verify_logs([str(clean_csv)], model_name=model)
    verdict = verify_logs([str(no_shoe)], model_name=model)
    assert verdict.malformed_count == 0, verdict.malformed[:3]
    assert verdict.exit_code == with_ids.exit_code == EXIT_PASS
    assert (verdict.shoes, verdict.whole_shoes, verdict.hands) == (8, 8, with_ids.hands)
    assert [t.statistic for t in verdict.tests] == pytest.approx(
        [t.statistic for t in with_ids.tests])
    # hand numbers running on across shoes: the burn entry on each shoe's first hand opens it
    rows = drop_columns(csv_rows(clean_csv), "shoe")
    for number, row in enumerate(rows[1:], start=1):
        row[0] = str(number)
    running = tmp_path / "running.csv"
    write_rows(running, rows)
    verdict = verify_logs([str(running)], model_name=model)
    assert verdict.malformed_count == 0 and verdict.shoes == 8
    assert verdict.exit_code == EXIT_PASS


def test_shoes_that_cannot_be_told_apart_skip_the_composition_check(clean_csv: Path,
                                                                     tmp_path: Path) -> None:
    rows = drop_columns(csv_rows(clean_csv), "shoe", "burn")
    for number, row in enumerate(rows[1:], start=1):
        row[0] = str(number)
    blind = tmp_path / "blind.csv"
    write_rows(blind, rows)
    verdict = verify_logs([str(blind)], model_name="independent")
    assert verdict.malformed_count == 0 and verdict.exit_code == EXIT_PASS
    assert any("could not be told apart" in note for note in verdict.notes)
    code, out, _ = cli("verify", str(blind), "--model", "independent")
    assert code == EXIT_PASS and "could not be told apart" in out
    # a real shoe without an id that holds too many of a card is still caught
    one_deck = tmp_path / "one-deck.csv"
    one_deck.write_text("hand,player_cards,banker_cards\n1,As 2c,3d Kh\n2,As 5c,Td Jh\n",
                        encoding="utf-8")
    for model in ("independent", "shoe"):
        verdict = verify_logs([str(one_deck)], decks=1, model_name=model)
        assert verdict.exit_code == EXIT_INPUT, model
        assert [i.kind for i in verdict.malformed] == ["composition"]


def test_jsonl_fields_of_the_wrong_type_are_malformed_records(tmp_path: Path) -> None:
    good = {"shoe": "1", "hand": 1, "player": ["9d", "Td"], "banker": ["4s", "5h"]}
    bad = [{"player": 5}, {"outcome": 7}, {"banker": {"a": 1}}, {"burn": 3},
           {"outcome": ["P"]}, {"bets": [1, 2]}, {"player": ["9d", 5]}]
    lines = [json.dumps(good)] + [json.dumps({**good, "hand": i + 2, **b})
                                  for i, b in enumerate(bad)]
    path = tmp_path / "types.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verdict = verify_logs([str(path)], model_name="independent")
    assert verdict.exit_code == EXIT_INPUT
    assert [i.line for i in verdict.malformed] == list(range(2, 2 + len(bad)))
    assert "player must be a list of cards" in verdict.malformed[0].message
    assert "outcome must be a string" in verdict.malformed[1].message
    code, out, err = cli("verify", str(path))
    assert code == EXIT_INPUT and "Traceback" not in out + err and ":2" in out


def banker_hand(bets: str, hand: int = 1) -> str:
    """A legal coup Banker wins on naturals (Player 0, Banker 9), with these bets."""
    return (f'{{"shoe": "1", "hand": {hand}, "player": ["Td", "Kd"], "banker": ["9s", "Ts"], '
            f'"outcome": "B", "bets": {bets}}}\n')


def test_a_zero_stake_is_no_staked_hand_and_a_payment_on_it_a_violation(
        tmp_path: Path) -> None:
    path = tmp_path / "zero.jsonl"
    path.write_text(banker_hand('{"tie": [0, 0], "banker": [100, 195]}'), encoding="utf-8")
    verdict = verify_logs([str(path)])
    assert verdict.exit_code in (EXIT_PASS, EXIT_STATISTICS) and verdict.violation_count == 0
    tie = next(b for b in verdict.bets if b.id == "tie")
    assert tie.basis == "cards, unit stake"
    path.write_text(banker_hand('{"tie": [0, 900]}'), encoding="utf-8")
    verdict = verify_logs([str(path)])
    assert verdict.exit_code == EXIT_VIOLATIONS
    assert "tie: staked 0, returned 900" in verdict.violations[0].message
    csv_log = tmp_path / "zero.csv"
    csv_log.write_text("shoe,hand,player_cards,banker_cards,winner,tie_stake,tie_returned\n"
                       "1,1,Td Kd,9s Ts,B,0,900\n1,2,Td Kd,9s Ts,B,0,0\n1,3,Td Kd,9s Ts,B,,\n",
                       encoding="utf-8")
    verdict = verify_logs([str(csv_log)])
    assert verdict.exit_code == EXIT_VIOLATIONS and verdict.violation_count == 1
    assert verdict.violations[0].hand == 1


def test_rounding_rule_for_fractional_payouts(tmp_path: Path) -> None:
    path = tmp_path / "commission.jsonl"
    for returned, rule, ok in [(20, "down", False), (19, "down", True),
                               (20, "nearest", True), (19, "nearest", False),
                               (19, "either", True), (20, "either", True),
                               (18, "either", False)]:
        path.write_text(banker_hand(f'{{"banker": [10, {returned}]}}'), encoding="utf-8")
        args = ["verify", str(path)] + (["--rounding", rule] if rule != "down" else [])
        code, out, _ = cli(*args)
        assert (code != EXIT_VIOLATIONS) == ok, (returned, rule, out)
        if not ok and rule == "down":
            assert "returns 19.50, 19 rounding down" in out


def test_counts_money_without_stake_squares_falls_back_to_unit_stake(tmp_path: Path) -> None:
    """A bet staked on 37% of hands: assuming every hand was staked shrinks its SD."""
    from analyzer.engine.odds import odds

    hands, staked, stake = 100_000, 37_000, 100
    tie = odds(load_profile("punto-banco"), build_model("punto-banco", 8).shoe).bet("tie")
    expected = float(1 + tie.ev) * staked * stake
    sd_money = tie.sd * stake * math.sqrt(staked)
    returned = round(expected + 2.5 * sd_money)  # true z = 2.5
    bet = {"results": {"Tie": 9_516, "lose": 90_484}, "stake": staked * stake,
           "returned": returned}
    path = tmp_path / "window.json"

    def run(**extra: int) -> object:
        path.write_text(json.dumps({"format": "nine-counts", "hands": hands,
                                    "bets": {"tie": {**bet, **extra}}}), encoding="utf-8")
        return next(b for b in verify_logs([str(path)]).bets if b.id == "tie")

    summary = run()
    assert summary.basis == "result counts, unit stake"  # type: ignore[attr-defined]
    verdict = verify_logs([str(path)])
    assert any("stake_squares or staked_hands" in note for note in verdict.notes)
    for extra in ({"staked_hands": staked}, {"stake_squares": staked * stake * stake}):
        summary = run(**extra)
        assert summary.basis == "logged stakes"  # type: ignore[attr-defined]
        assert summary.z == pytest.approx(2.5, abs=1e-3)  # type: ignore[attr-defined]
    path.write_text(json.dumps({"format": "nine-counts", "hands": hands, "bets": {"tie": {
        **bet, "stake_squares": 10}}}), encoding="utf-8")
    code, _, err = cli("verify", str(path))
    assert code == EXIT_INPUT and "stake_squares 10 is too small" in err


def test_hands_needed_is_one_definition_everywhere(clean_log: Path) -> None:
    import re

    for alpha in (0.01, 0.05):
        verdict = verify_logs([str(clean_log)], alpha=alpha)
        needed = hands_needed("punto-banco", 8, alpha=alpha)
        assert {b.id: b.hands_needed for b in verdict.bets} == needed
        for b in verdict.bets:  # underpowered exactly when the sample is below the figure
            assert b.underpowered == (b.hands < needed[b.id])
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| punto-banco \| (\w+)[^|]* \| ([\d,]+) \|$", readme, re.M))
    needed = hands_needed("punto-banco", 8)
    assert {k.lower(): int(v.replace(",", "")) for k, v in table.items()} == needed
