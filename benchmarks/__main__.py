"""``make bench``: the project's speed figures, each against a baseline run alongside.

Machines here are noisy, so every figure is printed with a ratio against a baseline
measured in the same run: the plain nested-loop enumeration over card values.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from math import perm

import numpy as np

from analyzer.engine.odds import odds
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe
from benchmarks import (
    charts,
    choice,
    deck,
    drift,
    engine,
    lucky9,
    overlap,
    par_pdf,
    startup,
    table,
    targets,
    throughput,
    verify,
)


def plain_enumeration(counts: list[int]) -> tuple[int, int, int]:
    """Baseline: four nested loops over card values plus third cards, exact integers.

    Returns ordered 6-card counts (banker, player, tie), as the published convention does.
    """
    n = sum(counts)
    c = list(counts)
    banker = player = tie = 0

    def settle(p: int, b: int, ways: int, used: int) -> None:
        nonlocal banker, player, tie
        ways *= perm(n - used, 6 - used)
        if p > b:
            player += ways
        elif b > p:
            banker += ways
        else:
            tie += ways

    for p1 in range(10):
        w1 = c[p1]
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                c[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    if w4 == 0:
                        continue
                    c[b2] -= 1
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8:
                        settle(p, b, w4, 4)
                    elif p <= 5:
                        for p3 in range(10):
                            w5 = w4 * c[p3]
                            if w5 == 0:
                                continue
                            c[p3] -= 1
                            pf = (p + p3) % 10
                            draw = (b <= 2 or (b == 3 and p3 != 8) or (b == 4 and 2 <= p3 <= 7)
                                    or (b == 5 and 4 <= p3 <= 7) or (b == 6 and p3 in (6, 7)))
                            if draw:
                                for b3 in range(10):
                                    if c[b3]:
                                        settle(pf, (b + b3) % 10, w5 * c[b3], 6)
                            else:
                                settle(pf, b, w5, 5)
                            c[p3] += 1
                    elif b <= 5:
                        for b3 in range(10):
                            if c[b3]:
                                settle(p, (b + b3) % 10, w4 * c[b3], 5)
                    else:
                        settle(p, b, w4, 4)
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return banker, player, tie


def best_of(func: Callable[[], object], repeat: int, number: int = 1) -> float:
    """Best wall-clock seconds per call over ``repeat`` rounds of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def depleted_shoes(count: int, decks: int = 8, seed: int = 1) -> np.ndarray:
    """Value counts of ``count`` random depleted shoes (10 to 300 cards dealt)."""
    generator = random.Random(seed)
    full = Shoe.decks(decks).value_counts()
    cards = [v for v, n in enumerate(full) for _ in range(n)]
    rows = np.empty((count, 10), dtype=np.int64)
    for i in range(count):
        generator.shuffle(cards)
        left = cards[generator.randrange(10, 300):]
        rows[i] = np.bincount(left, minlength=10)
    return rows


def main() -> None:
    """Print every benchmark figure with its baseline ratio."""
    shoe = Shoe.decks(8)
    print("nine-analyzer benchmarks (best of several runs; ratios against the same run)")
    baseline = best_of(lambda: plain_enumeration(list(shoe.value_counts())), 3)
    assert plain_enumeration(list(shoe.value_counts()))[0] == 2292252566437888
    print(f"  baseline: plain nested-loop enumeration, 8 decks      {baseline * 1e3:9.2f} ms")

    profile = load_profile("punto-banco")
    odds(profile, shoe)  # warm-up: compile the profile once
    engine = best_of(lambda: odds(profile, shoe), 5, 20)
    print(f"  exact main-bet odds, one 8-deck shoe         {engine * 1e3:9.3f} ms"
          f"   ({baseline / engine:,.0f}x faster than baseline; target <= 1 ms)")
    removed = Shoe.decks(8).remove(shoe.cards()[:40])
    engine_depleted = best_of(lambda: odds(profile, removed), 5, 20)
    print(f"  exact main-bet odds, a depleted 8-deck shoe  "
          f"{engine_depleted * 1e3:9.3f} ms")

    targets.main(depleted_shoes(10_000), with_tables=False)
    startup.bench()
    _side_bet_figures(engine)
    choice.bench(baseline)
    table.bench(baseline)
    lucky9.bench(baseline)
    deck.bench(baseline)
    charts.bench(baseline)
    verify.bench(baseline)
    throughput.bench()
    overlap.bench()
    drift.bench(baseline)
    par_pdf.bench(baseline)
    seconds = targets.tables_seconds()
    print(f"  `nine tables` (every published table), cold   {seconds:9.1f} s"
          f"    (target <= 15 s: {'met' if seconds <= 15 else 'NOT MET'}; "
          f"< 3 min with the certified Lucky 9 tables: {'met' if seconds < 180 else 'NOT MET'}"
          f"; {seconds / baseline:,.0f}x the baseline)")


def _side_bet_figures(punto_banco_seconds: float) -> None:
    """Every bet of the card-level profiles, exact, one 8-deck shoe."""
    figures = engine.benchmark(10)
    for name in ("lucky-baccarat", "nine-and-nines", "side-bets"):
        print(f"  {name + ', every bet, exact, 8 decks':44s} {figures[name]:9.2f} ms"
              f"   ({figures[name] / (punto_banco_seconds * 1e3):.1f}x punto banco; "
              "target <= 20 ms)")
    print(f"  punto banco with the card engine shipped     {figures['punto-banco']:9.3f}"
          f" ms   (values-only profiles not slowed: {punto_banco_seconds * 1e3:.3f} ms above)")


def _shoe_of(row: np.ndarray) -> Shoe:
    """A shoe with these point-value counts (ranks chosen arbitrarily within a value)."""
    counts = [0] * 52
    for value, n in enumerate(row.tolist()):
        rank = 10 if value == 0 else value
        base = (rank - 1) * 4
        for i in range(n):
            counts[base + i % 4] += 1
    return Shoe(tuple(counts), label="depleted")


if __name__ == "__main__":
    main()
