"""Certified heads-up equilibria of the choice games."""

from __future__ import annotations

import time

from analyzer.choice.headsup.solver import solve
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe


def bench_solver(repeats: int = 3) -> dict[str, float]:
    """Seconds (best of ``repeats``) for certified heads-up ``--by cards`` equilibria.

    Keys: ``lucky9 1 deck``, ``lucky9 8 decks``, ``lucky9 infinite``, ``chemin de fer 6
    decks``; each figure includes building the game, both LPs, the exact solution and the
    certificate.
    """
    cases = {"lucky9 1 deck": ("lucky9-home", Shoe.decks(1)),
             "lucky9 8 decks": ("lucky9-home", Shoe.decks(8)),
             "lucky9 infinite": ("lucky9-home", Shoe.infinite()),
             "chemin de fer 6 decks": ("chemin-de-fer", Shoe.decks(6))}
    figures: dict[str, float] = {}
    for name, (profile, shoe) in cases.items():
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            result = solve(profile, shoe, "cards")
            best = min(best, time.perf_counter() - start)
            if not result.certificate.certified:
                raise AnalyzerError(f"benchmark {name}: equilibrium not certified")
        figures[name] = best
    return figures


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the solver's ``make bench`` figures."""
    for name, seconds in bench_solver().items():
        print(f"  certified equilibrium --by cards, {name:<22}{seconds * 1e3:9.1f} ms"
              "   (target <= 1 s)")
