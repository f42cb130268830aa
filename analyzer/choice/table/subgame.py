"""The subgames of a home Lucky 9 table: ``m`` live seats against a live bank.

Every natural is revealed before anyone chooses and every side sees all of them
(``docs/rules/lucky9-home.md`` section 7), so once the naturals are out the table splits into
independent *subgames*, one per natural pattern: the ``m`` seats without a natural choose in
seat order against a bank without one, each seeing its own hand and the earlier live seats'
choices, the bank seeing every choice. A natural seat is settled (+1) and drops out; which
seats are natural changes nothing but ``m`` (the live seats keep their order), and at a finite
shoe the naturals' cards, which everyone sees, are out of the shoe.

A :class:`Subgame` holds exact integer weights conditional on the subgame being reached and
computes every information set's *counterfactual values* -- the sum, over the histories in
it, of the probability the other sides and chance reach them times the side's expected
result per action -- in any :class:`~analyzer.choice.table.exact.ring.Ring`: floats for CFR,
residues for exact work. Strategies are arrays of action weights ``[..., 0]`` stand, ``[..., 1]``
draw: seat ``k`` (0-based live position) ``(2**k, classes, 2)`` indexed by the earlier
live seats' choices as a binary number (seat order, 1 = drew); the bank ``(bank classes,
2**m, 2)`` by the whole choice vector. Two models:

* :class:`FactoredSubgame` -- the infinite deck. Hands are independent, so the arrays are
  one seat's deal weight, the bank's, and the one-seat result table ``R[bank, seat, drew,
  bank drew]``, all compiled from the one-seat extensive form
  (:func:`~analyzer.choice.table.tree.pair_tree`); a pass costs ``O(m 2**m)`` cells.
* :class:`JointSubgame` -- a finite shoe with exact card removal, at most two live seats:
  the joint weight of every (bank, seat, seat) deal times each seat's exact expected result,
  counted from the shoe (third cards are exchangeable with the unused cards, so each seat's
  result needs only the pair of third cards it meets).

>>> from analyzer.choice.table.tree import LUCKY9
>>> game = infinite_subgame(LUCKY9, 2, "total")
>>> len(game.seat_classes), game.vectors, game.base_scale > 0
(9, 4, True)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, reduce
from typing import Any

import numpy as np

from analyzer.choice.headsup.game import falling, live_score
from analyzer.choice.table.exact.ring import Array, Float, Modular, Ring
from analyzer.choice.table.tree import compile_pair, pair_tree
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import HANDS, ChoiceRules, hand_label
from analyzer.rules.shoe import Shoe

__all__ = ["class_index", "Exact", "finite_subgame", "FactoredSubgame", "infinite_subgame",
           "info_classes", "InfoClass", "JointSubgame", "MAX_JOINT_SEATS", "Subgame"]

#: Exact card removal is implemented for at most this many live seats.
MAX_JOINT_SEATS = 2
#: Draw probabilities per live seat ``[k][earlier][class]``.
Exact = Sequence[Sequence[Sequence[Fraction]]]


def _chosen(row: Fraction, drew: int) -> Fraction:
    return row if drew else 1 - row


@dataclass(frozen=True)
class InfoClass:
    """What a side sees of its own hand: a total (``by="total"``) or a two-card holding."""

    label: str
    total: int
    hands: tuple[tuple[int, int], ...]


@dataclass(frozen=True, eq=False)
class Subgame:
    """``live`` seats and a bank, none natural; integer weights, values over ``base_scale``.

    A seat's counterfactual values in exact work are integers over ``base_scale`` times the
    strategy denominators of every *other* side; the bank's likewise (its own payoff is its
    net, minus the seats' sum).
    """

    rules: ChoiceRules
    live: int
    by: str
    shoe: str
    seat_classes: tuple[InfoClass, ...]
    bank_classes: tuple[InfoClass, ...]
    base_scale: int
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def vectors(self) -> int:
        """How many choice vectors the bank can see (``2**live``)."""
        return 1 << self.live

    def seat_forced(self) -> list[int | None]:
        """Per seat class: the rules' forced play (1 draw, 0 stand) or None (a choice)."""
        if "seat forced" not in self._cache:
            action = self.rules.player_action
            self._cache["seat forced"] = [None if action(c.total) == "choice"
                                          else int(action(c.total) == "draw")
                                          for c in self.seat_classes]
        return list(self._cache["seat forced"])

    def bank_forced(self) -> list[int | None]:
        """Per bank class: the rules' forced play or None."""
        if "bank forced" not in self._cache:
            action = self.rules.banker_action
            self._cache["bank forced"] = [None if action(c.total) == "choice"
                                          else int(action(c.total) == "draw")
                                          for c in self.bank_classes]
        return list(self._cache["bank forced"])

    def counterfactual(self, ring: Ring, seats: Sequence[Array], bank: Array,
                       sides: str = "all") -> tuple[list[Array], Array]:
        """Every information set's counterfactual value per action: every side's, or only
        the seats' (``sides="seats"``; the bank's comes back empty) or the bank's."""
        raise NotImplementedError

    def seat_counterfactuals(self, ring: Ring, seats: Sequence[Array],
                             banks: Sequence[Array]) -> list[list[Array]]:
        """The seats' counterfactual values (as :meth:`counterfactual` gives them) against
        each of several bank plays, the seats' play the same."""
        return [self.counterfactual(ring, seats, bank, "seats")[0] for bank in banks]

    def bank_counterfactual(self, ring: Ring, seats: Sequence[Array], bank: Array,
                            vectors: Sequence[int]) -> Array:
        """The bank's counterfactual values (as :meth:`counterfactual` gives them), correct
        at least at the choice vectors ``vectors`` (the others may come back zero)."""
        return self.counterfactual(ring, seats, bank, "bank")[1]

    def reach(self, seats: Sequence[Array]) -> tuple[list[Array], Array]:
        """Float probability of reaching each information set (for normalising)."""
        raise NotImplementedError

    def seat_reach(self, seats: Exact, k: int, earlier: int, cls: int) -> Fraction:
        """The exact probability, within the subgame, that live seat ``k`` holds class
        ``cls`` and sees the earlier live choices ``earlier`` (``seats[k][e][c]``: draw
        probabilities)."""
        raise NotImplementedError

    def bank_reach(self, seats: Exact, vector: int, cls: int) -> Fraction:
        """The exact probability that the bank holds class ``cls`` and sees ``vector``."""
        raise NotImplementedError

    def arrays(self, ring: Ring) -> tuple[Array, ...]:
        """The model's weights in ``ring`` (cached per ring)."""
        key = ("float",) if isinstance(ring, Float) or not isinstance(ring, Modular) else (
            "mod", ring.prime)
        if key not in self._cache:
            self._cache[key] = self._build(ring)
        return self._cache[key]  # type: ignore[no-any-return]

    def _build(self, ring: Ring) -> tuple[Array, ...]:
        raise NotImplementedError


