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

import math
from collections.abc import Sequence
from functools import cache
from itertools import chain, repeat
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.dealing.dialects import CARD_RANK, CARD_VALUE
from analyzer.dealing.shuffle import NEW_DECK_ORDER
from analyzer.engine import backend
from analyzer.engine.lookup import Model
from analyzer.verify.inference.distributions import chi2_sf, poisson_sf
from analyzer.verify.inference.fixed import fixed_sums, to_float
from analyzer.verify.inference.shoesums import (
    BATCH_SHOES,
    CARRY_RUN,
    CARRY_RUN_VALUES,
    MC_SHOES,
    MIN_HASHED,
    POSITION_BINS,
    SHUFFLE_REPLICATES,
    SKETCH,
    VALUE_CLASSES,
    ShuffleSums,
    log_match,
    merge_sums,
    shoe_hash,
    sums_from_json,
    text_hashes,
)
from analyzer.verify.inference.shuffle_flat import add_flat
from analyzer.verify.inference.statistics import SMALL_EXPECTED

__all__ = ["BATCH_SHOES", "CARRY_RUN", "CARRY_RUN_VALUES", "MC_SHOES", "MIN_HASHED", "merge_sums",
           "POSITION_BINS", "shoe_hash", "SHUFFLE_REPLICATES", "ShuffleSums", "ShuffleTally",
           "shuffle_tests", "SKETCH", "sums_from_json", "VALUE_CLASSES"]

IntArray = npt.NDArray[np.int64]

