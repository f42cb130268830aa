"""Shoe-aware moments: each hand's exact distribution given the cards already dealt.

Hands dealt from a shoe are not independent draws from the full shoe. When a log holds
whole shoes, each hand is tested against its exact distribution given every card already
dealt from its shoe (evaluated in float64 on the same polynomial as
:mod:`analyzer.engine.odds`); observed minus expected is then a martingale, and the tests
use its summed conditional covariance. :class:`ShoeMoments` adds those expectations and
covariances up, per bet and for the dealt cards' ranks, evaluating :data:`BATCH` depleted
shoes at a time. Unlogged burn cards do no harm: unseen cards are exchangeable.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from analyzer.dealing.handlog import CARD_RANK
from analyzer.engine import backend
from analyzer.engine.lookup import Model
from analyzer.engine.shoe_aware import ShoeEvaluator, shoe_evaluator
from analyzer.verify.inference.fixed import fixed_sums, to_float, to_floats

__all__ = ["BATCH", "RUN", "run_terms", "SHOE_BATCH", "ShoeMoments"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Hands evaluated together in the shoe-aware model (about: whole runs each time).
BATCH = 4096
#: A shoe's hands summed together (a run), from its first hand on.
RUN = 256
_RANKS = [CARD_RANK[c] - 1 for c in range(52)]
#: A shoe queued for its rank moments: (start, cards, tested, categories, None), or
#: (start, (), (), categories, k) for k tested cards each from the full shoe
_Queued = tuple[Sequence[int], Sequence[int] | IntArray, Sequence[bool] | BoolArray,
                Sequence[int] | None, int | None]
#: Shoes whose rank moments are added up together.
SHOE_BATCH = 64


class ShoeMoments:
    """Buffers (depleted shoe, stakes) rows and adds their expectations up.

    Rows are ten point-value counts, or 52 card counts with a card-level evaluator. The
    hands are summed in *runs*: a shoe's hands, :data:`RUN` at a time from its first (a
    run never spans two shoes), each run's sums rounded once to the exact grid of
    :mod:`~analyzer.verify.inference.fixed` and added as integers. So the sums do not
    depend on how the log was cut (several processes, several files, chunks of a
    reader): only on its shoes.
    """

    def __init__(self, model: Model,
                 evaluator: ShoeEvaluator | None = None,
                 values: bool = False) -> None:
        self.model = model
        self.evaluator = evaluator if evaluator is not None else shoe_evaluator(model)
        # queued hands: python rows (add) and arrays (add_rows), each with its run starts
        self._rows: list[list[int]] = []
        self._stakes: list[Sequence[float | Fraction]] = []  # exact decimals: to float
        self._starts: list[bool] = []
        self._parts: list[tuple[FloatArray, FloatArray, BoolArray]] = []
        self.queued = 0
        self._position = 0  # the next hand's place in its shoe
        # per bet: k expectations, k*k covariances, EV, variance, money EV and variance
        self.sizes = [len(b.labels) for b in model.bets]
        self._bets = [[0] * (k + k * k + 4) for k in self.sizes]
        # the dealt cards' ranks (13), or their point values (10) in a values-only log
        self.categories = 10 if values else 13
        self._ranks = [0] * (self.categories + self.categories ** 2)
        #: shoes queued for their rank moments (added up :data:`SHOE_BATCH` at a time):
        #: (start, cards, tested, categories, None), or for a shoe not followed from its
        #: start (start, (), (), categories, its tested cards)
        self.shoes: list[_Queued] = []
        self.nets = [np.array([float(x) for x in b.nets]) for b in model.bets]
        self._layout: _Columns | None = None

    def add(self, remaining: list[int], stakes: Sequence[int | Fraction],
            opens: bool = False) -> None:
        """Queue one hand: the shoe it was dealt from, and each bet's stake on it;
        ``opens``: it is the first hand of its shoe."""
        position = 0 if opens else self._position
        self._position = position + 1
        self._rows.append(remaining)
        self._stakes.append(stakes)
        self._starts.append(position % RUN == 0)
        self.queued += 1
        if self.queued >= BATCH:
            self._flush(final=False)

    def add_rows(self, rows: npt.NDArray[np.int64], stakes: npt.NDArray[np.int64],
                 opens: npt.NDArray[np.bool_]) -> None:
        """Queue many hands at once (rows of the depleted shoes, rows of stakes, which
        rows open a shoe): the same sums as one :meth:`add` each."""
        n = rows.shape[0]
        if n == 0:
            return
        self._gather()
        index = np.arange(n)
        last_open = np.maximum.accumulate(np.where(opens, index, -1))
        position = np.where(last_open >= 0, index - last_open, self._position + index)
        self._position = int(position[-1]) + 1
        self._parts.append((rows.astype(np.float64), stakes.astype(np.float64),
                            position % RUN == 0))
        self.queued += n
        if self.queued >= BATCH:
            self._flush(final=False)

    def flush(self) -> None:
        """Evaluate every queued hand and add its moments up (the end of a log)."""
        self._flush(final=True)

    def _gather(self) -> None:
        """The hands queued one by one, as one array part."""
        if self._rows:
            self._parts.append((np.array(self._rows, dtype=np.float64),
                                np.array(self._stakes, dtype=np.float64),
                                np.array(self._starts, dtype=bool)))
            self._rows, self._stakes, self._starts = [], [], []

    def _flush(self, final: bool) -> None:
        """Evaluate the queued runs (all of them when ``final``, else every run but the
        last, which may go on) and add them up."""
        self._gather()
        if not self._parts:
            return
        rows = np.concatenate([p[0] for p in self._parts])
        stakes = np.concatenate([p[1] for p in self._parts])
        starts = np.concatenate([p[2] for p in self._parts])
        starts[0] = True
        cut = rows.shape[0] if final else int(np.flatnonzero(starts)[-1])
        self._parts = [(rows[cut:], stakes[cut:], starts[cut:])] if cut < rows.shape[0] \
            else []
        self.queued = rows.shape[0] - cut
        begin = 0
        while begin < cut:  # evaluated about BATCH hands at a time, whole runs each
            following = np.flatnonzero(starts[begin + BATCH:cut]) if begin + BATCH < cut \
                else np.zeros(0, dtype=np.int64)
            end = begin + BATCH + int(following[0]) if following.size else cut
            self._add_runs(rows[begin:end], stakes[begin:end],
                           np.flatnonzero(starts[begin:end]))
            begin = end

    def _add_runs(self, rows: FloatArray, stakes: FloatArray, starts: IntArray) -> None:
        """Evaluate whole runs of hands and add each run's moments up: per hand and bet its
        label probabilities, their products, its EV and variance per unit stake and of its
        stake, each run's terms summed in row order and rounded once to the exact grid
        (with numba loaded, :func:`analyzer.verify.inference.kernels.run_moments` fuses
        the loops: the same floats as :func:`run_terms`)."""
        result = self.evaluator.evaluate(rows)
        layout = self._layout
        if layout is None:
            layout = self._layout = _Columns(self.evaluator.bet_slices, self.nets)
        if backend.loaded():
            from analyzer.verify.inference import kernels  # numba: only once it is loaded

            terms = kernels.run_moments(result, stakes, starts, layout)
        else:
            terms = run_terms(result, stakes, starts, layout)
        totals = fixed_sums(terms)
        for sums, where in zip(self._bets, layout.sums, strict=True):
            for j, column in enumerate(where):
                sums[j] += totals[column]

    def bet_sums(self, b: int) -> list[int]:
        """Bet ``b``'s exact sums (k expectations, k*k covariances, EV, variance, money
        EV, money variance), in units of 2**-BITS."""
        self.flush()
        return self._bets[b]

    def _floats(self, b: int, start: int, stop: int) -> FloatArray:
        return np.array(to_floats(self.bet_sums(b)[start:stop]))

    @property
    def expected(self) -> list[FloatArray]:
        """Per bet, the expected count of each label."""
        return [self._floats(b, 0, k) for b, k in enumerate(self.sizes)]

    @property
    def covariance(self) -> list[FloatArray]:
        """Per bet, the summed conditional covariance of its label counts (k x k)."""
        return [self._floats(b, k, k + k * k).reshape(k, k) for b, k in enumerate(self.sizes)]

    def _scalar(self, j: int) -> FloatArray:
        return np.array([to_float(self.bet_sums(b)[k + k * k + j])
                         for b, k in enumerate(self.sizes)])

    @property
    def ev_sum(self) -> FloatArray:
        """Per bet, the summed EV per unit stake."""
        return self._scalar(0)

    @property
    def variance_sum(self) -> FloatArray:
        """Per bet, the summed variance per unit stake."""
        return self._scalar(1)

    @property
    def money_ev(self) -> FloatArray:
        """Per bet, the summed EV of its stakes."""
        return self._scalar(2)

    @property
    def money_variance(self) -> FloatArray:
        """Per bet, the summed variance of its stakes."""
        return self._scalar(3)

    def rank_sums(self) -> list[int]:
        """The dealt cards' expected category counts and their covariance, exact (units
        of 2**-BITS), every queued shoe added."""
        self._flush_shoes()
        return self._ranks

    @property
    def rank_mean(self) -> FloatArray:
        """The dealt cards' expected count of each rank (or point value), every queued
        shoe added."""
        return np.array(to_floats(self.rank_sums()[:self.categories]))

    @property
    def rank_covariance(self) -> FloatArray:
        """Their summed conditional covariance, every queued shoe added."""
        c = self.categories
        return np.array(to_floats(self.rank_sums()[c:])).reshape(c, c)

    def add_shoe(self, start: Sequence[int], cards: Sequence[int] | IntArray,
                 tested: Sequence[bool] | BoolArray, categories: Sequence[int] | None = None,
                 fixed: bool = False) -> None:
        """Rank moments of a shoe's cards dealt in order, each given the cards before it.

        Whatever decides which position is dealt next, the next card is uniform over the
        cards left, so each dealt card's rank has a known conditional distribution.
        ``categories`` maps a card index to its category (its rank 0-12 by default; its
        point value in a values-only log), ``start`` counts the full shoe's cards of each.
        ``fixed``: a shoe not followed from its start, each card from the full shoe
        (only how many are tested counts: :meth:`add_unfollowed`).
        Shoes are queued and added up :data:`SHOE_BATCH` at a time (the same batches
        whichever way a log is read, so the same floats).
        """
        if len(cards) == 0:
            return
        if fixed:
            self._queue((start, (), (), categories,
                         int(np.count_nonzero(np.asarray(tested, dtype=bool)))))
        else:
            self._queue((start, cards, tested, categories, None))

    def add_unfollowed(self, start: Sequence[int], tested: int,
                       categories: Sequence[int] | None = None) -> None:
        """Rank moments of ``tested`` hand cards of a shoe not followed from its start,
        each from the full shoe: the same sums as :meth:`add_shoe` of any ``tested``
        cards, all tested, with ``fixed`` (the cards themselves are not needed, so a log of
        one endless shoe is not kept card by card)."""
        if tested:
            self._queue((start, (), (), categories, tested))

    def _queue(self, shoe: _Queued) -> None:
        self.shoes.append(shoe)
        if len(self.shoes) >= SHOE_BATCH:
            self._flush_shoes()

    def _flush_shoes(self) -> None:
        """Add the queued shoes' rank moments up, as one array of conditional
        distributions (one row per tested card), each shoe's sums rounded once to the
        exact grid."""
        if not self.shoes:
            return
        queue, self.shoes = self.shoes, []
        first_start, first_categories = queue[0][0], queue[0][3]
        parts: list[FloatArray | tuple[int, FloatArray]]  # a shoe's rows, or k equal rows
        c = self.categories
        shoes = np.zeros((len(queue), c + c * c))
        square = shoes[:, c:].reshape(len(queue), c, c)
        usual = all(fixed is None and start == first_start and categories == first_categories
                    for start, _, _, categories, fixed in queue)
        if usual and backend.loaded():
            self._fused_ranks(queue, shoes)
            return
        if usual:
            # the usual queue (whole shoes of one tracker): one cumulative sum for all,
            # restarted at each shoe (integer counts: the same rows as shoe by shoe)
            rows, bounds = _conditional(
                first_start, np.concatenate([np.asarray(q[1]) for q in queue]),
                np.concatenate([np.asarray(q[2], dtype=bool) for q in queue]),
                first_categories, [len(q[1]) for q in queue])
            parts = [rows[i:j] for i, j in zip(bounds[:-1], bounds[1:], strict=True)]
        else:
            parts = []
            for start, cards, tested, categories, fixed in queue:
                if fixed is not None:  # the full shoe's proportions for every card: k
                    # equal rows, added up in closed form below (a log of one undelimited
                    # "shoe" of a million cards would otherwise build a million rows)
                    full = np.asarray(start, dtype=np.float64)
                    k = fixed if full.sum() > 0 else 0
                    parts.append((k, full / max(full.sum(), 1.0)))
                else:
                    parts.append(_conditional(start, np.asarray(cards),
                                              np.asarray(tested, dtype=bool), categories,
                                              [len(cards)])[0])
        for i, p in enumerate(parts):
            if isinstance(p, tuple):  # k rows equal to one row
                k, row = p
                shoes[i, :c] = k * row
                square[i] = k * np.outer(row, row)
            else:  # (the same floats as before: a sum in row order, numpy's p.T @ p)
                shoes[i, :c] = p.sum(axis=0)
                square[i] = p.T @ p
        self._add_ranks(shoes)

    def _fused_ranks(self, queue: list[_Queued], shoes: FloatArray) -> None:
        """The usual queue's rank moments with numba loaded already (the shoe-aware
        model): the rows and their sums fused
        (:func:`analyzer.verify.inference.kernels.rank_rows`, the same floats), the
        products by numpy's ``p.T @ p`` as :meth:`_flush_shoes` does them."""
        from analyzer.verify.inference import kernels  # numba: only once it is loaded

        c = self.categories
        rows, bounds, totals = kernels.rank_rows(
            np.asarray(queue[0][0], dtype=np.int64),
            np.concatenate([np.asarray(q[1], dtype=np.int64) for q in queue]),
            np.concatenate([np.asarray(q[2], dtype=bool) for q in queue]),
            np.asarray(queue[0][3] or _RANKS, dtype=np.int64),
            np.array([len(q[1]) for q in queue], dtype=np.int64))
        shoes[:, :c] = totals
        square = shoes[:, c:].reshape(len(queue), c, c)
        edges = bounds.tolist()
        for i in range(len(queue)):
            p = rows[edges[i]:edges[i + 1]]
            square[i] = p.T @ p
        self._add_ranks(shoes)

    def _add_ranks(self, shoes: FloatArray) -> None:
        """Add shoes' rank moments up (rows: each shoe's category totals, then the sums
        of products of its rows), each rounded once to the exact grid."""
        c = self.categories
        # diag(total) - products: -x + t is t - x exactly
        np.negative(shoes[:, c:], out=shoes[:, c:])
        shoes[:, c::c + 1] += shoes[:, :c]
        for j, units in enumerate(fixed_sums(shoes)):
            self._ranks[j] += units


