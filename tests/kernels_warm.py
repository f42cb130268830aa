"""Compile numba's kernels once per test session, one kind per xdist worker.

With numba's cache empty (a fresh clone, as in CI) every worker process that reaches a
kernel compiles it, so two workers compiled the same code side by side: about 20 s of CPU
twice. Here each worker warms one kind under a lock shared by the session (the first worker
the engine's kernels, the second the table evaluator's), then the other kind, which by then
only loads from the cache the first wrote (about half a second).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
from filelock import FileLock

from analyzer.choice.table.dealt.game import dealt_subgame
from analyzer.choice.table.exact.evaluation import exact_counterfactual
from analyzer.choice.table.exact.ring import Float
from analyzer.choice.table.tree import LUCKY9
from analyzer.engine.evaluator import BatchEvaluator
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import ValueForm
from analyzer.rules.shoe import Shoe


def _engine() -> None:
    """The exact tally (int64), the batch kernel and the shoe-aware grouped kernel."""
    odds("punto-banco", Shoe.decks(1), "numba")
    rows = np.array([Shoe.decks(1).value_counts()] * 2, dtype=np.int64)
    BatchEvaluator.for_profile("punto-banco").evaluate(rows, kernel="numba")
    ValueForm(build_model("punto-banco", 1), compact=True).evaluate(
        rows.astype(np.float64), kernel="numba")


def _table() -> None:
    """The dealt table walk in both rings: residues (exact; by total through the exact
    matrix, by cards through the pair tables) and floats."""
    for by in ("cards", "total"):
        game = dealt_subgame(LUCKY9, (4, 0, 0, 0, 4, 4, 0, 0, 0, 0), 1, by, "warm-up")
        seats = [[[Fraction(1, 2)] * len(game.seat_classes)]]
        bank = [[Fraction(1, 2)] * 2 for _ in game.bank_classes]
        exact_counterfactual(game, seats, bank)
    game.counterfactual(Float(), [np.full((1, len(game.seat_classes), 2), 0.5)],
                        np.full((len(game.bank_classes), 2, 2), 0.5))


KINDS: tuple[tuple[str, Callable[[], None]], ...] = (("engine", _engine), ("table", _table))


def warm(worker: int, folder: Path) -> None:
    """Warm every kind, starting with the one this worker owns; a lock per kind in
    ``folder`` (shared by the session's workers) lets one compile while the other waits."""
    start = worker % len(KINDS)
    for name, compile_kind in KINDS[start:] + KINDS[:start]:
        with FileLock(str(folder / f"numba-{name}.lock")):
            compile_kind()
