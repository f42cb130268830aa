"""Exact counterfactual values of a subgame at rational strategies, and exact regrets.

A profile's draw probabilities become integer action weights over one scale per side
(:class:`Integers`); :func:`evaluate` runs the subgame's counterfactual pass once per prime
(residues in int64, :mod:`analyzer.choice.table.exact.ring`) and rebuilds the exact integers by CRT,
with enough primes for each side's bound: every normalised counterfactual value is at most
the number of seats times the largest net of a hand in absolute value, over ``base_scale``
times the other sides' strategy scales (a side's own strategy does not enter its values).
:func:`exact_regrets` is the certificate: each side's exact value and regret -- the sum over
its information sets of the best action's counterfactual value minus the played one's --
so a profile is an exact equilibrium of the subgame when every regret is 0.

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.choice.table.subgame import infinite_subgame
>>> game = infinite_subgame(LUCKY9, 1, "total")
>>> stand = [[[Fraction(0)] * 9]], [[Fraction(0)] * 2 for _ in range(9)]
>>> values, regrets, _ = exact_regrets(game, *stand)
>>> values[0] == -values[1] == 0, regrets[0] > 0
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from typing import Any

import numpy as np

from analyzer.choice.table.exact.ring import Modular
from analyzer.choice.table.subgame import Subgame
from analyzer.engine.modular import crt, primes_for
from analyzer.processes import each_on_threads

__all__ = ["assemble", "Cell", "evaluate", "evaluate_banks", "exact_counterfactual",
           "exact_regrets", "Integers", "Strategies", "THREADED_LIVE"]

#: Up to this many live seats a subgame's primes run on threads (a prime's walk holds at most
#: about 0.7 GB there); past it one after another (2.75 GB and more a prime at six).
THREADED_LIVE = 5

Cell = tuple[int, int, int]  # (side, context, class): side ``live`` is the bank
Strategies = tuple[list[list[list[Fraction]]], list[list[Fraction]]]


def _integers(rows: Sequence[Sequence[Fraction]]) -> tuple[np.ndarray, int]:
    """Draw probabilities as integer action weights ``[..., stand, draw]`` over one scale."""
    fractions = [[v if type(v) is Fraction else Fraction(v) for v in r] for r in rows]
    denominator = reduce(math.lcm, {v.denominator for r in fractions for v in r}, 1)
    draws = [[v.numerator * (denominator // v.denominator) for v in r] for r in fractions]
    kind: Any = np.int64 if denominator < 2**62 else object
    return np.asarray([[[denominator - v, v] for v in r] for r in draws], dtype=kind), (
        denominator)


@dataclass(frozen=True, eq=False)
class Integers:
    """A profile as integer action weights, each side over its own scale."""

    seats: list[np.ndarray]
    seat_scales: list[int]
    bank: np.ndarray
    bank_scale: int

    @classmethod
    def of(cls, seats: Sequence[Sequence[Sequence[Fraction]]],
           bank: Sequence[Sequence[Fraction]]) -> Integers:
        converted = [_integers(rows) for rows in seats]
        bank_array, bank_scale = _integers(bank)
        return cls([a for a, _ in converted], [s for _, s in converted], bank_array,
                   bank_scale)

    def with_bank(self, cell: tuple[int, int], draw: int) -> Integers:
        """The same profile with one bank cell pure (``draw`` 0 or 1)."""
        bank = self.bank.copy()
        bank[cell[0], cell[1]] = [self.bank_scale * (1 - draw), self.bank_scale * draw]
        return Integers(self.seats, self.seat_scales, bank, self.bank_scale)


def evaluate(game: Subgame, profile: Integers, pick: Any = None, sides: str = "all",
             vectors: Sequence[int] | None = None) -> tuple[list[int], list[int]]:
    """Exact counterfactual values as integers: every seat's flattened in order, then the
    bank's (or only the entries ``pick(seat arrays, bank array)`` returns; ``sides`` says
    which sides the subgame must compute, see ``Subgame.counterfactual``; with ``sides``
    "bank", ``vectors`` the choice vectors ``pick`` reads), and the scale of each side
    (seats then bank).

    A side's values do not involve its own strategy: they are integers over ``base_scale``
    times the *other* sides' scales, at most ``live`` times the largest net of a hand
    (:func:`_largest_net`) times that in absolute value. So without ``pick`` each side gets
    only the primes its own bound needs (a pure seat facing mixed play needs the most), and
    a prime only the sides that need it."""
    everyone = math.prod(profile.seat_scales) * profile.bank_scale
    most = max(game.live, 1) * _largest_net(game)
    seat_scale = [game.base_scale * everyone // s for s in profile.seat_scales]
    bank_scale = game.base_scale * everyone // profile.bank_scale
    if pick is None and sides == "all":
        return _by_side(game, profile, [*seat_scale, bank_scale]), [*seat_scale, bank_scale]
    moduli = primes_for(most * game.base_scale * everyone, signed=True)

    def residues(i: int) -> Any:
        ring = Modular(moduli[i])
        seat_values: list[Any]
        if sides == "bank" and vectors is not None:
            seat_values, bank_values = [], game.bank_counterfactual(
                ring, [ring.encode(a) for a in profile.seats], ring.encode(profile.bank),
                vectors)
        else:
            seat_values, bank_values = game.counterfactual(
                ring, [ring.encode(a) for a in profile.seats], ring.encode(profile.bank),
                sides)
        if pick is None:
            return np.concatenate([v.reshape(-1) for v in seat_values]
                                  + [bank_values.reshape(-1)])
        return np.asarray(pick(seat_values, bank_values), dtype=np.int64)

    results = each_on_threads(residues, len(moduli), game.live <= THREADED_LIVE)
    return crt(np.stack(results), moduli), [*seat_scale, bank_scale]


def evaluate_banks(game: Subgame, profile: Integers, banks: Sequence[np.ndarray],
                   pick: Any) -> tuple[list[list[int]], list[int]]:
    """:func:`evaluate` of the seats' side with ``pick``, once for each of several bank
    action weights in place of ``profile``'s (each over ``profile``'s bank scale), in one
    pass per prime (:meth:`~analyzer.choice.table.subgame.Subgame.seat_counterfactuals`)."""
    everyone = math.prod(profile.seat_scales) * profile.bank_scale
    most = max(game.live, 1) * _largest_net(game)
    scales = [game.base_scale * everyone // s for s in profile.seat_scales]
    moduli = primes_for(most * game.base_scale * everyone, signed=True)
    def residues(i: int) -> list[Any]:
        ring = Modular(moduli[i])
        seats = [ring.encode(a) for a in profile.seats]
        found = game.seat_counterfactuals(ring, seats, [ring.encode(b) for b in banks])
        return [np.asarray(pick(seat_values, np.zeros(0)), dtype=np.int64)
                for seat_values in found]

    by_prime = each_on_threads(residues, len(moduli), game.live <= THREADED_LIVE)
    results = [[found[k] for found in by_prime] for k in range(len(banks))]
    return [crt(np.stack(r), moduli) for r in results], [*scales, game.base_scale * everyone
                                                         // profile.bank_scale]


def _largest_net(game: Subgame) -> int:
    """A bound on a seat's net per unit staked on one non-natural hand: 1 at even money,
    the winning payout (rounded up) when it pays more."""
    return max(1, math.ceil(game.rules.payoffs.win))


def _by_side(game: Subgame, profile: Integers, scales: Sequence[int]) -> list[int]:
    """Every side's values (seats, then the bank, flattened) by CRT over the primes its own
    bound (``live`` times the largest net times its scale) needs: the first primes of one
    list, so a prime's pass computes only the sides still short of primes."""
    most = max(game.live, 1) * _largest_net(game)
    needed = [len(primes_for(most * scale, signed=True)) for scale in scales]
    moduli = primes_for(most * max(scales), signed=True)

    def residues(i: int) -> tuple[list[Any], Any]:
        seats, bank = any(n > i for n in needed[:-1]), needed[-1] > i
        ring = Modular(moduli[i])
        return game.counterfactual(
            ring, [ring.encode(a) for a in profile.seats], ring.encode(profile.bank),
            "all" if seats and bank else "seats" if seats else "bank")

    found: list[list[Any]] = [[] for _ in scales]
    walks = each_on_threads(residues, len(moduli), game.live <= THREADED_LIVE)
    for i, (seat_values, bank_values) in enumerate(walks):
        for k, values in enumerate(seat_values):
            if needed[k] > i:
                found[k].append(values.reshape(-1))
        if needed[-1] > i:
            found[-1].append(bank_values.reshape(-1))
    out: list[int] = []
    for k, kept in enumerate(found):
        out.extend(crt(np.stack(kept), moduli[:needed[k]]))
    return out


