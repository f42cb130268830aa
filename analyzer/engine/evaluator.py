"""Depleted-shoe evaluators: the EV of every bet of a profile for many shoes at once.

:class:`BatchEvaluator` evaluates bets that read point values from rows of ten value counts
(float64, two half-value factor tables); :class:`ShoeEvaluator` takes rows of 52 card counts
and routes each bet to the fastest exact-in-form method (batch, two-card quadratic form,
four-card form, or exact odds per distinct composition).

>>> import numpy as np
>>> from analyzer.rules.shoe import Shoe
>>> ev = ShoeEvaluator.for_profile("punto-banco").evaluate(np.array([Shoe.decks(8).counts]))
>>> round(float(ev[0, 0]), 6)
-0.010579
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from analyzer.engine import backend
from analyzer.engine.cardbets import hand_card_features
from analyzer.engine.enumeration import terms
from analyzer.engine.forms import CARD_VALUES, FourCardForm
from analyzer.engine.odds import _bet_tally, _check_profile, odds
from analyzer.engine.tally import HALVES, half_patterns
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import net_payout, settle
from analyzer.rules.cards import DECK
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["BatchEvaluator", "ShoeEvaluator", "two_card_payoff", "value_counts"]

# The products here are small (bets x 6,958 terms x a few hundred shoes): a multi-threaded BLAS
# only adds contention, measured 5-7x slower than one thread on a loaded 2-core machine. Set
# through the library's own API, so it holds whatever was imported first.
threadpool_limits(limits=1, user_api="blas")


FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def value_counts(card_counts: npt.ArrayLike) -> IntArray:
    """Rows of 52 card counts -> rows of 10 point-value counts.

    >>> value_counts([Shoe.decks(1).counts])[0].tolist()
    [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    """
    rows = np.asarray(card_counts, dtype=np.int64)
    result = np.zeros((rows.shape[0], 10), dtype=np.int64)
    np.add.at(result.T, CARD_VALUES, rows.T)
    return result


@dataclass(frozen=True)
class ShoeEvaluator:
    """Float EVs of every bet of a profile for many shoes given as rows of 52 card counts.

    Bets that read only point values go through :class:`analyzer.engine.odds.BatchEvaluator`
    (rel. error about 1e-15). Bets that read ranks or suits use the batch evaluator too when
    it accepts 52-count rows; otherwise each distinct composition is evaluated exactly with
    :func:`analyzer.engine.odds.odds` (much slower; ``method`` says which).
    """

    profile: Profile
    bet_ids: tuple[str, ...]
    value_columns: tuple[int, ...]
    card_columns: tuple[int, ...]
    value_batch: BatchEvaluator | None
    card_batch: BatchEvaluator | None
    card_profile: Profile | None
    method: str
    #: Bets on one hand's first two cards: column and 52 x 52 net payoff of each card pair.
    pair_columns: tuple[int, ...] = ()
    pair_payoffs: tuple[FloatArray, ...] = ()
    #: Bets on both hands' first two cards: column, four-card form and net payoff per result.
    four_columns: tuple[int, ...] = ()
    four_forms: tuple[FourCardForm, ...] = ()
    four_payoffs: tuple[FloatArray, ...] = ()
    cache: dict[tuple[int, ...], tuple[float, ...]] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def for_profile(cls, profile: Profile | str) -> ShoeEvaluator:
        """Split a profile's bets by what they read and compile each group."""
        if isinstance(profile, str):
            profile = load_profile(profile)
        value_columns = tuple(i for i in range(len(profile.bets))
                              if not profile.bets[i].card_level)
        card_columns = tuple(i for i in range(len(profile.bets)) if profile.bets[i].card_level)
        value_batch = None
        if value_columns:
            value_batch = BatchEvaluator.for_profile(
                replace(profile, bets=tuple(profile.bets[i] for i in value_columns)))
        card_batch = None
        card_profile = None
        method = "batch evaluator (float64) for every bet"
        if card_columns:
            card_profile = replace(profile, bets=tuple(profile.bets[i] for i in card_columns))
            try:
                candidate = BatchEvaluator.for_profile(card_profile)
                candidate.evaluate(np.array([Shoe.decks(1).counts], dtype=np.int64))
                card_batch = candidate
            except (AnalyzerError, ValueError, IndexError, TypeError):
                card_batch = None
                method = ("batch evaluator for point-value bets; exact odds() per distinct "
                          "composition for bets that read ranks or suits")
        two_card = {i: matrix for i in card_columns
                    if card_batch is None
                    and (matrix := two_card_payoff(profile, i)) is not None}
        if two_card:
            method = ("batch evaluator for point-value bets; exact two-card quadratic form "
                      "for bets on one hand's first two cards")
            if len(two_card) < len(card_columns):
                method += "; exact odds() per composition for the other card-level bets"
            card_columns = tuple(i for i in card_columns if i not in two_card)
            card_profile = replace(profile, bets=tuple(profile.bets[i] for i in card_columns))
        four_card = {i: form for i in card_columns
                     if card_batch is None
                     and (form := FourCardForm.for_bet(profile, i)) is not None}
        if four_card:
            method = ("batch evaluator for point-value bets; exact "
                      + ("two-card quadratic and " if two_card else "")
                      + "four-card forms for bets on the hands' first two cards")
            card_columns = tuple(i for i in card_columns if i not in four_card)
            if card_columns:
                method += "; exact odds() per composition for the other card-level bets"
            card_profile = replace(profile, bets=tuple(profile.bets[i] for i in card_columns))
        four_payoffs = tuple(
            np.array([float(net_payout(profile.bets[i], label)) for label in form.labels])
            for i, form in four_card.items())
        return cls(profile, tuple(b.id for b in profile.bets), value_columns, card_columns,
                   value_batch, card_batch, card_profile if card_columns else None, method,
                   tuple(two_card), tuple(two_card.values()), tuple(four_card),
                   tuple(four_card.values()), four_payoffs)

    def evaluate(self, card_counts: npt.ArrayLike) -> FloatArray:
        """EV of every bet (columns) for each shoe (rows of 52 card counts)."""
        rows = np.asarray(card_counts, dtype=np.int64)
        if rows.ndim != 2 or rows.shape[1] != 52:
            raise AnalyzerError("shoes must be rows of 52 card counts")
        result = np.empty((rows.shape[0], len(self.bet_ids)), dtype=np.float64)
        if self.value_batch is not None:
            result[:, list(self.value_columns)] = self.value_batch.evaluate(value_counts(rows))
        if self.pair_columns:
            size = rows.sum(axis=1).astype(np.float64)
            counts = rows.astype(np.float64)
            for column, payoff in zip(self.pair_columns, self.pair_payoffs, strict=True):
                quadratic = ((counts @ payoff) * counts).sum(axis=1)
                quadratic -= counts @ np.diagonal(payoff)
                result[:, column] = quadratic / (size * (size - 1))
        for column, form, nets in zip(self.four_columns, self.four_forms, self.four_payoffs,
                                      strict=True):
            result[:, column] = form.evaluate(rows) @ nets
        if self.card_columns:
            if self.card_batch is not None:
                result[:, list(self.card_columns)] = self.card_batch.evaluate(rows)
            else:
                result[:, list(self.card_columns)] = self._exact_card_bets(rows)
        return result

    def _exact_card_bets(self, rows: IntArray) -> FloatArray:
        assert self.card_profile is not None
        out = np.empty((rows.shape[0], len(self.card_columns)), dtype=np.float64)
        for r, row in enumerate(rows.tolist()):
            key = tuple(row)
            if key not in self.cache:
                table = odds(self.card_profile, Shoe(key, label="depleted"))
                self.cache[key] = tuple(float(b.ev) for b in table.bets)
            out[r] = self.cache[key]
        return out


def two_card_payoff(profile: Profile, index: int) -> FloatArray | None:
    """Net payoff of a bet for each ordered pair of a hand's first two cards (52 x 52).

    Only for bets whose every condition reads card-level features of one hand's first two
    cards: by exchangeability those two cards are a uniform ordered pair of distinct cards
    of the shoe, so ``EV = (n'Mn - sum_i n_i M_ii) / (N (N - 1))`` exactly. None otherwise.
    """
    bet = profile.bets[index]
    for hand in ("player", "banker"):
        names = set(hand_card_features(hand, DECK[0], DECK[1]))
        if bet.features <= names:
            payoff = np.empty((52, 52), dtype=np.float64)
            for i, first in enumerate(DECK):
                for j, second in enumerate(DECK):
                    features = hand_card_features(hand, first, second)
                    payoff[i, j] = float(net_payout(bet, settle(bet, features)))
            return payoff
    return None


@dataclass(frozen=True)
class BatchEvaluator:
    """Expected values of every bet for many shoes at once, in float64.

    A term's weight is ``fill[k] * A[a] * B[b]``: ``A`` and ``B`` are per-shoe tables of
    the falling-factorial products over values 0-4 and 5-9 (462 multiplicity patterns
    each), so each shoe costs three contiguous row gathers per term and one matrix product.
    Up to eight decks every factor is an integer below 2**53; the only rounding is in the
    products and the final dot product, so the relative error against the exact engine is
    about 1e-15 (bound documented as 1e-12; measured in ``tests/engine/test_odds.py`` and
    ``make bench``).

    Two implementations (see :mod:`analyzer.engine.backend`): numpy, ``chunk`` shoes at a
    time (the reference: 64 keeps the intermediates in cache), and the fused kernel of
    :mod:`analyzer.engine.kernels`, the same arithmetic in the same order per block of 64.
    """

    profile: Profile
    bet_ids: tuple[str, ...]
    payoff: npt.NDArray[np.float64]
    cards: npt.NDArray[np.int64]
    half_index: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    half_patterns: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    #: shoes per block in numpy (the fused kernel's block is fixed at 64, the same)
    chunk: int = 64

    @classmethod
    def for_profile(cls, profile: Profile | str) -> BatchEvaluator:
        """Compile a profile's bets into one (bets x terms) payoff matrix."""
        if isinstance(profile, str):
            profile = load_profile(profile)
        tableau = _check_profile(profile, values_only=True)
        term_set = terms(tableau)
        payoff = np.zeros((len(profile.bets), term_set.size), dtype=np.float64)
        for row, bet in enumerate(profile.bets):
            tally = _bet_tally(tableau, bet)
            stops = [*tally.starts[1:].tolist(), len(tally.term_index)]
            for key, start, stop in zip(tally.keys, tally.starts.tolist(), stops, strict=True):
                assert isinstance(key, tuple)
                value = float(net_payout(bet, key))
                np.add.at(payoff[row], tally.term_index[start:stop],
                          value * tally.count[start:stop])
        return cls.from_payoff(profile, payoff)

    @classmethod
    def from_payoff(cls, profile: Profile, payoff: npt.NDArray[np.float64],
                    bet_ids: tuple[str, ...] | None = None) -> BatchEvaluator:
        """An evaluator of any (columns x terms) matrix of the profile's tableau: column
        ``j`` of a shoe is ``sum_t payoff[j, t] ways_t / (N)_6``."""
        assert profile.tableau is not None
        term_set = terms(profile.tableau)
        low_index, low, high_index, high = half_patterns(term_set.multiplicity)
        ids = bet_ids if bet_ids is not None else tuple(b.id for b in profile.bets)
        return cls(profile, ids, np.ascontiguousarray(payoff), term_set.cards,
                   (low_index, high_index), (low, high))

    def evaluate(self, value_counts: npt.ArrayLike,
                 kernel: str | None = None) -> npt.NDArray[np.float64]:
        """EV of every bet (columns) for each shoe (rows of ten point-value counts)."""
        counts = np.asarray(value_counts, dtype=np.float64)
        if counts.ndim != 2 or counts.shape[1] != 10:
            raise AnalyzerError("batch shoes must be rows of ten point-value counts")
        if (counts < 0).any():
            raise AnalyzerError("batch shoes cannot have negative counts")
        if (counts.sum(axis=1) < 6).any():
            raise AnalyzerError("every batch shoe needs at least 6 cards")
        if self.chunk == 64 and backend.use_kernels(kernel, "batch", counts.shape[0]):
            from analyzer.engine import kernels

            return kernels.batch_values(counts, self.payoff, self.cards, *self.half_index,
                                        *self.half_patterns)
        result = np.empty((counts.shape[0], len(self.bet_ids)), dtype=np.float64)
        for start in range(0, counts.shape[0], self.chunk):
            result[start:start + self.chunk] = self._evaluate_chunk(
                counts[start:start + self.chunk])
        return result

    def _evaluate_chunk(self, counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        shoes = counts.shape[0]
        size = counts.sum(axis=1)
        # falling[v, m, s] = c (c-1) ... (c-m+1) for shoe s's count c of value v
        falling = np.ones((10, 7, shoes))
        for m in range(1, 7):
            falling[:, m, :] = falling[:, m - 1, :] * (counts.T - (m - 1))
        # fill[k, s] = (N-k)(N-k-1)...(N-5): ways to fill the unused positions
        fill = np.ones((7, shoes))
        for k in range(5, -1, -1):
            fill[k] = fill[k + 1] * (size - k)
        weights = fill[self.cards]
        factor = np.empty_like(weights)
        for half, index, pattern in zip(HALVES, self.half_index, self.half_patterns,
                                        strict=True):
            table = np.ones((pattern.shape[0], shoes))
            for column, value in enumerate(half):
                table *= falling[value][pattern[:, column]]
            np.take(table, index, axis=0, out=factor)
            weights *= factor
        ev: npt.NDArray[np.float64] = (self.payoff @ weights).T / fill[0][:, None]
        return ev
