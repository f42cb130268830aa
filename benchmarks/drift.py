"""Odds across the shoe: batch compositions per second, whole simulated shoes, four-card forms."""

from __future__ import annotations

import time

import numpy as np

from analyzer.analysis.drift import remaining_before_hands, shoe_positions, simulate_shoes
from analyzer.engine.forms import FourCardForm
from analyzer.engine.lookup import build_model
from analyzer.engine.shoe_aware import shoe_evaluator
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile


def bench(baseline_seconds: float) -> None:
    """``make bench`` figures of batch compositions/s and 1,000 eight-deck shoes."""
    name = "lucky-baccarat"
    try:
        profile = load_profile(name)
    except AnalyzerError:
        name = "punto-banco"
        profile = load_profile(name)
    evaluator = shoe_evaluator(build_model(profile, 8))
    orders, starts = shoe_positions(profile, 8, 130, 2024)
    rows = np.concatenate([remaining_before_hands(o, s, 8)
                           for o, s in zip(orders, starts, strict=True)])[:10_000]
    evaluator.ev(rows[:300])
    begin = time.perf_counter()
    evaluator.ev(rows)
    batch = time.perf_counter() - begin
    print(f"  shoe evaluator, {name}, {rows.shape[0]:,} depleted shoes "
          f"{batch * 1e3:9.1f} ms   = {rows.shape[0] / batch:,.0f} compositions/s "
          f"(target >= 10,000/s; {evaluator.method})")
    run = simulate_shoes(profile, 8, 1000, 1, evaluator=evaluator)
    print(f"  1,000 eight-deck shoes of {name}, {run.hands_dealt:,} hands "
          f"{run.seconds:9.2f} s    ({run.seconds / baseline_seconds:,.0f}x baseline; "
          "target < 60 s)")


#: The bets on both hands' first two cards measured by :func:`four_card_benchmark`.
FOUR_CARD_BENCH = {"side-bets": ("either-pair", "perfect-pair", "perfect-pair-both"),
                   "nine-and-nines": ("nines",)}


def four_card_benchmark(compositions: int = 10_000, repeats: int = 3) -> dict[str, float]:
    """Compositions per second of the four-card forms, per profile (all its bets together).

    Rows are the cards left before every hand of seeded 8-deck shoes; best of ``repeats``.
    """
    result: dict[str, float] = {}
    for name, bet_ids in FOUR_CARD_BENCH.items():
        profile = load_profile(name)
        index = {bet.id: i for i, bet in enumerate(profile.bets)}
        forms = [form for bet in bet_ids
                 if (form := FourCardForm.for_bet(profile, index[bet])) is not None]
        orders, starts = shoe_positions(profile, 8, compositions // 70 + 1, 2024)
        rows = np.concatenate([remaining_before_hands(o, s, 8)
                               for o, s in zip(orders, starts, strict=True)])[:compositions]
        for form in forms:
            form.evaluate(rows[:100])
        best = float("inf")
        for _ in range(repeats):
            begin = time.perf_counter()
            for form in forms:
                form.evaluate(rows)
            best = min(best, time.perf_counter() - begin)
        result[name] = rows.shape[0] / best
    return result
