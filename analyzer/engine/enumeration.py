"""Exact enumeration of every coup a tableau can deal, compiled into a polynomial in the shoe.

Every punto banco coup is a sequence of 4, 5 or 6 card values (P1 B1 P2 B2, then third
cards by the tableau). Under the published convention (Wizard of Odds, "Baccarat
combinations") each coup is weighted by the number of ordered 6-card sequences of the shoe
that begin with it; that weight depends only on the multiset of values in the coup:

    ways(m, k) = prod_v c_v (c_v - 1) ... (c_v - m_v + 1)  x  (N - k)(N - k - 1) ... (N - 5)

for a shoe with ``c_v`` cards of value ``v`` and ``N`` cards in all. The 339,400 value sequences of
punto banco collapse to 6,958 such terms, so the exact counts of any shoe are a fixed
polynomial in its ten value counts; evaluating it is a handful of vector gathers.

The infinite deck is the same polynomial with falling factorials replaced by powers of
the value weights (4, 1, 1, ..., 1) out of 13 and the denominator 13**6.

>>> from analyzer.rules.profile import load_profile
>>> tableau = load_profile("punto-banco").tableau
>>> len(coups(tableau)), int(coups(tableau).arrangements.sum()), terms(tableau).size
(103411, 339400, 6958)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import perm, prod
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.errors import AnalyzerError
from analyzer.rules.conditions import NO_CARD
from analyzer.rules.profile import Tableau
from analyzer.rules.shoe import Shoe

__all__ = ["compile_tally", "Coup", "coup_features", "coup_ways", "coups", "CoupTable", "deal",
           "FeatureColumns", "GatheredColumns",
           "denominator", "INFINITE_BASE", "INFINITE_VALUE_WEIGHTS", "INT64_LIMIT", "IntArray",
           "PUNTO_BANCO_NATURALS", "SEQUENCE_LENGTH", "Tally", "term_weights", "Terms", "terms"]

#: Cards in one ordered sequence of the published convention.
SEQUENCE_LENGTH = 6
#: Infinite deck: weight of each point value out of 13 (tens and faces together are 4/13).
INFINITE_VALUE_WEIGHTS = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
INFINITE_BASE = 13
#: Largest ordered-6 denominator that numpy's int64 holds exactly (about 27 decks).
INT64_LIMIT = 2**63 - 1

IntArray = npt.NDArray[np.int64]
#: Naturals of punto banco, the default when a coup is read without its tableau.
PUNTO_BANCO_NATURALS = frozenset({8, 9})


@dataclass(frozen=True)
class Coup:
    """One way a coup can go: the point values of each hand, in dealt order.

    ``dealt`` is the order the cards left the shoe (P1 B1 P2 B2, then third cards).
    ``arrangements`` counts the value sequences this coup stands for: the engine lists each
    hand's first two values once (lowest first) because no rule reads their order.

    >>> c = Coup((3, 4, 2), (0, 6))
    >>> c.features["winner"], c.features["player_total"], c.features["cards_dealt"]
    ('player', 9, 5)
    """

    player: tuple[int, ...]
    banker: tuple[int, ...]
    arrangements: int = field(default=1, compare=False)
    naturals: frozenset[int] = field(default=PUNTO_BANCO_NATURALS, compare=False, repr=False)
    features: dict[str, Any] = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "features",
                           coup_features(self.player, self.banker, self.naturals))

    @property
    def dealt(self) -> tuple[int, ...]:
        """The card values in the order they were dealt."""
        first = (self.player[0], self.banker[0], self.player[1], self.banker[1])
        return first + self.player[2:] + self.banker[2:]


def coup_features(player: Sequence[int], banker: Sequence[int],
                  naturals: frozenset[int] = PUNTO_BANCO_NATURALS) -> dict[str, Any]:
    """Every coup-level feature (see :data:`analyzer.rules.conditions.FEATURES`) of a coup.

    A hand is a natural when the coup ended on the first four cards and its two-card total
    is one of the tableau's ``naturals``.
    """
    player_total = sum(player) % 10
    banker_total = sum(banker) % 10
    player_two = (player[0] + player[1]) % 10
    banker_two = (banker[0] + banker[1]) % 10
    if player_total > banker_total:
        winner, winning_total, winning_cards = "player", player_total, len(player)
    elif banker_total > player_total:
        winner, winning_total, winning_cards = "banker", banker_total, len(banker)
    else:
        winner, winning_total, winning_cards = "tie", banker_total, len(banker)
    player_natural = len(player) == 2 and len(banker) == 2 and player_two in naturals
    banker_natural = len(player) == 2 and len(banker) == 2 and banker_two in naturals
    return {
        "winner": winner,
        "player_total": player_total,
        "banker_total": banker_total,
        "player_two_card_total": player_two,
        "banker_two_card_total": banker_two,
        "player_cards": len(player),
        "banker_cards": len(banker),
        "player_natural": player_natural,
        "banker_natural": banker_natural,
        "natural": player_natural or banker_natural,
        "margin": abs(player_total - banker_total),
        "winning_total": winning_total,
        "winning_cards": winning_cards,
        "cards_dealt": len(player) + len(banker),
        "player_third": player[2] if len(player) == 3 else NO_CARD,
        "banker_third": banker[2] if len(banker) == 3 else NO_CARD,
        "player_pair_value": player[0] == player[1],
        "banker_pair_value": banker[0] == banker[1],
        "player_low_value": min(player[0], player[1]),
        "banker_low_value": min(banker[0], banker[1]),
        "player_high_value": max(player[0], player[1]),
        "banker_high_value": max(banker[0], banker[1]),
    }


def deal(tableau: Tableau, values: Sequence[int]) -> Coup:
    """Play one coup from a sequence of card values in shoe order (uses what it needs).

    >>> from analyzer.rules.profile import load_profile
    >>> deal(load_profile("punto-banco").tableau, [3, 0, 2, 0, 4, 9, 9])
    Coup(player=(3, 2, 4), banker=(0, 0, 9), arrangements=1)
    """
    player_cards, banker_cards = tableau.play(values)
    player = [values[0], values[2], *values[4:4 + player_cards - 2]]
    banker = [values[1], values[3], *values[2 + player_cards:3 + player_cards][:banker_cards - 2]]
    return Coup(tuple(player), tuple(banker), naturals=tableau.naturals)


@dataclass(frozen=True)
class CoupTable:
    """Every way a tableau can deal, as columns: one row per coup.

    Each hand's first two values are listed once, lowest first, and ``arrangements``
    counts the 1, 2 or 4 value sequences the row stands for (no rule reads that order).
    ``player`` and ``banker`` hold the hands' values with -1 where no third card was drawn;
    ``features`` holds every coup feature as a column; ``term`` the row's polynomial term.
    """

    player: IntArray
    banker: IntArray
    arrangements: IntArray
    features: Mapping[str, npt.NDArray[Any]] = field(compare=False)
    naturals: frozenset[int] = PUNTO_BANCO_NATURALS

    def __len__(self) -> int:
        return int(self.arrangements.shape[0])

    def coup(self, row: int) -> Coup:
        """Row ``row`` as a :class:`Coup`."""
        player = tuple(int(v) for v in self.player[row] if v >= 0)
        banker = tuple(int(v) for v in self.banker[row] if v >= 0)
        return Coup(player, banker, int(self.arrangements[row]), self.naturals)


class FeatureColumns(Mapping[str, npt.NDArray[Any]]):
    """The columns of :func:`coup_features` for every row of a :class:`CoupTable`, each
    computed the first time it is read and kept: a run reads a few of the 22 (0.8 MB
    each at 103,411 rows), so the others are never held."""

    def __init__(self, player: IntArray, banker: IntArray, naturals: frozenset[int]) -> None:
        self._player, self._banker, self._naturals = player, banker, naturals
        self._held: dict[str, npt.NDArray[Any]] = {}

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        held = self._held.get(name)
        if held is None:
            if name not in _COLUMNS:
                raise KeyError(name)
            held = self._held[name] = _COLUMNS[name](self, self._player, self._banker,
                                                     self._naturals)
        return held

    def __iter__(self) -> Iterator[str]:
        return iter(_COLUMNS)

    def __len__(self) -> int:
        return len(_COLUMNS)


class GatheredColumns(Mapping[str, npt.NDArray[Any]]):
    """Columns ``columns[name][rows]`` (hands looked up in a coup table), each gathered
    the first time it is read, beside columns given whole (``more``) and columns of other
    tables gathered the same way (``others``: (columns, rows) pairs, read before
    ``columns``): a replay settles its bets on a few of the 22 coup columns, so the others
    are never gathered."""

    def __init__(self, columns: Mapping[str, npt.NDArray[Any]], rows: IntArray,
                 more: Mapping[str, npt.NDArray[Any]],
                 others: Sequence[tuple[Mapping[str, npt.NDArray[Any]], IntArray]] = ()
                 ) -> None:
        self._columns, self._rows, self._others = columns, rows, others
        self._held: dict[str, npt.NDArray[Any]] = dict(more)

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        held = self._held.get(name)
        if held is None:
            table, rows = next(((c, r) for c, r in self._others if name in c),
                               (self._columns, self._rows))
            held = self._held[name] = table[name][rows]
        return held

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._columns),
                     **{k: None for c, _ in self._others for k in c},
                     **dict.fromkeys(self._held)})

    def __len__(self) -> int:
        return len({*self._columns, *(k for c, _ in self._others for k in c), *self._held})


def _total(hand: IntArray) -> IntArray:
    total: IntArray = np.where(hand >= 0, hand, 0).sum(axis=1) % 10
    return total


def _winner(f: FeatureColumns) -> npt.NDArray[Any]:
    player_total, banker_total = f["player_total"], f["banker_total"]
    return np.where(player_total > banker_total, "player",
                    np.where(banker_total > player_total, "banker", "tie"))


def _natural(f: FeatureColumns, hand: str, naturals: frozenset[int]) -> npt.NDArray[Any]:
    two_card = (f["player_cards"] == 2) & (f["banker_cards"] == 2)
    natural: npt.NDArray[Any] = two_card & np.isin(f[f"{hand}_two_card_total"],
                                                   sorted(naturals))
    return natural


_Column = Callable[[FeatureColumns, IntArray, IntArray, frozenset[int]], npt.NDArray[Any]]
#: How each column of :class:`FeatureColumns` is computed (from the others it names).
_COLUMNS: dict[str, _Column] = {
    "winner": lambda f, p, b, n: _winner(f),
    "player_total": lambda f, p, b, n: _total(p),
    "banker_total": lambda f, p, b, n: _total(b),
    "player_two_card_total": lambda f, p, b, n: (p[:, 0] + p[:, 1]) % 10,
    "banker_two_card_total": lambda f, p, b, n: (b[:, 0] + b[:, 1]) % 10,
    "player_cards": lambda f, p, b, n: 2 + (p[:, 2] >= 0),
    "banker_cards": lambda f, p, b, n: 2 + (b[:, 2] >= 0),
    "player_natural": lambda f, p, b, n: _natural(f, "player", n),
    "banker_natural": lambda f, p, b, n: _natural(f, "banker", n),
    "natural": lambda f, p, b, n: f["player_natural"] | f["banker_natural"],
    "margin": lambda f, p, b, n: np.abs(f["player_total"] - f["banker_total"]),
    "winning_total": lambda f, p, b, n: np.where(f["winner"] == "player", f["player_total"],
                                                 f["banker_total"]),
    "winning_cards": lambda f, p, b, n: np.where(f["winner"] == "player", f["player_cards"],
                                                 f["banker_cards"]),
    "cards_dealt": lambda f, p, b, n: f["player_cards"] + f["banker_cards"],
    "player_third": lambda f, p, b, n: p[:, 2],
    "banker_third": lambda f, p, b, n: b[:, 2],
    "player_pair_value": lambda f, p, b, n: p[:, 0] == p[:, 1],
    "banker_pair_value": lambda f, p, b, n: b[:, 0] == b[:, 1],
    "player_low_value": lambda f, p, b, n: np.minimum(p[:, 0], p[:, 1]),
    "banker_low_value": lambda f, p, b, n: np.minimum(b[:, 0], b[:, 1]),
    "player_high_value": lambda f, p, b, n: np.maximum(p[:, 0], p[:, 1]),
    "banker_high_value": lambda f, p, b, n: np.maximum(b[:, 0], b[:, 1]),
}


@cache
def coups(tableau: Tableau) -> CoupTable:
    """Every way the tableau can deal (103,411 rows for 339,400 value sequences).

    Rows in the order of the two-card hands (Player's, then Banker's, each low card
    first), then Player's third card and Banker's (none first): every candidate row of
    that order is laid out as an array and the tableau's legal ones kept.
    """
    low, high = np.triu_indices(10)  # the 55 two-card hands, (0, 0), (0, 1), ... (9, 9)
    total = (low + high) % 10
    member = np.zeros((3, 10), dtype=bool)  # naturals, Player draws, Banker draws (stood)
    for row, group in enumerate((tableau.naturals, tableau.player_draws,
                                 tableau.banker_draws_player_stood)):
        member[row, list(group)] = True
    # does Banker draw, on each total, after each third card of Player's
    after = np.array([[tableau.banker_draws_on(t, c) for c in range(10)] for t in range(10)],
                     dtype=bool)
    # (Player's hand, Banker's hand): a natural, Player draws, Banker draws if Player stood
    natural = member[0, total][:, None] | member[0, total][None, :]
    player_draws = ~natural & member[1, total][:, None]
    banker_stood = ~natural & ~player_draws & member[2, total][None, :]
    # candidates (Player's hand, Banker's hand, Player's third, Banker's third), thirds
    # -1 (none) first then 0-9: Player's third drawn exactly when the tableau says, and
    # Banker's on his total after it (or after Player stood)
    third = np.arange(-1, 10)
    p3_drawn, b3_drawn = third[:, None] >= 0, third[None, :] >= 0
    banker_after = after[total][None, :, np.maximum(third, 0)]  # (1, 55, 11)
    legal = np.where(
        player_draws[:, :, None, None],
        p3_drawn & (b3_drawn == banker_after[..., None]),
        ~p3_drawn & (b3_drawn == banker_stood[:, :, None, None]))
    hand_p, hand_b, p3, b3 = np.nonzero(legal)  # in the order of the candidates
    p1, p2, b1, b2 = low[hand_p], high[hand_p], low[hand_b], high[hand_b]
    n = np.where(p1 == p2, 1, 2) * np.where(b1 == b2, 1, 2)
    table = np.stack([p1, p2, third[p3], b1, b2, third[b3], n], axis=1).astype(np.int64)
    player, banker = table[:, 0:3], table[:, 3:6]
    return CoupTable(player, banker, table[:, 6],
                     FeatureColumns(player, banker, tableau.naturals), tableau.naturals)


@dataclass(frozen=True)
class Terms:
    """The distinct (multiset of values, cards used) terms of a coup table.

    ``multiplicity[t, v]`` is how often value ``v`` occurs in term ``t``; ``cards[t]`` the
    number of cards; ``of_coup[i]`` the term of coup row ``i``.
    """

    multiplicity: IntArray
    cards: IntArray
    of_coup: IntArray

    @property
    def size(self) -> int:
        """Number of distinct terms."""
        return int(self.cards.shape[0])


@cache
def terms(tableau: Tableau) -> Terms:
    """Group the tableau's coups into polynomial terms (6,958 for punto banco)."""
    table = coups(tableau)
    cards = np.concatenate([table.player, table.banker], axis=1)
    # each row's counts of the ten values as one key in base 7 (value 0 most significant:
    # the keys sort the rows as np.unique(axis=0) of the counts would), each card adding
    # its value's power (no card, -1: nothing)
    power = 7 ** np.arange(9, -1, -1, dtype=np.int64)
    key = np.append(power, 0)[cards].sum(axis=1)
    _, first, of_coup = np.unique(key, return_index=True, return_inverse=True)
    multiplicity = key[first][:, None] // power % 7
    return Terms(multiplicity, multiplicity.sum(axis=1), of_coup.reshape(-1).astype(np.int64))


