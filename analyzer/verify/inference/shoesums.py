"""The shuffle tests' sums over whole shoes (:class:`ShuffleSums`), merged by addition.

:class:`~analyzer.verify.inference.shuffle.ShuffleTally` adds a file's whole shoes up into
a :class:`ShuffleSums`; :func:`merge_sums` adds the sums of several inputs in order, as
one input read whole would: the last whole shoe of one is paired with the first of the
next for the carry-over test, and the sketches of shoe hashes keep their counts, so a
shoe repeated across two inputs (two runs of one log checked by two processes) counts.
:func:`sums_from_json` reads them back from a saved partial.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.dealing.schema import (
    check_count,
    check_int,
    check_list,
    check_number,
    check_object,
)
from analyzer.errors import AnalyzerError
from analyzer.verify.inference.fixed import fixed, to_float

__all__ = ["BATCH_SHOES", "CARRY_RUN", "CARRY_RUN_VALUES", "log_match", "MC_SHOES",
           "merge_sums", "MIN_HASHED", "POSITION_BINS", "shoe_hash", "SHUFFLE_REPLICATES",
           "ShuffleSums", "SKETCH", "sums_from_json", "text_hash", "text_hashes",
           "VALUE_CLASSES"]

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
    #: carry_expected exact, in units of 2**-60 (:mod:`~analyzer.verify.inference.fixed`;
    #: None: added as floats)
    carry_fixed: int | None = None
    #: the first whole shoe's blocks (run codes at positions 0, k, 2k, ...), and the last
    #: whole shoe's distinct runs with their probability at one position: inputs merged
    #: in order (a log's runs of shoes, or consecutive files) pair the last shoe of one
    #: with the first of the next, as one input read whole does
    first_blocks: tuple[int, ...] = ()
    last_runs: tuple[int, ...] = ()
    last_mass: float = 0.0
    #: how many times each sketched hash was seen, and its shoe's cards (empty: not
    #: kept), and (most copies of one card or value, shoe size) for the repeat bound: so
    #: merged inputs count a shoe repeated across them as one input read whole does
    sketch_counts: tuple[int, ...] = ()
    sketch_cards: tuple[int, ...] = ()
    match: tuple[int, int] = (0, 0)


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    if not a:
        return tuple(b)
    if not b:
        return tuple(a)
    return tuple(x + y for x, y in zip(a, b, strict=True))


def merge_sums(items: Sequence[ShuffleSums | None]) -> ShuffleSums | None:
    """The sums of several inputs together, in order (their sketches as one sketch; the
    last whole shoe of each paired with the first of the next for the carry-over test)."""
    present = [s for s in items if s is not None]
    if not present:
        return None
    total = present[0]
    for other in present[1:]:
        carry_runs, carry_fixed, carry_pairs = total.carry_runs + other.carry_runs, \
            None, total.carry_pairs + other.carry_pairs
        if total.carry_fixed is not None and other.carry_fixed is not None:
            carry_fixed = total.carry_fixed + other.carry_fixed
        if total.shoes and other.shoes and carry_fixed is not None:
            held = set(total.last_runs)
            carry_runs += sum(code in held for code in other.first_blocks)
            carry_pairs += 1
            across = float(len(other.first_blocks)) * total.last_mass
            carry_fixed = None if carry_fixed is None else carry_fixed + fixed(across)
        expected = to_float(carry_fixed) if carry_fixed is not None else \
            total.carry_expected + other.carry_expected
        repeats, bound, sketch, counts, cards = _merged_sketch(total, other)
        total = ShuffleSums(
            total.values or other.values, total.shoes + other.shoes, repeats, bound, sketch,
            carry_runs, expected, carry_pairs,
            _add(total.position_table, other.position_table),
            _add(total.position_counts, other.position_counts),
            _add(total.position_squares, other.position_squares),
            _add(total.adjacent_table, other.adjacent_table), total.pairs + other.pairs,
            (total.successions[0] + other.successions[0],
             total.successions[1] + other.successions[1]),
            (total.lengths + other.lengths)[:MC_SHOES],
            total.pair_squares + other.pair_squares, carry_fixed,
            total.first_blocks if total.shoes else other.first_blocks,
            other.last_runs if other.shoes else total.last_runs,
            other.last_mass if other.shoes else total.last_mass, counts, cards,
            max(total.match, other.match))
    return total


def _merged_sketch(a: ShuffleSums, b: ShuffleSums) -> tuple[
        int, float | None, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Two inputs' repeats, repeat bound and sketch together: counted again over the
    smallest hashes of both when both kept their counts (a shoe repeated across them
    counts, as in one input), else added."""
    if not (len(a.sketch_counts) == len(a.sketch) and len(b.sketch_counts) == len(b.sketch)
            and a.match == b.match):
        return (a.repeats + b.repeats, _larger(a.repeat_log_bound, b.repeat_log_bound),
                tuple(sorted(set(a.sketch) | set(b.sketch))[:SKETCH]), (), ())
    seen: dict[int, list[int]] = {}
    for item in (a, b):
        for key, count, cards in zip(item.sketch, item.sketch_counts, item.sketch_cards,
                                     strict=True):
            entry = seen.setdefault(key, [0, cards])
            entry[0] += count
    sketch = sorted(seen)[:SKETCH]
    repeated = [seen[k] for k in sketch if seen[k][0] > 1]
    bound = max((log_match(*a.match, cards) for _, cards in repeated), default=None)
    return (sum(n - 1 for n, _ in repeated), bound, tuple(sketch),
            tuple(seen[k][0] for k in sketch), tuple(seen[k][1] for k in sketch))