def _ones(ring: Ring, shape: tuple[int, ...]) -> Array:
    return ring.encode(np.ones(shape, dtype=np.int64) if isinstance(ring, Modular)
                       else np.ones(shape))


@dataclass(frozen=True, eq=False)
class FactoredSubgame(Subgame):
    """Infinite deck: independent hands; integer class weights and the one-seat results."""

    seat_weight: tuple[int, ...] = ()
    bank_weight: tuple[int, ...] = ()
    result: tuple[Any, ...] = ()  # [bank class][seat class][drew][bank drew]
    scales: tuple[int, int, int] = (1, 1, 1)  # seat weights, bank weights, results

    def _build(self, ring: Ring) -> tuple[Array, ...]:
        seat_scale, bank_scale, result_scale = self.scales
        if isinstance(ring, Modular):
            return (ring.encode(np.asarray(self.seat_weight, dtype=np.int64)),
                    ring.encode(np.asarray(self.bank_weight, dtype=np.int64)),
                    ring.encode(np.asarray(self.result, dtype=np.int64)))
        return (np.asarray(self.seat_weight, dtype=float) / seat_scale,
                np.asarray(self.bank_weight, dtype=float) / bank_scale,
                np.asarray(self.result, dtype=float) / result_scale)

    def _prefix_products(self, ring: Ring, chosen: list[Array]) -> list[Array]:
        """Per seat, the other seats' probability of each whole choice vector."""
        m, vectors = self.live, self.vectors
        along = [np.repeat(p.reshape(-1), 2 ** (m - k - 1)) for k, p in enumerate(chosen)]
        prefix = [_ones(ring, (vectors,))]
        for k in range(m):
            prefix.append(ring.mul(prefix[-1], along[k]))
        suffix = [_ones(ring, (vectors,))]
        for k in reversed(range(m)):
            suffix.append(ring.mul(along[k], suffix[-1]))
        suffix.reverse()
        return [ring.mul(prefix[k], suffix[k + 1]) for k in range(m)]

    def counterfactual(self, ring: Ring, seats: Sequence[Array], bank: Array,
                       sides: str = "all") -> tuple[list[Array], Array]:
        weight, bank_weight, result = self.arrays(ring)
        m, classes, banks = self.live, len(self.seat_classes), len(self.bank_classes)
        weighted = [ring.mul(weight[None, :, None], s) for s in seats]  # (2^k, C, 2)
        chosen = [ring.sum(w, 1) for w in weighted]  # (2^k, 2): P(choice | earlier)
        others = self._prefix_products(ring, chosen)
        seat_values: list[Array] = []
        if sides != "bank":
            # S[h, d, v]: a seat's result holding h, choosing d, against the bank after v
            bank_play = ring.mul(bank_weight[:, None, None], bank)  # (B, V, 2)
            against = ring.contract("bva,bhda->hdv", bank_play, result)
            for k in range(m):
                x = ring.mul(against, others[k][None, None, :]).reshape(
                    classes, 2, 2**k, 2, 2 ** (m - k - 1))
                stand = ring.sum(x[:, 0, :, 0, :], 2)
                draw = ring.sum(x[:, 1, :, 1, :], 2)
                both = np.stack([stand, draw], axis=-1).transpose(1, 0, 2)  # (2^k, C, 2)
                seat_values.append(ring.mul(weight[None, :, None], both))
        if sides == "seats":
            return seat_values, np.zeros(0)
        total = np.zeros((banks, self.vectors, 2), dtype=result.dtype)
        for k in range(m):
            # Q[b, e, d, a]: seat k's expected result, its own play folded in
            q = ring.contract("ehd,bhda->beda", weighted[k], result)
            spread = np.repeat(q.reshape(banks, 2 ** (k + 1), 2), 2 ** (m - k - 1),
                               axis=1)  # (B, V, 2)
            total = ring.reduce(total + ring.mul(spread, others[k][None, :, None]))
        return seat_values, ring.mul(bank_weight[:, None, None], ring.reduce(-total))

    def reach(self, seats: Sequence[Array]) -> tuple[list[Array], Array]:
        ring = Float()
        weight, bank_weight, _ = self.arrays(ring)
        chosen = [np.einsum("h,ehd->ed", weight, s) for s in seats]
        m = self.live
        out = []
        for k in range(m):
            earlier = np.ones(2**k)
            for j in range(k):
                flat = chosen[j].reshape(-1)
                earlier = earlier * flat[np.arange(2**k) >> (k - j - 1)]
            out.append(earlier[:, None] * weight[None, :])
        vector = np.ones(self.vectors)
        for k in range(m):
            vector = vector * np.repeat(chosen[k].reshape(-1), 2 ** (m - k - 1))
        return out, bank_weight[:, None] * vector[None, :]


    def _choice_probability(self, seats: Exact, k: int, earlier: int, drew: int,
                            ) -> Fraction:
        total = sum(self.seat_weight)
        return sum((Fraction(w, total) * _chosen(x, drew)
                    for w, x in zip(self.seat_weight, seats[k][earlier], strict=True)),
                   Fraction(0))

    def _path(self, seats: Exact, bits: int, length: int) -> Fraction:
        out = Fraction(1)
        for j in range(length):
            out *= self._choice_probability(seats, j, bits >> (length - j), bits >> (
                length - j - 1) & 1)
        return out

    def seat_reach(self, seats: Exact, k: int, earlier: int, cls: int) -> Fraction:
        return Fraction(self.seat_weight[cls], sum(self.seat_weight)) * self._path(
            seats, earlier, k)

    def bank_reach(self, seats: Exact, vector: int, cls: int) -> Fraction:
        return Fraction(self.bank_weight[cls], sum(self.bank_weight)) * self._path(
            seats, vector, self.live)


