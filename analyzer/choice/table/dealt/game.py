"""A subgame dealt from a finite shoe with exact card removal, for any number of live seats.

:class:`DealtSubgame` is the :class:`~analyzer.choice.table.subgame.Subgame` of ``live``
seats against a live bank, dealt from point-value ``counts`` (the shoe less the naturals'
cards, everyone having seen them), conditional on no live hand being natural. Its
counterfactual values come from one walk over removed-card compositions
(:mod:`analyzer.choice.table.dealt.kernels`): forward over the seats in order carrying the
weight of every (earlier choices, composition), then every bank holding against every
composition of the seats' cards, then backward for every seat. In floats it serves CFR+; in
residues modulo primes (rebuilt by CRT in :mod:`analyzer.choice.table.exact.evaluation`) it
gives exact values and exact regrets, so exact best responses, of any strategy profile.

Integer scale: a deal's weight is its number of ordered card sequences (holdings and third
cards), so every counterfactual value is an integer over ``base_scale`` = (ordered ways to
deal the live hands) x ``S (S - 1)``, ``S`` the stock after the deal, times the other sides'
strategy scales.

>>> from analyzer.choice.table.tree import LUCKY9
>>> game = dealt_subgame(LUCKY9, (16, 4, 4, 4, 4, 4, 4, 4, 4, 4), 3, "total", "1 deck")
>>> game.live, game.vectors, len(game.seat_classes)
(3, 8, 9)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from analyzer.choice.table.dealt import changes, kernels, residues
from analyzer.choice.table.dealt.compositions import Levels, falling_table, live_ways
from analyzer.choice.table.dealt.dense import dense_bank, dense_matrix, dense_seats
from analyzer.choice.table.dealt.streamed import split_level, streamed_walk
from analyzer.choice.table.exact.evaluation import Integers
from analyzer.choice.table.exact.ring import Array, Float, Modular, Ring
from analyzer.choice.table.subgame import Exact, Subgame, info_classes
from analyzer.engine.modular import crt, primes_for
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import ChoiceRules

__all__ = ["DealtSubgame", "dealt_subgame", "MAX_STOCK"]

#: Results are integers over ``S (S - 1)``; a residue times one, summed over the bank's
#: holdings and actions, stays in int64 while ``S`` is below this.
MAX_STOCK = 5000


@dataclass(frozen=True, eq=False)
class DealtSubgame(Subgame):
    """``live`` seats and a bank dealt from ``counts`` (see the module docstring)."""

    counts: tuple[int, ...] = ()
    levels: Any = None  # Levels
    seat_index: tuple[int, ...] = ()  # holding -> seat class
    bank_index: tuple[int, ...] = ()
    stock: int = 0
    _passes: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def _build(self, ring: Ring) -> tuple[Array, ...]:
        table = falling_table(self.counts)
        width = max(len(row) for row in table)
        holdings = self.levels.holdings
        if isinstance(ring, Modular):
            falling = np.asarray([[v % ring.prime for v in row] + [0] * (width - len(row))
                                  for row in table], dtype=np.int64)
            return falling, holdings.order.copy()
        falling = np.asarray([[float(v) for v in row] + [0.0] * (width - len(row))
                              for row in table])
        return falling, holdings.order.astype(float)

    def dense(self) -> Any:
        """The float search's terminal matrix (:mod:`.dense`, built once), or None when
        too large; :meth:`release` lets it go."""
        if "dense" not in self._passes:
            falling, order = self.arrays(Float())
            holdings = self.levels.holdings
            self._passes["dense"] = dense_matrix(
                self.levels.compositions[self.live], self.counts, holdings.usage,
                holdings.total, holdings.order, falling, self.stock, self.bank_index,
                len(self.bank_classes))
        return self._passes["dense"]

    def exact(self) -> Any:
        """The exact terminal tables (:mod:`.residues`; one subgame's are kept at a time): by
        total the matrix ``M``, by cards every pair's weight and results, or None when
        neither is used (more than four live seats)."""
        holdings = self.levels.holdings
        compositions = self.levels.compositions[self.live]

        def build() -> Any:
            found = residues.exact_matrix(
                compositions, self.counts, holdings.usage, holdings.total, holdings.order,
                self.stock, self.bank_index, len(self.bank_classes), self.live)
            if found is not None:
                return "matrix", found
            pairs = residues.pair_tables(compositions, self.counts, holdings.usage,
                                         holdings.total, holdings.order, self.stock, self.live)
            return None if pairs is None else ("pairs", pairs)

        return residues.kept_matrix(self, build)

    def release(self) -> None:
        """Drop the terminal matrices, float and exact (hundreds of MB at five people)."""
        self._passes.pop("dense", None)
        residues.let_go(self)

    def _walk(self, ring: Ring, seats: Sequence[Array], bank: Array, sides: str,
              unit: bool = False, matrix: Any = None,
              vectors: Sequence[int] | None = None) -> tuple[list[Array], Array]:
        """Counterfactual values per holding (unnormalised): seats ``(2**k, H, 2)``, the
        bank ``(H, vectors, 2)`` -- per bank class ``(classes, vectors, 2)`` when a
        terminal ``matrix`` is given (the float one, or with residues the exact one).
        ``vectors``: with residues and only the bank's side, the choice vectors whose
        values are wanted (the others come back zero)."""
        falling, order = self.arrays(ring)
        prime = ring.prime if isinstance(ring, Modular) else 0
        holdings = self.levels.holdings
        m = self.live
        coef = self._coefficients(ring, seats)
        nxt, starts = self.levels.stacked_next()
        want_seats, want_bank = sides != "bank", sides != "seats"
        lazy = bool(prime) and not unit  # exact values: the residue walk (.residues)
        needed = np.ones(1 << m, dtype=np.bool_)
        if lazy and vectors is not None and not want_seats:
            needed[:] = False
            needed[np.asarray(vectors, dtype=np.int64)] = True
            bank = np.asarray(bank)[:, needed]
        bank_rows = np.ascontiguousarray(np.asarray(bank)[np.asarray(self.bank_index)])
        if lazy or not prime:
            if "sources" not in self._passes:
                self._passes["sources"] = residues.sources(self.levels)
            first, source, holding = self._passes["sources"]
        low = split_level(m, len(self.levels.compositions[m]))
        if not prime and matrix is None and low:
            walk = {"first": first, "source": source, "holding": holding, "nxt": nxt,
                    "starts": starts, "total": holdings.total, "order": order,
                    "usage": holdings.usage, "falling": falling,
                    "compositions": self.levels.compositions[m],
                    "counts": np.asarray(self.counts), "stock": self.stock}
            return streamed_walk(walk, coef, bank_rows, _whole(bank_rows, 0), low, want_seats,
                                 want_bank, unit)
        if not prime:
            weights, offsets, q = kernels.forward_pulled(
                first, source, holding, starts, holdings.total, coef, m, want_bank and not unit)
        elif lazy:
            weights, offsets, q = residues.forward_residues(
                first, source, holding, starts, holdings.total, coef, m, prime, want_bank,
                needed)
            if want_bank:
                q = np.ascontiguousarray(q[needed])
        else:
            weights, offsets, q = kernels.forward(nxt, starts, holdings.total, coef, m, prime,
                                                  want_bank and not unit)
        z: Any
        u: Any
        if matrix is not None and prime and matrix[0] == "matrix":
            z, u = residues.modular_terminal(matrix[1], np.asarray(bank), q, prime,
                                             want_seats, want_bank)
        elif matrix is not None and prime:
            pair_weights, pair_results = matrix[1]
            z, u = residues.terminal_residues(pair_weights, pair_results, bank_rows, q, prime,
                                              want_seats, want_bank, _whole(bank_rows, prime))
        elif matrix is not None:
            z = dense_seats(matrix, np.asarray(bank)) if want_seats else np.zeros(0)
            u = dense_bank(matrix, q) if want_bank else np.zeros(0)
        else:
            last = weights[offsets[m]:offsets[m + 1]].reshape(2**m, -1)
            z, u = kernels.terminal(self.levels.compositions[m], np.asarray(self.counts),
                                    holdings.usage, holdings.total, order, falling,
                                    self.stock, bank_rows, q, last, prime, want_seats,
                                    want_bank, unit, _whole(bank_rows, prime))
        if not want_seats:
            if not needed.all():  # the wanted vectors' values back in place
                full = np.zeros((u.shape[0], 1 << m, 2), dtype=u.dtype)
                full[:, needed] = u
                u = full
            return [], u
        if lazy:
            return self._backward(prime, coef, z, weights, offsets), u
        flat = kernels.backward(m, nxt, starts, holdings.total, order, coef, z, weights,
                                offsets, prime)
        return _split(flat, m, len(self.seat_index)), u

    def _coefficients(self, ring: Ring, seats: Sequence[Array]) -> Array:
        """Each live seat's action weights per holding times the holding's order,
        ``coef[k, e, h, d]`` (the kernels' layout)."""
        falling, order = self.arrays(ring)
        m, index = self.live, np.asarray(self.seat_index)
        coef = np.zeros((m, max(1, 2 ** (m - 1)), len(index), 2), dtype=falling.dtype)
        for k, s in enumerate(seats):
            coef[k, :2**k] = ring.mul(np.asarray(s)[:, index, :], order[None, :, None])
        return coef

    def _backward(self, prime: int, coef: Array, z: Array, weights: Array, offsets: Array,
                  alive: Array | None = None) -> list[Array]:
        """The residue walk's backward pass: every seat's values per holding ``(2**k, H, 2)``
        (``alive``: the choice vectors where ``z`` may be non-zero, every one if None)."""
        _, order = self.arrays(Modular(prime))
        holdings, m = self.levels.holdings, self.live
        nxt, starts = self.levels.stacked_next()
        size = len(self.seat_index)
        flat = residues.backward_residues(
            m, nxt, starts, holdings.total, order, coef, z, weights, offsets, prime,
            np.ones(1 << m, dtype=np.bool_) if alive is None else alive)
        return _split(flat, m, size)

    def seat_counterfactuals(self, ring: Ring, seats: Sequence[Array],
                             banks: Sequence[Array]) -> list[list[Array]]:
        """In residues with the exact terminal tables: one forward pass for every bank play,
        and each play after the first as the first's values plus its difference's
        (:mod:`.changes`: a few cells changed cost a few hundredths of a pass)."""
        matrix = self.exact() if isinstance(ring, Modular) else None
        if not isinstance(ring, Modular) or matrix is None or len(banks) < 2:
            return super().seat_counterfactuals(ring, seats, banks)
        prime = ring.prime
        m, classes = self.live, len(self.seat_classes)
        coef = self._coefficients(ring, seats)
        if "sources" not in self._passes:
            self._passes["sources"] = residues.sources(self.levels)
        first, source, holding = self._passes["sources"]
        _, starts = self.levels.stacked_next()
        weights, offsets, _ = residues.forward_residues(
            first, source, holding, starts, self.levels.holdings.total, coef, m, prime, False,
            np.ones(1 << m, dtype=np.bool_))
        base = np.asarray(banks[0])
        z = self._terminal(prime, matrix, base)
        first_values = self._backward(prime, coef, z, weights, offsets)
        out = []
        for bank in banks:
            cells, play = changes.changed_cells(np.asarray(bank), base, prime)
            if len(cells):
                z, alive = changes.changed_terminal(matrix, cells, play, self.bank_index,
                                                    self.vectors, prime)
                values = [ring.reduce(a + b) for a, b in zip(
                    first_values, self._backward(prime, coef, z, weights, offsets, alive),
                    strict=True)]
            else:
                values = first_values
            out.append([self._classes(ring, v, 1, self.seat_index, classes) for v in values])
        return out

    def _terminal(self, prime: int, matrix: Any, bank: Array) -> Array:
        """The residue walk's last step for the seats (``Z``) from the exact tables."""
        z: Array
        if matrix[0] == "matrix":
            z, _ = residues.modular_terminal(matrix[1], bank, np.zeros((1, 1, 10, 2),
                                                                       dtype=np.int64),
                                             prime, True, False)
            return z
        bank_rows = np.ascontiguousarray(bank[np.asarray(self.bank_index)])
        pair_weights, pair_results = matrix[1]
        z, _ = residues.terminal_residues(pair_weights, pair_results, bank_rows,
                                          np.zeros((1, 1, 10, 2), dtype=np.int64), prime,
                                          True, False, _whole(bank_rows, prime))
        return z

    def _classes(self, ring: Ring, values: Array, axis: int, index: tuple[int, ...],
                 classes: int) -> Array:
        moved = np.moveaxis(values, axis, 0)
        out = np.zeros((classes,) + moved.shape[1:], dtype=moved.dtype)
        np.add.at(out, np.asarray(index), moved)
        return np.moveaxis(ring.reduce(out), 0, axis)

    def bank_counterfactual(self, ring: Ring, seats: Sequence[Array], bank: Array,
                            vectors: Sequence[int]) -> Array:
        """In residues only the wanted choice vectors' rows are walked (the last levels'
        other choices and the terminal step's other vectors skipped)."""
        if not isinstance(ring, Modular):
            return super().bank_counterfactual(ring, seats, bank, vectors)
        return self.counterfactual(ring, seats, bank, "bank", vectors)[1]

    def counterfactual(self, ring: Ring, seats: Sequence[Array], bank: Array,
                       sides: str = "all", vectors: Sequence[int] | None = None,
                       ) -> tuple[list[Array], Array]:
        matrix = self.exact() if isinstance(ring, Modular) else self.dense()
        seat_values, bank_values = self._walk(ring, seats, bank, sides, matrix=matrix,
                                              vectors=vectors)
        classes, banks = len(self.seat_classes), len(self.bank_classes)
        seat_out = [self._classes(ring, v, 1, self.seat_index, classes) for v in seat_values]
        per_class = matrix is not None and (not isinstance(ring, Modular) or matrix[0] == "matrix")
        bank_out = (np.zeros(0) if sides == "seats" else bank_values if per_class
                    else self._classes(ring, bank_values, 0, self.bank_index, banks))
        if not isinstance(ring, Modular):
            scale = float(self.base_scale)
            seat_out = [v / scale for v in seat_out]
            bank_out = bank_out / scale
        return seat_out, bank_out

    def reach(self, seats: Sequence[Array]) -> tuple[list[Array], Array]:
        ring = Float()
        bank = np.full((len(self.bank_classes), self.vectors, 2), 0.5)
        seat_values, bank_values = self._walk(ring, seats, bank, "all", unit=True)
        scale = float(self.base_scale)
        classes, banks = len(self.seat_classes), len(self.bank_classes)
        return ([self._classes(ring, v[..., 0], 1, self.seat_index, classes) / scale
                 for v in seat_values],
                self._classes(ring, bank_values[..., 0], 0, self.bank_index, banks) / scale)

    def _exact_reach(self, seats: Exact) -> tuple[list[list[list[Fraction]]],
                                                   list[list[Fraction]]]:
        """Every information set's exact reach probability (cached per strategy)."""
        key = tuple(tuple(tuple(row) for row in rows) for rows in seats)
        if key in self._passes:
            return self._passes[key]  # type: ignore[no-any-return]
        standing = [[Fraction(0)] * self.vectors for _ in self.bank_classes]
        profile = Integers.of(seats, standing)
        everyone = math.prod(profile.seat_scales)
        moduli = primes_for(self.base_scale * everyone, signed=True)
        found = []
        for prime in moduli:
            ring = Modular(prime)
            seat_values, bank_values = self._walk(
                ring, [ring.encode(a) for a in profile.seats], ring.encode(profile.bank),
                "all", unit=True)
            seat_parts = [self._classes(ring, v[..., 0], 1, self.seat_index,
                                        len(self.seat_classes)).reshape(-1)
                          for v in seat_values]
            bank_part = self._classes(ring, bank_values[..., 0], 0, self.bank_index,
                                      len(self.bank_classes)).reshape(-1)
            found.append(np.concatenate([*seat_parts, bank_part]))
        flat = crt(np.stack(found), moduli)
        out_seats, at = [], 0
        for k in range(self.live):
            scale = self.base_scale * everyone // profile.seat_scales[k]
            cells = 2**k * len(self.seat_classes)
            rows = [Fraction(v, scale) for v in flat[at:at + cells]]
            out_seats.append([rows[e * len(self.seat_classes):(e + 1) * len(self.seat_classes)]
                              for e in range(2**k)])
            at += cells
        bank_rows = [Fraction(v, self.base_scale * everyone) for v in flat[at:]]
        out_bank = [bank_rows[c * self.vectors:(c + 1) * self.vectors]
                    for c in range(len(self.bank_classes))]
        self._passes[key] = (out_seats, out_bank)
        return out_seats, out_bank

    def seat_reach(self, seats: Exact, k: int, earlier: int, cls: int) -> Fraction:
        return self._exact_reach(seats)[0][k][earlier][cls]

    def bank_reach(self, seats: Exact, vector: int, cls: int) -> Fraction:
        return self._exact_reach(seats)[1][cls][vector]


def _split(flat: Array, live: int, holdings: int) -> list[Array]:
    """The backward passes' flat values as every seat's ``(2**k, holdings, 2)``."""
    cuts = np.cumsum([0] + [2**k * holdings * 2 for k in range(live)])
    return [flat[cuts[k]:cuts[k + 1]].reshape(2**k, holdings, 2) for k in range(live)]


def _whole(bank: Any, prime: int) -> Any:
    """The bank's two action weights' common sum (reduced modulo ``prime`` when given), or
    -1 when the cells differ."""
    sums = bank.sum(axis=-1)
    if prime:
        sums = sums % prime
    first = sums.reshape(-1)[0] if sums.size else bank.dtype.type(0)
    return first if np.all(sums == first) else bank.dtype.type(-1)


@lru_cache(maxsize=64)
def dealt_subgame(rules: ChoiceRules, counts: tuple[int, ...], live: int, by: str,
                  shoe: str) -> DealtSubgame:
    """The subgame of ``live`` seats dealt from point-value ``counts`` with exact card
    removal, conditional on the bank and every live seat holding no natural."""
    if live < 1:
        raise AnalyzerError("a subgame needs at least one live seat")
    counts = tuple(int(c) for c in counts)
    stock = sum(counts) - 2 * (live + 1)
    if stock < 2:
        raise AnalyzerError(f"{shoe}: too few cards for {live + 1} live hands and two "
                            "third cards")
    if stock >= MAX_STOCK:
        raise AnalyzerError(f"{shoe}: exact card removal handles a stock of at most "
                            f"{MAX_STOCK - 1} cards")
    ways = live_ways(rules, counts, live + 1)
    if not ways:
        raise AnalyzerError(f"{shoe}: no deal leaves {live + 1} hands without a natural")
    levels = Levels.of(rules, counts, live)
    classes = info_classes(rules, by)
    index = tuple(next(c for c, cls in enumerate(classes) if h in cls.hands)
                  for h in levels.holdings.hands)
    return DealtSubgame(rules=rules, live=live, by=by, shoe=shoe, seat_classes=classes,
                        bank_classes=classes, base_scale=ways * stock * (stock - 1),
                        counts=counts, levels=levels, seat_index=index, bank_index=index,
                        stock=stock)
