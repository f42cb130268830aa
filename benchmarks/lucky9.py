"""Certified equilibria of whole home Lucky 9 tables (issue 10), against the earlier
best-response dynamics measured in the same run.

Every figure solves from nothing: the solver's caches (compiled subgames, solved subgames,
third-card results) are cleared first, so the time includes compiling the extensive form,
CFR+, the exact solve and the exact certificate.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

from analyzer.choice import extensive, multiplayer, subgame
from analyzer.choice.multiplayer import LUCKY9, TableEquilibrium, solve_table
from analyzer.choice.plans import banker_from_strategy, house_banker, house_player
from analyzer.choice.responses import dynamics
from analyzer.choice.table import build_table
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

__all__ = ["bench", "bench_dynamics", "bench_tables", "CASES"]

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
    for cached in (multiplayer._solved, multiplayer._finite, multiplayer._live_ways,  # noqa: SLF001
                   subgame.infinite_subgame, extensive.third_card_result):
        cached.cache_clear()
    build_table.cache_clear()


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


def bench_dynamics(rounds: int = 4) -> tuple[float, float]:
    """The baseline: the earlier best-response dynamics, 3 people at the infinite deck from
    the house rule (``nine solve --players 2 --dynamics --infinite``); seconds and the
    largest exact regret it reaches (never 0 in a few rounds)."""
    _clear()
    start = time.perf_counter()
    game = build_table(LUCKY9, Shoe.infinite(), 2)
    plans = [house_player()] * 2
    found = dynamics(game, plans, banker_from_strategy(game, house_banker()), rounds, "total")
    return time.perf_counter() - start, float(found.regrets.largest)


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the table solver's ``make bench`` figures."""
    del baseline_seconds
    dynamics_seconds, dynamics_regret = bench_dynamics()
    print(f"  baseline: 3-person best-response dynamics, 4 rounds  {dynamics_seconds:8.2f} s"
          f"   (largest regret still {dynamics_regret:.1e})")
    for (label, *_, target), (seconds, table) in zip(CASES, bench_tables().values(),
                                                     strict=True):
        print(f"  {label:<48}{seconds:8.2f} s   ({seconds / dynamics_seconds:.2f}x the "
              f"baseline; regret {table.max_regret}; CFR+ iterations {table.iterations}; "
              f"target <= {target:.0f} s: {'met' if seconds <= target else 'NOT MET'})")
