"""The exact multi-player Lucky 9 evaluation at one deck."""

from __future__ import annotations

import time

from analyzer.choice.plans import LUCKY9_RULES, banker_from_strategy, house_banker, house_player
from analyzer.choice.responses import seat_values
from analyzer.choice.table import build_table
from analyzer.rules.shoe import Shoe


def bench_table(repeats: int = 2) -> float:
    """Seconds (best of ``repeats``) for the 3-person exact evaluation at one deck: build the
    table, every seat's value and the banker's value, house rule on both sides."""
    rules = LUCKY9_RULES()
    best = float("inf")
    for _ in range(repeats):
        begin = time.perf_counter()
        game = build_table.__wrapped__(rules, Shoe.decks(1), 2)  # uncached: build included
        plans = [house_player()] * 2
        seat_values(game, plans, banker_from_strategy(game, house_banker()))
        best = min(best, time.perf_counter() - begin)
    return best


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the table game's ``make bench`` figure."""
    seconds = bench_table()
    ratio = (f" ({seconds / baseline_seconds:,.1f}x the baseline's time)" if baseline_seconds
             else "")
    print(f"  3-person exact evaluation, one deck           {seconds * 1e3:9.0f} ms"
          f"{ratio}   (target <= 10 s)")
