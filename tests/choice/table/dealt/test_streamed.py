"""The streamed float walk gives the breadth-first walk's floats bit for bit, at every split
level, for the seats' side, the bank's side, both, and the reach pass."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from analyzer.choice.table.dealt import game as game_module
from analyzer.choice.table.dealt.game import dealt_subgame
from analyzer.choice.table.dealt.streamed import split_level
from analyzer.choice.table.exact.ring import Float
from analyzer.choice.table.tree import LUCKY9

SHOE = (15, 4, 4, 4, 4, 4, 4, 4, 4, 3)


def _plays(game: Any, seed: int, whole: bool) -> tuple[list[Any], Any]:
    """Random seat plays (some cells pure) and a bank play whose two action weights sum to
    one in every cell (``whole``) or not (the terminal step's two branches)."""
    rng = np.random.default_rng(seed)
    seats = []
    for k in range(game.live):
        draw = rng.random((2**k, len(game.seat_classes)))
        draw[:, :3] = 0.0
        seats.append(np.stack([1 - draw, draw], -1))
    draw = rng.random((len(game.bank_classes), game.vectors))
    bank = np.stack([1 - draw, draw if whole else draw * 0.5], -1)
    return seats, bank


@pytest.mark.parametrize(("live", "by", "whole", "lows", "sides"), [
    (3, "cards", True, (1, 2), ("all", "seats", "bank")),
    (3, "total", False, (1, 2), ("all", "seats", "bank")),
    (4, "cards", False, (3,), ("all",))])
def test_every_split_level_gives_the_breadth_first_floats(
        monkeypatch: pytest.MonkeyPatch, live: int, by: str, whole: bool,
        lows: tuple[int, ...], sides: tuple[str, ...]) -> None:
    """Three live seats at every split level and side; four (a walk costs seconds there)
    split below the third seat, both sides at once."""
    game = dealt_subgame(LUCKY9, SHOE, live, by, "test")
    seats, bank = _plays(game, live, whole)
    ring = Float()
    wanted = {side: game._walk(ring, seats, bank, side) for side in sides}
    reach = game._walk(ring, seats, bank, "all", unit=True)
    assert wanted["all"][1].any() and all(v.any() for v in wanted["all"][0])
    for low in lows:
        monkeypatch.setattr(game_module, "split_level", lambda live, size, low=low: low)
        for side, (seat_values, bank_values) in wanted.items():
            found_seats, found_bank = game._walk(ring, seats, bank, side)
            assert len(found_seats) == len(seat_values)
            assert all(np.array_equal(a, b) for a, b in zip(found_seats, seat_values,
                                                            strict=True)), (low, side)
            if side != "seats":
                assert np.array_equal(found_bank, bank_values), (low, side)
        found_seats, found_bank = game._walk(ring, seats, bank, "all", unit=True)
        assert all(np.array_equal(a, b) for a, b in zip(found_seats, reach[0], strict=True))
        assert np.array_equal(found_bank, reach[1])


def test_a_changed_play_below_one_prefix_changes_only_its_subtree_and_earlier_seats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The split is not a no-op: the last seat's play after one prefix of choices moves the
    bank's values at that prefix's vectors only, in both walks alike."""
    game = dealt_subgame(LUCKY9, SHOE, 3, "total", "test")
    seats, bank = _plays(game, 7, True)
    ring = Float()
    changed = [s.copy() for s in seats]
    changed[2][3] = changed[2][3][:, ::-1]  # after choices (drew, drew) the last seat flips
    before = game._walk(ring, seats, bank, "bank")[1]
    after = game._walk(ring, changed, bank, "bank")[1]
    moved = np.nonzero(np.any(before != after, axis=(0, 2)))[0].tolist()
    assert moved == [6, 7]
    monkeypatch.setattr(game_module, "split_level", lambda live, size: 2)
    assert np.array_equal(game._walk(ring, changed, bank, "bank")[1], after)


@pytest.mark.parametrize(("live", "compositions", "low"), [
    (5, 74_396, 0), (6, 192_950, 0), (7, 405_350, 2), (8, 710_675, 4)])
def test_the_split_level_keeps_a_subtrees_last_array_within_two_gigabytes(
        live: int, compositions: int, low: int) -> None:
    """10 / 12 / 14 / 16 cards of one deck: 74,396 / 192,950 / 405,350 / 710,675
    compositions (``Levels``); the last array (0.2 / 2.0 / 8.3 / 29 GB breadth first) at
    most 2 GiB a subtree, in as few subtrees as that allows."""
    assert split_level(live, compositions) == low
    assert (compositions * 160) << (live - low) <= 2**31
    if low:
        assert (compositions * 160) << (live - low + 1) > 2**31
