"""The column-wise fast path against the record-by-record reference: the same partial sums
(exact counts and money, the same floats) on seeded logs, clean and faulty."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from analyzer.dealing import arrow, handlog
from analyzer.dealing import segments as segments_module
from analyzer.dealing.dialects import LogOptions
from analyzer.dealing.segments import find_segments
from analyzer.dealing.simulate import simulate
from analyzer.engine.lookup import build_model
from analyzer.verify import cardcolumns, check, columnar
from analyzer.verify.check import check_file
from analyzer.verify.partial import Partial
from analyzer.verify.run import verify_logs


def _log(tmp_path: Path, name: str, shoes: int, seed: int, faults: tuple[str, ...] = (),
         profile: str = "punto-banco") -> Path:
    path = tmp_path / f"{name}.csv"
    with path.open("w", encoding="utf-8", newline="") as stream:
        simulate(profile, 8, shoes, seed, stream, "csv", faults)
    return path


def _both(path: Path, shoe_aware: bool, monkeypatch: pytest.MonkeyPatch,
          profile: str = "punto-banco", segment: object = None, kernel: str = "numpy"
          ) -> tuple[Partial, Partial, bool]:
    """(fast, reference, whether the fast path covered the log)."""
    model = build_model(profile, 8)
    options = LogOptions(format="csv", cards="cards")
    # one evaluator for both (in auto the kernels take over once enough work was done)
    monkeypatch.setenv("NINE_KERNELS", kernel)
    taken: list[bool] = []
    real = columnar.replay_columns

    def spy(*args: object, **kwargs: object) -> columnar.ColumnSums | None:
        found = real(*args, **kwargs)  # type: ignore[arg-type]
        taken.append(found is not None)
        return found

    monkeypatch.setattr(check, "replay_columns", spy)
    fast = check_file(path, model, options, shoe_aware, segment=segment)  # type: ignore[arg-type]
    monkeypatch.setattr(check, "replay_columns", lambda *a, **k: None)
    reference = check_file(path, model, options, shoe_aware,
                           segment=segment)  # type: ignore[arg-type]
    monkeypatch.setattr(check, "replay_columns", real)
    return fast, reference, taken == [True]


@pytest.mark.parametrize(("shoe_aware", "kernel"),
                         [(False, "numpy"), (True, "numpy"), (True, "numba")])
def test_clean_log_same_sums_as_the_reference(tmp_path: Path, shoe_aware: bool, kernel: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = _log(tmp_path, "clean", 5, 11)
    fast, reference, covered = _both(path, shoe_aware, monkeypatch, kernel=kernel)
    assert covered
    assert fast == reference  # every count, sum and float, bit for bit
    assert fast.hands > 300 and fast.whole_shoes == 5
    assert fast.shoe_aware_hands == (fast.hands if shoe_aware else 0)
    assert sum(fast.card_counts) > 4 * fast.hands


@pytest.mark.parametrize("profile", ["lucky-baccarat", "side-bets"])
def test_card_level_bets_same_sums_as_the_reference(tmp_path: Path, profile: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Bets on ranks and suits settled on feature columns, rows of 52 card counts."""
    path = _log(tmp_path, profile, 2, 4, profile=profile)
    for shoe_aware in (False, True):
        fast, reference, covered = _both(path, shoe_aware, monkeypatch, profile)
        assert covered and fast == reference
        assert fast.hands > 100 and len(fast.bets) == len(build_model(profile, 8).bets)
        assert any(sum(b.results[1:]) for b in fast.bets)  # some bet won on its lines