class _Columns:
    """How :meth:`ShoeMoments._add_runs` lays out the bets' moments: the bets grouped by
    their number of labels k (label columns, nets and squared nets as (bets, k) arrays,
    the bets), and per bet the columns of its sums (k expectations, k x k covariances,
    four scalars) in the concatenated totals (per group its expectations then its
    covariances, bet by bet; then every bet's scalars)."""

    def __init__(self, bet_slices: Sequence[slice], nets: Sequence[FloatArray]) -> None:
        groups: dict[int, list[int]] = {}
        for b, part in enumerate(bet_slices):
            groups.setdefault(part.stop - part.start, []).append(b)
        self.by_size = [
            (np.array([range(bet_slices[b].start, bet_slices[b].stop) for b in bets],
                      dtype=np.int64),
             np.array([nets[b] for b in bets]), np.array([nets[b] ** 2 for b in bets]),
             np.array(bets, dtype=np.int64))
            for bets in groups.values()]
        where: dict[int, list[int]] = {}
        at = 0
        for k, bets in groups.items():
            for i, b in enumerate(bets):
                where[b] = [*range(at + i * k, at + (i + 1) * k),
                            *range(at + len(bets) * k + i * k * k,
                                   at + len(bets) * k + (i + 1) * k * k)]
            at += len(bets) * (k + k * k)
        self.sums = [where[b] + list(range(at + 4 * b, at + 4 * b + 4))
                     for b in range(len(bet_slices))]
        #: the bets' scalars begin here; every run's terms are this wide
        self.scalars, self.width = at, at + 4 * len(bet_slices)
        # per bet (for the fused loops): its first label column, its labels, where its
        # expectations and covariances begin; per result column its net and squared net
        self.label = np.array([part.start for part in bet_slices], dtype=np.int64)
        self.size = np.array([part.stop - part.start for part in bet_slices], dtype=np.int64)
        self.expected_at = np.array([where[b][0] for b in range(len(bet_slices))],
                                    dtype=np.int64)
        self.covariance_at = np.array([where[b][k] for b, k in enumerate(self.size.tolist())],
                                      dtype=np.int64)
        columns = max((part.stop for part in bet_slices), default=0)
        self.net, self.square = np.zeros(columns), np.zeros(columns)
        for b, part in enumerate(bet_slices):
            self.net[part] = nets[b]
            self.square[part] = nets[b] ** 2


