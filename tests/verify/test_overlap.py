"""Runs of hands by content: the same keys and hashes whichever way a log is read."""

from __future__ import annotations

import numpy as np

from analyzer.verify.overlap import (
    CHUNK,
    KEPT,
    WINDOW,
    HandRuns,
    _keys,
    _run_hashes,
    hand_key,
    merge_runs,
)


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
    assert merge_runs([]) == (0, ())