def test_stake_after_its_window_falls_back(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    model = build_model("lucky-baccarat", 8)
    windows = dict(model.profile.procedure.windows)
    assert windows
    bet_id, last = next(iter(windows.items()))
    lines = _log(tmp_path, "lucky", 1, 8, profile="lucky-baccarat").read_text(
        encoding="utf-8").splitlines()
    header = lines[0].split(",")
    stake = header.index(f"{bet_id}_stake")
    late = lines[last + 1].split(",")  # hand last + 1 of the first shoe
    assert late[1] == str(last + 1)
    if late[stake] == "" or late[stake] == "0":
        late[stake], late[stake + 1] = "100", "0"
    path = tmp_path / "late.csv"
    path.write_text("\n".join([*lines[:last + 1], ",".join(late), *lines[last + 2:]]) + "\n",
                    encoding="utf-8")
    fast, reference, covered = _both(path, False, monkeypatch, "lucky-baccarat")
    assert not covered and fast == reference
    assert any(v.kind == "window" for v in fast.violations)


@pytest.mark.parametrize("fault", ["banker-stands", "natural-draw", "wrong-payout",
                                   "commission"])
@pytest.mark.parametrize("shoe_aware", [False, True])
def test_faulty_logs_fall_back_to_the_reference(tmp_path: Path, fault: str, shoe_aware: bool,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = _log(tmp_path, fault, 3, 5, (fault,))
    fast, reference, covered = _both(path, shoe_aware, monkeypatch)
    assert not covered  # a violation: checked record by record, lines named
    assert fast == reference and fast.violation_count > 0
    assert all(v.line > 1 for v in fast.violations)


@pytest.mark.parametrize("fault", ["missing-rank", "repeat-seed", "riffle-3",
                                   "no-shuffle-between-shoes"])
def test_statistical_faults_same_sums_and_verdict(tmp_path: Path, fault: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = _log(tmp_path, fault, 6, 3, (fault,))
    fast, reference, covered = _both(path, True, monkeypatch)
    assert covered and fast == reference and fast.violation_count == 0
    verdict = verify_logs([str(path)], model_name="shoe")
    monkeypatch.setattr(check, "replay_columns", lambda *a, **k: None)
    assert verify_logs([str(path)], model_name="shoe") == verdict


def test_runs_of_whole_shoes_same_sums(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _log(tmp_path, "runs", 6, 2)
    monkeypatch.setattr(segments_module, "MIN_SEGMENT_BYTES", 1000)
    segments = find_segments(path, "csv", 3, 1, 0)
    assert len(segments) == 3
    for segment in segments:
        fast, reference, covered = _both(path, True, monkeypatch, segment=segment)
        assert covered and fast == reference and fast.whole_shoes >= 1


def test_a_clean_run_is_checked_without_counting_the_lines_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The column-wise check of a run after the first never numbers its lines, so the
    newlines before it are never counted (the cut finder leaves them uncounted): the same
    sums with counting made to fail."""
    path = _log(tmp_path, "uncounted", 6, 4)
    monkeypatch.setattr(segments_module, "MIN_SEGMENT_BYTES", 1000)
    later = find_segments(path, "csv", 3, 1, 0)[1]
    assert later.lines_before == segments_module.UNCOUNTED
    model, options = build_model("punto-banco", 8), LogOptions(format="csv", cards="cards")
    expected = check_file(path, model, options, False, segment=later)

    def refuse(*args: object) -> None:
        raise AssertionError("lines counted")

    monkeypatch.setattr(segments_module, "counted", refuse)
    monkeypatch.setattr(check, "counted", refuse)
    monkeypatch.setattr(handlog, "counted", refuse)
    assert check_file(path, model, options, False, segment=later) == expected


def test_a_first_run_holding_the_whole_file_is_the_file(tmp_path: Path) -> None:
    """A first run (after the header line, one line before it) is not a later run: record
    by record (a rule fault in the log) the same partial as the file checked without a
    run, and a run from byte 0 (find_segments' "do not cut") is not refused as a later run
    that opens no shoe."""
    path = _log(tmp_path, "whole", 2, 5, ("natural-draw",))
    model, options = build_model("punto-banco", 8), LogOptions(format="csv", cards="cards")
    size, header = path.stat().st_size, len(path.read_bytes().split(b"\n", 1)[0]) + 1
    alone = check_file(path, model, options, False)
    first = segments_module.Segment(header, size, 1)
    assert check_file(path, model, options, False, segment=first) == alone
    whole = segments_module.Segment(0, size, 0)
    assert check_file(path, model, options, False, segment=whole).hands == alone.hands


@pytest.mark.parametrize("chunk", [30, 100, 1000])
def test_runs_of_chunks_same_sums(tmp_path: Path, chunk: int,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Read in runs of whole shoes (a shoe longer than a run waits for the next); a fault in
    a later run: tallies started afresh, record by record."""
    monkeypatch.setattr(columnar, "CHUNK", chunk)
    path = _log(tmp_path, "chunks", 4, 9)
    fast, reference, covered = _both(path, True, monkeypatch)
    assert covered and fast == reference and fast.whole_shoes == 4
    lines = path.read_text(encoding="utf-8").splitlines()
    late = lines[-5].split(",")
    late[-2] = str(int(late[-2]) + 1)  # the last bet's amount returned (before cards_left)
    broken = tmp_path / "late-fault.csv"
    broken.write_text("\n".join([*lines[:-5], ",".join(late), *lines[-4:]]) + "\n",
                      encoding="utf-8")
    fast, reference, covered = _both(broken, True, monkeypatch)
    assert not covered and fast == reference
    assert [v.line for v in fast.violations] == [len(lines) - 4]


def test_odd_rows_fall_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _log(tmp_path, "base", 2, 7).read_text(encoding="utf-8").splitlines()
    cases = {
        "gap": lines[:10] + lines[11:],  # a hand missing
        "width": lines[:5] + [lines[5] + ",1"] + lines[6:],
        "quoted": lines[:3] + [lines[3].replace(",", ',"', 1).replace(",", '",', 2)
                               .replace('",', ",", 1)] + lines[4:],
        "blank": lines[:4] + [""] + lines[4:],
        "ten": lines[:1] + [re.sub(r"T([SHDC])", r"10\1", line) for line in lines[1:]],
    }
    for name, rows in cases.items():
        path = tmp_path / f"{name}.csv"
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        fast, reference, covered = _both(path, True, monkeypatch)
        assert fast == reference, name
        assert covered == (name in ("blank", "ten", "quoted")), name
    assert "10" in (tmp_path / "ten.csv").read_text(encoding="utf-8")


def test_parse_cards() -> None:
    cards = columnar.parse_cards(["AS 2H", "TD KC 9s"], "rank-first")
    assert cards is not None
    assert cards.tolist() == [[0, 5, -1], [38, 51, 32]]
    slow = columnar.parse_cards(["10D KC", "AS 2H"], "rank-first")
    assert slow is not None and slow.tolist() == [[38, 51, -1], [0, 5, -1]]
    assert columnar.parse_cards(["AS ZZ"], "rank-first") is None
    assert columnar.parse_cards(["AS"], "rank-first") is None
    assert columnar.parse_cards(["AS 2H 3H 4H"], "rank-first") is None


def test_burn_fields_as_arrays_and_one_by_one() -> None:
    def burns(fields: list[str]) -> list[list[int]] | None:
        found = cardcolumns.burn_cards(pa.array(fields, pa.string()), "rank-first")
        return None if found is None else [a.tolist() for a in found]

    # two-character tokens and single spaces: as arrays; other spellings one by one
    assert burns(["KH AC 5S", "", "TD"]) == [[0, 2], [3, 1], [49, 3, 16, 38]]
    assert burns(["10D KC", "", "[]", "AS"]) == [[0, 3], [2, 1], [38, 51, 0]]
    assert burns(["KH  AC"]) == [[0], [2], [49, 3]]  # two spaces: read as the reference
    assert burns(["KH ZZ"]) is None and burns(["", ""]) == [[], [], []]


@pytest.mark.parametrize("kernel", ["numpy", "numba"])
def test_add_rows_batches_as_add_does(kernel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hands queued one by one, in one array, or in arrays cut anywhere: the same sums
    (runs of a shoe's hands, each rounded once to the exact grid)."""
    from analyzer.verify.inference.moments import BATCH, ShoeMoments

    monkeypatch.setenv("NINE_KERNELS", kernel)
    model = build_model("punto-banco", 8)
    rng = np.random.default_rng(1)
    full = np.array(model.shoe.value_counts())
    rows = full - rng.integers(0, 20, size=(3 * BATCH + 17, 10))
    stakes = rng.integers(0, 300, size=(rows.shape[0], len(model.bets)))
    opens = rng.random(rows.shape[0]) < 0.004  # shoes of a few hundred hands
    opens[0] = True
    one, many, cut = ShoeMoments(model), ShoeMoments(model), ShoeMoments(model)
    for r, s in zip(rows.tolist()[:5], stakes.tolist()[:5], strict=True):
        many.add(r, s)
    for r, s, o in zip(rows.tolist(), stakes.tolist(), opens.tolist(), strict=True):
        one.add(r, s, o)
    many.add_rows(rows[5:], stakes[5:], opens[5:])
    for part in np.array_split(np.arange(rows.shape[0]), [1000, 1003, 2500]):
        cut.add_rows(rows[part], stakes[part], opens[part])
    for m in (one, many, cut):
        m.flush()
    assert one.ev_sum.tolist() == many.ev_sum.tolist() == cut.ev_sum.tolist()
    assert one.money_variance.tolist() == many.money_variance.tolist() \
        == cut.money_variance.tolist()
    assert one.bet_sums(0) == many.bet_sums(0) == cut.bet_sums(0)
    assert one.ev_sum[0] != 0


def test_values_and_jsonl_logs_go_record_by_record(tmp_path: Path) -> None:
    stream = io.StringIO()
    simulate("punto-banco", 8, 1, 1, stream, "jsonl")
    path = tmp_path / "log.jsonl"
    path.write_text(stream.getvalue(), encoding="utf-8")
    model = build_model("punto-banco", 8)
    options = LogOptions(format="jsonl", cards="cards")
    assert columnar.replay_columns(path, model, options, None, None, None) is None  # type: ignore[arg-type]


def test_a_log_without_hand_numbers_takes_the_fast_path_with_the_same_sums(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a hand column each shoe's rows are its hands in order, on both paths."""
    numbered = _log(tmp_path, "numbered", 3, 5)
    lines = numbered.read_text(encoding="utf-8").splitlines()
    column = lines[0].split(",").index("hand")
    path = tmp_path / "unnumbered.csv"
    path.write_text("\n".join(",".join(f for k, f in enumerate(line.split(",")) if k != column)
                              for line in lines) + "\n", encoding="utf-8")
    fast, reference, covered = _both(path, True, monkeypatch)
    with_numbers, _, _ = _both(numbered, True, monkeypatch)
    assert covered and fast == reference
    assert (fast.hands, fast.whole_shoes, fast.bets) == (
        with_numbers.hands, 3, with_numbers.bets)


@pytest.mark.parametrize("spelling", ["0100", " 100", "100 ", "0x64", '"100"', "+100"])
@pytest.mark.parametrize("block", [2000, 1 << 19])
def test_integers_written_otherwise_same_sums(tmp_path: Path, spelling: str, block: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Stakes read as int64 by Arrow only in blocks of plain digits: a block holding a
    stake written another way (which Arrow would read as 100 too, or not at all) is
    read as strings, so the sums are the reference's whatever the block size."""
    monkeypatch.setattr(arrow, "BLOCK", block)
    lines = _log(tmp_path, "base", 3, 6).read_text(encoding="utf-8").splitlines()
    stake = lines[0].split(",").index("banker_stake")
    row = lines[40].split(",")
    assert row[stake] == "100"
    row[stake] = spelling
    path = tmp_path / "odd.csv"
    path.write_text("\n".join([*lines[:40], ",".join(row), *lines[41:]]) + "\n",
                    encoding="utf-8")
    for shoe_aware in (False, True):
        fast, reference, covered = _both(path, shoe_aware, monkeypatch)
        assert fast == reference, (spelling, shoe_aware)
        # digits, and a quoted number (unquoted as the csv module does), read as before
        assert covered == (spelling in ("0100", '"100"'))
