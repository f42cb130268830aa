"""How many decks a log's shoes were dealt from, told from the cards of its whole shoes.

A whole shoe's cards (burns and hands) are a sample drawn without replacement from ``d``
decks: the chance of its card counts ``k_t`` is ``prod_t C(d m_t, k_t) / C(52 d, n)``
(``m_t`` copies of card ``t`` per deck; in a log of point values the kinds are the ten
values, 16 tens and faces per deck). :class:`DeckTally` adds this log-likelihood (up to
a term that is the same for every ``d``) up over
the whole shoes for ``d`` = 1 .. :func:`deck_range` (exact integer arithmetic inside a
float log, one lookup per card kind), and the smallest ``d`` that holds every shoe's
cards (the *floor*); the sums merge by addition across files.

:func:`shown_decks` is the maximum-likelihood deck count, given only when it beats every
other count by a likelihood ratio of at least ``e**`` :data:`CONFIDENT` (and is not the top
of the range: a shoe larger than that, or a continuous shuffler, is not guessed at).
An 8-deck shoe dealt to 80% shows all eight copies of some card in nearly every shoe; a
shoe that stops at 310 cards over hundreds of shoes looks like six decks, not eight.

>>> from analyzer.engine.lookup import build_model
>>> tally = DeckTally(build_model("punto-banco", 8), values=False)
>>> tally.add_counts([[4] * 52])  # a shoe dealt to its last card: four of each card
>>> shown_decks(tally.fit(), tally.floor, 8)
4
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from analyzer.dealing.dialects import VALUE_CARD
from analyzer.engine.lookup import Model
from analyzer.verify.inference.fixed import fixed_sums, to_floats

__all__ = ["CONFIDENT", "deck_range", "DeckTally", "SHOES_AT_ONCE", "shown_decks"]

#: The log-likelihood margin (natural log) a deck count needs over every other to be
#: told from the shoes.
CONFIDENT = 10.0
#: Shoes weighed together (their arrays about 2 KB a shoe for 8 decks).
SHOES_AT_ONCE = 1024


def deck_range(decks: int) -> int:
    """The deck counts weighed, 1 .. this, for a run of ``decks`` decks."""
    return max(16, 2 * decks)


@cache
def _log_factorials(size: int) -> npt.NDArray[np.float64]:
    return np.array([math.lgamma(i + 1) for i in range(size + 1)], dtype=np.float64)


class DeckTally:
    """Each deck count's log-likelihood, summed over whole shoes (see the module
    docstring). ``values``: the log writes point values (each on the card standing for
    it), so the kinds are the ten values."""

    def __init__(self, model: Model, values: bool) -> None:
        per_deck = np.array(model.shoe.counts, dtype=np.int64) // max(model.decks, 1)
        if values:
            per_value = [0] * 10
            for c, k in enumerate(per_deck.tolist()):
                per_value[_value(c)] += k
            self.kinds = np.array([VALUE_CARD[v] for v in range(10)], dtype=np.int64)
            copies = np.array(per_value, dtype=np.int64)
        else:
            self.kinds = np.arange(52, dtype=np.int64)
            copies = per_deck
        self.size = deck_range(model.decks)
        decks = np.arange(1, self.size + 1, dtype=np.int64)
        self.cards = decks * int(copies.sum())
        lf = self.log_factorial = _log_factorials(int(self.cards[-1]))
        self.full = np.cumsum(lf[decks[:, None] * copies[None, :]], axis=1)[:, -1]
        # kinds grouped by copies per deck m; per group, lf[d m - k] for every count k
        self.groups: list[tuple[int, npt.NDArray[np.int64], npt.NDArray[np.float64]]] = []
        for m in sorted(set(copies.tolist())):
            members = np.flatnonzero(copies == m)
            k = np.arange(m * self.size + 1)[:, None]
            held = decks[None, :] * m
            table = np.where(k <= held, lf[np.maximum(held - k, 0)], 0.0)  # (k, decks)
            self.groups.append((m, members, table))
        self.sums = [0] * self.size  # exact (:mod:`~analyzer.verify.inference.fixed`)
        self.floor = 0
        self.shoes = 0

    def add_counts(self, counts: Sequence[Sequence[int]] | npt.NDArray[np.int64]) -> None:
        """Whole shoes, each as its 52 card counts (burns included).

        log C(d m_t, k_t) = lf[d m_t] - lf[k_t] - lf[d m_t - k_t], and lf[k_t] is the same
        for every deck count (left out); the last term, summed over kinds, depends only on
        how many kinds of each copy count m were dealt k times (a histogram). Each shoe's
        terms are summed in order, rounded once to the exact grid and added as integers:
        the same sums however the shoes come batched or split (so :data:`SHOES_AT_ONCE`
        at a time: a block of a log of one-hand shoes is tens of thousands of them)."""
        rows = np.asarray(counts, dtype=np.int64).reshape(-1, 52)[:, self.kinds]
        for first in range(0, rows.shape[0], SHOES_AT_ONCE):
            self._add_rows(rows[first:first + SHOES_AT_ONCE])

    def _add_rows(self, rows: npt.NDArray[np.int64]) -> None:
        """:meth:`add_counts` of some shoes, each as its count of each kind of card."""
        shoes = rows.shape[0]
        if shoes == 0:
            return
        decks = np.arange(1, self.size + 1, dtype=np.int64)
        possible = np.ones((shoes, self.size), dtype=bool)
        left = np.zeros((shoes, self.size))
        for m, members, table in self.groups:
            dealt = rows[:, members]
            possible &= dealt.max(axis=1)[:, None] <= decks[None, :] * m
            if m == 0:
                continue
            width = table.shape[0]
            clipped = np.minimum(dealt, width - 1)  # beyond: impossible for every d
            histogram = np.bincount((clipped + (np.arange(shoes) * width)[:, None]).ravel(),
                                    minlength=shoes * width).reshape(shoes, width)
            for k in range(width):  # each shoe's terms added in order, from 0.0
                left += histogram[:, k, None] * table[k]
        floors = np.where(np.any(possible, axis=1), np.argmax(possible, axis=1) + 1,
                          self.size + 1)
        self.floor = max(self.floor, int(floors.max()))
        lf = self.log_factorial
        n = np.minimum(rows.sum(axis=1), self.cards[-1])[:, None]
        total = lf[self.cards][None, :] - lf[np.maximum(self.cards[None, :] - n, 0)]
        terms = np.where(possible, self.full[None, :] - left - total, 0.0)
        for d, total in enumerate(fixed_sums(terms)):
            self.sums[d] += total
        self.shoes += shoes

    def fit(self) -> tuple[float, ...]:
        """The summed log-likelihood of 1 .. :attr:`size` decks (impossible counts, below
        :attr:`floor`, hold 0)."""
        return to_floats(self.sums)

    def sums_fixed(self) -> tuple[int, ...]:
        """:meth:`fit` exact (units of 2**-BITS)."""
        return tuple(self.sums)


def _value(card: int) -> int:
    rank = card // 4 + 1
    return 0 if rank >= 10 else rank


def shown_decks(fit: Sequence[float], floor: int, decks: int) -> int | None:
    """The deck count the whole shoes show (None: no shoe, or no count clearly best).

    ``fit``: the summed log-likelihoods of 1 .. len(fit) decks; ``floor``: the fewest decks
    that hold every shoe's cards; ``decks``: the run's count (its range)."""
    if not fit or floor < 1 or floor > len(fit):
        return None
    candidates = list(range(floor, len(fit) + 1))
    best = max(candidates, key=lambda d: fit[d - 1])
    if best == len(fit):
        return None
    margin = min((fit[best - 1] - fit[d - 1] for d in candidates if d != best),
                 default=math.inf)
    return best if margin >= CONFIDENT else None
