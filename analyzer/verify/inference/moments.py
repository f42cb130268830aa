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
from analyzer.engine.lookup import Model
from analyzer.engine.shoe_aware import ShoeEvaluator, shoe_evaluator

__all__ = ["BATCH", "SHOE_BATCH", "ShoeMoments"]

#: Hands evaluated together in the shoe-aware model.
BATCH = 1024
#: Shoes whose rank moments are added up together.
SHOE_BATCH = 64


class ShoeMoments:
    """Buffers (depleted shoe, stakes) rows and adds their expectations up in batches.

    Rows are ten point-value counts, or 52 card counts with a card-level evaluator.
    """

    def __init__(self, model: Model,
                 evaluator: ShoeEvaluator | None = None,
                 values: bool = False) -> None:
        self.model = model
        self.evaluator = evaluator if evaluator is not None else shoe_evaluator(model)
        self.rows: list[list[int]] = []
        self.stakes: list[Sequence[float | Fraction]] = []  # exact decimals: to float
        nbets = len(model.bets)
        self.expected = [np.zeros(len(b.labels)) for b in model.bets]
        self.covariance = [np.zeros((len(b.labels), len(b.labels))) for b in model.bets]
        self.ev_sum = np.zeros(nbets)
        self.variance_sum = np.zeros(nbets)
        self.money_ev = np.zeros(nbets)
        self.money_variance = np.zeros(nbets)
        # the dealt cards' ranks (13), or their point values (10) in a values-only log
        categories = 10 if values else 13
        self._rank_mean = np.zeros(categories)
        self._rank_covariance = np.zeros((categories, categories))
        #: shoes queued for their rank moments (added up :data:`SHOE_BATCH` at a time)
        self.shoes: list[tuple[Sequence[int], Sequence[int], Sequence[bool],
                               Sequence[int] | None, bool]] = []
        self.nets = [np.array([float(x) for x in b.nets]) for b in model.bets]

    def add(self, remaining: list[int], stakes: Sequence[int | Fraction]) -> None:
        """Queue one hand: the shoe it was dealt from, and each bet's stake on it."""
        self.rows.append(remaining)
        self.stakes.append(stakes)
        if len(self.rows) >= BATCH:
            self.flush()

    def add_rows(self, rows: npt.NDArray[np.int64], stakes: npt.NDArray[np.int64]) -> None:
        """Queue many hands at once (rows of the depleted shoes, rows of stakes): evaluated
        in the same batches of :data:`BATCH` hands as one :meth:`add` each, so the sums
        are the same floats."""
        start, n = 0, rows.shape[0]
        if self.rows:
            start = min(BATCH - len(self.rows), n)
            self.rows.extend(rows[:start].tolist())
            self.stakes.extend(stakes[:start].tolist())
            if len(self.rows) >= BATCH:
                self.flush()
        while n - start >= BATCH:
            self._add_batch(rows[start:start + BATCH].astype(np.float64),
                            stakes[start:start + BATCH].astype(np.float64))
            start += BATCH
        self.rows.extend(rows[start:].tolist())
        self.stakes.extend(stakes[start:].tolist())

    def flush(self) -> None:
        """Evaluate the queued hands and add their moments up."""
        if not self.rows:
            return
        rows = np.array(self.rows, dtype=np.float64)
        stakes = np.array(self.stakes, dtype=np.float64)
        self.rows, self.stakes = [], []
        self._add_batch(rows, stakes)

    def _add_batch(self, rows: npt.NDArray[np.float64],
                   stakes: npt.NDArray[np.float64]) -> None:
        """Evaluate one batch of hands and add their moments up."""
        ev = self.evaluator
        result = ev.evaluate(rows)
        for b, part in enumerate(ev.bet_slices):
            p = result[:, part]
            self.expected[b] += p.sum(axis=0)
            self.covariance[b] += np.diag(p.sum(axis=0)) - p.T @ p
            mean = p @ self.nets[b]
            variance = p @ (self.nets[b] ** 2) - mean**2
            self.ev_sum[b] += mean.sum()
            self.variance_sum[b] += variance.sum()
            self.money_ev[b] += (stakes[:, b] * mean).sum()
            self.money_variance[b] += (stakes[:, b] ** 2 * variance).sum()

    @property
    def rank_mean(self) -> npt.NDArray[np.float64]:
        """The dealt cards' expected count of each rank (or point value), every queued
        shoe added."""
        self._flush_shoes()
        return self._rank_mean

    @property
    def rank_covariance(self) -> npt.NDArray[np.float64]:
        """Their summed conditional covariance, every queued shoe added."""
        self._flush_shoes()
        return self._rank_covariance

    def add_shoe(self, start: Sequence[int], cards: Sequence[int], tested: Sequence[bool],
                 categories: Sequence[int] | None = None, fixed: bool = False) -> None:
        """Rank moments of a shoe's cards dealt in order, each given the cards before it.

        Whatever decides which position is dealt next, the next card is uniform over the
        cards left, so each dealt card's rank has a known conditional distribution.
        ``categories`` maps a card index to its category (its rank 0-12 by default; its
        point value in a values-only log), ``start`` counts the full shoe's cards of each.
        ``fixed``: a shoe not followed from its start, each card from the full shoe.
        Shoes are queued and added up :data:`SHOE_BATCH` at a time (the same batches
        whichever way a log is read, so the same floats).
        """
        if not cards:
            return
        self.shoes.append((start, cards, tested, categories, fixed))
        if len(self.shoes) >= SHOE_BATCH:
            self._flush_shoes()

    def _flush_shoes(self) -> None:
        """Add the queued shoes' rank moments up, as one array of conditional
        distributions (one row per tested card)."""
        if not self.shoes:
            return
        queue, self.shoes = self.shoes, []
        first_start, first_categories = queue[0][0], queue[0][3]
        if all(not fixed and start == first_start and categories == first_categories
               for start, _, _, categories, fixed in queue):
            # the usual queue (whole shoes of one tracker): one cumulative sum for all,
            # restarted at each shoe (integer counts: the same rows as shoe by shoe)
            parts = [_conditional(first_start, np.concatenate([np.asarray(q[1]) for q in queue]),
                                  np.concatenate([np.asarray(q[2], dtype=bool) for q in queue]),
                                  first_categories, [len(q[1]) for q in queue])]
        else:
            parts = []
            for start, cards, tested, categories, fixed in queue:
                if fixed:  # the full shoe's proportions for every card: k equal rows,
                    # added up in closed form (a log of one undelimited "shoe" of a
                    # million cards would otherwise build a million rows)
                    full = np.asarray(start, dtype=np.float64)
                    if full.sum() > 0:
                        row = full / full.sum()
                        k = float(np.count_nonzero(np.asarray(tested, dtype=bool)))
                        self._rank_mean += k * row
                        self._rank_covariance += np.diag(k * row) - k * np.outer(row, row)
                else:
                    parts.append(_conditional(start, np.asarray(cards),
                                              np.asarray(tested, dtype=bool), categories,
                                              [len(cards)]))
            if not parts:
                return
        p = np.concatenate(parts)
        total = p.sum(axis=0)
        self._rank_mean += total
        self._rank_covariance += np.diag(total) - p.T @ p


def _conditional(start: Sequence[int], cards: npt.NDArray[np.int64],
                 tested: npt.NDArray[np.bool_], categories: Sequence[int] | None,
                 lengths: list[int]) -> npt.NDArray[np.float64]:
    """Each tested card's category distribution given the cards of its shoe before it:
    ``cards`` are shoes of these ``lengths`` one after another, each from ``start``."""
    category = np.asarray(categories or [CARD_RANK[c] - 1 for c in range(52)])
    one_hot = np.zeros((cards.size, len(start)))
    one_hot[np.arange(cards.size), category[cards]] = 1.0
    dealt = np.cumsum(one_hot, axis=0)
    firsts = np.cumsum([0, *lengths[:-1]])
    # counts dealt before each shoe, taken off its rows
    base = np.vstack([np.zeros((1, len(start))), dealt])[firsts]
    before = np.asarray(start, dtype=np.float64) - (dealt - np.repeat(base, lengths, axis=0)) \
        + one_hot
    left = before.sum(axis=1)
    keep = tested & (left > 0)
    p: npt.NDArray[np.float64] = before[keep] / left[keep, None]
    return p