@dataclass(frozen=True, eq=False)
class JointSubgame(Subgame):
    """A finite shoe: per (bank, seat, [other seat]) class, the joint deal weight times the
    seat's result for each (drew, bank drew); one table serves every seat (dealing is
    exchangeable), indexed own hand first. Built per holding in int64 (``ways`` and the
    third-card sums each fit), multiplied and summed into classes per ring."""

    ways: Array = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    third: Array = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    seat_index: tuple[int, ...] = ()  # holding -> seat class
    bank_index: tuple[int, ...] = ()

    def _build(self, ring: Ring) -> tuple[Array, ...]:
        if isinstance(ring, Modular):
            product = ring.mul(ring.encode(self.ways)[..., None, None],
                               ring.encode(self.third))
        else:
            product = (self.ways.astype(float)[..., None, None] * self.third.astype(float)
                       / float(self.base_scale))
        # Sum holdings into classes, axis by axis; one contiguous table per own choice.
        out = _group(ring, product, 0, self.bank_index, len(self.bank_classes))
        for axis in range(1, self.live + 1):
            out = _group(ring, out, axis, self.seat_index, len(self.seat_classes))
        moved = np.moveaxis(out, 0, -3)  # (own, [other], B, d, a)
        rows = len(self.seat_classes) ** self.live
        return tuple(np.ascontiguousarray(moved[..., d, :]).reshape(rows, -1) for d in (0, 1))

    def counterfactual(self, ring: Ring, seats: Sequence[Array], bank: Array,
                       sides: str = "all") -> tuple[list[Array], Array]:
        # One matrix per own choice d: rows (own hand[, other hand]), columns (bank hand,
        # bank drew).
        tables = self.arrays(ring)
        classes, banks = len(self.seat_classes), len(self.bank_classes)
        if self.live == 1:
            s0 = seats[0][0]  # (C, 2)
            v0 = np.stack([ring.matvec(tables[d], bank[:, d, :].reshape(-1)) for d in (0, 1)],
                          axis=-1)
            u = np.stack([ring.rmatvec(tables[d], s0[:, d]).reshape(banks, 2) for d in (0, 1)],
                         axis=1)
            return [v0[None]], ring.reduce(-u)  # cheap: both sides every time
        first, second = seats[0][0], seats[1]  # (C, 2), (2, C, 2)
        seat_values: list[Array] = []
        if sides != "bank":
            v0 = np.zeros_like(first)
            v1 = np.zeros_like(second)
            # The bank's play after every vector, as columns: one pass over each table.
            columns = bank.transpose(0, 2, 1).reshape(banks * 2, 4)  # (B*a, vector)
            against = [ring.matmul(tables[d], columns).reshape(classes, classes, 4)
                       for d in (0, 1)]  # [own, other, vector]
            for d0, d1 in itertools.product((0, 1), repeat=2):
                vector = 2 * d0 + d1
                # seat 1 holds g, seat 2 holds h; each seat's table: own hand first
                v0[:, d0] = ring.reduce(v0[:, d0] + ring.matvec(against[d0][:, :, vector],
                                                                 second[d0][:, d1]))
                v1[d0, :, d1] = ring.reduce(v1[d0, :, d1] + ring.matvec(
                    against[d1][:, :, vector], first[:, d0]))
            seat_values = [v0[None], v1]
        if sides == "seats":
            return seat_values, np.zeros(0)
        weights = [ring.mul(first[:, d0][:, None], second[d0][:, d1][None, :])
                   for d0, d1 in itertools.product((0, 1), repeat=2)]
        # The bank: every seat's table weighted by both seats' play, per vector.
        u = np.zeros_like(bank)
        for d in (0, 1):
            own_first = [w.reshape(-1) if (v >> 1) == d else np.zeros_like(w.reshape(-1))
                         for v, w in enumerate(weights)]
            own_second = [w.T.reshape(-1) if (v & 1) == d else np.zeros_like(w.reshape(-1))
                          for v, w in enumerate(weights)]
            stacked = ring.reduce(np.stack(own_first, axis=1) + np.stack(own_second, axis=1))
            total = ring.rmatmul(tables[d], stacked)  # (B*a, vector)
            u = ring.reduce(u - total.reshape(banks, 2, 4).transpose(0, 2, 1))
        return seat_values, u

    def reach(self, seats: Sequence[Array]) -> tuple[list[Array], Array]:
        weights = self._deal_weights()
        if self.live == 1:
            return [weights.sum(axis=0)[None]], weights @ seats[0][0]
        first, second = seats[0][0], seats[1]
        seat0 = weights.sum(axis=(0, 2))[None]
        seat1 = np.stack([np.einsum("bgh,g->h", weights, first[:, d]) for d in (0, 1)])
        bank = np.zeros((len(self.bank_classes), 4))
        for d0, d1 in itertools.product((0, 1), repeat=2):
            bank[:, 2 * d0 + d1] = np.einsum("bgh,g,h->b", weights, first[:, d0],
                                             second[d0][:, d1])
        return [seat0, seat1], bank

    def _deal_weights(self) -> Array:
        key = ("deal",)
        if key not in self._cache:
            out = _group(Float(), self.ways.astype(float) / float(self.ways.sum()), 0,
                         self.bank_index, len(self.bank_classes))
            for axis in range(1, self.live + 1):
                out = _group(Float(), out, axis, self.seat_index, len(self.seat_classes))
            self._cache[key] = out
        return self._cache[key]  # type: ignore[no-any-return]


    def _exact_deal(self) -> Any:
        """The class-level deal weights as exact integers (nested lists)."""
        key = ("exact deal",)
        if key not in self._cache:
            out = np.asarray(self.ways.tolist(), dtype=object)
            out = _group(Float(), out, 0, self.bank_index, len(self.bank_classes))
            for axis in range(1, self.live + 1):
                out = _group(Float(), out, axis, self.seat_index, len(self.seat_classes))
            self._cache[key] = (out.tolist(), int(np.sum(out)))
        return self._cache[key]

    def seat_reach(self, seats: Exact, k: int, earlier: int, cls: int) -> Fraction:
        deal, total = self._exact_deal()
        if self.live == 1 or k == 0:
            return Fraction(sum(sum(_flat(plane[cls])) for plane in deal), total)
        weight = sum((sum(plane[g][cls] for plane in deal) * _chosen(seats[0][0][g], earlier)
                      for g in range(len(self.seat_classes))), Fraction(0))
        return Fraction(weight / total)

    def bank_reach(self, seats: Exact, vector: int, cls: int) -> Fraction:
        deal, total = self._exact_deal()
        plane = deal[cls]
        if self.live == 1:
            return Fraction(sum((w * _chosen(seats[0][0][h], vector)
                                 for h, w in enumerate(plane)), Fraction(0)) / total)
        d0, d1 = vector >> 1, vector & 1
        weight = sum((plane[g][h] * _chosen(seats[0][0][g], d0) * _chosen(seats[1][d0][h], d1)
                      for g in range(len(plane)) for h in range(len(plane[g]))), Fraction(0))
        return Fraction(weight / total)


