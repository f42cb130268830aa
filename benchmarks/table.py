"""The exact multi-player Lucky 9 evaluation at one deck (the certified table's model)."""

from __future__ import annotations

import time

from analyzer.choice.strategy import load_strategy
from analyzer.choice.table import solve as table_solve
from analyzer.choice.table.strategy import evaluate_strategies
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.shoe import Shoe


def bench_table(repeats: int = 2) -> float:
    """Seconds (best of ``repeats``) for the 3-person exact evaluation at one deck: every
    subgame built, every side's exact value and regret, house rule on both sides."""
    best = float("inf")
    for _ in range(repeats):
        table_solve._finite.cache_clear()  # noqa: SLF001 - uncached: subgames built
        begin = time.perf_counter()
        evaluate_strategies(LUCKY9, Shoe.decks(1), 2, "total",
                            load_strategy("house", "player"), load_strategy("house", "banker"))
        best = min(best, time.perf_counter() - begin)
    return best


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the table game's ``make bench`` figure."""
    seconds = bench_table()
    ratio = (f" ({seconds / baseline_seconds:,.1f}x the baseline's time)" if baseline_seconds
             else "")
    print(f"  3-person exact evaluation, one deck           {seconds * 1e3:9.0f} ms"
          f"{ratio}   (target <= 10 s)")
