"""Shuffle quality: tests on the order of the cards within and across whole shoes.

The replay and the frequency tests look at what each hand holds; a simulator that shuffles
badly, reuses its seed or forgets to shuffle between shoes can pass them all, because each
shoe's composition is right. When a log holds whole shoes (every card from the first, in
dealt order: burns, then each coup's cards P B P B and the third cards), each whole shoe
is added to a :class:`ShuffleSums` (mergeable by addition, like every verify sum), and
:func:`shuffle_tests` turns the sums into tests that join the Holm family:

``repeated shoes``
    Null: shoes are shuffled independently, so two whole shoes are the same sequence
    with probability at most ``prod (c / (N - i))`` over its ``m`` cards (``c`` the most
    copies of one card, or one value, ``N`` the shoe's size). Statistic: the repeats among
    the shoes' content hashes (all of a file's shoes up to :data:`SKETCH` distinct ones,
    a bottom-k sketch beyond). p-value: the union bound ``C(n, 2)`` times that probability
    (1 when no shoe repeats).
``shoe order carried over``
    Null: each shoe's order is independent of the previous shoe's. Statistic: the blocks
    of :data:`CARRY_RUN` cards (:data:`CARRY_RUN_VALUES` point values in a values-only
    log) at positions 0, k, 2k, ... of a shoe that occur, consecutively, anywhere in the
    previous whole shoe of the same file. Its null mean is exact (every position of a
    uniformly shuffled shoe holds a given run with the same probability); the blocks do
    not overlap, so their matches are nearly independent rare events. p-value: Poisson
    upper tail.
``rank by position`` (``value by position`` in a values-only log)
    Null: every position is equally likely to hold each card. Statistic: Pearson
    chi-square of the dealt cards' ranks against :data:`POSITION_BINS` equal stretches of
    the shoe (exact expectations from the composition), ``(R - 1)(B - 1)`` df.
``adjacent card values``
    Null: the value of a card does not depend on the card before it, beyond the card it
    took out. Statistic: Pearson chi-square of the disjoint adjacent pairs (cards 1-2,
    3-4, ...) counted by the classes of their point values (:data:`VALUE_CLASSES`: 0,
    1-3, 4-6, 7-9) against their exact expectations ``n_a (n_b - [a = b]) / (N (N - 1))``
    summed over each class pair, 15 df (the pairs' cells are free; a shoe's pairs are
    drawn without replacement, which makes the test slightly conservative).
``rising sequences``
    Null as above. A deck riffled k times from a known order is at most 2**k interleaved
    rising sequences of that order (Bayer & Diaconis 1992, Ann. Appl. Probab. 2:294), so
    a card is followed by its successor in that order far too often. Statistic: the
    disjoint adjacent pairs (cards 1-2, 3-4, ...) that are successive in a new deck
    (decks stacked, each ♠ ♥ ♦ ♣ ace to king: ``new-deck order``), or in a shoe sorted by
    rank (a card then another copy of it or the next card index: ``sorted order``); exact
    null mean per pair, Poisson upper tail. Cards only: a values-only log cannot tell
    successors apart.

When an expected count of a chi-square test is below
:data:`~analyzer.verify.inference.statistics.SMALL_EXPECTED` (a few shoes, or small shoes), its
p-value is Monte Carlo instead: :data:`SHUFFLE_REPLICATES` seeded sets of uniformly
shuffled shoes of the logged lengths (Hope 1968, JRSS B 30:582).

Every test's false-alarm rate at alpha was measured over seeded correct logs of ``nine
simulate`` (the README's "Shuffle quality" table and ``tests/verify/inference/test_shuffle.py``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.dealing.dialects import CARD_RANK, CARD_VALUE
from analyzer.dealing.schema import (
    check_count,
    check_int,
    check_list,
    check_number,
    check_object,
)
from analyzer.dealing.shuffle import NEW_DECK_ORDER
from analyzer.engine.lookup import Model
from analyzer.errors import AnalyzerError
from analyzer.verify.inference.distributions import chi2_sf, poisson_sf
from analyzer.verify.inference.statistics import SMALL_EXPECTED

__all__ = ["BATCH_SHOES", "CARRY_RUN", "CARRY_RUN_VALUES", "MC_SHOES", "MIN_HASHED", "merge_sums",
           "POSITION_BINS", "shoe_hash", "SHUFFLE_REPLICATES", "ShuffleSums", "ShuffleTally",
           "shuffle_tests", "SKETCH", "sums_from_json", "VALUE_CLASSES"]

#: A run of this many cards of a shoe found in the previous shoe counts as carried over.
CARRY_RUN = 3
#: ... of this many point values, in a values-only log.
CARRY_RUN_VALUES = 6
#: Equal stretches of the shoe for the rank-by-position test.
POSITION_BINS = 4
#: The classes of point values the adjacent-values test compares (0; 1-3; 4-6; 7-9):
#: coarse enough for its chi-square law to hold from one 8-deck shoe.
VALUE_CLASSES: tuple[int, ...] = (0, 1, 1, 1, 2, 2, 2, 3, 3, 3)
#: Distinct shoe hashes kept per input (the smallest: a bottom-k sketch).
SKETCH = 4096
#: Whole shoes shorter than this (cards) are not hashed: too short to tell apart.
MIN_HASHED = 24
#: Monte Carlo replicates of a chi-square shuffle test with small expected counts.
SHUFFLE_REPLICATES = 2000
#: Whole shoes added up together (their sums are worked out in one pass of numpy).
BATCH_SHOES = 64
#: Lengths of the first whole shoes kept for the Monte Carlo replicates (more shoes than
#: this have no small expected counts unless they are tiny: their mean length is used).
MC_SHOES = 128

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class ShuffleSums:
    """The sums of the shuffle tests over some whole shoes; :func:`merge_sums` adds them."""

    values: bool
    shoes: int = 0
    #: repeats among the sketched shoe hashes, and the log of the largest probability
    #: that two shuffles give one of the repeated sequences (None: no repeat)
    repeats: int = 0
    repeat_log_bound: float | None = None
    #: the smallest distinct shoe hashes (sorted)
    sketch: tuple[int, ...] = ()
    carry_runs: int = 0
    carry_expected: float = 0.0
    carry_pairs: int = 0
    #: category (rank 0-12, or value 0-9) x position stretch counts, the positions dealt
    #: in each stretch, and the sum over shoes of their squares (for the exact null mean)
    position_table: tuple[int, ...] = ()
    position_counts: tuple[int, ...] = ()
    position_squares: tuple[int, ...] = ()
    #: 10 x 10 value counts of the disjoint adjacent pairs, and those pairs in all
    adjacent_table: tuple[int, ...] = ()
    pairs: int = 0
    #: disjoint adjacent pairs successive in new-deck order and in sorted order
    successions: tuple[int, int] = (0, 0)
    #: the lengths (cards) of the first :data:`MC_SHOES` whole shoes
    lengths: tuple[int, ...] = ()
    #: the sum over shoes of the square of their disjoint pairs (for the exact null mean)
    pair_squares: int = 0


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    if not a:
        return tuple(b)
    if not b:
        return tuple(a)
    return tuple(x + y for x, y in zip(a, b, strict=True))


def merge_sums(items: Sequence[ShuffleSums | None]) -> ShuffleSums | None:
    """The sums of several inputs together (their sketches as one sketch)."""
    present = [s for s in items if s is not None]
    if not present:
        return None
    total = present[0]
    for other in present[1:]:
        total = ShuffleSums(
            total.values or other.values, total.shoes + other.shoes,
            total.repeats + other.repeats, _larger(total.repeat_log_bound,
                                                   other.repeat_log_bound),
            tuple(sorted(set(total.sketch) | set(other.sketch))[:SKETCH]),
            total.carry_runs + other.carry_runs, total.carry_expected + other.carry_expected,
            total.carry_pairs + other.carry_pairs,
            _add(total.position_table, other.position_table),
            _add(total.position_counts, other.position_counts),
            _add(total.position_squares, other.position_squares),
            _add(total.adjacent_table, other.adjacent_table), total.pairs + other.pairs,
            (total.successions[0] + other.successions[0],
             total.successions[1] + other.successions[1]),
            (total.lengths + other.lengths)[:MC_SHOES],
            total.pair_squares + other.pair_squares)
    return total


def sums_from_json(value: Any, where: str, path: str) -> ShuffleSums:
    """Shuffle sums read back from a saved partial, every field checked."""
    fields = check_object(value, where, {
        "values": "bool", "shoes": "count", "repeats": "count",
        "repeat_log_bound": lambda v, w, p: None if v is None else check_number(v, w, p),
        "sketch": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: check_int(
            x, w2, p2, 0, (1 << 63) - 1), limit=SKETCH),
        "carry_runs": "count", "carry_expected": lambda v, w, p: check_number(v, w, p, 0.0),
        "carry_pairs": "count",
        "position_table": lambda v, w, p: check_list(v, w, p, check_count,
                                                     (0, 10 * POSITION_BINS,
                                                      13 * POSITION_BINS)),
        "position_counts": lambda v, w, p: check_list(v, w, p, check_count,
                                                      (0, POSITION_BINS)),
        "position_squares": lambda v, w, p: check_list(v, w, p, check_count,
                                                       (0, POSITION_BINS)),
        "adjacent_table": lambda v, w, p: check_list(v, w, p, check_count, (0, 100)),
        "pairs": "count",
        "successions": lambda v, w, p: check_list(v, w, p, check_count, (2,)),
        "lengths": lambda v, w, p: check_list(v, w, p, check_count, limit=MC_SHOES),
        "pair_squares": "count"}, path=path)
    categories = 10 if fields["values"] else 13
    if len(fields["position_table"]) not in (0, categories * POSITION_BINS):
        raise AnalyzerError(f"{where}: {path}.position_table: must hold "
                            f"{categories * POSITION_BINS} counts")
    return ShuffleSums(**fields)


def _larger(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else max(a, b)


def shoe_hash(sequence: Sequence[int]) -> int:
    """A whole shoe's content hash: 63 bits of BLAKE2b over its cards in dealt order."""
    digest = hashlib.blake2b(bytes(sequence), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class ShuffleTally:
    """The shuffle sums of one file, a whole shoe at a time (:meth:`add`), worked out
    :data:`BATCH_SHOES` shoes together.

    ``composition`` counts each card index of the full shoe (in a values-only log, each
    value's count on the card standing for it).
    """

    def __init__(self, model: Model, composition: Sequence[int], values: bool) -> None:
        self.values = values
        self.size = sum(composition)
        self.composition = np.asarray(composition, dtype=np.float64)
        category = CARD_VALUE if values else tuple(r - 1 for r in CARD_RANK)
        self.category = np.asarray(category, dtype=np.int64)
        self.categories = 10 if values else 13
        self.value_counts = np.asarray(model.shoe.value_counts(), dtype=np.float64)
        self.card_value = np.asarray(CARD_VALUE, dtype=np.int64)
        self.run = CARRY_RUN_VALUES if values else CARRY_RUN
        # a run is coded over cards (52) or values (10)
        self.base = 10 if values else 52
        self.codes = self.base ** self.run
        run_counts = self.value_counts if values else self.composition
        self.probability = _run_probabilities(tuple(run_counts.tolist()), self.run)
        self.run_symbol = self.card_value if values else np.arange(52, dtype=np.int64)
        position = np.empty(52, dtype=np.int64)
        position[list(NEW_DECK_ORDER)] = np.arange(52)
        self.new_deck_next = np.asarray(NEW_DECK_ORDER, dtype=np.int64)[(position + 1) % 52]
        self.pending: list[list[int]] = []
        self.sketch: dict[int, list[int]] = {}  # hash -> [count, cards]
        self.threshold = 1 << 63
        self.shoes = 0
        self.previous: IntArray | None = None  # the last shoe's distinct runs
        self.previous_mass = 0.0  # ... and their probability at one position
        self.known = np.zeros(self.codes, dtype=bool)  # ... as a lookup table
        self.first = np.zeros(self.codes, dtype=np.int32)  # scratch: a run's first place
        self.carry_runs = 0
        self.carry_expected = 0.0
        self.carry_pairs = 0
        self.position_table = np.zeros(self.categories * POSITION_BINS, dtype=np.int64)
        self.position_counts = np.zeros(POSITION_BINS, dtype=np.int64)
        self.position_squares = np.zeros(POSITION_BINS, dtype=np.int64)
        self.adjacent_table = np.zeros(100, dtype=np.int64)
        self.pairs = self.pair_squares = 0
        self.successions = [0, 0]
        self.lengths: list[int] = []

    def add(self, sequence: list[int]) -> None:
        """One whole shoe's cards in dealt order (burns first)."""
        if len(sequence) < 2:
            return
        self.shoes += 1
        if len(self.lengths) < MC_SHOES:
            self.lengths.append(len(sequence))
        if len(sequence) >= MIN_HASHED:
            self._hash(sequence)
        self.pending.append(sequence)
        if len(self.pending) >= BATCH_SHOES:
            self.flush()

    def _hash(self, sequence: list[int]) -> None:
        """Count the shoe in the bottom-k sketch of content hashes."""
        key = shoe_hash(sequence)
        if key >= self.threshold:
            return
        entry = self.sketch.get(key)
        if entry is not None:
            entry[0] += 1
            return
        self.sketch[key] = [1, len(sequence)]
        if len(self.sketch) > 2 * SKETCH:
            kept = sorted(self.sketch)[:SKETCH]
            self.threshold = kept[-1] + 1
            self.sketch = {k: self.sketch[k] for k in kept}

    def flush(self) -> None:
        """Add the pending shoes up, all at once."""
        if not self.pending:
            return
        batch, self.pending = self.pending, []
        lengths = np.asarray([len(seq) for seq in batch], dtype=np.int64)
        count, total = len(batch), int(lengths.sum())
        cards = np.fromiter(chain.from_iterable(batch), dtype=np.int64, count=total)
        shoe = np.repeat(np.arange(count), lengths)
        ends = np.repeat(lengths, lengths)
        position = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        bins = np.minimum(position * POSITION_BINS // self.size, POSITION_BINS - 1)
        self.position_table += np.bincount(self.category[cards] * POSITION_BINS + bins,
                                           minlength=self.categories * POSITION_BINS)
        dealt = np.bincount(shoe * POSITION_BINS + bins,
                            minlength=count * POSITION_BINS).reshape(count, POSITION_BINS)
        self.position_counts += dealt.sum(axis=0)
        self.position_squares += (dealt * dealt).sum(axis=0)
        starts = np.flatnonzero((position % 2 == 0) & (position + 1 < ends))  # disjoint pairs
        first, second = cards[starts], cards[starts + 1]
        values = self.card_value
        self.adjacent_table += np.bincount(values[first] * 10 + values[second], minlength=100)
        pairs = lengths // 2
        self.pairs += int(pairs.sum())
        self.pair_squares += int((pairs * pairs).sum())
        if not self.values:
            self.successions[0] += int((self.new_deck_next[first] == second).sum())
            self.successions[1] += int(((second == first) | (second == (first + 1) % 52)).sum())
        self._carry(cards, shoe, position, ends, count)

    def _carry(self, cards: IntArray, shoe: IntArray, position: IntArray, ends: IntArray,
               count: int) -> None:
        """Blocks of each shoe (at 0, k, 2k, ...) found in the shoe before it, and their
        null mean, shoe by shoe through a lookup table of the last shoe's runs (no sort)."""
        run = self.run
        starts = np.flatnonzero(position + run <= ends)
        symbols = self.run_symbol[cards]
        code = np.zeros(len(starts), dtype=np.int64)
        for i in range(run):
            code = code * self.base + symbols[starts + i]
        bounds = np.searchsorted(shoe[starts], np.arange(count + 1))
        block = (position[starts] % run) == 0
        known, first, probability = self.known, self.first, self.probability
        for k in range(count):
            runs = code[bounds[k]:bounds[k + 1]]
            if self.previous is not None:
                self.carry_runs += int(known[runs[block[bounds[k]:bounds[k + 1]]]].sum())
                self.carry_expected += int(block[bounds[k]:bounds[k + 1]].sum()) * \
                    self.previous_mass
                self.carry_pairs += 1
                known[self.previous] = False
            known[runs] = True
            index = np.arange(len(runs))
            first[runs[::-1]] = index[::-1]  # each run's first place: the last write wins
            distinct = runs[first[runs] == index]
            self.previous = distinct
            self.previous_mass = float(probability[distinct].sum())

    def sums(self) -> ShuffleSums:
        """The file's sums."""
        self.flush()
        sketch = sorted(self.sketch)[:SKETCH]
        repeated = [self.sketch[k] for k in sketch if self.sketch[k][0] > 1]
        bound = max((self._log_match(cards) for _, cards in repeated), default=None)
        return ShuffleSums(
            self.values, self.shoes, sum(n - 1 for n, _ in repeated), bound, tuple(sketch),
            self.carry_runs, self.carry_expected, self.carry_pairs,
            tuple(self.position_table.tolist()), tuple(self.position_counts.tolist()),
            tuple(self.position_squares.tolist()), tuple(self.adjacent_table.tolist()),
            self.pairs, (self.successions[0], self.successions[1]), tuple(self.lengths),
            self.pair_squares)

    def _log_match(self, cards: int) -> float:
        """log of the largest probability that two shuffles deal the same ``cards`` cards."""
        most = float(self.value_counts.max() if self.values else self.composition.max())
        return float(sum(math.log(min(1.0, most / (self.size - i)))
                         for i in range(min(cards, self.size))))


@cache
def _run_probabilities(counts: tuple[float, ...], run: int) -> npt.NDArray[np.float64]:
    """Each run of ``run`` symbols' probability at one position of a uniformly shuffled
    shoe holding ``counts`` of each symbol, by the run's code (symbols in base
    ``len(counts)``, first most significant)."""
    base, size = len(counts), sum(counts)
    number = np.arange(base ** run, dtype=np.int64)
    digits = np.zeros((len(number), run), dtype=np.int64)
    for i in range(run - 1, -1, -1):
        digits[:, i] = number % base
        number //= base
    held = np.asarray(counts)
    probability = np.ones(len(digits))
    for i in range(run):
        earlier = (digits[:, :i] == digits[:, i:i + 1]).sum(axis=1)
        probability *= (held[digits[:, i]] - earlier).clip(min=0) / (size - i)
    probability.flags.writeable = False
    return probability


def _poisson_p(observed: int, mean: float) -> float:
    """P(X >= observed) for X Poisson(mean)."""
    if observed <= 0:
        return 1.0
    return poisson_sf(observed - 1, mean) if mean > 0 else 0.0


def _adjacent_mean(values: npt.NDArray[np.float64], size: int, sums: ShuffleSums) -> float:
    """The exact null mean of the adjacent-values statistic: per class pair (A, B),
    ``1 - p + (q - p**2) / p * sum m(m - 1) / sum m`` with ``p`` the chance that a pair
    falls in it and ``q`` that two disjoint pairs of one shoe both do."""
    classes = np.zeros(4)
    for value, n in enumerate(values):
        classes[VALUE_CLASSES[value]] += n
    n = size
    ratio = (sums.pair_squares - sums.pairs) / sums.pairs
    mean = 0.0
    for a in range(4):
        for b in range(4):
            same = float(a == b)
            p = classes[a] * (classes[b] - same) / (n * (n - 1))
            if p <= 0:
                continue
            q = p * (classes[a] - 1 - same) * (classes[b] - 1 - 2 * same) / ((n - 2) * (n - 3))
            mean += 1 - p + (q - p * p) / p * ratio
    return float(mean)


def _classes(table: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """10 x 10 value-pair cells (last axis) added up into 4 x 4 value-class cells."""
    index = np.asarray([VALUE_CLASSES[a] * 4 + VALUE_CLASSES[b] for a in range(10)
                        for b in range(10)])
    out = np.zeros((*table.shape[:-1], 16))
    for cell in range(100):
        out[..., index[cell]] += table[..., cell]
    return out


def _statistic(observed: npt.NDArray[np.float64],
               expected: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Pearson's statistic of each row of ``observed`` (inf where an impossible cell
    holds a count)."""
    keep = expected > 0
    impossible = (observed[..., ~keep] > 0).any(axis=-1)
    terms = (observed[..., keep] - expected[keep]) ** 2 / expected[keep]
    result: npt.NDArray[np.float64] = np.where(impossible, np.inf, terms.sum(axis=-1))
    return result


class _Null:
    """Replicates of the chi-square shuffle statistics under the null, made on demand:
    the logged shoes' lengths, each shoe uniformly shuffled (seeded, so reproducible)."""

    def __init__(self, composition: Sequence[int], category: IntArray, categories: int,
                 sums: ShuffleSums) -> None:
        self.cards = np.repeat(np.arange(52), np.asarray(composition, dtype=np.int64))
        self.category = category
        self.categories = categories
        self.values = np.asarray(CARD_VALUE, dtype=np.int64)
        mean = round((sums.pairs * 2 + sums.shoes) / sums.shoes) if sums.shoes else 0
        self.lengths = list(sums.lengths) + [mean] * max(sums.shoes - len(sums.lengths), 0)
        self.tables: dict[str, npt.NDArray[np.float64]] | None = None

    def _replicate(self) -> dict[str, npt.NDArray[np.float64]]:
        replicates = SHUFFLE_REPLICATES
        rng = np.random.default_rng(20240605)
        size = len(self.cards)
        width = self.categories * POSITION_BINS
        position = np.zeros(replicates * width)
        adjacent = np.zeros(replicates * 100)
        rows = np.arange(replicates)[:, None]
        for length in self.lengths:
            shoes = rng.permuted(np.broadcast_to(self.cards, (replicates, size)), axis=1)
            dealt = shoes[:, :min(length, size)]
            bins = np.minimum(np.arange(dealt.shape[1]) * POSITION_BINS // size,
                              POSITION_BINS - 1)
            codes = self.category[dealt] * POSITION_BINS + bins + rows * width
            position += np.bincount(codes.reshape(-1), minlength=replicates * width)
            pairs = dealt.shape[1] // 2
            first = self.values[dealt[:, 0:2 * pairs:2]]
            second = self.values[dealt[:, 1:2 * pairs:2]]
            codes = first * 10 + second + rows * 100
            adjacent += np.bincount(codes.reshape(-1), minlength=replicates * 100)
        return {"position": position.reshape(replicates, width),
                "adjacent": _classes(adjacent.reshape(replicates, 100))}

    def pearson(self, name: str, observed: npt.NDArray[np.float64],
                expected: npt.NDArray[np.float64], df: float) -> tuple[float, float, str]:
        """Pearson's statistic, its p-value, and how the p-value was found (the
        chi-square law, or Monte Carlo when an expected count is small)."""
        statistic = float(_statistic(observed, expected))
        small = expected[expected > 0].min(initial=math.inf) < SMALL_EXPECTED
        if not small or not self.lengths or sum(self.lengths) > MC_SHOES * len(self.cards):
            return statistic, chi2_sf(statistic, df), ""
        if self.tables is None:
            self.tables = self._replicate()
        replicated = _statistic(self.tables[name], expected)
        at_least = int((replicated >= statistic - 1e-9).sum())
        return statistic, (at_least + 1) / (SHUFFLE_REPLICATES + 1), ", Monte Carlo p"


def shuffle_tests(sums: ShuffleSums, model: Model,
                  composition: Sequence[int]) -> list[tuple[str, str, float, int | None, float]]:
    """The shuffle tests of merged sums: (name, method, statistic, df, p-value) each."""
    if sums.shoes == 0:
        return []
    size = sum(composition)
    tests: list[tuple[str, str, float, int | None, float]] = []
    pairs_of_shoes = sums.shoes * (sums.shoes - 1) / 2
    p_repeat = 1.0 if sums.repeats == 0 or sums.repeat_log_bound is None else min(
        1.0, pairs_of_shoes * math.exp(sums.repeat_log_bound))
    tests.append(("repeated shoes", "shoe content hashes, union bound", float(sums.repeats),
                  None, p_repeat))
    if sums.carry_pairs:
        run = CARRY_RUN_VALUES if sums.values else CARRY_RUN
        tests.append(("shoe order carried over",
                      f"blocks of {run} {'values' if sums.values else 'cards'} found in the "
                      f"previous shoe, Poisson (mean {sums.carry_expected:.3g})",
                      float(sums.carry_runs), None,
                      _poisson_p(sums.carry_runs, sums.carry_expected)))
    categories = 10 if sums.values else 13
    category = np.asarray([CARD_VALUE[c] if sums.values else CARD_RANK[c] - 1
                           for c in range(52)], dtype=np.int64)
    counts = np.bincount(category, weights=np.asarray(composition, dtype=np.float64),
                         minlength=categories)
    null = _Null(composition, category, categories, sums)
    if sums.position_table:
        observed = np.asarray(sums.position_table, dtype=np.float64)
        dealt = np.asarray(sums.position_counts, dtype=np.float64)
        expected = np.outer(counts / size, dealt)
        squares = np.asarray(sums.position_squares, dtype=np.float64)
        used = dealt > 0
        # the exact null mean of the statistic: (R - 1) sum_b sum_s m(N - m) / ((N - 1) M_b)
        df = (categories - 1) * float(((size * dealt[used] - squares[used])
                                       / ((size - 1) * dealt[used])).sum())
        if df > 0:
            statistic, p, method = null.pearson("position", observed, expected.reshape(-1), df)
            tests.append((f"{'value' if sums.values else 'rank'} by position",
                          f"Pearson chi-square, {POSITION_BINS} stretches of the shoe, df its "
                          f"exact null mean{method}", statistic, round(df), p))
    if sums.pairs:
        values = np.asarray(model.shoe.value_counts(), dtype=np.float64)
        probability = values[:, None] * (values[None, :] - np.eye(10)) / (size * (size - 1))
        df = _adjacent_mean(values, size, sums)
        statistic, p, method = null.pearson(
            "adjacent", _classes(np.asarray(sums.adjacent_table, dtype=np.float64)),
            sums.pairs * _classes(probability.reshape(-1)), df)
        tests.append(("adjacent card values",
                      "Pearson chi-square of disjoint pairs by value class, df its exact "
                      f"null mean{method}", statistic, round(df), p))
        if not sums.values:
            for k, (name, mean) in enumerate(zip(("new-deck order", "sorted order"),
                                                 _succession_means(composition), strict=True)):
                tests.append((f"rising sequences ({name})",
                              f"successive cards, Poisson (mean {sums.pairs * mean:.3g})",
                              float(sums.successions[k]), None,
                              _poisson_p(sums.successions[k], sums.pairs * mean)))
    return tests


def _succession_means(composition: Sequence[int]) -> tuple[float, float]:
    """Probability that an adjacent pair is successive in new-deck and in sorted order."""
    n = np.asarray(composition, dtype=np.float64)
    size = n.sum()
    norm = size * (size - 1)
    position = {card: i for i, card in enumerate(NEW_DECK_ORDER)}
    new_deck = sum(n[a] * n[NEW_DECK_ORDER[(position[a] + 1) % 52]] for a in range(52)) / norm
    ordered = sum(n[a] * (n[a] - 1) + n[a] * n[(a + 1) % 52] for a in range(52)) / norm
    return float(new_deck), float(ordered)
