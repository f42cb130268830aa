"""Shoe-aware distributions: for many depleted shoes at once, the probability of every
result label of every bet of a compiled :class:`analyzer.engine.lookup.Model`.

``nine verify`` tests each hand against the shoe it was dealt from with these; an EV is
then the product of a bet's label probabilities with its net payouts.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from analyzer.engine import backend
from analyzer.engine.cardbets import card_denominator, card_tally, evaluate_card_tally
from analyzer.engine.enumeration import (
    INT64_LIMIT,
    SEQUENCE_LENGTH,
    coups,
    denominator,
    term_weights,
    terms,
)
from analyzer.engine.evaluator import BatchEvaluator, value_counts
from analyzer.engine.forms import FourCardForm, TwoCardForm
from analyzer.engine.lookup import Model
from analyzer.rules.bets import settle_codes
from analyzer.rules.shoe import Shoe

__all__ = ["EXACT_HANDS", "NULL_EXACT", "NULL_FOUR_CARD", "NULL_FULL", "NULL_TWO_CARD",
           "NULL_VALUES", "CardShoeAwareEvaluator", "ShoeAwareEvaluator", "card_evaluator",
           "full_shoe_value_moments", "shoe_aware_evaluator"]

# The products here are small (bets x 6,958 terms x a few hundred shoes): a multi-threaded BLAS
# only adds contention, measured 5-7x slower than one thread on a loaded 2-core machine. Set
# through the library's own API, so it holds whatever was imported first.
threadpool_limits(limits=1, user_api="blas")



# -- shoe-aware evaluation -------------------------------------------------------------------
class ShoeAwareEvaluator:
    """Per-hand exact distributions for many depleted shoes at once (float64).

    Each column of ``matrix`` counts, per term, the value sequences that end in one
    result label of one bet. The weight of a coup
    of ``k`` cards from a shoe with ``c_v`` cards of value ``v`` and ``N`` in all is
    ``prod_v c_v (c_v - 1) ... / N (N - 1) ... (N - k + 1)``; the terms are laid out with
    the shoes on the inner axis so every gather copies contiguous rows.

    ``compact`` evaluates fewer columns: identical columns once, and each bet's most
    likely label (on the full shoe) as one minus the bet's other labels. That label's
    probability is at least 1/labels, so its relative error stays below about 1e-14.
    """

    def __init__(self, model: Model, compact: bool = False) -> None:

        tableau = model.profile.tableau
        assert tableau is not None
        table = coups(tableau)
        term_set = terms(tableau)
        size = term_set.size
        columns: list[npt.NDArray[np.float64]] = []
        self.bet_slices: list[slice] = []
        for bet_model in model.bets:
            codes, _ = settle_codes(bet_model.bet, table.features)
            start = len(columns)
            for label in range(len(bet_model.labels)):
                column = np.zeros(size)
                chosen = np.asarray(codes) == label
                np.add.at(column, term_set.of_coup[chosen], table.arrangements[chosen])
                columns.append(column)
            self.bet_slices.append(slice(start, len(columns)))
        distinct = np.count_nonzero(term_set.multiplicity, axis=1)
        matrix = np.stack(columns, axis=0)  # (columns x terms)
        #: compact: full label j is compact column expand[j]; complements (bet slice,
        #: label) are one minus the bet's other labels
        self.expand: npt.NDArray[np.int64] | None = None
        self.complements: list[tuple[slice, int]] = []
        if compact:
            full = term_weights(term_set, model.shoe)
            total = denominator(model.shoe)
            probability = np.array([float(Fraction(int(sum(int(c) * int(w) for c, w in
                                                          zip(column, full, strict=True)
                                                          if c)), total))
                                    for column in columns])
            keep = np.ones(len(columns), dtype=bool)
            for part in self.bet_slices:
                label = int(np.argmax(probability[part]))
                keep[part.start + label] = False
                self.complements.append((part, label))
            unique, inverse = np.unique(matrix[keep], axis=0, return_inverse=True)
            expand = np.full(len(columns), unique.shape[0], dtype=np.int64)  # a zero column
            expand[keep] = inverse.reshape(-1)
            self.expand = expand
            matrix = unique
        #: the same columns for the fused kernel (terms in their own order)
        self.batch = BatchEvaluator.from_payoff(model.profile, np.ascontiguousarray(matrix),
                                                tuple(str(i) for i in range(matrix.shape[0])))
        #: the same terms grouped by (cards, low half) for the fused kernel
        #: (:func:`analyzer.engine.kernels.grouped_values`)
        self.plan = _grouped_plan(self.batch)
        # per number of cards k, its terms with the most distinct values first, so each
        # further factor multiplies a leading block of rows
        self.groups: list[tuple[int, npt.NDArray[np.int64], list[int],
                                npt.NDArray[np.float64]]] = []
        for k in (4, 5, 6):
            members = np.flatnonzero(term_set.cards == k)
            members = members[np.argsort(-distinct[members], kind="stable")]
            slots = np.zeros((members.size, 6), dtype=np.int64)
            for row, t in enumerate(members):
                j = 0
                for v in range(10):
                    m = int(term_set.multiplicity[t, v])
                    if m:
                        slots[row, j] = v * 7 + m
                        j += 1
            rows = [int((distinct[members] >= s + 1).sum()) for s in range(6)]
            # (columns x terms) @ (terms x shoes): contiguous, the fast BLAS orientation
            self.groups.append((k, slots, rows, np.ascontiguousarray(matrix[:, members])))

    def evaluate(self, value_counts: npt.NDArray[np.float64],
                 kernel: str | None = None) -> npt.NDArray[np.float64]:
        """Rows of ten value counts -> per row the columns' expectations (probabilities).

        ``kernel``: see :mod:`analyzer.engine.backend` (the numpy loops here are the
        reference; the fused kernel agrees to rounding).
        """
        n = value_counts.shape[0]
        if backend.use_kernels(kernel, "shoe-aware", n):
            from analyzer.engine import kernels

            result = kernels.grouped_values(value_counts, self.plan,
                                            *self.batch.half_patterns).T
        else:
            result = self._numpy(value_counts)
        out: npt.NDArray[np.float64] = result.T
        if self.expand is not None:
            out = np.concatenate([out, np.zeros((n, 1))], axis=1)[:, self.expand]
            for part, label in self.complements:
                out[:, part.start + label] = 1.0 - out[:, part].sum(axis=1)
        return out

    def _numpy(self, value_counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """(columns x shoes) expectations, in numpy."""
        counts = np.ascontiguousarray(value_counts.T)  # (10, n): shoes on the inner axis
        n = counts.shape[1]
        falling = np.empty((10, 7, n))
        falling[:, 0] = 1.0
        for m in range(1, 7):
            falling[:, m] = falling[:, m - 1] * (counts - (m - 1))
        flat = falling.reshape(70, n)
        size = counts.sum(axis=0)
        result = np.zeros((self.groups[0][3].shape[0], n))
        for k, slots, rows, matrix in self.groups:
            weights = flat[slots[:, 0]]
            for s in range(1, 6):
                if rows[s] == 0:
                    break
                weights[:rows[s]] *= flat[slots[:rows[s], s]]
            denominator = np.prod([size - j for j in range(k)], axis=0)
            # BLAS, single-threaded (see the top of this module): 1.5-2x faster than einsum
            result += (matrix @ weights) / denominator
        return result


def _grouped_plan(batch: BatchEvaluator) -> tuple[npt.NDArray[Any], ...]:
    """A batch evaluator's terms sorted by (cards, low half, high half) and grouped by the
    first two: (payoff, group cards, group low half, group starts, each term's high half)."""
    cards, (low_index, high_index) = batch.cards, batch.half_index
    order = np.lexsort((high_index, low_index, cards))
    key = cards[order] * (int(low_index.max()) + 1) + low_index[order]
    first = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    return (np.ascontiguousarray(batch.payoff[:, order]), cards[order][first],
            low_index[order][first], np.append(first, order.size).astype(np.int64),
            np.ascontiguousarray(high_index[order]))


@cache
def shoe_aware_evaluator(model: Model) -> ShoeAwareEvaluator:
    """The (cached) evaluator of a model's point-value bets: only the independent label
    probabilities are computed (``compact``), the rest follow from them."""
    return ShoeAwareEvaluator(model, compact=True)


#: Null models of the shoe-aware mode, per bet (reported with every test of the bet).
NULL_VALUES = "shoe-aware"


NULL_TWO_CARD = "shoe-aware, two-card quadratic form"


NULL_FOUR_CARD = "shoe-aware, four-card form"


NULL_EXACT = "shoe-aware, exact odds per hand"


NULL_FULL = "full-shoe model"


#: Above this many hands (all logs together, estimated from their lines) bets that need
#: exact odds per hand in the shoe-aware model are tested against the full shoe instead.
EXACT_HANDS = 20_000


class CardShoeAwareEvaluator:
    """Per-hand distributions for profiles with bets that read ranks or suits.

    Rows are depleted shoes as 52 card counts. Each bet goes the cheapest exact way:

    * point values only: :class:`ShoeAwareEvaluator` on the rows' value counts (float64,
      relative error about 1e-15, documented bound 1e-12);
    * one hand's first two cards only (card-level features of ``player_`` or ``banker_``
      and the point-value features those two cards decide): an exact quadratic form
      (:class:`analyzer.engine.forms.TwoCardForm`, one division of exact integer sums);
    * both hands' first two cards only (the same features of ``player_`` and ``banker_``,
      no drawing): an exact quartic form in the card counts
      (:class:`analyzer.engine.forms.FourCardForm`, one division of exact integer sums);
    * anything else (third cards or the coup together with cards): exact integer
      counts per hand from :mod:`analyzer.engine.cardbets` (slow: milliseconds per hand), or,
      when ``exact`` is false, the full shoe's exact probabilities for every hand.

    ``nulls[i]`` names the null model bet ``i`` is tested against.
    """

    def __init__(self, model: Model, exact: bool = True) -> None:

        profile = model.profile
        self.model = model
        self.exact = exact
        self.total = sum(len(b.labels) for b in model.bets)
        self.bet_slices: list[slice] = []
        start = 0
        for b in model.bets:
            self.bet_slices.append(slice(start, start + len(b.labels)))
            start += len(b.labels)
        values = [i for i, b in enumerate(model.bets) if not b.bet.card_level]
        self.value_bets = values
        self.value_evaluator: ShoeAwareEvaluator | None = None
        self.value_columns = np.zeros(0, dtype=np.int64)
        if values:
            sub = replace(profile, bets=tuple(profile.bets[i] for i in values))
            self.value_evaluator = ShoeAwareEvaluator(
                Model(sub, model.decks, tuple(model.bets[i] for i in values), False),
                compact=True)
            self.value_columns = np.concatenate(
                [np.arange(self.bet_slices[i].start, self.bet_slices[i].stop)
                 for i in values])
        self.forms: list[tuple[int, TwoCardForm | FourCardForm]] = []
        self.others: list[int] = []
        nulls = [NULL_VALUES] * len(model.bets)
        for i, b in enumerate(model.bets):
            if i in values:
                continue
            form = TwoCardForm.for_bet(profile, i)
            four = FourCardForm.for_bet(profile, i) if form is None else None
            if form is not None and form.results == len(b.labels):
                self.forms.append((i, form))
                nulls[i] = NULL_TWO_CARD
            elif four is not None and four.results == len(b.labels):
                self.forms.append((i, four))
                nulls[i] = NULL_FOUR_CARD
            else:
                self.others.append(i)
                nulls[i] = NULL_EXACT if exact else NULL_FULL
        self.nulls = tuple(nulls)
        self.full_row = np.zeros(self.total)
        for i in self.others:
            self.full_row[self.bet_slices[i]] = self._exact(i, model.shoe)

    def _exact(self, index: int, shoe: Shoe,
               weights: npt.NDArray[Any] | None = None) -> npt.NDArray[np.float64]:
        """Exact probabilities of one bet's labels on one shoe (integer ways, then float)."""

        tableau = self.model.profile.tableau
        assert tableau is not None
        bet_model = self.model.bets[index]
        if weights is None:
            weights = self._weights(shoe)
        ways = evaluate_card_tally(card_tally(tableau, bet_model.bet), shoe, weights)
        total = card_denominator(shoe)
        counts = [0] * len(bet_model.labels)
        for result, n in ways.items():
            assert isinstance(result, tuple)
            counts[bet_model.label(result)] += n
        # exact integer ways, each probability rounded once
        return np.array([float(Fraction(n, total)) for n in counts])

    def _weights(self, shoe: Shoe) -> npt.NDArray[Any]:

        tableau = self.model.profile.tableau
        assert tableau is not None
        weights = term_weights(terms(tableau), shoe)
        if card_denominator(shoe) > INT64_LIMIT and weights.dtype != object:
            weights = weights.astype(object)
        return weights

    def evaluate(self, card_counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Rows of 52 card counts -> per row the labels' probabilities, bets in order."""

        rows = np.asarray(card_counts, dtype=np.float64)
        result = np.empty((rows.shape[0], self.total))
        if self.value_evaluator is not None:
            values = value_counts(rows.astype(np.int64)).astype(np.float64)
            result[:, self.value_columns] = self.value_evaluator.evaluate(values)
        for i, form in self.forms:
            result[:, self.bet_slices[i]] = form.evaluate(rows)
        if self.others:
            if not self.exact:
                for i in self.others:
                    result[:, self.bet_slices[i]] = self.full_row[self.bet_slices[i]]
            else:
                for r, row in enumerate(rows.astype(np.int64).tolist()):
                    shoe = Shoe(tuple(row), label="depleted")
                    weights = self._weights(shoe)
                    for i in self.others:
                        result[r, self.bet_slices[i]] = self._exact(i, shoe, weights)
        return result


@cache
def card_evaluator(model: Model, exact: bool = True) -> CardShoeAwareEvaluator:
    """The (cached) :class:`CardShoeAwareEvaluator` of a card-level model."""
    return CardShoeAwareEvaluator(model, exact)


@cache
def full_shoe_value_moments(model: Model) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per hand from the full shoe: mean count of each point value, and their covariance.

    Exact sums over the tableau's terms (ordered 6-card convention), rounded to float once.
    """

    tableau = model.profile.tableau
    assert tableau is not None
    term_set = terms(tableau)
    sequences = np.zeros(term_set.size, dtype=np.int64)
    np.add.at(sequences, term_set.of_coup, coups(tableau).arrangements)
    weights = term_weights(term_set, model.shoe)
    total = denominator(model.shoe)
    multiplicity = term_set.multiplicity
    if total * SEQUENCE_LENGTH**2 <= INT64_LIMIT:
        # every sum below 36 x the denominator: exact in int64, as matrix products
        ways = weights.astype(np.int64) * sequences
        firsts = (ways @ multiplicity).tolist()
        seconds = ((multiplicity * ways[:, None]).T @ multiplicity).tolist()
    else:
        exact = weights.astype(object) * sequences.astype(object)
        objects = multiplicity.astype(object)
        firsts = (exact @ objects).tolist()
        seconds = ((objects * exact[:, None]).T @ objects).tolist()
    mean = [Fraction(int(firsts[v]), total) for v in range(10)]
    covariance = [float(Fraction(int(seconds[v][u]), total) - mean[v] * mean[u])
                  for v in range(10) for u in range(10)]
    return tuple(float(x) for x in mean), tuple(covariance)
