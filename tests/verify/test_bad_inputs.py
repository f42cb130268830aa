"""Hostile and broken inputs to ``nine verify`` (issue 15): each ends in exit 2 with one line
naming the file (or a report naming the line), never a traceback, and memory stays bounded
by the line limit."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from analyzer.dealing.handlog import Hand, Problem, read_log
from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_LINE
from analyzer.verify.verdict import EXIT_INPUT, EXIT_PASS
from tests.verify.conftest import banker_hand, cli

HEADER = "shoe,hand,player_cards,banker_cards,winner,banker_stake,banker_returned\n"
ROW = "1,1,Td Kd,9s Ts,B,100,195\n"


def one_line_error(args: list[str], *needles: str) -> str:
    """Run ``nine verify``; assert exit 2, one line on stderr holding ``needles``."""
    code, out, err = cli("verify", *args)
    assert code == EXIT_INPUT, (code, out, err)
    assert "Traceback" not in out + err and "Aborted" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nine: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def malformed_report(args: list[str], line: int, needle: str) -> None:
    """Run ``nine verify``; assert exit 2 with the record's line listed as malformed."""
    code, out, err = cli("verify", *args, "--format", "json")
    assert code == EXIT_INPUT, (code, out, err)
    assert "Traceback" not in out + err
    report = json.loads(out)
    listed = report["malformed"]["listed"]
    assert any(item["line"] == line and needle in item["message"] for item in listed), listed


