"""Certified equilibria of whole home Lucky 9 tables (issue 10).

Every figure solves from nothing: the solver's caches (compiled subgames, solved subgames,
third-card results) are cleared first, so the time includes compiling the extensive form,
CFR+, the exact solve and the exact certificate.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

from analyzer.choice.table import solve, subgame, tree
from analyzer.choice.table.dealt import compositions
from analyzer.choice.table.solve import TableEquilibrium, solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

__all__ = ["bench", "bench_tables", "CASES"]

#: (label, players, shoe, by, target seconds)
CASES = (("3 people, infinite deck, by total, certified", 2, None, "total", 2.0),
         ("9 people, infinite deck, by total, certified", 8, None, "total", 60.0),
         ("3 people, 1 deck, by cards, exact and certified", 2, 1, "cards", 2.0))


def _preload() -> None:
    """Import what the solver imports on first use (sympy for the equations elimination
    leaves, scipy.optimize for the heads-up linear programs), so a figure times the solve,
    not a one-time import (a few tenths of a second, paid once per process)."""
    importlib.import_module("sympy")
    importlib.import_module("scipy.optimize")


def _clear() -> None:
    for cached in (solve._solved, solve._finite, compositions.live_ways,  # noqa: SLF001
                   subgame.infinite_subgame, tree.third_card_result):
        cached.cache_clear()


def _timed(func: Callable[[], TableEquilibrium]) -> tuple[float, TableEquilibrium]:
    _preload()
    _clear()
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def bench_tables() -> dict[str, tuple[float, TableEquilibrium]]:
    """Seconds and the result for each case of :data:`CASES` (every one must certify)."""
    figures = {}
    for label, players, decks, by, _ in CASES:
        shoe = Shoe.infinite() if decks is None else Shoe.decks(decks)
        seconds, table = _timed(lambda p=players, s=shoe, b=by: solve_table(LUCKY9, s, p, b))
        if not table.certified:
            raise AnalyzerError(f"benchmark {label}: not certified")
        figures[label] = (seconds, table)
    return figures


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the table solver's ``make bench`` figures."""
    del baseline_seconds
    for (label, *_, target), (seconds, table) in zip(CASES, bench_tables().values(),
                                                     strict=True):
        print(f"  {label:<48}{seconds:8.2f} s   (regret {table.max_regret}; "
              f"CFR+ iterations {table.iterations}; "
              f"target <= {target:.0f} s: {'met' if seconds <= target else 'NOT MET'})")