def _flat(value: Any) -> list[Any]:
    return [value] if not isinstance(value, list) else [v for x in value for v in _flat(x)]


def _group(ring: Ring, array: Array, axis: int, index: Sequence[int], classes: int) -> Array:
    """Sum ``array`` along ``axis`` into ``classes`` groups (``index[i]`` is position i's)."""
    if len(set(index)) == len(index) and list(index) == list(range(classes)):
        return array
    moved = np.moveaxis(array, axis, 0)
    out = np.zeros((classes,) + moved.shape[1:], dtype=moved.dtype)
    np.add.at(out, np.asarray(index), moved)
    return np.moveaxis(ring.reduce(out), 0, axis)


# -- building ---------------------------------------------------------------------------------
def class_index(classes: Sequence[InfoClass], holding: tuple[int, int]) -> int:
    """The index of the class among ``classes`` that holds ``holding`` (a one-line error
    when none does: a natural is not a live hand)."""
    for index, info in enumerate(classes):
        if holding in info.hands:
            return index
    raise AnalyzerError(f"holding {hand_label(holding)} is not a live hand")


def info_classes(rules: ChoiceRules, by: str, labels: Sequence[tuple[str, int]] | None = None,
                 ) -> tuple[InfoClass, ...]:
    """What a side can see of its own live hand: its total or each two-card holding."""
    live = [h for h in HANDS if sum(h) % 10 not in rules.naturals]
    if by == "cards":
        return tuple(InfoClass(hand_label(h), sum(h) % 10, (h,)) for h in live)
    totals = sorted({sum(h) % 10 for h in live})
    return tuple(InfoClass(str(t), t, tuple(h for h in live if sum(h) % 10 == t))
                 for t in totals)


