"""CFR+ on a subgame's compiled arrays: floating-point iterations that find the support.

Counterfactual regret minimisation (Zinkevich et al. 2007) with the CFR+ regret floor
(Tammelin 2014) and *predictive* strategies (Farina, Kroer & Sandholm 2021): each side plays
the positive part of its accumulated regret plus its last instantaneous regret, and the
reported strategy is the average weighted by ``t**2`` (quadratic averaging). Updates
alternate: the seats update from one pass of
:meth:`~analyzer.choice.table.subgame.Subgame.counterfactual`, the bank from a second pass against
the seats' new play (measured: about 15 times fewer iterations heads-up, 3 times fewer at 9
people, than simultaneous updates, at the same cost per iteration).
A multi-player general-sum game carries no convergence guarantee; what the iterations give
is a candidate whose *regrets* are measured (here in floats, :func:`float_regrets`; the
certified solver re-derives the answer exactly, :mod:`analyzer.choice.table.indifference`).

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.choice.table.subgame import infinite_subgame
>>> run = cfr_plus(infinite_subgame(LUCKY9, 1, "total"), iterations=2000)
>>> round(float(run.seats[0][0, 5, 1]), 3), run.regret < 1e-5
(0.545, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from analyzer.choice.table.exact.ring import Array, Float
from analyzer.choice.table.subgame import Subgame
from analyzer.errors import AnalyzerError

__all__ = ["CfrRun", "Checkpoint", "cfr_plus", "CfrState", "float_regrets", "METHOD",
           "SPLIT_LIVE", "uniform", "with_forced"]

METHOD = ("predictive CFR+ (regret floor, last-regret prediction, alternating updates, "
          "quadratic averaging)")


@dataclass(frozen=True, eq=False)
class CfrRun:
    """Average strategies after ``iterations`` and their largest float regret (per unit of
    the subgame's value)."""

    seats: tuple[Array, ...]
    bank: Array
    iterations: int
    regret: float
    seconds: float
    method: str = METHOD
    #: A warm start's own largest float regret (NaN: no warm start).
    start_regret: float = float("nan")


class Checkpoint(Protocol):
    """Where a long CFR+ run keeps its state at every check, so that a cut run resumes from
    its last check with the same floats (:func:`cfr_plus`)."""

    def load(self) -> dict[str, Array] | None:
        """The state kept by :meth:`save`, or None when there is none."""

    def save(self, arrays: dict[str, Array]) -> None:
        """Keep ``arrays`` (float64 and int64), replacing what was kept."""


def uniform(game: Subgame) -> tuple[list[Array], Array]:
    """Every side drawing with probability 1/2 (the rules' forced plays applied)."""
    seats = [np.full((2**k, len(game.seat_classes), 2), 0.5) for k in range(game.live)]
    bank = np.full((len(game.bank_classes), game.vectors, 2), 0.5)
    return with_forced(game, seats, bank)


def with_forced(game: Subgame, seats: list[Array], bank: Array) -> tuple[list[Array], Array]:
    """The rules' forced plays put into float action weights ``[..., stand, draw]`` (in
    place: regret matching may have moved them)."""
    seat_forced, bank_forced = game.seat_forced(), game.bank_forced()
    if any(f is not None for f in seat_forced):
        for c, forced in enumerate(seat_forced):
            if forced is not None:
                for s in seats:
                    s[:, c, :] = (1 - forced, forced)
    if any(f is not None for f in bank_forced):
        for c, forced in enumerate(bank_forced):
            if forced is not None:
                bank[c, :, :] = (1 - forced, forced)
    return seats, bank


def _play(regret: Array, prediction: Array) -> Array:
    positive = np.maximum(regret + prediction, 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), 0.5)


#: From this many live seats :func:`float_regrets` runs the seats' pass and the bank's apart:
#: the walk's last arrays ``Z`` and ``Q`` are 2 GB each at six live seats, 8.3 GB at seven
#: (walked one subtree of choices at a time, :mod:`~analyzer.choice.table.dealt.streamed`,
#: 2 GB at most each).
SPLIT_LIVE = 6


def float_regrets(game: Subgame, seats: Sequence[Array], bank: Array) -> list[float]:
    """Each side's regret (seats in order, then the bank): what switching alone to its best
    response would gain, in floats (from :data:`SPLIT_LIVE` live seats in two passes, the
    same figures in half the memory)."""
    if game.live >= SPLIT_LIVE:
        seat_values, _ = game.counterfactual(Float(), seats, bank, "seats")
        _, bank_values = game.counterfactual(Float(), seats, bank, "bank")
    else:
        seat_values, bank_values = game.counterfactual(Float(), seats, bank)
    out = [float(v.max(axis=-1).sum() - (v * s).sum())
           for v, s in zip(seat_values, seats, strict=True)]
    out.append(float(bank_values.max(axis=-1).sum() - (bank_values * bank).sum()))
    return out