def denominator(shoe: Shoe) -> int:
    """Ordered 6-card sequences of the shoe (13**6 value draws for the infinite deck).

    >>> denominator(Shoe.decks(8))
    4998398275503360
    """
    if shoe.is_infinite:
        return int(INFINITE_BASE**SEQUENCE_LENGTH)
    return perm(shoe.size, SEQUENCE_LENGTH)


def _factor_table(shoe: Shoe) -> tuple[list[list[int]], list[int]]:
    """Per value v and multiplicity m the factor of a term, and the fill factor per k."""
    if shoe.is_infinite:
        table = [[w**m for m in range(SEQUENCE_LENGTH + 1)] for w in INFINITE_VALUE_WEIGHTS]
        fill = [INFINITE_BASE ** (SEQUENCE_LENGTH - k) for k in range(SEQUENCE_LENGTH + 1)]
    else:
        n = shoe.size
        table = [[perm(c, m) for m in range(SEQUENCE_LENGTH + 1)] for c in shoe.value_counts()]
        fill = [perm(n - k, SEQUENCE_LENGTH - k) for k in range(SEQUENCE_LENGTH + 1)]
    return table, fill


def term_weights(term_set: Terms, shoe: Shoe) -> npt.NDArray[Any]:
    """Ordered 6-card sequences behind each term, exact (int64, or Python ints if larger)."""
    table, fill = _factor_table(shoe)
    dtype: Any = np.int64 if denominator(shoe) <= INT64_LIMIT else object
    factors = np.array(table, dtype=dtype)
    weights = np.array(fill, dtype=dtype)[term_set.cards]
    for v in range(10):
        weights = weights * factors[v, term_set.multiplicity[:, v]]
    return weights