@lru_cache(maxsize=32)
def infinite_subgame(rules: ChoiceRules, live: int, by: str) -> FactoredSubgame:
    """The subgame of ``live`` seats at the infinite deck, compiled from the one-seat tree."""
    if live < 1:
        raise AnalyzerError("a subgame needs at least one live seat")
    pair = compile_pair(pair_tree(rules, Shoe.infinite(), by))
    banks, seats = range(len(pair.bank_hands)), range(len(pair.seat_hands))
    seat_p = [sum((pair.weight[b][h] for b in banks), Fraction(0)) for h in seats]
    bank_p = [sum(pair.weight[b], Fraction(0)) for b in banks]
    if any(pair.weight[b][h] != bank_p[b] * seat_p[h] for b in banks for h in seats):
        raise AnalyzerError("the infinite-deck hands are not independent in the tree")
    keep_seat = [h for h in seats if pair.seat_hands[h][1] not in rules.naturals]
    keep_bank = [b for b in banks if pair.bank_hands[b][1] not in rules.naturals]
    seat_scale = _common_denominator([seat_p[h] for h in keep_seat])
    bank_scale = _common_denominator([bank_p[b] for b in keep_bank])
    # Integer weights proportional to the conditional (non-natural) probabilities.
    seat_weight = tuple(int(seat_p[h] * seat_scale) for h in keep_seat)
    bank_weight = tuple(int(bank_p[b] * bank_scale) for b in keep_bank)
    cells = [pair.result[b][h] for b in keep_bank for h in keep_seat]
    result_scale = _common_denominator([v for cell in cells if cell is not None
                                        for row in cell for v in row])
    result = tuple(tuple(tuple(tuple(int(v * result_scale) for v in row)
                               for row in _live(pair.result[b][h])) for h in keep_seat)
                   for b in keep_bank)
    classes = info_classes(rules, by)
    if [c.label for c in classes] != [pair.seat_hands[h][0] for h in keep_seat]:
        raise AnalyzerError("the tree's chance outcomes do not match the information classes")
    seat_total, bank_total = sum(seat_weight), sum(bank_weight)
    return FactoredSubgame(
        rules=rules, live=live, by=by, shoe="infinite deck", seat_classes=classes,
        bank_classes=classes, base_scale=seat_total**live * bank_total * result_scale,
        seat_weight=seat_weight, bank_weight=bank_weight, result=result,
        scales=(seat_total, bank_total, result_scale))


