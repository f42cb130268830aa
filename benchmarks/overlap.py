"""``make bench``: the cost of finding the same hands counted twice (issue 25: <= 5%).

``nine verify`` hashes every run of hands of each input by content
(:mod:`analyzer.verify.overlap`). Its cost is measured in one process on one simulated
8-deck punto banco CSV log: the whole verification (independent model) is timed (CPU
time of the process) in pairs, with the content check and with the run hashing left out
(:class:`_NoRuns`, which keeps no hash), the two in alternate order from pair to pair, on
the column-wise reader and on the record-by-record path. The figure is the median of the
pairs' ratios, with the middle half of them as its spread; beside it, the time spent
inside the content check's own methods (:class:`_TimedRuns`), as a share of the rest:
a figure that a loaded machine's noise moves much less. Record by record, each hand's key
(one tuple hash, inline in the reader's loop) is computed on both sides of a pair: the
ratios leave it out, and the figure timed inside adds it, timed alone
(:func:`_inline_keys`).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from analyzer.dealing.simulate import simulate
from analyzer.verify import check, columnar
from analyzer.verify.overlap import CHUNK, HandRuns
from analyzer.verify.run import verify_logs

__all__ = ["PAIRS", "Cost", "bench", "overlap_cost"]

#: Pairs of runs (with the check, without it) timed on each path: about 15 s each.
PAIRS = {"columns": 25, "records": 5}


class _NoRuns(HandRuns):
    """The same interface, hashing nothing: the verification without the content check."""

    def add_columns(self, player: npt.NDArray[np.int64], banker: npt.NDArray[np.int64],
                    starts: npt.NDArray[np.int64]) -> None:
        return None

    def flush(self, everything: bool = False) -> None:
        del self.keys[:]
        self.cuts = []


class _TimedRuns(HandRuns):
    """The content check itself, its CPU time added up (outermost calls only)."""

    seconds = 0.0
    depth = 0

    def add_columns(self, player: npt.NDArray[np.int64], banker: npt.NDArray[np.int64],
                    starts: npt.NDArray[np.int64]) -> None:
        self._timed(lambda: super(_TimedRuns, self).add_columns(player, banker, starts))

    def flush(self, everything: bool = False) -> None:
        self._timed(lambda: super(_TimedRuns, self).flush(everything))

    def sums(self) -> tuple[int, tuple[int, ...]]:
        out: list[tuple[int, tuple[int, ...]]] = []
        self._timed(lambda: out.append(super(_TimedRuns, self).sums()))
        return out[0]

    @staticmethod
    def _timed(call: Callable[[], object]) -> None:
        _TimedRuns.depth += 1
        start = time.process_time()
        try:
            call()
        finally:
            _TimedRuns.depth -= 1
            if not _TimedRuns.depth:
                _TimedRuns.seconds += time.process_time() - start


@contextmanager
def _runs_class(runs: type[HandRuns]) -> Iterator[None]:
    modules = (check, columnar)
    saved = [module.__dict__["HandRuns"] for module in modules]
    for module in modules:
        module.__dict__["HandRuns"] = runs
    try:
        yield
    finally:
        for module, kept in zip(modules, saved, strict=True):
            module.__dict__["HandRuns"] = kept


@contextmanager
def _path(records: bool) -> Iterator[None]:
    before = os.environ.pop("NINE_VERIFY_PATH", None)
    if records:
        os.environ["NINE_VERIFY_PATH"] = "records"
    try:
        yield
    finally:
        os.environ.pop("NINE_VERIFY_PATH", None)
        if before is not None:
            os.environ["NINE_VERIFY_PATH"] = before


def _cpu(path: Path, runs: type[HandRuns]) -> float:
    with _runs_class(runs):
        start = time.process_time()
        verify_logs([str(path)], "punto-banco", model_name="independent")
        return time.process_time() - start


def _inline_keys(hands: int) -> float:
    """CPU seconds of the record path's inline statements for ``hands`` hands (a key
    appended, the chunk's length tested), less the same loop without them."""
    rng = np.random.default_rng(0)
    cards = rng.integers(0, 52, (hands, 6)).tolist()
    pairs = [(tuple(c[:2 + (i & 1)]), tuple(c[3:5 + (i % 3 == 0)]))
             for i, c in enumerate(cards)]
    keys = array("q")
    start = time.process_time()
    for player, banker in pairs:
        keys.append(hash((player, banker)))
        if len(keys) >= CHUNK:
            del keys[:]
    middle = time.process_time()
    for _player, _banker in pairs:
        pass
    return max(0.0, 2 * middle - start - time.process_time())


@dataclass(frozen=True)
class Cost:
    """The content check's cost on one path: ratios of CPU time, with it to without it."""

    pairs: int
    median: float  # of the pairs' ratios, less 1
    low: float  # the middle half of the ratios (quartiles), less 1
    high: float
    with_check: float  # median CPU seconds of a whole verification
    without: float
    inside: float  # median share of the check's own methods (and inline keys), against the rest


def _cost(path: Path, pairs: int, inline: float = 0.0) -> Cost:
    _cpu(path, HandRuns)  # warm: the model compiled once, the file in the page cache
    ratios, with_check, without, inside = [], [], [], []
    for i in range(pairs):
        _TimedRuns.seconds = 0.0
        if i % 2:  # in alternate order: a machine speeding up or slowing down cancels
            off = _cpu(path, _NoRuns)
            on = _cpu(path, _TimedRuns)
        else:
            on = _cpu(path, _TimedRuns)
            off = _cpu(path, _NoRuns)
        ratios.append(on / off)
        with_check.append(on)
        without.append(off)
        check = _TimedRuns.seconds + inline
        inside.append(check / (on - check))
    quartiles = statistics.quantiles(ratios, n=4) if pairs > 1 else ratios * 3
    return Cost(pairs, statistics.median(ratios) - 1, quartiles[0] - 1, quartiles[2] - 1,
                statistics.median(with_check), statistics.median(without),
                statistics.median(inside))


def overlap_cost(hands: int = 200_000, pairs: dict[str, int] | None = None
                 ) -> dict[str, Cost]:
    """The content check's cost on ``hands`` simulated hands, by columns and record by
    record (``pairs``: how many pairs of runs on each, :data:`PAIRS` by default)."""
    counts = PAIRS if pairs is None else pairs
    results: dict[str, Cost] = {}
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "hands.csv"
        with path.open("w", encoding="utf-8", newline="") as stream:
            simulate("punto-banco", 8, max(1, round(hands / 80.8)), 1, stream, "csv")
        for name, count in counts.items():
            with _path(name == "records"):
                results[name] = _cost(path, count,
                                      _inline_keys(hands) if name == "records" else 0.0)
    return results


def bench(hands: int = 200_000) -> None:
    """Print the content check's share of ``nine verify``'s CPU time."""
    load = os.getloadavg()[0]
    for name, cost in overlap_cost(hands).items():
        print(f"  same hands twice (content check), {name + ' path':13s} "
              f"{cost.median * 100:+6.1f}%   (target <= 5%: "
              f"{'met' if cost.median <= 0.05 else 'NOT MET'}; median of {cost.pairs} pairs "
              f"in turns, middle half {cost.low * 100:+.1f}% to {cost.high * 100:+.1f}%; "
              f"{cost.with_check:.2f} s CPU against {cost.without:.2f} s without it; "
              f"timed inside {cost.inside * 100:.1f}%; {hands:,} hands; load {load:.1f})")


if __name__ == "__main__":
    bench()