def run_terms(result: FloatArray, stakes: FloatArray, starts: IntArray,
              layout: _Columns) -> FloatArray:
    """Each run's moment terms (rows: runs; columns as ``layout`` lays them out), numpy's
    way and the reference of :func:`analyzer.verify.inference.kernels.run_moments`: per
    hand every sum over a bet's labels is added label after label from the first, and
    each run's hands are added in row order (:func:`_run_sums`), so the floats are
    fixed by this order alone."""
    n, bets = result.shape[0], layout.label.shape[0]
    parts: list[FloatArray] = []
    products: list[FloatArray] = []
    scalars = np.empty((n, bets, 4))
    for labels, nets, squares, bet in layout.by_size:
        p = result[:, labels]  # (hands, bets of k labels, k)
        parts.append(p.reshape(n, -1))
        products.append((p[:, :, :, None] * p[:, :, None, :]).reshape(n, -1))
        mean, second = p[:, :, 0] * nets[:, 0], p[:, :, 0] * squares[:, 0]
        for i in range(1, labels.shape[1]):
            mean = mean + p[:, :, i] * nets[:, i]
            second = second + p[:, :, i] * squares[:, i]
        scalars[:, bet, 0] = mean
        scalars[:, bet, 1] = second - mean * mean
    stake = stakes[:, :bets]
    scalars[:, :, 2] = stake * scalars[:, :, 0]
    scalars[:, :, 3] = (stake * stake) * scalars[:, :, 1]
    blocks = [block for pair in zip(parts, products, strict=True) for block in pair]
    sums = _run_sums(np.concatenate([*blocks, scalars.reshape(n, 4 * bets)], axis=1), starts)
    # a covariance is minus the summed products, plus the expectation on the diagonal
    for b, k in enumerate(layout.size.tolist()):
        e, c = int(layout.expected_at[b]), int(layout.covariance_at[b])
        np.negative(sums[:, c:c + k * k], out=sums[:, c:c + k * k])
        sums[:, c:c + k * k:k + 1] += sums[:, e:e + k]
    return sums