def _live(cell: Any) -> Any:
    if cell is None:
        raise AnalyzerError("a live deal without decisions in the tree")
    return cell


def _common_denominator(values: Sequence[Fraction]) -> int:
    return reduce(math.lcm, (Fraction(v).denominator for v in values), 1)


def finite_subgame(rules: ChoiceRules, counts: Sequence[int], live: int, by: str,
                   shoe: str) -> JointSubgame:
    """The subgame of ``live`` seats (1 or 2) dealt from point-value ``counts`` with exact
    card removal, conditional on the bank and every live seat holding no natural."""
    if not 1 <= live <= MAX_JOINT_SEATS:
        raise AnalyzerError(f"exact card removal covers at most {MAX_JOINT_SEATS} live seats")
    ways, third, pair, total_ways = _joint_tables(rules, tuple(int(c) for c in counts), live,
                                                  shoe)
    holdings = [h for h in HANDS if sum(h) % 10 not in rules.naturals]
    classes = info_classes(rules, by)
    index = tuple(next(c for c, cls in enumerate(classes) if h in cls.hands) for h in holdings)
    return JointSubgame(rules=rules, live=live, by=by, shoe=shoe, seat_classes=classes,
                        bank_classes=classes,
                        base_scale=total_ways * pair * rules.payoffs.scale, ways=ways,
                        third=third, seat_index=index, bank_index=index)