class CfrState:
    """Predictive CFR+ on ``game`` that can be resumed: :meth:`advance` runs more
    iterations, :meth:`snapshot` gives the average so far with its float regret (see
    :func:`cfr_plus`).

    ``start`` seeds the first prediction; with ``inertia`` > 0 it is a *warm start*
    instead: each side's accumulated regrets start at ``inertia`` times its information
    sets' reach under ``start`` times the starting action weights, so the first iterations
    play ``start`` and each side moves only as far as its regrets push it."""

    def __init__(self, game: Subgame, start: tuple[list[Array], Array] | None = None,
                 alternate: bool = True, inertia: float = 0.0) -> None:
        self.game, self.alternate = game, alternate
        seats0, bank0 = uniform(game)
        self.regret_seats = [np.zeros_like(s) for s in seats0]
        self.regret_bank = np.zeros_like(bank0)
        self.last_seats = [np.zeros_like(s) for s in seats0]
        self.last_bank = np.zeros_like(bank0)
        if start is not None and inertia > 0:
            warm = [np.asarray(s, dtype=float) for s in start[0]]
            seat_reach, bank_reach = game.reach(warm)
            self.regret_seats = [inertia * r[..., None] * s
                                 for r, s in zip(seat_reach, warm, strict=True)]
            self.regret_bank = inertia * bank_reach[..., None] * np.asarray(start[1],
                                                                             dtype=float)
        elif start is not None:
            self.last_seats = [np.asarray(s, dtype=float) - 0.5 for s in start[0]]
            self.last_bank = np.asarray(start[1], dtype=float) - 0.5
        self.sum_seats = [np.zeros_like(s) for s in seats0]
        self.sum_bank = np.zeros_like(bank0)
        self.done = 0
        self.seconds = 0.0

    def advance(self, iterations: int) -> None:
        """Run ``iterations`` more iterations."""
        begin = time.perf_counter()
        game, ring = self.game, Float()
        for _ in range(iterations):
            t = self.done + 1
            seats, bank = with_forced(game, [_play(r, p) for r, p in zip(
                self.regret_seats, self.last_seats, strict=True)],
                _play(self.regret_bank, self.last_bank))
            seat_values, bank_values = game.counterfactual(ring, seats, bank,
                                                           "seats" if self.alternate else "all")
            weight = float(t) * t
            for k, (values, play) in enumerate(zip(seat_values, seats, strict=True)):
                instant = values - (values * play).sum(axis=-1, keepdims=True)
                self.regret_seats[k] = np.maximum(self.regret_seats[k] + instant, 0.0)
                self.last_seats[k] = instant
                self.sum_seats[k] += weight * play
            if self.alternate:
                seats, _ = with_forced(game, [_play(r, p) for r, p in zip(
                    self.regret_seats, self.last_seats, strict=True)], bank)
                _, bank_values = game.counterfactual(ring, seats, bank, "bank")
            instant = bank_values - (bank_values * bank).sum(axis=-1, keepdims=True)
            self.regret_bank = np.maximum(self.regret_bank + instant, 0.0)
            self.last_bank = instant
            self.sum_bank += weight * bank
            self.done = t
        self.seconds += time.perf_counter() - begin

    def average(self) -> tuple[list[Array], Array]:
        """The quadratically weighted average strategies so far."""
        return _average(self.game, self.sum_seats, self.sum_bank)

    def arrays(self) -> dict[str, Array]:
        """Everything the next iterations read, as named arrays (see :meth:`restore`)."""
        out: dict[str, Array] = {"done": np.array([self.done], dtype=np.int64),
                                 "seconds": np.array([self.seconds])}
        for name in ("regret", "last", "sum"):
            out[f"{name}_bank"] = getattr(self, f"{name}_bank")
            for k, array in enumerate(getattr(self, f"{name}_seats")):
                out[f"{name}_seat_{k}"] = array
        return out

    def restore(self, arrays: dict[str, Array]) -> None:
        """Continue from :meth:`arrays` of a run on the same subgame: the iterations after
        it give the same floats as an uncut run. AnalyzerError if they do not fit it."""
        found: dict[str, Array] = {}
        for name, now in self.arrays().items():
            kept = arrays.get(name)
            if kept is None or kept.shape != now.shape or kept.dtype != now.dtype:
                raise AnalyzerError(f"kept CFR+ state: {name} missing or of another shape")
            found[name] = np.array(kept)
        for name in ("regret", "last", "sum"):
            setattr(self, f"{name}_bank", found[f"{name}_bank"])
            setattr(self, f"{name}_seats",
                    [found[f"{name}_seat_{k}"] for k in range(len(self.regret_seats))])
        self.done, self.seconds = int(found["done"][0]), float(found["seconds"][0])

    def snapshot(self) -> CfrRun:
        """The average so far and its largest float regret."""
        begin = time.perf_counter()
        seats, bank = self.average()
        worst = max(float_regrets(self.game, seats, bank))
        self.seconds += time.perf_counter() - begin
        return CfrRun(tuple(seats), bank, self.done, worst, self.seconds)


