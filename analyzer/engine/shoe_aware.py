"""The depleted-shoe evaluator: for many depleted shoes at once, the probability of every
result label of every bet of a compiled :class:`analyzer.engine.lookup.Model`, and each bet's
EV as those probabilities times its net payouts (:class:`ShoeEvaluator`).

``nine verify`` tests each hand against the shoe it was dealt from with the probabilities;
``nine shoe`` (:mod:`analyzer.analysis.drift`) and ``nine eor``
(:mod:`analyzer.analysis.removal`) take the EVs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cache
from math import lcm
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from analyzer.engine import backend, plan_cache
from analyzer.engine.cardbets import card_denominator, card_tally, evaluate_card_tally
from analyzer.engine.enumeration import (
    INT64_LIMIT,
    SEQUENCE_LENGTH,
    coups,
    denominator,
    term_weights,
    terms,
)
from analyzer.engine.evaluator import BatchEvaluator, value_counts_float
from analyzer.engine.forms import FormSet, FourCardForm, TwoCardForm
from analyzer.engine.lookup import Model
from analyzer.engine.tally import half_patterns
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import settle_codes
from analyzer.rules.shoe import Shoe

__all__ = ["EXACT_HANDS", "GroupedPlan", "NULL_EXACT", "NULL_FOUR_CARD", "NULL_FULL",
           "NULL_TWO_CARD", "NULL_VALUES", "EXACT_CARDS", "ShoeEvaluator", "ValueForm",
           "full_shoe_value_moments", "shoe_evaluator", "value_form"]

# (one BLAS thread: set where the batch evaluator is defined, imported above)

FloatArray = npt.NDArray[np.float64]

#: The largest shoe whose ordered 6-card denominator N (N-1) ... (N-5) is below 2**53 (458
#: cards, more than eight decks): there every sum of :class:`ValueForm` is an exact integer,
#: so every kernel gives the same floats.
EXACT_CARDS = 458


class ValueForm:
    """Label probabilities of bets on point values for many depleted shoes at once, from
    their ten value counts (float64).

    Each column of the matrix counts, per term, the value sequences that end in one result
    label of one bet; a column's probability on a shoe is the batch evaluator's sum of those
    counts times the terms' ordered 6-card weights over ``N (N-1) ... (N-5)``
    (:class:`analyzer.engine.evaluator.BatchEvaluator`, in numpy or its fused kernel).
    With the kernels loaded the terms are grouped by (cards, low half)
    (:func:`analyzer.engine.kernels.grouped_values`): up to :data:`EXACT_CARDS` cards every
    sum is an exact integer, so both give the same floats; above, every kernel choice
    takes the numpy path (the fused batch kernel's order matches numpy's but not every
    BLAS build's: on AVX-512 OpenBLAS they differ in the last bits), so a result never
    depends on the kernel.

    ``compact`` evaluates fewer columns: identical columns once, and each bet's most
    likely label (on the full shoe) as one minus the bet's other labels. That label's
    probability is at least 1/labels, so its relative error stays below about 1e-14.
    """

    def __init__(self, model: Model, compact: bool = False) -> None:
        tableau = model.profile.tableau
        assert tableau is not None
        # built once per (tableau, bets, shoe, compact) and kept on disk (plan_cache)
        arrays = plan_cache.cached_arrays(
            "evaluators", plan_cache.plan_fingerprint(
                tableau, tuple(b.bet for b in model.bets),
                f"value-form {list(model.shoe.counts)} {compact}", _VALUE_SOURCES),
            lambda: _value_arrays(model, compact), _check_value_arrays)
        matrix = arrays["matrix"]
        self.bet_slices: list[slice] = [
            slice(int(a), int(b)) for a, b in arrays["bet_slices"].reshape(-1, 2).tolist()]
        #: compact: full label j is compact column expand[j]; complements (bet slice,
        #: label) are one minus the bet's other labels
        self.expand: npt.NDArray[np.int64] | None = arrays["expand"] if compact else None
        self.complements: list[tuple[slice, int]] = [
            (self.bet_slices[b], int(label))
            for b, label in arrays["complements"].reshape(-1, 2).tolist()]
        #: the same columns for the fused kernel (terms in their own order)
        self.batch = BatchEvaluator(
            model.profile, tuple(str(i) for i in range(matrix.shape[0])), matrix,
            arrays["cards"], (arrays["low_index"], arrays["high_index"]),
            (arrays["low"], arrays["high"]))
        #: the same terms grouped by (cards, low half) for the fused kernel
        #: (:func:`analyzer.engine.kernels.grouped_values`)
        self.plan = _grouped_plan(self.batch, arrays["atoms"], arrays["combine"])

    def evaluate(self, value_counts: npt.NDArray[np.float64],
                 kernel: str | None = None) -> npt.NDArray[np.float64]:
        """Rows of ten value counts -> per row the columns' expectations (probabilities).

        ``kernel``: see :mod:`analyzer.engine.backend` (every choice gives the same floats).
        """
        n = value_counts.shape[0]
        large = value_counts.sum(axis=1) > EXACT_CARDS
        if backend.use_kernels(kernel, "shoe-aware", n) and not large.all():
            from analyzer.engine import kernels

            if large.any():
                out = np.empty((n, self.batch.payoff.shape[0]))
                out[~large] = kernels.grouped_values(value_counts[~large], self.plan)
                out[large] = self._reference(value_counts[large])
            else:
                out = kernels.grouped_values(value_counts, self.plan)
        else:
            out = self._reference(value_counts)
        if self.expand is not None:
            out = np.concatenate([out, np.zeros((n, 1))], axis=1)[:, self.expand]
            for part, label in self.complements:
                out[:, part.start + label] = 1.0 - out[:, part].sum(axis=1)
        return out

    def _reference(self, value_counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The numpy path in whole blocks of the batch's chunk (the last padded with the first
        row): a row's floats never depend on its neighbours (BLAS may sum a narrower product
        in another order)."""
        n = value_counts.shape[0]
        padded = np.concatenate([value_counts, value_counts[[0] * (-n % self.batch.chunk)]])
        return self.batch.evaluate(padded, kernel="numpy")[:n]


class GroupedPlan(NamedTuple):
    """A value form's terms for the grouped kernel
    (:func:`analyzer.engine.kernels.grouped_values`): grouped by (cards, low half), each
    group's nonzero payoffs as entries (high half, column, payoff), and each half
    pattern as a pair of values (0-1 or 5-6) times a triple (2-4 or 7-9)."""

    #: sums accumulated per shoe (the atoms, or the columns themselves)
    columns: int
    #: each output column's first (column, atom) pair, and one past the last: a column is
    #: the exact sum of its atoms' integer sums, divided once
    combine_start: npt.NDArray[np.int64]
    combine_atom: npt.NDArray[np.int64]
    group_cards: npt.NDArray[np.int64]
    group_low: npt.NDArray[np.int64]
    #: each group's first entry (and one past the last)
    group_entry: npt.NDArray[np.int64]
    entry_high: npt.NDArray[np.int64]
    entry_column: npt.NDArray[np.int64]
    entry_payoff: npt.NDArray[np.float64]
    #: each low (high) half pattern's pair, ``7 m0 + m1``, and its row of ``triples``
    low_pair: npt.NDArray[np.int64]
    low_triple: npt.NDArray[np.int64]
    high_pair: npt.NDArray[np.int64]
    high_triple: npt.NDArray[np.int64]
    #: the distinct (m2, m3, m4) of both halves' patterns
    triples: npt.NDArray[np.int64]


def _grouped_plan(batch: BatchEvaluator, atoms: npt.NDArray[np.float64],
                  combine: npt.NDArray[np.int64]) -> GroupedPlan:
    """A batch evaluator's terms sorted by (cards, low half, high half) and grouped by the
    first two, their nonzero payoffs (of the atoms, if any: see :func:`_atoms`) listed per
    group (see :class:`GroupedPlan`)."""
    cards, (low_index, high_index) = batch.cards, batch.half_index
    order = np.lexsort((high_index, low_index, cards))
    key = cards[order] * (int(low_index.max()) + 1) + low_index[order]
    first = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    outputs = batch.payoff.shape[0]
    pairs = combine.reshape(-1, 2) if atoms.shape[0] else \
        np.repeat(np.arange(outputs, dtype=np.int64), 2).reshape(-1, 2)
    payoff = (atoms if atoms.shape[0] else batch.payoff)[:, order]
    term, column = np.nonzero(payoff.T)  # by term (so by group), then column
    group_entry = np.searchsorted(term, np.append(first, order.size)).astype(np.int64)
    # each group's entries by column (the kernel adds a column's entries two at a time;
    # every sum is an exact integer, so the order does not change a float)
    by_column = np.lexsort((term, column, np.repeat(np.arange(first.size),
                                                    np.diff(group_entry))))
    term, column = term[by_column], column[by_column]
    low, high = batch.half_patterns
    triples = np.unique(np.concatenate([low[:, 2:], high[:, 2:]]), axis=0)

    def triple_of(patterns: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        found: npt.NDArray[np.int64] = np.array(
            [int(np.flatnonzero((triples == row).all(axis=1))[0]) for row in patterns[:, 2:]],
            dtype=np.int64).reshape(-1)
        return found

    return GroupedPlan(
        payoff.shape[0], np.searchsorted(pairs[:, 0], np.arange(outputs + 1)).astype(np.int64),
        np.ascontiguousarray(pairs[:, 1]), cards[order][first], low_index[order][first],
        group_entry, high_index[order][term].astype(np.int64), column.astype(np.int64),
        np.ascontiguousarray(payoff[column, term]), (low[:, 0] * 7 + low[:, 1]).astype(np.int64),
        triple_of(low), (high[:, 0] * 7 + high[:, 1]).astype(np.int64), triple_of(high),
        triples.astype(np.int64))


#: The modules whose source decides a value form's arrays (their cache files' names).
_VALUE_SOURCES = ("engine/shoe_aware.py", "engine/evaluator.py", "engine/enumeration.py",
                  "engine/tally.py", "engine/lookup.py", "engine/plan_cache.py",
                  "rules/bets.py", "rules/conditions.py", "rules/profile.py")


def _value_arrays(model: Model, compact: bool) -> dict[str, npt.NDArray[Any]]:
    """A value form's arrays, built (see :class:`ValueForm`): the (columns x terms) matrix,
    each bet's columns (start, stop), compact's expansion and complements (bet, label),
    and the terms' card counts and half patterns."""
    tableau = model.profile.tableau
    assert tableau is not None
    table = coups(tableau)
    term_set = terms(tableau)
    size = term_set.size
    columns: list[npt.NDArray[np.float64]] = []
    bet_slices: list[tuple[int, int]] = []
    signature: list[npt.NDArray[np.int64]] = []  # each coup's label of each bet
    for bet_model in model.bets:
        codes, _ = settle_codes(bet_model.bet, table.features)
        signature.append(np.asarray(codes, dtype=np.int64))
        start = len(columns)
        for label in range(len(bet_model.labels)):
            column = np.zeros(size)
            chosen = np.asarray(codes) == label
            np.add.at(column, term_set.of_coup[chosen], table.arrangements[chosen])
            columns.append(column)
        bet_slices.append((start, len(columns)))
    matrix = np.stack(columns, axis=0)  # (columns x terms)
    expand = np.arange(len(columns), dtype=np.int64)
    complements: list[tuple[int, int]] = []
    if compact:
        full = term_weights(term_set, model.shoe)
        total = denominator(model.shoe)
        ways = matrix.astype(np.int64).astype(object) @ full.astype(object)  # exact
        probability = np.array([float(Fraction(int(n), total)) for n in ways])
        keep = np.ones(len(columns), dtype=bool)
        for b, (first, stop) in enumerate(bet_slices):
            label = int(np.argmax(probability[first:stop]))
            keep[first + label] = False
            complements.append((b, label))
        unique, inverse = np.unique(matrix[keep], axis=0, return_inverse=True)
        expand = np.full(len(columns), unique.shape[0], dtype=np.int64)  # a zero column
        expand[keep] = inverse.reshape(-1)
        matrix = unique
        atoms, combine = _atoms(matrix, expand, bet_slices, np.stack(signature, axis=1),
                                term_set.of_coup, table.arrangements)
    else:
        atoms, combine = np.zeros((0, size)), np.zeros(0, dtype=np.int64)
    low_index, low, high_index, high = half_patterns(term_set.multiplicity)
    return {"matrix": np.ascontiguousarray(matrix, dtype=np.float64),
            "atoms": np.ascontiguousarray(atoms, dtype=np.float64), "combine": combine,
            "bet_slices": np.array(bet_slices, dtype=np.int64).reshape(-1),
            "expand": expand, "complements": np.array(complements, dtype=np.int64).reshape(-1),
            "cards": np.asarray(term_set.cards, dtype=np.int64),
            "low_index": np.asarray(low_index, dtype=np.int64),
            "high_index": np.asarray(high_index, dtype=np.int64),
            "low": np.asarray(low, dtype=np.int64), "high": np.asarray(high, dtype=np.int64)}


def _atoms(matrix: npt.NDArray[np.float64], expand: npt.NDArray[np.int64],
           bet_slices: list[tuple[int, int]], signature: npt.NDArray[np.int64],
           of_coup: npt.NDArray[np.int64], arrangements: npt.NDArray[Any]
           ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The compact columns as sums of *atoms* when that is fewer nonzero payoffs: an atom
    counts the coups of one combination of every bet's label (disjoint, so each term sits
    in few atoms), and each compact column is the sum of the atoms that give its label.
    Returns (atoms x terms) and the (column, atom) pairs, or no atoms when the columns
    themselves are sparser (punto banco's two columns are)."""
    labels, of_atom = np.unique(signature, axis=0, return_inverse=True)
    of_atom = of_atom.reshape(-1)
    atoms = np.zeros((labels.shape[0], matrix.shape[1]))
    np.add.at(atoms, (of_atom, of_coup), arrangements)
    pairs: list[tuple[int, int]] = []
    for b, (start, stop) in enumerate(bet_slices):
        for label in range(stop - start):
            column = int(expand[start + label])
            if column < matrix.shape[0] and not any(c == column for c, _ in pairs):
                pairs.extend((column, int(a)) for a in np.flatnonzero(labels[:, b] == label))
    used = sorted({a for _, a in pairs})
    renumber = {a: k for k, a in enumerate(used)}
    combine = np.array([(c, renumber[a]) for c, a in sorted(pairs)], dtype=np.int64)
    atoms = atoms[used]
    rebuilt = np.zeros_like(matrix)
    np.add.at(rebuilt, combine[:, 0], atoms[combine[:, 1]])
    if not np.array_equal(rebuilt, matrix) or \
            np.count_nonzero(atoms) >= np.count_nonzero(matrix):
        return np.zeros((0, matrix.shape[1])), np.zeros(0, dtype=np.int64)
    return atoms, combine.reshape(-1)


def _within(index: npt.NDArray[Any], size: int) -> bool:
    """Is every entry of ``index`` in ``range(size)``?"""
    return index.size == 0 or bool(index.min() >= 0 and index.max() < size)


def _check_value_arrays(arrays: dict[str, npt.NDArray[Any]]) -> None:
    """AnalyzerError unless stored value-form arrays fit together (shapes, indices)."""
    try:
        matrix, slices, pairs = arrays["matrix"], arrays["bet_slices"], arrays["complements"]
        size = matrix.shape[1]
        low, high = arrays["low"], arrays["high"]
        starts, stops = slices.reshape(-1, 2).T
        sound = (matrix.ndim == 2 and matrix.dtype == np.float64
                 and all(a.dtype == np.int64 for n, a in arrays.items()
                         if n not in ("matrix", "atoms"))
                 and all(arrays[n].shape == (size,) for n in ("cards", "low_index",
                                                               "high_index"))
                 and low.ndim == 2 and low.shape[1] == 5 and high.ndim == 2
                 and high.shape[1] == 5 and _within(arrays["low_index"], len(low))
                 and _within(arrays["high_index"], len(high))
                 and _within(arrays["cards"], 7) and bool((np.diff(slices) >= 0).all())
                 and arrays["expand"].shape == (int(slices.max(initial=0)),)
                 and _within(arrays["expand"], matrix.shape[0] + 1))
        atoms, combine = arrays["atoms"], arrays["combine"].reshape(-1, 2)
        sound = sound and atoms.ndim == 2 and atoms.shape[1] == size and atoms.dtype == \
            np.float64 and _within(combine[:, 0], matrix.shape[0]) and _within(
                combine[:, 1], atoms.shape[0]) and (atoms.shape[0] == 0) == (combine.size == 0)
        bets, labels = pairs.reshape(-1, 2).T
        sound = sound and _within(bets, len(starts)) and _within(
            labels, int((stops - starts).max(initial=0))) and bool(
                (labels < (stops - starts)[bets]).all())
    except (KeyError, ValueError, IndexError):
        sound = False
    if not sound:
        raise AnalyzerError("cached value-form arrays do not fit together")


@cache
def value_form(model: Model) -> ValueForm:
    """The (cached) value form of a model's point-value bets: only the independent label
    probabilities are computed (``compact``), the rest follow from them."""
    return ValueForm(model, compact=True)


#: Null models of the shoe-aware mode, per bet (reported with every test of the bet).
NULL_VALUES = "shoe-aware"


NULL_TWO_CARD = "shoe-aware, two-card quadratic form"


NULL_FOUR_CARD = "shoe-aware, four-card form"


NULL_EXACT = "shoe-aware, exact odds per hand"


NULL_FULL = "full-shoe model"


#: Above this many hands (all logs together, estimated from their lines) bets that need
#: exact odds per hand in the shoe-aware model are tested against the full shoe instead.
EXACT_HANDS = 20_000


class ShoeEvaluator:
    """The depleted-shoe evaluator: per shoe, the probability of every result label of every
    bet of a model, and each bet's EV (the probabilities times its net payouts).

    Rows are depleted shoes as 52 card counts (or, for a model without bets on ranks or
    suits, ten point-value counts). Each bet goes the cheapest exact way:

    * point values only: :class:`ValueForm` on the rows' value counts (float64, relative
      error about 1e-15, documented bound 1e-12);
    * one hand's first two cards only (card-level features of ``player_`` or ``banker_``
      and the point-value features those two cards decide): an exact quadratic form
      (:class:`analyzer.engine.forms.TwoCardForm`, one division of exact integer sums);
    * both hands' first two cards only (the same features of ``player_`` and ``banker_``,
      no drawing): an exact quartic form in the card counts
      (:class:`analyzer.engine.forms.FourCardForm`, one division of exact integer sums);
    * anything else (third cards or the coup together with cards): exact integer
      counts per shoe from :mod:`analyzer.engine.cardbets` (slow: milliseconds per shoe), or,
      when ``exact`` is false, the full shoe's exact probabilities for every shoe.

    ``nulls[i]`` names the way bet ``i`` is evaluated (the null model ``nine verify`` tests
    it against); ``method`` says it for every bet in one line.

    >>> from analyzer.engine.lookup import build_model
    >>> evaluator = shoe_evaluator(build_model("lucky-baccarat", 8))
    >>> evaluator.nulls[evaluator.model.bet_index()["player-red"]] == NULL_TWO_CARD
    True
    >>> round(float(evaluator.ev([Shoe.decks(8).counts])[0, 0]), 6)
    -0.014581
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
        #: (labels, bets): each bet's net payouts in its own column, so EV = p @ nets
        self.nets = np.zeros((self.total, len(model.bets)))
        for i, b in enumerate(model.bets):
            self.nets[self.bet_slices[i], i] = [float(net) for net in b.nets]
        values = [i for i, b in enumerate(model.bets) if not b.bet.card_level]
        self.value_bets = values
        self.value_form: ValueForm | None = None
        self.value_columns = np.zeros(0, dtype=np.int64)
        if len(values) == len(model.bets):
            self.value_form = value_form(model)
        elif values:
            sub = replace(profile, bets=tuple(profile.bets[i] for i in values))
            self.value_form = ValueForm(
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
        self.form_set = FormSet(self.forms, self.bet_slices)  # (evaluated together)
        #: per bet: its net payouts as integers (float64) and the common denominator
        self.whole_nets = tuple(_whole(b.nets) for b in model.bets)
        self.full_row = np.zeros(self.total)
        self.full_ev = np.zeros(len(model.bets))
        if not exact:
            for i in self.others:
                ways, total = self._exact_ways(i, model.shoe)
                self.full_row[self.bet_slices[i]] = [float(Fraction(n, total)) for n in ways]
                self.full_ev[i] = self._exact_ev(i, ways, total)

    @property
    def method(self) -> str:
        """How the bets are evaluated, in one line (the ways in use, in order)."""
        ways = {NULL_VALUES: "point-value form (float64) for bets on point values",
                NULL_TWO_CARD: "exact two-card quadratic form for bets on one hand's first "
                               "two cards",
                NULL_FOUR_CARD: "exact four-card form for bets on both hands' first two cards",
                NULL_EXACT: "exact odds per shoe for the other bets on ranks or suits",
                NULL_FULL: "the full shoe's exact odds for the other bets on ranks or suits "
                           "(NOT the depleted shoe)"}
        used = [way for null, way in ways.items() if null in self.nulls]
        return "label probabilities times net payouts: " + "; ".join(used)

    def _exact_ways(self, index: int, shoe: Shoe,
                    weights: npt.NDArray[Any] | None = None) -> tuple[list[int], int]:
        """Exact integer ways of one bet's labels on one shoe, and of all."""
        tableau = self.model.profile.tableau
        assert tableau is not None
        bet_model = self.model.bets[index]
        if weights is None:
            weights = self._weights(shoe)
        ways = evaluate_card_tally(card_tally(tableau, bet_model.bet), shoe, weights)
        counts = [0] * len(bet_model.labels)
        for result, n in ways.items():
            assert isinstance(result, tuple)
            counts[bet_model.label(result)] += n
        return counts, card_denominator(shoe)

    def _exact_ev(self, index: int, ways: Sequence[int], total: int) -> float:
        """One bet's EV from exact integer ways, rounded once."""
        nets = self.model.bets[index].nets
        return float(Fraction(sum(n * net for n, net in zip(ways, nets, strict=True)), total))

    def _weights(self, shoe: Shoe) -> npt.NDArray[Any]:
        tableau = self.model.profile.tableau
        assert tableau is not None
        weights = term_weights(terms(tableau), shoe)
        if card_denominator(shoe) > INT64_LIMIT and weights.dtype != object:
            weights = weights.astype(object)
        return weights

    def _rows(self, shoes: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Checked rows of shoes (float64), and their ten value counts."""
        rows = np.asarray(shoes, dtype=np.float64)
        if rows.ndim != 2 or rows.shape[1] not in (10, 52):
            raise AnalyzerError("shoes must be rows of 52 card counts (or 10 point-value "
                                "counts)")
        if rows.shape[1] == 10 and len(self.value_bets) < len(self.model.bets):
            raise AnalyzerError("bets on ranks or suits need shoes as rows of 52 card counts")
        if (rows < 0).any() or (rows.sum(axis=1) < SEQUENCE_LENGTH).any():
            raise AnalyzerError(f"every shoe needs at least {SEQUENCE_LENGTH} cards and no "
                                "negative count")
        values = rows if rows.shape[1] == 10 else \
            value_counts_float(np.floor(rows))  # (as int64 then back: the same floats)
        return rows, values

    def _exact_rows(self, rows: FloatArray) -> Iterator[tuple[int, list[tuple[list[int], int]]]]:
        """Per row, the exact ways of every bet of :attr:`others` on that shoe."""
        for r, row in enumerate(rows.astype(np.int64).tolist()):
            shoe = Shoe(tuple(row), label="depleted")
            weights = self._weights(shoe)
            yield r, [self._exact_ways(i, shoe, weights) for i in self.others]

    def evaluate(self, shoes: npt.ArrayLike) -> FloatArray:
        """Rows of 52 card counts (or ten value counts) -> per row the labels'
        probabilities, bets in order (:attr:`bet_slices`)."""
        rows, values = self._rows(shoes)
        if len(self.value_bets) == len(self.model.bets):
            assert self.value_form is not None
            return self.value_form.evaluate(values)
        result = np.empty((rows.shape[0], self.total))
        if self.value_form is not None:
            result[:, self.value_columns] = self.value_form.evaluate(values)
        self.form_set.evaluate_into(result, rows)
        if not self.exact:
            for i in self.others:
                result[:, self.bet_slices[i]] = self.full_row[self.bet_slices[i]]
        elif self.others:
            for r, exact in self._exact_rows(rows):
                for i, (ways, total) in zip(self.others, exact, strict=True):
                    # exact integer ways, each probability rounded once
                    result[r, self.bet_slices[i]] = [float(Fraction(n, total)) for n in ways]
        return result

    def ev(self, shoes: npt.ArrayLike) -> FloatArray:
        """Rows of 52 card counts (or ten value counts) -> per row each bet's EV: its
        labels' probabilities times their net payouts.

        A bet on point values sums its float probabilities (relative error about 1e-15); a
        bet priced by a form or exactly per shoe sums its exact integer ways times its
        whole net payouts and divides once, so an EV that is exactly zero is 0.0 and every
        sign is exact.
        """
        rows, values = self._rows(shoes)
        if len(self.value_bets) == len(self.model.bets):
            assert self.value_form is not None
            all_values: FloatArray = self.value_form.evaluate(values) @ self.nets
            return all_values
        out = np.empty((rows.shape[0], len(self.model.bets)))
        if self.value_form is not None:
            out[:, self.value_bets] = self.value_form.evaluate(values) @ \
                self.nets[self.value_columns][:, self.value_bets]
        for i, form in self.forms:
            ways, total = form.ways(rows)
            whole, scale = self.whole_nets[i]
            out[:, i] = (ways @ whole) / (total * scale)
        if not self.exact:
            for i in self.others:
                out[:, i] = self.full_ev[i]
        elif self.others:
            for r, exact in self._exact_rows(rows):
                for i, (ways_i, total_i) in zip(self.others, exact, strict=True):
                    out[r, i] = self._exact_ev(i, ways_i, total_i)
        return out


def _whole(nets: Sequence[Fraction]) -> tuple[FloatArray, float]:
    """Net payouts as whole numbers over their common denominator (both float64)."""
    scale = lcm(*(net.denominator for net in nets))
    return np.array([float(net * scale) for net in nets]), float(scale)


@cache
def shoe_evaluator(model: Model, exact: bool = True) -> ShoeEvaluator:
    """The (cached) :class:`ShoeEvaluator` of a model."""
    return ShoeEvaluator(model, exact)


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