@lru_cache(maxsize=64)
def _joint_tables(rules: ChoiceRules, counts: tuple[int, ...], live: int,
                  shoe: str) -> tuple[Any, Any, int, int]:
    """What :func:`finite_subgame` deals, whatever the sides see (so a table checked by
    cards and by total builds it once): the ways of every joint holding, the results of
    the third cards, the ordered pairs of third cards and the ways in all."""
    n = np.asarray(counts, dtype=np.int64)
    size = int(n.sum())
    if 8 * size ** (2 * (live + 1)) >= 2**63:
        raise AnalyzerError(f"{shoe}: exact card removal counts deals in int64, which holds "
                            f"shoes of at most {int((2**60) ** (1 / (2 * live + 2)))} cards "
                            f"for {live + 1} live hands")
    stock = size - 2 * (live + 1)
    if stock < 2:
        raise AnalyzerError(f"{shoe}: too few cards for {live + 1} live hands")
    holdings = [h for h in HANDS if sum(h) % 10 not in rules.naturals]
    usage = np.zeros((len(holdings), 10), dtype=np.int64)
    for i, (a, b) in enumerate(holdings):
        usage[i, a] += 1
        usage[i, b] += 1
    orders = np.array([1 if a == b else 2 for a, b in holdings], dtype=np.int64)
    totals = np.array([sum(h) % 10 for h in holdings])
    shape = (len(holdings),) * (live + 1)
    used = np.zeros(shape + (10,), dtype=np.int64)
    order = np.ones(shape, dtype=np.int64)
    for axis in range(live + 1):
        where: list[Any] = [None] * (live + 1)
        where[axis] = slice(None)
        used = used + usage[tuple(where) + (slice(None),)]
        order = order * orders[tuple(where)]
    ways = order * np.prod(falling(n, used, 2 * (live + 1)), axis=-1)
    remaining = np.maximum(n - used, 0)  # (..., 10)
    final = (totals[:, None] + np.arange(10)[None, :]) % 10  # (holding, third)
    own_total = totals.reshape((1, -1) + (1,) * (live - 1))
    bank_total = totals.reshape((-1,) + (1,) * live)
    own_final = final.reshape((1, -1) + (1,) * (live - 1) + (10,))
    bank_final = final.reshape((-1,) + (1,) * live + (10,))
    third = np.zeros(shape + (2, 2), dtype=np.int64)
    pair = stock * (stock - 1)
    payoffs = rules.payoffs

    def net(difference: Any) -> Any:
        return live_score(payoffs, difference)

    third[..., 0, 0] = net(own_total - bank_total) * pair
    third[..., 1, 0] = (remaining * net(own_final - bank_total[..., None])).sum(-1) * (
        stock - 1)
    third[..., 0, 1] = (remaining * net(own_total[..., None] - bank_final)).sum(-1) * (
        stock - 1)
    # Both draw: sum over distinct third cards t, u of r_t (r_u - [t = u]) net(...), as
    # r' S r - sum_t r_t S_tt with S the 10x10 net matrix of the two hands' totals.
    signs = net(final[:, None, :, None] - final[None, :, None, :])  # (own, bank, t, u)
    per_deal = np.transpose(signs, (1, 0, 2, 3))  # (bank, own, t, u)
    spread = "bgxt,bgtu->bgxu" if live == 2 else "bgt,bgtu->bgu"
    weighted = np.einsum(spread, remaining, per_deal)
    diagonal = np.einsum("bgtt->bgt", per_deal)
    if live == 2:
        diagonal = diagonal[:, :, None, :]
    third[..., 1, 1] = (weighted * remaining).sum(-1) - (remaining * diagonal).sum(-1)
    ways.flags.writeable = third.flags.writeable = False  # shared by every model of sight
    return ways, third, pair, int(ways.sum(dtype=object))