#: Cells of a batch's matrix of shoes (shoes x the longest), at most (or one shoe).
_CELLS = 1 << 16
#: Shoes added together as flat arrays (:mod:`~analyzer.verify.inference.shuffle_flat`):
#: 128 eight-deck shoes are about 400 KB an int64 array, in a core's cache; measured
#: 15% less CPU than 64 and than 256.
_FLAT_SHOES = 128


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
        self.category_or_none = np.append(self.category, 10 if values else 13)
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
        self.pending: list[IntArray] = []
        self.sketch: dict[int, list[int]] = {}  # hash -> [count, cards]
        self.threshold = 1 << 63
        self.shoes = 0
        self.previous: IntArray | None = None  # the last shoe's distinct runs
        self.previous_mass = 0.0  # ... and their probability at one position
        self.known = np.zeros(self.codes, dtype=bool)  # ... as a lookup table
        self.carry_runs = 0
        self.carry_fixed = 0  # the null mean, exact (units of 2**-BITS)
        self.carry_pairs = 0
        self.first_blocks: tuple[int, ...] = ()
        self.position_table = np.zeros(self.categories * POSITION_BINS, dtype=np.int64)
        self.position_counts = np.zeros(POSITION_BINS, dtype=np.int64)
        self.position_squares = np.zeros(POSITION_BINS, dtype=np.int64)
        self.adjacent_table = np.zeros(100, dtype=np.int64)
        self.pairs = self.pair_squares = 0
        self.successions = [0, 0]
        self.lengths: list[int] = []

    def add(self, sequence: Sequence[int]) -> None:
        """One whole shoe's cards in dealt order (burns first)."""
        if len(sequence) >= 2:
            cards = np.asarray(sequence, dtype=np.int64)
            self._add(cards, cards.astype(np.uint8).tobytes())

    def add_shoes(self, cards: IntArray, boundaries: Sequence[int]) -> None:
        """Whole shoes one after another: shoe ``s`` is ``cards[boundaries[s]:
        boundaries[s + 1]]`` (the same sums as one :meth:`add` each)."""
        self.flush()
        bounds = np.asarray(boundaries, dtype=np.int64)
        kept = np.flatnonzero(np.diff(bounds) >= 2)
        if not kept.size:
            return
        first, last = bounds[kept], bounds[kept + 1]
        self._count_shoes(cards.astype(np.uint8).tobytes(), first, last)
        whole = np.asarray(cards, dtype=np.int64)
        if backend.loaded():
            # numba is loaded already (the shoe-aware model): the fused loop, shoe by shoe
            self._fused(whole, first.tolist(), last.tolist())
            return
        # else as flat arrays, _FLAT_SHOES shoes at a time (each batch's arrays stay in
        # the processor's cache)
        for k in range(0, len(first), _FLAT_SHOES):
            a, b = int(first[k]), int(last[min(k + _FLAT_SHOES, len(first)) - 1])
            add_flat(self, whole[a:b], first[k:k + _FLAT_SHOES] - a, last[k:k + _FLAT_SHOES] - a)

    def _add(self, cards: IntArray, text: bytes) -> None:
        self._count(text)
        self.pending.append(cards)
        if len(self.pending) >= BATCH_SHOES:
            self.flush()

    def _count(self, text: bytes) -> None:
        """Count a whole shoe (its cards as bytes): its length, its content hash."""
        self._count_shoes(text, np.zeros(1, dtype=np.int64),
                          np.full(1, len(text), dtype=np.int64))

    def _count_shoes(self, text: bytes, first: IntArray, last: IntArray) -> None:
        """Count whole shoes ``text[first[s]:last[s]]`` in order: their lengths (the first
        :data:`MC_SHOES`), their content hashes."""
        self.shoes += len(first)
        room = MC_SHOES - len(self.lengths)
        if room > 0:
            self.lengths.extend((last[:room] - first[:room]).tolist())
        hashed = last - first >= MIN_HASHED
        keys = text_hashes(text, first[hashed].tolist(), last[hashed].tolist())
        # (the threshold only falls: a key at or above it now is never kept)
        below = keys < np.uint64(self.threshold)
        for key, length in zip(keys[below].tolist(), (last - first)[hashed][below].tolist(),
                               strict=True):
            self._keep(key, length)

    def _fused(self, cards: IntArray, starts: list[int], stops: list[int]) -> None:
        """The sums of :meth:`_flush` over whole shoes ``cards[starts[s]:stops[s]]`` (two
        cards or more each), by :func:`analyzer.verify.inference.kernels.shuffle_shoes`:
        the same integers, and the same floats (each shoe's mass and null mean term)."""
        from analyzer.verify.inference import kernels  # numba: only once it is loaded

        counters = np.zeros(6, dtype=np.int64)
        expected, first, last, mass = kernels.shuffle_shoes(
            cards, np.asarray(starts, dtype=np.int64), np.asarray(stops, dtype=np.int64),
            self, self.known, counters, self.previous, self.previous_mass)
        pairs, squares, new_deck, ordered, runs, carried = counters.tolist()
        self.pairs += pairs
        self.pair_squares += squares
        self.successions[0] += new_deck
        self.successions[1] += ordered
        self.carry_runs += runs
        self.carry_pairs += carried
        self.carry_fixed += fixed_sums(expected[:, None])[0] if len(expected) else 0
        if self.previous is None:
            self.first_blocks = tuple(first.tolist())
        self.previous, self.previous_mass = last, mass

    def _keep(self, key: int, length: int) -> None:
        """Count a shoe (its content hash, its length) in the bottom-k sketch of content
        hashes."""
        if key >= self.threshold:
            return
        entry = self.sketch.get(key)
        if entry is not None:
            entry[0] += 1
            return
        self.sketch[key] = [1, length]
        if len(self.sketch) > 2 * SKETCH:
            kept = sorted(self.sketch)[:SKETCH]
            self.threshold = kept[-1] + 1
            self.sketch = {k: self.sketch[k] for k in kept}

    def flush(self) -> None:
        """Add the pending shoes up, in batches of at most :data:`BATCH_SHOES` shoes and about
        :data:`_CELLS` cells of a batch's matrix (a long shoe alone)."""
        batch, self.pending = self.pending, []
        while batch:
            count, width = 1, len(batch[0])
            while count < min(len(batch), BATCH_SHOES) and \
                    (count + 1) * max(width, len(batch[count])) <= _CELLS:
                width = max(width, len(batch[count]))
                count += 1
            self._flush(batch[:count], width)
            batch = batch[count:]

    def _flush(self, batch: list[IntArray], width: int) -> None:
        """Add a batch of shoes up at once, each shoe a row of a matrix (its cards in
        dealt order, then 52: no card)."""
        count = len(batch)
        lengths = np.fromiter((len(shoe) for shoe in batch), dtype=np.int64, count=count)
        cards = np.full((count, width), 52, dtype=np.int64)
        for row, shoe in zip(cards, batch, strict=True):
            row[:len(shoe)] = shoe
        column = np.arange(width)
        bins = np.minimum(column * POSITION_BINS // self.size, POSITION_BINS - 1)
        # (no card: the category after the last, left out)
        width_table = (self.categories + 1) * POSITION_BINS
        self.position_table += np.bincount(
            (self.category_or_none[cards] * POSITION_BINS + bins).ravel(),
            minlength=width_table)[:self.categories * POSITION_BINS]
        # each shoe's positions in each stretch: its length clipped to the stretch's
        first = np.searchsorted(bins, np.arange(POSITION_BINS))
        last = np.append(first[1:], width)
        dealt = np.clip(lengths[:, None], first, last) - first
        self.position_counts += dealt.sum(axis=0)
        self.position_squares += (dealt * dealt).sum(axis=0)
        pairs = width // 2  # disjoint pairs (cards 1-2, 3-4, ...) of whole pairs
        opening, closing = cards[:, 0:2 * pairs:2], cards[:, 1:2 * pairs:2]
        whole = closing < 52
        opening, closing = opening[whole], closing[whole]
        values = self.card_value
        self.adjacent_table += np.bincount(values[opening] * 10 + values[closing],
                                           minlength=100)
        halves = lengths // 2
        self.pairs += int(halves.sum())
        self.pair_squares += int((halves * halves).sum())
        if not self.values:
            self.successions[0] += int((self.new_deck_next[opening] == closing).sum())
            self.successions[1] += int(((closing == opening)
                                        | (closing == (opening + 1) % 52)).sum())
        self._carry(cards, lengths)

    def _carry(self, cards: IntArray, lengths: IntArray) -> None:
        """Blocks of each shoe (at 0, k, 2k, ...) found in the shoe before it, and their
        null mean, for a batch of shoes (rows of ``cards``) at once (the last
        shoe of the batch before through a lookup table of its runs)."""
        run, (count, width) = self.run, cards.shape
        symbols = (self.run_symbol[np.minimum(cards, 51)] if self.values else cards
                   ).astype(np.int32)
        # the run at every position (shifted slices, not gathers); a row's positions
        # past its last run hold the code after the last
        along = max(width - run + 1, 0)
        code = symbols[:, :along]
        for i in range(1, run):
            code = code * self.base + symbols[:, i:along + i]
        held = np.arange(along) + run <= lengths[:, None]
        code[~held] = self.codes
        # each shoe's distinct runs (each row sorted on its own: many short sorts are
        # several times faster than one long one), and their probability at one
        # position, summed in code order (bincount adds in array order: the same float
        # for a shoe however the shoes come batched)
        ordered = np.sort(code, axis=1)
        fresh = np.ones(ordered.shape, dtype=bool)
        fresh[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        fresh &= ordered < self.codes
        distinct_shoe = np.repeat(np.arange(count), fresh.sum(axis=1))
        distinct_code = ordered[fresh]
        mass = np.bincount(distinct_shoe, weights=self.probability[distinct_code],
                           minlength=count)
        block, in_block = code[:, ::run], held[:, ::run]
        blocks = in_block.sum(axis=1)
        # each shoe's distinct runs as (shoe, code) keys are in ascending order (rows
        # sorted, shoes in order): a block of shoe s is found among shoe s - 1's runs by a
        # binary search
        keys = distinct_shoe * (self.codes + 1) + distinct_code
        wanted = (np.arange(count - 1)[:, None] * (self.codes + 1) + block[1:])[in_block[1:]]
        if keys.size and wanted.size:
            at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
            self.carry_runs += int(np.count_nonzero(keys[at] == wanted))
        self.carry_over(block[0][in_block[0]], blocks, mass,
                        distinct_code[distinct_shoe == count - 1].astype(np.int64))

    def carry_over(self, opening: IntArray, blocks: IntArray,
                   mass: npt.NDArray[Any], last: IntArray) -> None:
        """A batch's carried-over sums past its first shoe's: the first shoe's blocks
        (``opening``) looked up among the last batch's last shoe's runs, each shoe's
        expected matches (its blocks times the previous shoe's run mass); ``last``: the
        batch's last shoe's distinct runs, for the next batch."""
        expected = blocks[1:] * mass[:-1]
        if self.previous is not None:
            known = self.known
            known[self.previous] = True
            self.carry_runs += int(known[opening].sum())
            known[self.previous] = False
            expected = np.concatenate([[blocks[0] * self.previous_mass], expected])
        else:
            self.first_blocks = tuple(opening.tolist())
        self.carry_pairs += len(expected)
        self.carry_fixed += fixed_sums(expected[:, None])[0] if len(expected) else 0
        self.previous = last
        self.previous_mass = float(mass[-1])

    def sums(self) -> ShuffleSums:
        """The file's sums."""
        self.flush()
        sketch = sorted(self.sketch)[:SKETCH]
        repeated = [self.sketch[k] for k in sketch if self.sketch[k][0] > 1]
        most, size = self._match()
        bound = max((log_match(most, size, cards) for _, cards in repeated), default=None)
        return ShuffleSums(
            self.values, self.shoes, sum(n - 1 for n, _ in repeated), bound, tuple(sketch),
            self.carry_runs, to_float(self.carry_fixed), self.carry_pairs,
            tuple(self.position_table.tolist()), tuple(self.position_counts.tolist()),
            tuple(self.position_squares.tolist()), tuple(self.adjacent_table.tolist()),
            self.pairs, (self.successions[0], self.successions[1]), tuple(self.lengths),
            self.pair_squares, self.carry_fixed, self.first_blocks,
            () if self.previous is None else tuple(sorted(self.previous.tolist())),
            self.previous_mass, tuple(self.sketch[k][0] for k in sketch),
            tuple(self.sketch[k][1] for k in sketch), (most, size))

    def _match(self) -> tuple[int, int]:
        """(most copies of one card, or one value, the shoe's size): the repeat bound's
        parameters."""
        most = int(self.value_counts.max() if self.values else self.composition.max())
        return most, int(self.size)


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
        # the shoes' lengths: those logged, then the mean for each shoe after them (as an
        # iterator: a list of one entry a shoe grew with the log, 16 MB for 2M shoes)
        self.logged, self.mean = list(sums.lengths), mean
        self.more = max(sums.shoes - len(sums.lengths), 0)
        self.shoes = len(self.logged) + self.more
        self.cards_dealt = sum(self.logged) + mean * self.more
        self.tables: dict[str, npt.NDArray[np.float64]] | None = None

    def _replicate(self) -> dict[str, npt.NDArray[np.float64]]:
        replicates = SHUFFLE_REPLICATES
        rng = np.random.default_rng(20240605)
        size = len(self.cards)
        width = self.categories * POSITION_BINS
        position = np.zeros(replicates * width)
        adjacent = np.zeros(replicates * 100)
        rows = np.arange(replicates)[:, None]
        for length in chain(self.logged, repeat(self.mean, self.more)):
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
        if not small or not self.shoes or self.cards_dealt > MC_SHOES * len(self.cards):
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
