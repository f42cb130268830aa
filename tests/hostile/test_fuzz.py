"""Hostile input, fuzzed: every input kind the tool reads, mutated at random, ends in exit 0
or one error line with exit 2 -- never a traceback, never an internal error, in bounded time.

Each corpus starts from a valid input and applies random mutations (hypothesis shrinks any
failure to a small reproducer). A longer run: ``HYPOTHESIS_PROFILE=nightly make test``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli import main

ROOT = Path(__file__).resolve().parents[2]
PROFILE = (ROOT / "analyzer" / "profiles" / "punto-banco.toml").read_bytes()
SHOE = b"decks 1\nremove 4S 4H\nKD 3\n"
CORPUS = Path(__file__).resolve().parent / "corpus"
STRATEGY = (b'side = "player"\nby = "total"\ndefault = "stand"\n'
            b'[draw]\n"0-4" = "draw"\n"5" = "1/2"\n')

settings.register_profile("default", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.register_profile("nightly", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def run(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output  # stdout and stderr, interleaved


def assert_clean(code: int, output: str, codes: tuple[int, ...] = (0, 2),
                 one_line: bool = True) -> None:
    """No traceback and no internal error; an input error (exit 2) is one line, unless the
    command reports it in a verdict (``nine verify``: UNUSABLE, with the problems listed)."""
    assert "Traceback" not in output and "internal error" not in output, output
    assert code in codes, (code, output)
    if code == 2 and one_line and "UNUSABLE" not in output:
        errors = [line for line in output.splitlines() if "error" in line]
        assert len(errors) == 1, output


@st.composite
def mutated(draw: st.DrawFn, valid: bytes) -> bytes:
    """``valid`` with a few random byte-level edits: replace, insert, delete, truncate."""
    data = bytearray(valid)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "truncate", "bytes"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "replace" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from([b"\xff", b"\x00", b"[[", b"((((", b"true",
                                                b"1e999999999", b"-1", b'"\xc2\xb2"', b"nan",
                                                b"\n[procedure]\ncut_card = -1\n"]))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 40))]
        elif kind == "truncate":
            del data[at:]
        else:
            data[at:at] = draw(st.binary(max_size=20))
    return bytes(data)


@given(mutated(PROFILE))
def test_mutated_profiles(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("p") / "fuzz.toml"
    path.write_bytes(data)
    assert_clean(*run(["odds", "--profile", str(path), "--decks", "1", "--no-distributions"]))


@given(mutated(SHOE))
def test_mutated_shoe_files(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("s") / "fuzz.shoe"
    path.write_bytes(data)
    assert_clean(*run(["odds", "--shoe", str(path), "--no-distributions"]))


@given(st.sampled_from(["--decks", "--samples", "--seed"]),
       st.one_of(st.integers(-10**20, 10**20).map(str), st.sampled_from(
           ["nan", "inf", "-0", "1e9", "", "true", "0x10", "٣"])))
def test_bounded_options_of_eor(option: str, value: str) -> None:
    code, output = run(["eor", option, value, "--samples", "0"] if option != "--samples"
                       else ["eor", option, value])
    assert_clean(code, output)


@given(mutated(STRATEGY))
def test_mutated_strategy_files(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("t") / "player.toml"
    path.write_bytes(data)
    assert_clean(*run(["evaluate", "--player", str(path), "--infinite", "--by", "total"]))


@pytest.mark.parametrize("name", ["one-deck-shoe.csv", "one-deck-shoe.jsonl"])
@given(data=st.data())
def test_mutated_logs(tmp_path_factory: pytest.TempPathFactory, name: str,
                      data: st.DataObject) -> None:
    """Any verdict (0 pass, 1 statistics, 3 violations, 4 underpowered) or one input error."""
    log = data.draw(mutated((CORPUS / name).read_bytes()))
    path = tmp_path_factory.mktemp("l") / name
    path.write_bytes(log)
    assert_clean(*run(["verify", str(path), "--decks", "1", "--jobs", "1"]), (0, 1, 2, 3, 4))
