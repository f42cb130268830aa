"""Compile numba's kernels once per test session, the work shared by the xdist workers.

With numba's cache empty (a fresh clone, as in CI) every worker process that reaches a
kernel compiles it, so two workers compiled the same code side by side: about 20 s of CPU
twice. Here the kernels are warmed in three kinds, each under a lock shared by the session:
the first worker compiles the engine's kernels then the dealt table walk's float kernels,
the second the walk's exact (residue) kernels, then each takes the kinds the other compiled,
which by then only load from the cache it wrote (under a second each).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
from filelock import FileLock

from analyzer.choice.table.dealt.game import DealtSubgame, dealt_subgame
from analyzer.choice.table.exact.evaluation import exact_counterfactual
from analyzer.choice.table.exact.ring import Float
from analyzer.choice.table.tree import LUCKY9
from analyzer.engine.evaluator import BatchEvaluator
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import ValueForm
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.moments import ShoeMoments

#: A dealt subgame of one live seat on twelve cards (three point values), by cards and total.
_SHOE = (4, 0, 0, 0, 4, 4, 0, 0, 0, 0)


def _engine() -> None:
    """The exact tally (int64), the batch kernel, the shoe-aware grouped kernel and the
    verifier's fused loops it leads to."""
    odds("punto-banco", Shoe.decks(1), "numba")
    rows = np.array([Shoe.decks(1).value_counts()] * 2, dtype=np.int64)
    BatchEvaluator.for_profile("punto-banco").evaluate(rows, kernel="numba")
    ValueForm(build_model("punto-banco", 1), compact=True).evaluate(
        rows.astype(np.float64), kernel="numba")
    # the shoe-aware verifier's fused loops: two-card forms (lucky-baccarat's pair and
    # colour bets) and each run's moments
    model = build_model("lucky-baccarat", 1)
    moments = ShoeMoments(model)
    moments.add_rows(np.array([model.shoe.counts] * 2, dtype=np.int64),
                     np.ones((2, len(moments.sizes)), dtype=np.int64), np.array([True, False]))
    moments.flush()


def _halves(game: DealtSubgame) -> tuple[list[list[list[Fraction]]], list[list[Fraction]]]:
    """Every side draws half the time."""
    return ([[[Fraction(1, 2)] * len(game.seat_classes)]],
            [[Fraction(1, 2)] * 2 for _ in game.bank_classes])


def _exact() -> None:
    """The dealt table walk's residues (exact; by total through the exact matrix, by cards
    through the pair tables) and the exact reach pass (the walk's own terminal kernel,
    modulo a prime)."""
    for by in ("cards", "total"):
        game = dealt_subgame(LUCKY9, _SHOE, 1, by, "warm-up")
        exact_counterfactual(game, *_halves(game))
    game.seat_reach(_halves(game)[0], 0, 0, 0)


def _float() -> None:
    """The dealt table walk in floats: through the dense terminal matrix and, for the reach
    pass, the walk's own terminal kernel."""
    game = dealt_subgame(LUCKY9, _SHOE, 1, "total", "warm-up")
    half = [np.full((1, len(game.seat_classes), 2), 0.5)]
    game.counterfactual(Float(), half, np.full((len(game.bank_classes), 2, 2), 0.5))
    game.reach(half)


KINDS: dict[str, Callable[[], None]] = {"engine": _engine, "float": _float, "exact": _exact}
#: Each worker's order: the first two kinds' compile times about match the third's.
ORDERS = (("engine", "float", "exact"), ("exact", "float", "engine"))


def warm(worker: int, folder: Path) -> None:
    """Warm every kind in this worker's order; a lock per kind in ``folder`` (shared by the
    session's workers) lets one compile while the others wait."""
    for name in ORDERS[worker % len(ORDERS)]:
        with FileLock(str(folder / f"numba-{name}.lock")):
            KINDS[name]()
