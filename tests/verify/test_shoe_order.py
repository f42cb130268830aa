"""Whole shoes reach the shuffle tests in the order they opened, on every path: the
"previous shoe" of the carried-over-order test is the same whether a log is checked
column-wise, record by record or in pieces (issue 24)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from analyzer.dealing import segments
from analyzer.dealing.handlog import LogOptions
from analyzer.dealing.records import make_hand
from analyzer.dealing.simulate import simulate
from analyzer.engine.lookup import build_model
from analyzer.present.report.verify import verdict_json
from analyzer.verify.partial import IssueLog
from analyzer.verify.run import Work, _split, verify_logs
from analyzer.verify.shoes import OPEN_SHOES, ShoeTracker
from tests.verify.test_columnar import _both


def _one_hand_shoes(tmp_path: Path, hand_column: bool, shoes: int = 3, seed: int = 4
                    ) -> Path:
    """A simulated log whose every row is a shoe of its own (``s0``, ``s1`` ...): each a
    whole one-hand shoe, and the simulated shoes' last rows keep their ``cards_left``, so
    the reference closes those shoes at once, before the 63 shoes opened just before them
    (still open in case they go on)."""
    buffer = io.StringIO()
    simulate("punto-banco", 8, shoes, seed, buffer, "csv")
    header, *rows = buffer.getvalue().splitlines()
    names = header.split(",")
    shoe, hand, left = names.index("shoe"), names.index("hand"), names.index("cards_left")
    drop = set() if hand_column else {hand}
    lines = [",".join(c for k, c in enumerate(names) if k not in drop)]
    for n, row in enumerate(rows):
        cells = row.split(",")
        cells[shoe], cells[hand] = f"s{n}", "1"
        lines.append(",".join(c for k, c in enumerate(cells) if k not in drop))
    ended = [n for n, row in enumerate(rows) if row.split(",")[left]]
    assert len(ended) == shoes and ended[0] > OPEN_SHOES  # a shoe ends while 64 are open
    path = tmp_path / f"one-hand-{hand_column}.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("shoe_aware", [False, True])
@pytest.mark.parametrize("hand_column", [False, True])
def test_one_hand_shoes_give_the_reference_partial_bit_for_bit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hand_column: bool,
        shoe_aware: bool) -> None:
    """The reference handed a shoe ended by its ``cards_left`` to the shuffle tally before
    the shoes opened before it: its carried-over sums (Poisson mean 6.28 against the
    column-wise 6.29 at 215,667 hands) were of other pairs of shoes."""
    path = _one_hand_shoes(tmp_path, hand_column)
    fast, reference, taken = _both(path, shoe_aware, monkeypatch)
    assert taken  # the column-wise path read it
    assert fast.shuffle is not None and reference.shuffle is not None
    assert reference.shuffle.carry_fixed == fast.shuffle.carry_fixed
    assert reference.shuffle.carry_runs == fast.shuffle.carry_runs
    assert reference.shuffle.lengths == fast.shuffle.lengths
    assert reference == fast
    assert fast.shuffle.shoes == fast.shoes == fast.hands > 200
    assert fast.shuffle.carry_pairs == fast.shoes - 1


def _report(path: Path, jobs: int) -> str:
    report = verdict_json(verify_logs([str(path)], "punto-banco", jobs=jobs, exact_hands=0))
    del report["files"]
    return json.dumps(report)


@pytest.mark.parametrize("hand_column", [False, True])
def test_one_hand_shoes_give_one_report_on_every_path_and_jobs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hand_column: bool) -> None:
    """Column-wise or record by record, in one process or two: one report, byte for
    byte (with a hand column the log is cut between two shoes; without one it is not
    cut, a hand's number being its place in its shoe)."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _one_hand_shoes(tmp_path, hand_column, shoes=2)
    work = Work(str(path), "csv", "punto-banco", 8, LogOptions(cards="cards"), True, True)
    assert len(_split([work], 2)) == (2 if hand_column else 1)
    one = _report(path, 1)
    assert '"shuffle: shoe order carried over"' in one
    assert _report(path, 2) == one
    monkeypatch.setenv("NINE_VERIFY_PATH", "records")
    assert _report(path, 1) == one
    assert _report(path, 2) == one


def _hand(line: int, shoe: str, number: int) -> object:
    """A hand of four cards, distinct per line (no shoe runs short of a card)."""
    c = (4 * line) % 52
    return make_hand(line, shoe, number, (c, c + 1), (c + 2, c + 3), ())


def test_a_shoe_waited_for_is_closed_when_too_many_wait() -> None:
    """Shoes closed by their end while one opened before them is still open wait for it
    (kept in order), at most OPEN_SHOES of them: then the one they wait for is closed,
    as the least recently dealt is when too many are open; nothing is handed on twice
    or lost."""
    model = build_model("punto-banco", 8)
    order: list[list[int]] = []
    shoes = ShoeTracker(model, IssueLog("log.csv"), on_whole_shoe=order.append)
    most = 0
    for k in range(3 * OPEN_SHOES):
        rec = _hand(k + 1, f"s{k}", 1)
        shoes.hand(rec)  # type: ignore[arg-type]
        shoes.deal(rec)  # type: ignore[arg-type]
        if k % 50:  # s0, s50, s100 ... have no end: open until the others make them close
            shoes.shoe_end(f"s{k}")
        most = max(most, len(shoes.waiting))
    shoes.close_shoe()
    assert most == OPEN_SHOES
    assert shoes.shoes == len(order) == 3 * OPEN_SHOES and not shoes.waiting
    firsts = [sequence[0] for sequence in order]
    assert firsts == [(4 * line) % 52 for line in range(1, 3 * OPEN_SHOES + 1)]
    assert shoes.whole_shoes == 3 * OPEN_SHOES
