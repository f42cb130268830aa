"""Runs of hands by content: the same keys and hashes whichever way a log is read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from analyzer.dealing.simulate import simulate
from analyzer.verify.overlap import (
    CHUNK,
    KEPT,
    WINDOW,
    HandRuns,
    _keys,
    _run_hashes,
    _within,
    hand_key,
    merge_runs,
)
from analyzer.verify.run import collect


def _hands(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    player, banker = rng.integers(0, 52, (n, 3)), rng.integers(0, 52, (n, 3))
    player[rng.random(n) < 0.5, 2] = -1
    banker[rng.random(n) < 0.5, 2] = -1
    starts = np.concatenate([[0], np.sort(rng.choice(np.arange(1, n), n // 80,
                                                      replace=False))])
    return player, banker, starts


def _cards(row: np.ndarray) -> tuple[int, ...]:
    return tuple(int(c) for c in row if c >= 0)


def test_a_column_of_hands_keys_as_each_hand_alone() -> None:
    player, banker, _ = _hands(2000, 1)
    keys = _keys(player, banker).view(np.int64).tolist()
    assert keys == [hand_key(_cards(p), _cards(b)) for p, b in zip(player, banker,
                                                                   strict=True)]
    assert len(set(keys)) == 2000  # no two hands alike here, none keyed alike
    # the table's corners: the lowest and highest card in every place, a third card or none
    edges = np.array([[0, 0, -1], [51, 51, -1], [0, 51, 0], [51, 0, 51], [51, 51, 51]])
    player, banker = np.repeat(edges, 5, axis=0), np.tile(edges, (5, 1))
    assert _keys(player, banker).view(np.int64).tolist() == [
        hand_key(_cards(p), _cards(b)) for p, b in zip(player, banker, strict=True)]


def test_the_runs_within_one_shoe_are_those_that_cross_no_start() -> None:
    starts = [3, 5, 11]  # shoes of 3, 2, 6 and 4 keys: 15 keys, 12 runs of 4
    within = _within(12, starts, 4).tolist()
    assert within == [not any(i < s <= i + 3 for s in starts) for i in range(12)]
    assert [i for i, w in enumerate(within) if w] == [5, 6, 7, 11]
    assert _within(3, np.array([], dtype=np.int64), 4).all()


def test_runs_fed_hand_by_hand_or_by_columns_keep_the_same_hashes() -> None:
    n = 3 * CHUNK // 2
    player, banker, starts = _hands(n, 2)
    by_hand = HandRuns()
    first = set(starts.tolist())
    for i in range(n):
        if i in first:
            by_hand.cut()
        by_hand.keys.append(hand_key(_cards(player[i]), _cards(banker[i])))
        if len(by_hand.keys) >= CHUNK:
            by_hand.flush()
    by_columns = HandRuns()
    cut = int(starts[len(starts) // 2])  # two runs of whole shoes, as the columnar reader
    by_columns.add_columns(player[:cut], banker[:cut], starts[starts < cut])
    by_columns.add_columns(player[cut:], banker[cut:], starts[starts >= cut] - cut)
    level, kept = by_hand.sums()
    assert (level, kept) == by_columns.sums()
    # every run of WINDOW hands within a shoe, hashed at once, thinned to KEPT
    keys = _keys(player, banker)
    bounds = [*starts.tolist(), n]
    every = {h for a, b in zip(bounds, bounds[1:], strict=False)
             for h in _run_hashes(keys[a:b], WINDOW).tolist()}
    assert len(every) == sum(max(0, b - a - WINDOW + 1)
                             for a, b in zip(bounds, bounds[1:], strict=False))
    assert level > 0 and len(kept) <= KEPT
    assert set(kept) == {h for h in every if h < 1 << (63 - level)}
    assert len({h for h in every if h < 1 << (64 - level)}) > KEPT  # no higher threshold fits
    # two halves merged: the same as the whole
    halves = HandRuns(), HandRuns()
    halves[0].add_columns(player[:cut], banker[:cut], starts[starts < cut])
    halves[1].add_columns(player[cut:], banker[cut:], starts[starts >= cut] - cut)
    assert merge_runs([halves[0].sums(), halves[1].sums()]) == (level, kept)


def test_a_run_across_a_shoe_end_is_not_hashed() -> None:
    player, banker, _ = _hands(2 * WINDOW - 2, 3)
    runs = HandRuns()
    runs.add_columns(player, banker, np.array([0, WINDOW - 1]))  # two shoes, each too short
    assert runs.sums() == (0, ())
    assert HandRuns(values=True).window == 8  # fewer kinds of card: longer runs
    # a shoe that ends where the keys fill a chunk: the flush forgets no end
    keys = _keys(player, banker)
    keys = np.resize(keys, CHUNK + WINDOW)
    by_hand = HandRuns()
    by_hand.keys.extend(keys[:CHUNK].view(np.int64).tolist())
    by_hand.cut()
    assert len(by_hand.keys) == 0  # all hashed: none goes on into the next shoe
    by_hand.keys.extend(keys[CHUNK:].view(np.int64).tolist())
    whole = HandRuns()
    whole._hash(keys, [CHUNK])
    assert by_hand.sums() == whole.sums()
    assert merge_runs([]) == (0, ())


def _log(tmp_path: Path) -> dict[str, Path]:
    """One simulated log (two shoes) as CSV, its CRLF copy, a CRLF copy without shoe
    columns, JSON Lines with and without shoe records (its hands still name their shoe),
    its second shoe alone, and a fragment of 12 hands from inside that shoe."""
    files = {"csv": tmp_path / "log.csv", "jsonl": tmp_path / "log.jsonl"}
    for fmt, path in files.items():
        with path.open("w", encoding="utf-8", newline="") as stream:
            simulate("punto-banco", 8, 2, 5, stream, fmt)
    rows = files["csv"].read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    keep = [i for i, name in enumerate(header)
            if name not in ("shoe", "hand", "burn", "cards_left")]
    files["crlf"] = tmp_path / "crlf.csv"
    files["crlf"].write_bytes("".join(row + "\r\n" for row in rows).encode())
    files["bare"] = tmp_path / "bare.csv"
    files["bare"].write_bytes("".join(",".join(row.split(",")[i] for i in keep) + "\r\n"
                                      for row in rows).encode())
    files["records"] = tmp_path / "bare.jsonl"
    files["records"].write_text("".join(
        line for line in files["jsonl"].read_text(encoding="utf-8").splitlines(True)
        if '"type"' not in line), encoding="utf-8")
    hands = rows[1:]
    second = next(i for i, row in enumerate(hands) if not row.startswith("1,"))
    files["shoe"] = tmp_path / "second-shoe.csv"
    files["shoe"].write_text("\n".join([rows[0], *hands[second:]]) + "\n", encoding="utf-8")
    files["fragment"] = tmp_path / "fragment.csv"
    files["fragment"].write_text("\n".join([rows[0], *hands[second + 20:second + 32]]) + "\n",
                                 encoding="utf-8")
    return files


def _runs_of(path: Path) -> tuple[int, tuple[int, ...]]:
    return collect([str(path)], "punto-banco", model_name="independent")[0].hand_runs


def test_both_readers_keep_the_same_runs_of_the_same_logs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _log(tmp_path)
    by_columns: dict[str, int] = {}  # hands the column-wise reader hashed, by log
    real = HandRuns.add_columns
    name = ""

    def counted(self: HandRuns, player: npt.NDArray[np.int64], banker: npt.NDArray[np.int64],
                starts: npt.NDArray[np.int64]) -> None:
        by_columns[name] = by_columns.get(name, 0) + len(player)
        real(self, player, banker, starts)

    monkeypatch.setattr(HandRuns, "add_columns", counted)
    fast = {}
    for name, path in files.items():
        fast[name] = _runs_of(path)
    hands = len(files["csv"].read_text(encoding="utf-8").splitlines()) - 1
    shoe = len(files["shoe"].read_text(encoding="utf-8").splitlines()) - 1
    assert by_columns == {"csv": hands, "crlf": hands, "shoe": shoe}  # the rest: by records
    monkeypatch.setenv("NINE_VERIFY_PATH", "records")
    by_columns.clear()
    slow = {name: _runs_of(path) for name, path in files.items()}
    assert not by_columns and fast == slow  # the same run hashes kept either way
    # every copy keeps the log's runs; the second shoe's and the fragment's are among them
    level, kept = fast["csv"]
    assert level == 0 and len(kept) == hands - 2 * (WINDOW - 1)  # every run of each shoe
    assert fast["crlf"] == fast["jsonl"] == fast["records"] == (level, kept)
    # without shoe columns a log is one run of hands: also the 3 runs across the shoes' seam
    assert set(fast["bare"][1]) > set(kept) and len(fast["bare"][1]) == hands - WINDOW + 1
    assert len(fast["shoe"][1]) == shoe - WINDOW + 1 and set(fast["shoe"][1]) < set(kept)
    assert len(fast["fragment"][1]) == 12 - WINDOW + 1
    assert set(fast["fragment"][1]) < set(fast["shoe"][1])