@dataclass(frozen=True)
class Tally:
    """A compiled count of coups by key: how many coups of each term fall under each key."""

    keys: tuple[Hashable, ...]
    term_index: IntArray
    count: IntArray
    starts: IntArray

    def evaluate(self, weights: npt.NDArray[Any]) -> dict[Hashable, int]:
        """Exact ordered-sequence ways per key, from :func:`term_weights`."""
        products = weights[self.term_index] * self.count.astype(weights.dtype)
        sums = np.add.reduceat(products, self.starts)
        return {key: int(total) for key, total in zip(self.keys, sums, strict=True)}


def compile_tally(tableau: Tableau, codes: npt.ArrayLike,
                  labels: Sequence[Hashable] | None = None) -> Tally:
    """Compile a per-coup integer code (one per row of :func:`coups`) into a :class:`Tally`.

    ``labels[code]`` names each code in the result; by default the code itself.
    """
    table = coups(tableau)
    term_set = terms(tableau)
    code = np.asarray(codes, dtype=np.int64).reshape(-1)
    if code.shape[0] != len(table):
        raise AnalyzerError("a tally needs one code per coup")
    combined = (code - code.min()) * term_set.size + term_set.of_coup
    unique, inverse = np.unique(combined, return_inverse=True)
    count = np.zeros(unique.shape[0], dtype=np.int64)
    np.add.at(count, inverse.reshape(-1), table.arrangements)
    key_code = unique // term_set.size + code.min()
    starts = np.flatnonzero(np.r_[True, key_code[1:] != key_code[:-1]])
    keys = tuple(labels[int(k)] if labels is not None else int(k) for k in key_code[starts])
    return Tally(keys, (unique % term_set.size).astype(np.int64), count,
                 starts.astype(np.int64))


def coup_ways(tableau: Tableau, shoe: Shoe) -> list[tuple[Coup, int]]:
    """Every coup with its exact ordered-sequence ways, summed over its arrangements."""
    table, fill = _factor_table(shoe)
    result = []
    rows = coups(tableau)
    for row in range(len(rows)):
        coup = rows.coup(row)
        counts = [0] * 10
        for v in coup.dealt:
            counts[v] += 1
        ways = coup.arrangements * fill[len(coup.dealt)] * prod(
            table[v][m] for v, m in enumerate(counts))
        result.append((coup, ways))
    return result
