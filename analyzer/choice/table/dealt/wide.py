"""Tables of 6 to 9 people at a finite shoe: the best play found, and its epsilon computed exactly.

Solving a one-deck table to an exact equilibrium (CFR+ closed by the indifference
equations) is affordable up to 5 people. Beyond, :func:`wide_table` ships the best play the
project finds with its *epsilon*, the largest gain any side has by deviating alone, computed
exactly:

1. start from the infinite deck's certified equilibrium, each holding played as its total
   (:func:`~analyzer.choice.table.dealt.played.infinite_strategies`);
2. improve every subgame by *warm-started* predictive CFR+ in floats over the removed-card
   compositions (:func:`~analyzer.choice.table.cfr.cfr_plus` with an ``inertia``: the
   accumulated regrets start proportional to the starting play, so the first iterations
   play it, and each side moves only as far as its regrets at one deck push it); stop at a
   float regret of :data:`TOLERANCE` or after the iterations given;
3. round every draw probability to a multiple of ``2**-BITS`` (those within
   :data:`PURE` of 0 or 1 made pure), keep whichever of the start and the improved play has
   the smaller float regret, and evaluate it *exactly* (residues modulo primes, CRT:
   :func:`~analyzer.choice.table.exact.evaluation.exact_regrets`): each side's exact value
   and exact regret in the subgame.

The table's values and regrets are the exact probability-weighted sums over the natural
patterns (:func:`~analyzer.choice.table.solve.combine`), so its epsilon is an exact
fraction. Subgames are independent: :func:`improve_subgame` takes one picklable
:class:`SubgameWork` and returns plain fractions, so any ``apply`` runs them -- in this
process, a process pool or a Dask cluster (:func:`analyzer.processes.task_mapper`) -- and the
parent merges them exactly, in any order. With ``iterations=0`` nothing is improved: the
given strategies are evaluated exactly (a certificate checked again in parallel).

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> from analyzer.choice.table.dealt.played import played_at
>>> table = wide_table(LUCKY9, Shoe.decks(1), 2, "total", iterations=10)
>>> start = played_at(LUCKY9, Shoe.decks(1), 2, "total")
>>> table.exact, 0 < table.values.max_regret < start.max_regret
(True, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from analyzer.choice.table.cfr import CfrRun, Checkpoint, cfr_plus, float_regrets, with_forced
from analyzer.choice.table.dealt.played import infinite_strategies
from analyzer.choice.table.dealt.rounding import float_evaluation
from analyzer.choice.table.exact.evaluation import exact_regrets
from analyzer.choice.table.exact.ring import Array, Float
from analyzer.choice.table.indifference import Strategies, SubgameSolution
from analyzer.choice.table.solve import (
    Pattern,
    SubgameKey,
    SubgameResult,
    TableEquilibrium,
    TableValues,
    check_players,
    combine,
    grouped_patterns,
    subgame_of,
)
from analyzer.choice.table.subgame import MAX_JOINT_SEATS, Subgame
from analyzer.errors import AnalyzerError
from analyzer.processes import Apply
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["BANK_REPLY_METHOD", "bank_reply", "BITS", "FLOAT_FROM", "FLOAT_METHOD",
           "FLOAT_PEOPLE", "IMPROVED_METHOD", "WIDE_PEOPLE",
           "improve_subgame", "Progress", "PURE", "rounding_bounds", "SubgameOutcome",
           "SubgameWork", "TOLERANCE", "wide_table"]

#: From this many people a one-deck table is not solved to an exact equilibrium (hours of
#: CFR+ and polynomial indifference equations) but improved here, its exact epsilon stated.
WIDE_PEOPLE = 6
#: From this many people ``nine certify`` evaluates the largest subgames in floats with a
#: rounding bound (:mod:`.rounding`): an exact evaluation of 8 people is about 10 CPU-hours.
FLOAT_PEOPLE = 8
#: Live seats from which a float run evaluates a subgame in floats by default (fewer: exactly,
#: minutes each at 8 people).
FLOAT_FROM = 6
#: Draw probabilities are rounded to multiples of ``2**-BITS`` (each side's scale stays a
#: power of two, so an exact evaluation needs few primes).
BITS = 24
#: A rounded draw probability this close to 0 or 1 is made pure.
PURE = 1e-6
#: Float regret (per unit staked in a subgame, largest side) at which a subgame's improvement
#: stops: the patterns' probabilities sum to at most 1, so the table's epsilon is then about
#: this or less (plus the rounding's).
TOLERANCE = 1e-6
#: How strongly the warm start holds the starting play: its regrets start at this times each
#: information set's reach probability times the starting action weights.
INERTIA = 0.05
#: Float regrets are measured every this many iterations.
CHECK_EVERY = 5

#: How the strategies of an improved table were found, in words.
IMPROVED_METHOD = (
    "the infinite deck's certified equilibrium by total (each holding as its total) improved "
    "subgame by subgame at the shoe by warm-started predictive CFR+ in floats over the "
    "removed-card compositions, rounded to multiples of 2^-{bits} (pure within {pure:g}), "
    "then evaluated exactly at the shoe (residues and CRT): an epsilon-certificate, every "
    "side's exact regret stated, not an equilibrium unless every regret is 0")
#: Said of a table whose largest subgames were evaluated in floats.
FLOAT_METHOD = ("; the subgames of {live} or more live seats evaluated in floats with a "
                "rigorous rounding bound (the others exactly): every side's value and regret "
                "within the stated bound of the exact ones, not exact")
#: How the strategies of a table improved by one best-reply pass of the bank were found.
BANK_REPLY_METHOD = (
    "the infinite deck's certified equilibrium by total (each holding as its total) with the "
    "bank's play moved {step} of the way to its best reply at the shoe in each subgame (one "
    "float pass of the bank's counterfactual values, the seats' play kept; ties and forced "
    "plays kept), then evaluated exactly at the shoe (residues and CRT): an "
    "epsilon-certificate, every side's exact regret stated, not an equilibrium unless every "
    "regret is 0")
#: How strategies given to :func:`wide_table` without improving were evaluated.
GIVEN_METHOD = ("given strategies, every side's exact value and best response computed at "
                "the shoe subgame by subgame")


def _serial(function: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    return [function(item) for item in items]


@dataclass(frozen=True)
class SubgameWork:
    """One subgame to improve (``iterations`` > 0) and evaluate exactly: picklable."""

    rules: ChoiceRules
    shoe: Shoe
    key: SubgameKey
    by: str
    strategies: Strategies
    iterations: int
    tolerance: float = TOLERANCE
    #: ``exact`` (residues and CRT) or ``float`` (:func:`.rounding.float_evaluation`).
    evaluation: str = "exact"
    #: Above 0: instead of CFR+, the bank's play moved this far to its best reply
    #: (:func:`bank_reply`).
    bank_step: Fraction = Fraction(0)


@dataclass(frozen=True)
class SubgameOutcome:
    """A subgame's strategies as exact fractions, each side's exact value and regret (seats,
    then the bank), the float regrets before and after improving, and the CFR+ iterations
    and seconds spent."""

    key: SubgameKey
    seats: tuple[tuple[tuple[Fraction, ...], ...], ...]
    bank: tuple[tuple[Fraction, ...], ...]
    values: tuple[Fraction, ...]
    regrets: tuple[Fraction, ...]
    start_regret: float
    float_regret: float
    iterations: int
    seconds: float
    #: Bounds on the distance of ``values`` and ``regrets`` from the exact ones (a float
    #: evaluation); empty when they are exact.
    value_bounds: tuple[Fraction, ...] = ()
    regret_bounds: tuple[Fraction, ...] = ()


def _pairs(seats: Sequence[Sequence[Sequence[Fraction]]], bank: Sequence[Sequence[Fraction]],
           ) -> tuple[list[Array], Array]:
    """Draw probabilities as float action weights ``[..., stand, draw]``."""
    def pair(rows: Any) -> Array:
        draw = np.asarray(rows, dtype=float)
        return np.stack([1.0 - draw, draw], axis=-1)

    return [pair([[float(v) for v in row] for row in rows]) for rows in seats], pair(
        [[float(v) for v in row] for row in bank])


def _rounded(p: float) -> Fraction:
    if p <= PURE:
        return Fraction(0)
    if p >= 1 - PURE:
        return Fraction(1)
    return Fraction(round(p * 2**BITS), 2**BITS)


def _fractions(seats: Sequence[Array], bank: Array) -> Strategies:
    """Float action weights as rounded exact draw probabilities."""
    return ([[[_rounded(float(v)) for v in row] for row in s[..., 1]] for s in seats],
            [[_rounded(float(v)) for v in row] for row in bank[..., 1]])


#: Counterfactual values of the bank's two actions this close (relative) are a tie: its play
#: there is kept (an information set the seats' play never reaches is worth 0 either way).
TIE = 1e-12


def bank_reply(game: Subgame, strategies: Strategies, step: Fraction) -> Strategies:
    """The bank's play moved ``step`` of the way to its best reply to the seats' play, which
    is kept: a best-response pass (one float walk of the bank's counterfactual values). The
    bank's regret is linear in its own play, so it shrinks by the factor ``1 - step``
    exactly; the seats' regrets may grow. Ties (:data:`TIE`) and forced plays are kept."""
    seats, bank = with_forced(game, *_pairs(*strategies))
    _, values = game.counterfactual(Float(), seats, bank, "bank")
    forced = game.bank_forced()
    rows: list[list[Fraction]] = []
    for c, row in enumerate(strategies[1]):
        if forced[c] is not None:
            rows.append(list(row))
            continue
        moved = []
        for t, draw in enumerate(row):
            stand_value, draw_value = float(values[c, t, 0]), float(values[c, t, 1])
            if abs(draw_value - stand_value) <= TIE * (abs(draw_value) + abs(stand_value)):
                moved.append(draw)
            else:
                target = Fraction(1 if draw_value > stand_value else 0)
                moved.append(draw + step * (target - draw))
        rows.append(moved)
    return strategies[0], rows


def improve_subgame(work: SubgameWork, checkpoint: Checkpoint | None = None) -> SubgameOutcome:
    """One subgame improved (see the module docstring) and evaluated exactly, or in floats
    with a rounding bound (``work.evaluation``); the improvement keeps its state at every
    check in ``checkpoint`` and resumes from what it kept (:func:`cfr_plus`)."""
    begin = time.perf_counter()
    game = subgame_of(work.rules, work.shoe, work.key, work.by)
    chosen: Strategies = work.strategies
    start_regret = improved_regret = float("nan")
    done = 0
    if work.bank_step > 0:
        chosen = bank_reply(game, work.strategies, work.bank_step)
    elif work.iterations > 0:
        start = with_forced(game, *_pairs(*work.strategies))
        run = cfr_plus(game, work.iterations, work.tolerance, CHECK_EVERY, start,
                       inertia=INERTIA, checkpoint=checkpoint)
        done = run.iterations
        start_regret = run.start_regret  # measured by the warm start of cfr_plus
        improved = _fractions(run.seats, run.bank)
        improved_regret = float(max(float_regrets(game, *_pairs(*improved))))
        if improved_regret < start_regret:
            chosen = improved
        else:
            improved_regret = start_regret
    value_bounds: tuple[Fraction, ...] = ()
    regret_bounds: tuple[Fraction, ...] = ()
    if work.evaluation == "float":
        found = float_evaluation(game, chosen[0], chosen[1])
        values, regrets = found.values, found.regrets
        value_bounds, regret_bounds = found.value_bounds, found.regret_bounds
    else:
        values, regrets, _ = exact_regrets(game, chosen[0], chosen[1])
    return SubgameOutcome(
        work.key, tuple(tuple(tuple(Fraction(v) for v in row) for row in rows)
                        for rows in chosen[0]),
        tuple(tuple(Fraction(v) for v in row) for row in chosen[1]), values, regrets,
        start_regret, improved_regret, done, time.perf_counter() - begin, value_bounds,
        regret_bounds)


class Progress(Protocol):
    """Where a run keeps its finished subgames, so a cut run resumes
    (:class:`~analyzer.choice.table.stored.progress.WorkFolder`)."""

    def load(self, work: SubgameWork) -> SubgameOutcome | None:
        """``work``'s outcome kept by an earlier run, or None."""

    def save(self, work: SubgameWork, outcome: SubgameOutcome) -> None:
        """Keep ``outcome``."""

    def runner(self) -> Callable[[SubgameWork], SubgameOutcome]:
        """:func:`improve_subgame` that keeps each outcome as soon as it is done
        (picklable)."""


def _cost(key: SubgameKey) -> int:
    """Subgames with more live seats cost about 8 times more each: run them first."""
    return -key[0]


def wide_table(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
               strategies: Mapping[SubgameKey, Strategies] | None = None,
               iterations: int = 40, apply: Apply | None = None,
               tolerance: float = TOLERANCE, progress: Progress | None = None,
               float_from: int | None = None, improve_live: int | None = None,
               bank_step: Fraction | None = None) -> TableEquilibrium:
    """The table's play improved subgame by subgame (``strategies``, else the infinite
    deck's equilibrium as the start; ``iterations`` 0: evaluated as given; each subgame's
    improvement stops at a float regret of ``tolerance``) with every
    side's exact value and regret at ``shoe``; ``apply`` maps :func:`improve_subgame` over
    the subgames (in this process when None); ``progress`` gives the subgames an earlier
    run finished and keeps each one this run finishes. ``float_from``: subgames of that many
    live seats or more are evaluated in floats with a rounding bound (:mod:`.rounding`; the
    table's ``rounding`` states the bounds, and it is not ``exact``); ``improve_live``:
    subgames of more live seats are evaluated as given, not improved; ``bank_step``: instead
    of CFR+, the bank's play moved that far to its best reply in each subgame
    (:func:`bank_reply`)."""
    check_players(rules, players)
    if float_from is not None and float_from <= MAX_JOINT_SEATS:
        raise AnalyzerError(f"--float-from {float_from}: subgames of up to {MAX_JOINT_SEATS} "
                            "live seats are always evaluated exactly (at least "
                            f"{MAX_JOINT_SEATS + 1})")
    if shoe.is_infinite:
        raise AnalyzerError("an epsilon at a finite shoe: the infinite deck is solved exactly")
    if bank_step is not None and not 0 < bank_step <= 1:
        raise AnalyzerError(f"--bank-reply {bank_step}: a step above 0 and at most 1")
    step = bank_step or Fraction(0)
    begin = time.perf_counter()
    start = infinite_strategies(rules, shoe, players, by) if strategies is None else strategies
    patterns = grouped_patterns(rules, shoe, players)
    keys = sorted({p.key for p in patterns if p.bank is None and p.live}, key=_cost)
    missing = [key for key in keys if key not in start]
    if missing:
        live, removed = missing[0]
        raise AnalyzerError(f"no strategies given for the subgame of {live} live seat"
                            f"{'s' if live > 1 else ''} and naturals {removed}")
    # a subgame above --improve-live is evaluated as given: no iterations and no bank step
    given = {key for key in keys if improve_live is not None and key[0] > improve_live}
    works = [SubgameWork(rules, shoe, key, by, start[key],
                         0 if step or key in given else iterations, tolerance,
                         "float" if float_from is not None and key[0] >= float_from else "exact",
                         Fraction(0) if key in given else step)
             for key in keys]
    found: dict[SubgameKey, SubgameOutcome] = {}
    if progress is not None:
        for work in works:
            kept = progress.load(work)
            if kept is not None:
                found[work.key] = kept
    todo = [work for work in works if work.key not in found]
    outcomes = (apply or _serial)(
        improve_subgame if progress is None else progress.runner(), todo)
    for work, outcome in zip(todo, outcomes, strict=True):
        if progress is not None:
            progress.save(work, outcome)
        found[outcome.key] = outcome
    values = combine(patterns, players, lambda key: (found[key].values, found[key].regrets),
                     rules.payoffs)
    method = (BANK_REPLY_METHOD.format(step=step) if step else
              IMPROVED_METHOD.format(bits=BITS, pure=PURE) if iterations > 0 else GIVEN_METHOD)
    if improve_live is not None and (step or iterations > 0):
        method += (f"; the subgames of more than {improve_live} live seat"
                   f"{'s' if improve_live > 1 else ''} evaluated as given, not improved")
    floats = any(o.regret_bounds for o in found.values())
    if floats:
        method += FLOAT_METHOD.format(live=float_from)
    results = []
    for key in sorted(keys):
        outcome = found[key]
        probability = sum((p.probability for p in patterns
                           if p.bank is None and p.live and p.key == key), Fraction(0))
        cfr = CfrRun((), np.zeros(0), outcome.iterations, outcome.float_regret,
                     outcome.seconds, method)
        solution = SubgameSolution(
            game=subgame_of(rules, shoe, key, by), seats=outcome.seats, bank=outcome.bank,
            values=outcome.values, regrets=outcome.regrets, mixed=(), free=(), cfr=cfr,
            rounds=1, seconds=outcome.seconds, method=method)
        results.append(SubgameResult(key, probability, solution))
    return TableEquilibrium(
        profile=rules.name, title=rules.name, shoe=shoe.describe(),
        solved_at=shoe.describe(), by=by, players=players,
        model=("card removal at the shoe, evaluated in floats with a rounding bound (every "
               "side's regret within the stated bound)" if floats else
               "exact card removal (an epsilon-certificate: every side's exact regret stated)"),
        exact=not floats, patterns=tuple(patterns), subgames=tuple(results), values=values,
        method=method, iterations=sum(o.iterations for o in found.values()),
        seconds=time.perf_counter() - begin,
        note=("not an equilibrium: no side gains more than the largest float regret plus its "
              "rounding bound by deviating alone" if floats else
              "not an equilibrium unless every regret is 0: the largest exact regret is the "
              "epsilon no side can beat by deviating alone"), payoffs=rules.payoffs,
        rounding=rounding_bounds(patterns, players, found) if floats else None)


def rounding_bounds(patterns: Sequence[Pattern], players: int,
                    found: Mapping[SubgameKey, SubgameOutcome]) -> TableValues:
    """Bounds on the distance of a table's values and regrets from the exact ones, from its
    subgames' (none where a subgame is exact): each pattern's chance times its subgame's
    bounds; the bank's value is minus the seats' sum, so its bound is theirs summed."""
    seats, regrets, bank_regret = [Fraction(0)] * players, [Fraction(0)] * players, Fraction(0)
    for pattern in patterns:
        if pattern.bank is not None or not pattern.live:
            continue
        outcome = found[pattern.key]
        if not outcome.regret_bounds:
            continue
        for position, j in enumerate(pattern.live):
            seats[j] += pattern.probability * outcome.value_bounds[position]
            regrets[j] += pattern.probability * outcome.regret_bounds[position]
        bank_regret += pattern.probability * outcome.regret_bounds[-1]
    return TableValues(tuple(seats), sum(seats, Fraction(0)), tuple(regrets), bank_regret)