def exact_counterfactual(game: Subgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                         bank: Sequence[Sequence[Fraction]], sides: str = "all",
                         ) -> tuple[list[list[list[list[Fraction]]]], list[list[list[Fraction]]]]:
    """Every information set's exact counterfactual values ``[..., stand, draw]``: every
    side's, or only the seats' (``sides="seats"``, the bank's come back empty) or the
    bank's (``"bank"``, no seat's)."""
    def pick(seat_values: list[Any], bank_values: Any) -> Any:
        parts = [v.reshape(-1) for v in seat_values] if sides != "bank" else []
        if sides != "seats":
            parts.append(bank_values.reshape(-1))
        return np.concatenate(parts)

    key = _key(seats, bank)
    every = game._cache.get(_VALUES, {}).get(key)  # noqa: SLF001 - the subgame's own memo
    if every is None and sides == "all":  # every side by its own primes: never more passes
        every = _every_value(game, Integers.of(seats, bank), key)
    if every is not None:  # every side's values, seats first: the part asked for
        flat, scales = every
        if sides == "bank":
            flat = flat[sum(2**k * len(game.seat_classes) * 2 for k in range(game.live)):]
    else:
        flat, scales = evaluate(game, Integers.of(seats, bank), pick, sides)
    out_seats: list[Any] = []
    at = 0
    for k in range(game.live if sides != "bank" else 0):
        shape = (2**k, len(game.seat_classes), 2)
        size = math.prod(shape)
        values = [Fraction(v, scales[k]) for v in flat[at:at + size]]
        out_seats.append(np.asarray(values, dtype=object).reshape(shape).tolist())
        at += size
    if sides == "seats":
        return out_seats, []
    bank_values = [Fraction(v, scales[-1]) for v in flat[at:]]
    shape = (len(game.bank_classes), game.vectors, 2)
    return out_seats, np.asarray(bank_values, dtype=object).reshape(shape).tolist()