def cfr_plus(game: Subgame, iterations: int = 4000, tolerance: float = 0.0,
             check_every: int = 100, start: tuple[list[Array], Array] | None = None,
             alternate: bool = True, inertia: float = 0.0,
             checkpoint: Checkpoint | None = None) -> CfrRun:
    """Run predictive CFR+ for at most ``iterations``; stop early once the average's
    largest regret is at most ``tolerance`` (checked every ``check_every`` iterations).
    ``start`` seeds the first prediction (another start finds another equilibrium when
    there are several). With ``inertia`` > 0, ``start`` is a warm start
    (:class:`CfrState`): the average is checked every ``check_every`` iterations whatever
    the tolerance, and the run returns whichever of ``start`` and the checked averages has
    the smallest float regret (``iterations`` counting every iteration run).
    A ``checkpoint`` keeps the state and the best average so far at every check; a run
    given a kept state resumes from it (the same floats as an uncut run; ``seconds``
    counts both parts)."""
    kept = checkpoint.load() if checkpoint is not None else None
    # resuming: the warm start's reach pass and regret are in the kept state already
    state = CfrState(game, start if kept is None else None, alternate, inertia)
    warm = start is not None and inertia > 0
    best: CfrRun | None = None
    if kept is not None:
        state.restore(kept)
        best = _kept_best(kept, len(state.sum_seats))
    elif warm and start is not None:
        seats0 = [np.asarray(s, dtype=float) for s in start[0]]
        bank0 = np.asarray(start[1], dtype=float)
        best = CfrRun(tuple(seats0), bank0, 0, max(float_regrets(game, seats0, bank0)), 0.0)
    start_regret = (float(kept["start_regret"][0]) if kept is not None else
                    best.regret if best is not None else float("nan"))
    checking = warm or tolerance > 0
    if kept is not None and best is not None and "last_regret" in kept and \
            float(kept["last_regret"][0]) <= tolerance:  # it had stopped
        return replace(best, iterations=state.done, seconds=state.seconds,
                       start_regret=start_regret)
    while state.done < iterations:
        state.advance(min(check_every if checking else iterations, iterations - state.done))
        if checking and (state.done % check_every == 0 or state.done >= iterations):
            found = state.snapshot()
            if best is None or not warm or found.regret < best.regret:
                best = found
            if checkpoint is not None:
                checkpoint.save({**state.arrays(), **_best_arrays(best),
                                 "last_regret": np.array([found.regret]),
                                 "start_regret": np.array([start_regret])})
            if found.regret <= tolerance:
                break
    if best is None:
        return state.snapshot()
    return replace(best, iterations=state.done, seconds=state.seconds,
                   start_regret=start_regret)


def _best_arrays(best: CfrRun) -> dict[str, Array]:
    out: dict[str, Array] = {"best_bank": best.bank, "best_iterations": np.array(
        [best.iterations], dtype=np.int64), "best_regret": np.array([best.regret])}
    for k, seat in enumerate(best.seats):
        out[f"best_seat_{k}"] = np.asarray(seat, dtype=float)
    return out


def _kept_best(kept: dict[str, Array], seats: int) -> CfrRun:
    """The best average a checkpoint kept (AnalyzerError when it is incomplete)."""
    names = ["best_bank", "best_iterations", "best_regret", "start_regret",
             *(f"best_seat_{k}" for k in range(seats))]
    if any(name not in kept for name in names):
        raise AnalyzerError("kept CFR+ state: its best average is missing")
    return CfrRun(tuple(np.array(kept[f"best_seat_{k}"]) for k in range(seats)),
                  np.array(kept["best_bank"]), int(kept["best_iterations"][0]),
                  float(kept["best_regret"][0]), 0.0)


def _average(game: Subgame, sum_seats: Sequence[Array], sum_bank: Array,
             ) -> tuple[list[Array], Array]:
    seats = [s / np.maximum(s.sum(axis=-1, keepdims=True), 1e-300) for s in sum_seats]
    bank = sum_bank / np.maximum(sum_bank.sum(axis=-1, keepdims=True), 1e-300)
    return with_forced(game, seats, bank)
