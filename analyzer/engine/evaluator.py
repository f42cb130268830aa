"""The batch evaluator: the EV of every bet on point values of a profile for many shoes at
once, from rows of ten value counts (float64, two half-value factor tables).

Depleted shoes as rows of 52 card counts, bets on ranks or suits included, go through the one
depleted-shoe evaluator, :class:`analyzer.engine.shoe_aware.ShoeEvaluator` (label
probabilities, and EVs from them).

>>> import numpy as np
>>> from analyzer.rules.shoe import Shoe
>>> ev = BatchEvaluator.for_profile("punto-banco").evaluate(
...     np.array([Shoe.decks(8).value_counts()]))
>>> round(float(ev[0, 0]), 6)
-0.010579
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from analyzer.engine import backend
from analyzer.engine.enumeration import terms
from analyzer.engine.forms import CARD_VALUES
from analyzer.engine.odds import bet_tally, fixed_tableau
from analyzer.engine.tally import HALVES, half_patterns
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import net_payout
from analyzer.rules.profile import Profile, load_profile

__all__ = ["BatchEvaluator", "value_counts", "value_counts_float"]

# The products here are small (bets x 6,958 terms x a few hundred shoes): a multi-threaded BLAS
# only adds contention, measured 5-7x slower than one thread on a loaded 2-core machine. Set
# through the library's own API, so it holds whatever was imported first.
threadpool_limits(limits=1, user_api="blas")


FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def value_counts(card_counts: npt.ArrayLike) -> IntArray:
    """Rows of 52 card counts -> rows of 10 point-value counts.

    >>> from analyzer.rules.shoe import Shoe
    >>> value_counts([Shoe.decks(1).counts])[0].tolist()
    [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    """
    rows = np.asarray(card_counts, dtype=np.int64)
    # one float matrix product: whole counts, exact (below 2**53), 2.5x faster than add.at
    result: IntArray = (rows.astype(np.float64) @ _CARD_VALUE_MATRIX).astype(np.int64)
    return result


def value_counts_float(card_counts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """:func:`value_counts` of rows of whole, nonnegative float64 card counts, as float64:
    the same values (whole sums, exact) without the round trips through int64."""
    result: npt.NDArray[np.float64] = card_counts @ _CARD_VALUE_MATRIX
    return result


#: (52, 10): 1 where a card has a point value.
_CARD_VALUE_MATRIX = np.zeros((52, 10))
_CARD_VALUE_MATRIX[np.arange(52), CARD_VALUES] = 1.0


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
    :mod:`analyzer.engine.kernels`, the same arithmetic in the same order per block of 64:
    the same floats up to eight decks, where every sum is an exact integer; above, equal
    to rounding only, since a BLAS build may order the final dot product's sums its own way.
    """

    #: The profile whose tableau the terms are of.
    profile: Profile
    #: The id of each column (each bet, in order).
    bet_ids: tuple[str, ...]
    #: (columns x terms): each column's net payout times the term's value sequences.
    payoff: npt.NDArray[np.float64]
    #: Cards dealt in each term (4, 5 or 6).
    cards: npt.NDArray[np.int64]
    #: Each term's multiplicity pattern of values 0-4 and of values 5-9.
    half_index: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    #: The distinct multiplicity patterns of values 0-4 and of values 5-9 (at most 462 each).
    half_patterns: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
    #: Shoes per block in numpy (the fused kernel's block is fixed at 64, the same).
    chunk: int = 64

    @classmethod
    def for_profile(cls, profile: Profile | str) -> BatchEvaluator:
        """Compile a profile's bets into one (bets x terms) payoff matrix."""
        if isinstance(profile, str):
            profile = load_profile(profile)
        tableau = fixed_tableau(profile, values_only=True)
        term_set = terms(tableau)
        payoff = np.zeros((len(profile.bets), term_set.size), dtype=np.float64)
        for row, bet in enumerate(profile.bets):
            tally = bet_tally(tableau, bet)
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