def exact_regrets(game: Subgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                  bank: Sequence[Sequence[Fraction]],
                  ) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], list[Cell]]:
    """Each side's exact value and regret (seats, then the bank), and the cells where a
    pure deviation gains (the best response differs from the strategy).

    Sums run over integers: a side's counterfactual values share one scale ``S`` and its
    action weights ``(D - d, d)`` one scale ``D``, so the played value of a cell is
    ``((D - d) stand + d draw) / (S D)`` and its best ``max(stand, draw) / S``; only each
    side's two totals become fractions. The last :data:`REMEMBERED` profiles of each
    subgame are remembered (the same strategies certified again in one process cost
    nothing: a shipped certificate, a table asked for again)."""
    key = _key(seats, bank)
    remembered = game._cache.setdefault(_REGRETS, {})
    if key in remembered:
        values, regrets, gaining = remembered.pop(key)
        remembered[key] = (values, regrets, gaining)  # the most recent last
        return values, regrets, list(gaining)
    found = _exact_regrets(game, seats, bank, key)
    _remember(remembered, key, (found[0], found[1], tuple(found[2])))
    return found


#: How many profiles of each subgame :func:`exact_regrets` (and the counterfactual values
#: behind it) remembers.
REMEMBERED = 16
_REGRETS = "exact regrets"
_VALUES = "exact values"


