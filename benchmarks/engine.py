"""Exact odds of every bet of the card-level profiles on one 8-deck shoe."""

from __future__ import annotations

import time

from analyzer.engine.odds import odds
from analyzer.rules.shoe import Shoe


def benchmark(repeats: int = 20) -> dict[str, float]:
    """Milliseconds per exact odds table on one full 8-deck shoe, after warm-up.

    ``lucky-baccarat`` is every bet of the profile (six read suits or ranks); ``punto-banco``
    is the values-only baseline measured alongside; ``compile`` is the first, cold call.
    For ``make bench`` (target: lucky-baccarat at most 20 ms).
    """

    shoe = Shoe.decks(8)
    result: dict[str, float] = {}
    for name in ("punto-banco", "lucky-baccarat", "nine-and-nines", "side-bets"):
        start = time.perf_counter()
        odds(name, shoe)
        result[f"{name} compile"] = (time.perf_counter() - start) * 1e3
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            odds(name, shoe)
            best = min(best, time.perf_counter() - start)
        result[name] = best * 1e3
    return result