def test_a_truncated_gzip_log_is_one_line_naming_the_file(clean_log: Path,
                                                          tmp_path: Path) -> None:
    data = gzip.compress(clean_log.read_bytes())
    path = tmp_path / "run.jsonl.gz"
    path.write_bytes(data[: len(data) // 2])
    one_line_error([str(path)], str(path), "the gzip stream is truncated")
    tiny = tmp_path / "tiny.jsonl.gz"
    tiny.write_bytes(data[:40])  # truncated inside the first block the format peek reads
    one_line_error([str(tiny)], str(tiny), "truncated")


def test_a_corrupt_gzip_crc_names_the_file(clean_log: Path, tmp_path: Path) -> None:
    data = bytearray(gzip.compress(clean_log.read_bytes()))
    data[-6] ^= 0xFF  # the CRC
    path = tmp_path / "run.jsonl.gz"
    path.write_bytes(bytes(data))
    one_line_error([str(path)], str(path), "corrupt gzip data")


def test_gzip_is_told_by_its_bytes_not_its_name(clean_log: Path, tmp_path: Path) -> None:
    path = tmp_path / "plain-name.jsonl"
    path.write_bytes(gzip.compress(clean_log.read_bytes()))
    code, out, _ = cli("verify", str(path), "--model", "independent")
    assert code == EXIT_PASS, out


@pytest.mark.parametrize(("data", "needle"), [
    ((HEADER + ROW).encode("utf-16"), "UTF-16 encoded"),
    ((HEADER + "1,1,Td Kd,9s Ts,B,100,195\n1,2,9d \xe9,9s Ts,B,100,195\n").encode("latin-1"),
     "line 3: not UTF-8 (byte 0xe9)"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a binary file"),
])
def test_logs_in_other_encodings_or_binary_are_named(tmp_path: Path, data: bytes,
                                                     needle: str) -> None:
    path = tmp_path / "log.csv"
    path.write_bytes(data)
    one_line_error([str(path)], str(path), needle)


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + ROW).encode("utf-8"))
    code, out, err = cli("verify", str(path), "--model", "independent", "--format", "json")
    assert json.loads(out)["hands"] == 1 and json.loads(out)["malformed"]["count"] == 0, err


def test_huge_integers_are_malformed_records_not_tracebacks(tmp_path: Path) -> None:
    path = tmp_path / "digits.jsonl"
    path.write_text(banker_hand('{"banker": [100, 195]}')
                    + banker_hand('{"banker": [100, 195]}', hand=2).replace(
                        '"hand": 2', '"hand": ' + "9" * 5001)
                    + banker_hand('{"banker": [' + "1" * 400 + ', 0]}', hand=3),
                    encoding="utf-8")
    malformed_report([str(path)], 2, "an integer of more than 100 digits")
    malformed_report([str(path)], 3, "an integer of 400 digits (at most 100)")
    stakes = tmp_path / "stakes.csv"
    stakes.write_text(HEADER + ROW + "1,2,Td Kd,9s Ts,B," + "5" * 400 + ",0\n"
                      + "1,3,Td Kd,9s Ts,B,100," + "7" * 5001 + "\n", encoding="utf-8")
    malformed_report([str(stakes)], 3, "an integer of 400 digits")
    malformed_report([str(stakes)], 4, "an integer of 5,001 digits")


def test_a_csv_field_over_the_csv_modules_limit_is_a_record_problem(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text(HEADER + ROW + "1,2,Td Kd," + "x" * 200_000 + ",B,100,195\n"
                    + '2,1,Td Kd,"' + "Ts " * 60_000 + '",B,100,195\n', encoding="utf-8")
    malformed_report([str(path)], 3, "unknown card 'xxxx")
    code, out, _ = cli("verify", str(path), "--format", "json")
    report = json.loads(out)
    assert [(i["line"], i["kind"]) for i in report["malformed"]["listed"]][:1] == [
        (3, "malformed")]
    # the 60,000-card hand is read and replayed: violations, not a crash
    assert report["violations"]["by_kind"]["card-count"] == 1
    assert report["violations"]["by_kind"]["composition"] == 1
    assert len(out) < 200_000  # messages quote a long field cut short


def test_a_line_over_the_limit_stops_the_run_with_memory_bounded(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        stream.write(banker_hand('{"banker": [100, 195]}'))
        stream.write('{"shoe": "' + "s" * (12 * MAX_LINE) + '"}\n')
    tracemalloc.start()
    try:
        with pytest.raises(AnalyzerError, match=r"long\.jsonl: line 2: longer than 1,000,000"):
            for _ in read_log(path):
                pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 6 * MAX_LINE + (1 << 20), peak  # a few MB, not the 12 MB line
    one_line_error([str(path)], str(path), "line 2: longer than 1,000,000 characters")


def test_long_ids_and_tokens_are_refused_and_quoted_short(tmp_path: Path) -> None:
    path = tmp_path / "ids.jsonl"
    path.write_text(banker_hand('{"banker": [100, 195]}').replace('"shoe": "1"',
                                                                  '"shoe": "' + "a" * 500 + '"')
                    + banker_hand('{"' + "b" * 300 + '": [100, 0]}', hand=2), encoding="utf-8")
    records = list(read_log(path))
    problems = [r for r in records if isinstance(r, Problem)]
    assert [p.line for p in problems] == [1, 2]
    assert "longer than 100 characters" in problems[0].message
    assert all(len(p.message) < 200 for p in problems)
    assert not any(isinstance(r, Hand) for r in records)


def test_detect_and_alpha_must_be_finite_and_in_range(clean_log: Path) -> None:
    for option, value, needle in (("--detect", "nan", "--detect must be a positive finite"),
                                  ("--detect", "inf", "--detect must be a positive finite"),
                                  ("--detect", "-1", "--detect must be a positive finite"),
                                  ("--alpha", "nan", "--alpha must lie strictly between")):
        one_line_error([str(clean_log), option, value], needle)


def test_the_same_file_twice_is_refused(clean_log: Path, tmp_path: Path) -> None:
    one_line_error([str(clean_log), str(clean_log)], "given twice")
    link = tmp_path / "link.jsonl"
    link.symlink_to(clean_log)
    one_line_error([str(clean_log), str(link)], "the same file as", "given twice")


def test_a_header_for_another_profile_or_deck_count_stops_the_run(tmp_path: Path) -> None:
    path = tmp_path / "lucky.jsonl"
    path.write_text('{"type": "header", "format": "nine-handlog", "version": 1, '
                    '"profile": "lucky-baccarat", "decks": 8}\n'
                    + banker_hand('{"banker": [100, 195]}'), encoding="utf-8")
    one_line_error([str(path)], str(path), "line 1", "header says profile 'lucky-baccarat'",
                   "--profile lucky-baccarat")
    code, out, _ = cli("verify", str(path), "--profile", "lucky", "--model", "independent")
    assert code != EXIT_INPUT, out  # the alias names the same profile
    six = tmp_path / "six.jsonl"
    six.write_text('{"type": "header", "profile": "punto-banco", "decks": 6}\n'
                   + banker_hand('{"banker": [100, 195]}'), encoding="utf-8")
    one_line_error([str(six), "--decks", "8"], "with 6 decks", "--decks 6")
    code, out, _ = cli("verify", str(six), "--format", "json")  # no --decks: the header's
    assert code == 0 and '"decks": 6' in out and '"decks_from": "log"' in out, out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "decks": "eight", "version": 1}\n'
                   + banker_hand('{"banker": [100, 195]}'), encoding="utf-8")
    malformed_report([str(bad)], 1, "header field 'decks' must be an integer")
    late = tmp_path / "late.jsonl"
    late.write_text(banker_hand('{"banker": [100, 195]}')
                    + '{"type": "header", "profile": "punto-banco"}\n', encoding="utf-8")
    malformed_report([str(late)], 2, "a header record must be the first record")


@pytest.fixture(scope="module")
def saved_partial(tmp_path_factory: pytest.TempPathFactory, clean_log: Path) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("partial") / "clean.json"
    code, _, _ = cli("verify", str(clean_log), "--partial-out", str(path))
    assert code in (0, 1)
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize(("change", "needle"), [
    (lambda d: d.update(hands="many"), "hands: must be a whole number"),
    (lambda d: d["bets"][0]["results"].__setitem__(0, -1), "bets[0].results[0]: must be a "
                                                           "whole number from 0"),
    (lambda d: d["bets"][0].update(ev_sum=True), "bets[0].ev_sum: must be a finite number"),
    (lambda d: d["bets"][0].update(id="bankr"), "unknown bet 'bankr'"),
    (lambda d: d["bets"][1]["results"].append(0), "expected and covariance must hold 4"),
    (lambda d: d.update(stray=1), "stray: unknown field"),
    (lambda d: d.update(card_counts=[1, 2, 3]), "card_counts: must hold 0 or 52 items"),
    (lambda d: d.update(decks=6), "saved for punto-banco with 6 decks"),
    (lambda d: d.update(model="magic"), "model: must be one of independent, shoe"),
    (lambda d: d["shuffle"].update(pairs=-5), "shuffle.pairs: must be a whole number"),
    (lambda d: d.pop("bets"), "missing field 'bets'"),
    (lambda d: d["violations"].append(d["violations"][0] if d["violations"] else 7),
     "violations[0]"),
])
def test_partial_files_of_the_wrong_shape_are_refused(saved_partial: dict[str, Any],
                                                       tmp_path: Path, change: Any,
                                                       needle: str) -> None:
    document = json.loads(json.dumps(saved_partial))
    change(document)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    one_line_error([str(path)], str(path), needle)


def test_partial_files_with_nan_or_no_object_are_refused(saved_partial: dict[str, Any],
                                                         tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    path.write_text(json.dumps(saved_partial).replace('"ev_sum": ', '"ev_sum": NaN, "x": ',
                                                      1), encoding="utf-8")
    one_line_error([str(path)], str(path), "not a finite number")
    listed = tmp_path / "list.json"
    listed.write_text('["nine-partial", 1]', encoding="utf-8")
    one_line_error([str(listed)], str(listed), "not a saved partial result")


@pytest.mark.parametrize(("bets", "extra", "needle"), [
    ({"tie": {"results": {"Tie": -1, "lose": 11}}}, {}, "must be a whole number from 0"),
    ({"tie": {"results": {"Tie": 1, "lose": 9}, "stake": 10.5}}, {}, "stake: must be a whole"),
    ({"tie": {"results": {"Tie": 1, "lose": 9}, "stakes": 100}}, {}, "stakes: unknown field"),
    ({"tye": {"results": {"Tie": 1, "lose": 9}}}, {}, "bet 'tye' is not in profile"),
    ({"tie": {"results": {"Tie": 1, "lose": 9}}}, {"profile": "lucky-baccarat"},
     "counted for profile 'lucky-baccarat'"),
    ({"tie": {"results": {"Tie": 1, "lose": 9}}}, {"decks": 6}, "counted for 6 decks"),
    ({"tie": {"results": {"Tie": 1, "lose": 9}}}, {"hands": True}, "hands: must be a whole"),
    ([1, 2], {}, "bets: must be an object"),
])
def test_counts_files_are_checked_field_by_field(tmp_path: Path, bets: Any,
                                                 extra: dict[str, Any], needle: str) -> None:
    path = tmp_path / "totals.json"
    path.write_text(json.dumps({"format": "nine-counts", "hands": 10, "bets": bets, **extra}),
                    encoding="utf-8")
    one_line_error([str(path)], str(path), needle)
    nan = tmp_path / "nan.json"
    nan.write_text('{"format": "nine-counts", "hands": 10, "bets": {"tie": {"results": '
                   '{"Tie": 1, "lose": 9}, "stake": NaN}}}', encoding="utf-8")
    one_line_error([str(nan)], str(nan), "not a finite number")