@cache
def log_match(most: int, size: int, cards: int) -> float:
    """log of the largest probability that two shuffles of a shoe of ``size`` cards
    holding at most ``most`` copies of one (card or value) deal the same ``cards``
    (kept: a log of repeated shoes asks it of every repeated shoe)."""
    return float(sum(math.log(min(1.0, most / (size - i))) for i in range(min(cards, size))))


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
        "pair_squares": "count",
        "carry_fixed": lambda v, w, p: None if v is None else check_int(v, w, p, 0),
        "first_blocks": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: check_int(
            x, w2, p2, 0, 10 ** CARRY_RUN_VALUES), limit=1 << 16),
        "last_runs": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: check_int(
            x, w2, p2, 0, 10 ** CARRY_RUN_VALUES), limit=1 << 16),
        "last_mass": lambda v, w, p: check_number(v, w, p, 0.0),
        "sketch_counts": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: check_int(
            x, w2, p2, 1), limit=SKETCH),
        "sketch_cards": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: check_int(
            x, w2, p2, 1, 1 << 20), limit=SKETCH),
        "match": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: check_int(
            x, w2, p2, 0, 1 << 20), (2,))}, path=path)
    kept = len(fields.get("sketch", ()))
    if fields.get("sketch_counts") and not (
            len(fields["sketch_counts"]) == len(fields.get("sketch_cards", ())) == kept):
        raise AnalyzerError(f"{where}: {path}.sketch_counts and sketch_cards: must hold "
                            f"{kept} numbers each, one per sketched hash")
    categories = 10 if fields["values"] else 13
    if len(fields["position_table"]) not in (0, categories * POSITION_BINS):
        raise AnalyzerError(f"{where}: {path}.position_table: must hold "
                            f"{categories * POSITION_BINS} counts")
    return ShuffleSums(**fields)


def _larger(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else max(a, b)


def shoe_hash(sequence: Sequence[int]) -> int:
    """A whole shoe's content hash: 63 bits of BLAKE2b over its cards in dealt order."""
    return text_hash(bytes(sequence))


def text_hash(text: bytes) -> int:
    """63 bits of BLAKE2b over some bytes (a shoe's cards, one byte each).

    >>> text_hash(bytes([0, 1, 2])) == int(text_hashes(bytes([0, 1, 2]), [0], [3])[0])
    True
    """
    digest = hashlib.blake2b(text, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def text_hashes(text: bytes, first: Sequence[int], last: Sequence[int]
                ) -> npt.NDArray[np.uint64]:
    """:func:`text_hash` of each ``text[first[s]:last[s]]``, as an array."""
    digests = b"".join([hashlib.blake2b(text[a:b], digest_size=8).digest()
                        for a, b in zip(first, last, strict=True)])
    return np.frombuffer(digests, dtype=">u8").astype(np.uint64) >> np.uint64(1)
