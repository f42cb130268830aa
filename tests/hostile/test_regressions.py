"""Every hostile case once found to end in a traceback, a wrong exit code, a hang or a huge
allocation: each is now one error line and exit 2 (nothing of the work started)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.test_fuzz import assert_clean, run

ROOT = Path(__file__).resolve().parents[2]
PROFILE = (ROOT / "analyzer" / "profiles" / "punto-banco.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("args", "message"), [
    (["eor", "--samples", "-1"], "'--samples': -1 is not in the range 0<=x<=100000"),
    (["eor", "--samples", "100000000"], "'--samples': 100000000 is not in the range"),
    (["eor", "--seed", "-1"], "'--seed': -1 is not in the range"),
    (["eor", "--bet", "nope", "--samples", "0"], "has no bet 'nope'"),
    (["shoe", "--every", "0"], "'--every': 0 is not in the range 1<=x<=1000"),
    (["shoe", "--decks", "100000"], "'--decks': 100000 is not in the range 1<=x<=64"),
    (["shoe", "--decks", "1000000"], "'--decks': 1000000 is not in the range 1<=x<=64"),
    (["shoe", "--shoes", "0"], "'--shoes': 0 is not in the range"),
    (["formula", "--profile", "lucky9-home"], "has no fixed tableau"),
    (["solve-payout", "--bet", "tie", "--line", "1", "--edge", "1e308"], "is not a number"),
    (["solve-payout", "--bet", "tie", "--line", "1", "--edge", "200%"], "between -100% and"),
    (["odds", "--decks", "0"], "'--decks': 0 is not in the range 1<=x<=100000"),
    (["odds", "--decks", "true"], "'--decks': 'true' is not a valid integer"),
])
def test_bad_options_are_refused_before_any_work(args: list[str], message: str) -> None:
    code, output = run(args)
    assert_clean(code, output)
    assert code == 2 and message in output


@pytest.mark.parametrize(("data", "message"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a binary file, not text"),
    (PROFILE.replace("Punto banco", "Punto banc\xe9").encode("latin-1"), "not UTF-8 (byte 0xe9)"),
    (PROFILE.encode("utf-16"), "UTF-16 encoded"),
    (gzip.compress(PROFILE.encode())[:200], "the gzip stream is truncated"),
    (gzip.compress(PROFILE.encode()), None),  # gzip is found by its magic bytes
    (("a = " + "[" * 500 + "]" * 500 + "\n").encode(), "nested more than 64 levels"),
    (("name = 1" + "0" * 5000 + "\n").encode(), "digits"),
    (b"\xef\xbb\xbf" + PROFILE.encode(), None),  # a UTF-8 byte-order mark is accepted
])
def test_profiles_in_any_encoding_are_one_line(tmp_path: Path, data: bytes,
                                               message: str | None) -> None:
    path = tmp_path / "hostile.toml"
    path.write_bytes(data)
    code, output = run(["odds", "--profile", str(path), "--decks", "1", "--no-distributions"])
    assert_clean(code, output)
    if message is None:
        assert code == 0
    else:
        assert code == 2 and message in output and str(path) in output


@pytest.mark.parametrize(("data", "message"), [
    (b"decks 1\nKD 99999999999999999999\n", "above 100,000"),
    (b"decks 1\nKD 100001\n", "above 100,000"),
    ("decks 1\nremove K\u2660 K\u2660 K\u2660 K\u2660 K\u2660\n".encode(), "none left"),
    (b"decks 1\nremove 4\xa3\n", "not UTF-8"),
])
def test_shoe_files_are_one_line(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "hostile.shoe"
    path.write_bytes(data)
    code, output = run(["odds", "--shoe", str(path), "--no-distributions"])
    assert_clean(code, output)
    assert code == 2 and message in output


@pytest.mark.parametrize(("text", "message"), [
    ('side = "player"\n[draw]\n"\u00b2" = "draw"\n', "is not a total"),
    ('side = "player"\n[draw]\n"5" = "1e-999999999"\n', "is not a probability"),
    ('side = "player"\n[draw]\n"5" = 1.5\n', "not between 0 and 1"),
    ('side = "player"\n[draw]\n"5" = nan\n', "not a finite number"),
])
def test_strategy_files_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "player.toml"
    path.write_text(text, encoding="utf-8")
    code, output = run(["evaluate", "--player", str(path), "--infinite", "--by", "total"])
    assert_clean(code, output)
    assert code == 2 and message in output and str(path) in output


@pytest.mark.parametrize(("args", "message"), [
    (["solve", "--players", "14"], "'--players': 14 is not in the range 1<=x<=8"),
    (["solve", "--starts", "-1"], "'--starts': -1 is not in the range"),
    (["session", "--people", "9", "--rotations", "100000000", "--seed", "1"],
     "'--rotations': 100000000 is not in the range 0<=x<=5000"),
    (["session", "--people", "16", "--rotations", "1", "--seed", "1"], "'--people': 16 is not"),
])
def test_choice_game_options_are_bounded_before_any_work(args: list[str], message: str) -> None:
    code, output = run(args)
    assert_clean(code, output)
    assert code == 2 and message in output


def test_the_same_log_content_is_never_counted_twice(tmp_path: Path) -> None:
    """A copy of a log, a partial beside its own log, two partials of one log: exit 2."""
    log = tmp_path / "a.csv"
    assert run(["simulate", "--decks", "1", "--shoes", "2", "--seed", "5", "--out", str(log),
                "--log-format", "csv"])[0] == 0
    copy = tmp_path / "copy.csv"
    copy.write_bytes(log.read_bytes())
    partial = tmp_path / "a.partial.json"
    assert run(["verify", str(log), "--decks", "1", "--partial-out", str(partial)])[0] in (0, 4)
    twin = tmp_path / "twin.partial.json"
    twin.write_bytes(partial.read_bytes())
    for args in ([str(log), str(copy)], [str(partial), str(log)], [str(partial), str(twin)]):
        code, output = run(["verify", *args, "--decks", "1"])
        assert_clean(code, output, (2,))
        assert "holds the same log content as" in output
    code, output = run(["verify", str(partial), "--decks", "1"])
    assert code in (0, 4), output


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.update(hands=-5), "hands: must be a whole number from 0, got -5"),
    (lambda d: d["bets"][0].update(id="renamed"), "unknown bet 'renamed'"),
    (lambda d: d["bets"][0].update(variance_sum=-1.0),
     "variance_sum: must be a finite number from 0.0, got -1.0"),
    (lambda d: d.update(card_counts=[1.5] * 52),
     "card_counts[0]: must be a whole number from 0, got 1.5"),
])
def test_saved_partials_are_checked_against_their_schema(tmp_path: Path, edit: Any,
                                                         message: str) -> None:
    log = tmp_path / "a.csv"
    assert run(["simulate", "--decks", "1", "--shoes", "2", "--seed", "5", "--out", str(log),
                "--log-format", "csv"])[0] == 0
    partial = tmp_path / "a.partial.json"
    assert run(["verify", str(log), "--decks", "1", "--partial-out", str(partial)])[0] in (0, 4)
    document = json.loads(partial.read_text(encoding="utf-8"))
    edit(document)
    partial.write_text(json.dumps(document), encoding="utf-8")
    code, output = run(["verify", str(partial), "--decks", "1"])
    assert_clean(code, output, (2,))
    assert message in output


def test_a_counts_file_with_a_negative_count_is_refused(tmp_path: Path) -> None:
    counts = tmp_path / "totals.json"
    counts.write_text(json.dumps({"format": "nine-counts", "hands": 10, "bets": {
        "tie": {"results": {"Tie": -1, "lose": 11}}}}), encoding="utf-8")
    code, output = run(["verify", str(counts)])
    assert_clean(code, output, (2,))
    assert "must be a whole number from 0, got -1" in output