def _remember(memo: dict[Any, Any], key: Any, found: Any) -> None:
    """``found`` kept under ``key``, the oldest let go beyond :data:`REMEMBERED`."""
    memo[key] = found
    while len(memo) > REMEMBERED:
        del memo[next(iter(memo))]


def _key(seats: Sequence[Sequence[Sequence[Fraction]]], bank: Sequence[Sequence[Fraction]],
         ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """A profile's memo key."""
    return _content(row for rows in seats for row in rows), _content(bank)


def _every_value(game: Subgame, profile: Integers, key: Any) -> tuple[list[int], list[int]]:
    """:func:`evaluate` of every side, remembered in the subgame: the regrets and
    :func:`exact_counterfactual` of the same profile (a certificate checked, then advice
    from it) share its passes."""
    found = evaluate(game, profile)
    _remember(game._cache.setdefault(_VALUES, {}), key, found)  # noqa: SLF001
    return found


def _content(rows: Iterable[Sequence[Fraction]]) -> tuple[tuple[int, ...], ...]:
    """Rows of draw probabilities as numerators and denominators (hashing a Fraction costs a
    modular inverse)."""
    out: list[tuple[int, ...]] = []
    for row in rows:
        exact = [v if isinstance(v, Fraction) else Fraction(v) for v in row]
        out.append((*(v.numerator for v in exact), *(v.denominator for v in exact)))
    return tuple(out)


def _exact_regrets(game: Subgame, seats: Sequence[Sequence[Sequence[Fraction]]],
                   bank: Sequence[Sequence[Fraction]], key: Any,
                   ) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...], list[Cell]]:
    """:func:`exact_regrets` computed."""
    profile = Integers.of(seats, bank)
    flat, scales = _every_value(game, profile, key)
    weights = [*profile.seats, profile.bank]
    sizes = [*profile.seat_scales, profile.bank_scale]
    values: list[Fraction] = []
    regrets: list[Fraction] = []
    gaining: list[Cell] = []
    at = 0
    for side, (array, scale, size) in enumerate(zip(weights, scales, sizes, strict=True)):
        if side < game.live:
            shape = (2**side, len(game.seat_classes))
        else:  # the bank's values run (class, vector), its weights [class][vector]
            shape = (len(game.bank_classes), game.vectors)
        cells = shape[0] * shape[1]
        counterfactual = flat[at:at + 2 * cells]
        at += 2 * cells
        stand_weights = array[..., 0].reshape(-1).tolist()
        draw_weights = array[..., 1].reshape(-1).tolist()
        played_total = best_total = 0
        for cell in range(cells):
            stand_value, draw_value = counterfactual[2 * cell], counterfactual[2 * cell + 1]
            played = stand_weights[cell] * stand_value + draw_weights[cell] * draw_value
            best = size * max(stand_value, draw_value)
            played_total += played
            best_total += best
            if best > played:
                first, second = divmod(cell, shape[1])
                gaining.append((side, first, second) if side < game.live
                               else (side, second, first))
        values.append(Fraction(played_total, scale * size))
        regrets.append(Fraction(best_total - played_total, scale * size))
    return tuple(values), tuple(regrets), gaining


def assemble(game: Subgame, values: dict[Cell, Fraction]) -> Strategies:
    """A profile from every cell's draw probability."""
    seats = [[[values[(k, e, c)] for c in range(len(game.seat_classes))] for e in range(2**k)]
             for k in range(game.live)]
    bank = [[values[(game.live, v, c)] for v in range(game.vectors)]
            for c in range(len(game.bank_classes))]
    return seats, bank