def _run_sums(terms: FloatArray, starts: IntArray) -> FloatArray:
    """Each run's rows (runs begin at ``starts``, the first at 0) added in row order from
    0.0: the j-th rows of every run long enough added at once, j = 0, 1, ... (a numpy
    reduction may add pairwise; no padded copy, so memory stays that of the sums)."""
    n, width = terms.shape
    lengths = np.diff(np.append(starts, n))
    sums = np.zeros((starts.shape[0], width))
    for j in range(int(lengths.max(initial=0))):
        going = np.flatnonzero(lengths > j)
        sums[going] += terms[starts[going] + j]
    return sums


def _conditional(start: Sequence[int], cards: npt.NDArray[np.int64],
                 tested: npt.NDArray[np.bool_], categories: Sequence[int] | None,
                 lengths: list[int]) -> tuple[npt.NDArray[np.float64], list[int]]:
    """Each tested card's category distribution given the cards of its shoe before it:
    ``cards`` are shoes of these ``lengths`` one after another, each from ``start``; and
    where each shoe's rows begin (one past the last shoe's at the end)."""
    category = np.asarray(categories or [CARD_RANK[c] - 1 for c in range(52)])
    k, n = len(start), cards.size
    # one row per category (cumulative sums along contiguous rows), integer counts in
    # int32: the same quotients as any other way of counting
    one_hot = np.zeros((k, n), dtype=np.int32)
    one_hot[category[cards], np.arange(n)] = 1
    dealt = np.cumsum(one_hot, axis=1, dtype=np.int32)  # through each card
    firsts = np.cumsum([0, *lengths[:-1]], dtype=np.int64)
    opened = np.zeros((k, len(lengths)), dtype=np.int32)  # dealt before each shoe
    opened[:, 1:] = dealt[:, firsts[1:] - 1]
    dealt -= one_hot
    dealt -= np.repeat(opened, lengths, axis=1)
    del one_hot
    before = np.asarray(start, dtype=np.int32)[:, None] - dealt  # before each card
    left = sum(start) - (np.arange(n) - np.repeat(firsts, lengths))
    keep = tested & (left > 0)
    p: npt.NDArray[np.float64] = np.ascontiguousarray(
        (before[:, keep] / left[keep].astype(np.float64)).T)
    kept = np.concatenate([[0], np.cumsum(keep)])
    return p, kept[np.append(firsts, n)].tolist()
