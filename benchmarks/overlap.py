"""``make bench``: the cost of finding the same hands counted twice (issue 25: <= 5%).

``nine verify`` hashes every run of hands of each input by content
(:mod:`analyzer.verify.overlap`). Its cost is measured in one process on one simulated
8-deck punto banco CSV log: the whole verification (independent model) timed in turns with
the run hashing left out (:class:`_NoRuns`, which keeps no hash), best of ``rounds`` CPU
times each, on the column-wise reader and on the record-by-record path.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from analyzer.dealing.simulate import simulate
from analyzer.verify import check, columnar
from analyzer.verify.overlap import HandRuns
from analyzer.verify.run import verify_logs

__all__ = ["bench", "overlap_cost"]


class _NoRuns(HandRuns):
    """The same interface, hashing nothing: the verification without the content check."""

    def add_columns(self, player: npt.NDArray[np.int64], banker: npt.NDArray[np.int64],
                    starts: npt.NDArray[np.int64]) -> None:
        return None

    def flush(self, everything: bool = False) -> None:
        del self.keys[:]
        self.cuts = []


@contextmanager
def _without_runs() -> Iterator[None]:
    modules = (check, columnar)
    saved = [module.__dict__["HandRuns"] for module in modules]
    for module in modules:
        module.__dict__["HandRuns"] = _NoRuns
    try:
        yield
    finally:
        for module, runs in zip(modules, saved, strict=True):
            module.__dict__["HandRuns"] = runs


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


def _cpu(path: Path) -> float:
    start = time.process_time()
    verify_logs([str(path)], "punto-banco", model_name="independent")
    return time.process_time() - start


def overlap_cost(hands: int = 200_000, rounds: int = 3) -> dict[str, tuple[float, float]]:
    """(CPU seconds with the content check, without it), best of ``rounds`` in turns, for
    the column-wise reader and the record path."""
    results: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "hands.csv"
        with path.open("w", encoding="utf-8", newline="") as stream:
            simulate("punto-banco", 8, max(1, round(hands / 80.8)), 1, stream, "csv")
        for name, records in (("columns", False), ("records", True)):
            with _path(records):
                _cpu(path)  # warm: the model compiled once
                with_check, without = [], []
                for _ in range(rounds):
                    with_check.append(_cpu(path))
                    with _without_runs():
                        without.append(_cpu(path))
            results[name] = (min(with_check), min(without))
    return results


def bench(hands: int = 200_000) -> None:
    """Print the content check's share of ``nine verify``'s CPU time."""
    load = os.getloadavg()[0]
    for name, (with_check, without) in overlap_cost(hands).items():
        cost = with_check / without - 1
        print(f"  same hands twice (content check), {name + ' path':13s} "
              f"{cost * 100:+6.1f}%   ({with_check:.2f} s CPU against {without:.2f} s "
              f"without it, {hands:,} hands; target <= 5%: "
              f"{'met' if cost <= 0.05 else 'NOT MET'}; load {load:.1f})")


if __name__ == "__main__":
    bench()
