"""The same hands counted twice in disguise: runs of hands found in two inputs, however laid out.

A file's SHA-256 finds a byte-for-byte copy and a whole shoe's hash a shoe given twice;
neither finds a CRLF copy of a log without shoe columns, a JSON Lines copy without its
shoe records, a fragment of a log given beside it, or a saved partial beside a reformatted
copy of its log. :class:`HandRuns` finds them by content:

* each hand is reduced to a **canonical key**: its cards (player's, then banker's, in the
  order each was dealt: card indices, or what a values-only log writes), and nothing else:
  not its line, shoe id, hand number, bets, outcome, the file's format, separators, line
  ends or columns (:func:`hand_key`: CPython's hash of the pair of card tuples, the same
  on every 64-bit CPython since 3.8, worked out for whole columns by :func:`_keys`);
* every run of :data:`WINDOW` consecutive hands of one shoe (of the file, when it does not
  name its shoes) is hashed from its keys in order; :data:`WINDOW_VALUES` in a log of point
  values or ranks only (fewer kinds of card: longer runs, for as little chance of two
  logs sharing one);
* the run hashes below a threshold are kept: a sample chosen by content alone, so two
  inputs holding the same run keep the same hash. The threshold starts at every hash and
  halves while more than :data:`KEPT` are kept, so an input keeps at most that many.

Two inputs holding one kept hash hold the same run of hands: two independent runs collide
with probability about 2**-110 (four hands of cards, or eight of point values). A fragment
of k hands inside an input of n is found with probability about ``1 - exp(-m k / n)``,
``m`` being the hashes the larger input keeps (from ``KEPT / 2`` to :data:`KEPT` once it has
more runs): its runs below the larger's threshold are kept by both. So every fragment of
at least :data:`WINDOW` hands of one shoe of an input of up to :data:`KEPT` runs is found,
and 740 hands of a million-hand log with probability 95%.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.dealing.schema import check_int, check_list
from analyzer.errors import AnalyzerError

__all__ = ["KEPT", "WINDOW", "WINDOW_VALUES", "HandRuns", "hand_key", "merge_runs",
           "runs_from_json"]

#: Consecutive hands of cards hashed together (a shoe shorter than this is not compared).
WINDOW = 4
#: ... of point values or ranks only.
WINDOW_VALUES = 8
#: Most run hashes an input keeps.
KEPT = 8192
#: Hashes are 63 bits (a JSON integer any reader keeps exactly).
_BITS = 63
#: Hand keys buffered before their runs are hashed.
CHUNK = 1 << 15

U64 = npt.NDArray[np.uint64]
Starts = Sequence[int] | npt.NDArray[np.int64]
# CPython's tuple hash (xxHash's primes and rotation; Objects/tupleobject.c, 3.8 and after)
_PRIME_1 = np.uint64(11400714785074694791)
_PRIME_2 = np.uint64(14029467366897019727)
_PRIME_5 = np.uint64(2870177450012600261)


def hand_key(player: Sequence[int], banker: Sequence[int]) -> int:
    """A hand's canonical key: the hash of its player's and banker's cards as tuples.

    >>> hand_key([0, 1], [2, 3, 4]) == hand_key((0, 1), (2, 3, 4)) != hand_key((1, 0), (2, 3, 4))
    True
    """
    return hash((tuple(player), tuple(banker)))


def _step(acc: U64, lane: U64) -> U64:
    """CPython's tuple hash, one item further (its hash ``lane``): in place."""
    acc += lane * _PRIME_2
    return _rotate_times(acc)


def _rotate_times(acc: U64) -> U64:
    """``acc`` rotated left by 31 bits, times the first prime: in place."""
    low = acc >> np.uint64(33)
    acc <<= np.uint64(31)
    acc |= low
    acc *= _PRIME_1
    return acc


def _end(acc: U64, items: int) -> U64:
    """CPython's tuple hash of ``items`` items, from the state after the last: in place."""
    acc += np.uint64(items) ^ (_PRIME_5 ^ np.uint64(3527539))
    np.putmask(acc, acc == np.uint64(2 ** 64 - 1), np.uint64(1546275796))
    return acc


@functools.cache
def _pairs() -> tuple[U64, U64]:
    """For every first two cards of a side (at ``first * 52 + second``): the tuple hash's
    state after them, and the hash of the side of those two cards alone."""
    first, second = np.divmod(np.arange(52 * 52, dtype=np.uint64), np.uint64(52))
    state = _step(_step(np.full(52 * 52, _PRIME_5, dtype=np.uint64), first), second)
    return state, _end(state.copy(), 2)


def _sides(cards: npt.NDArray[np.int64]) -> U64:
    """The hash of each row's cards as a tuple ((n, 3) card indices 0-51, -1 for no
    third): looked up for two cards (:func:`_pairs`), a third hashed on from there."""
    state, two = _pairs()
    pair = cards[:, 0] * 52
    pair += cards[:, 1]
    sides = two.take(pair)
    drawn = np.flatnonzero(cards[:, 2] >= 0)
    sides[drawn] = _end(_step(state.take(pair[drawn]), cards[drawn, 2].astype(np.uint64)), 3)
    return sides


def _keys(player: npt.NDArray[np.int64], banker: npt.NDArray[np.int64]) -> U64:
    """:func:`hand_key` of every row of two (n, 3) arrays of card indices 0-51 (-1: no
    third card): the tuple hash of the pair of the two sides' hashes."""
    acc = _sides(player)  # the first item's step, from the start (_PRIME_5), in place
    acc *= _PRIME_2
    acc += _PRIME_5
    return _end(_step(_rotate_times(acc), _sides(banker)), 2)


def _mix(x: U64) -> U64:
    """splitmix64's finaliser, element-wise (wrapping uint64 arithmetic), in place."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


def _run_hashes(keys: U64, window: int) -> U64:
    """The hash of every run of ``window`` consecutive keys (63 bits)."""
    count = keys.size - window + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    mixed = _mix(keys + np.uint64(0x9E3779B97F4A7C15))
    acc = mixed[:count].copy()
    for j in range(1, window):
        acc *= np.uint64(0x100000001B3)
        acc += mixed[j:j + count]
    acc = _mix(acc)
    acc >>= np.uint64(64 - _BITS)
    return acc


def _within(count: int, starts: Starts, window: int) -> npt.NDArray[np.bool_]:
    """Which of ``count`` runs of ``window`` keys lie within one shoe (``starts``: where
    a shoe after the first begins)."""
    within = np.ones(count, dtype=bool)
    at = np.asarray(starts, dtype=np.int64)
    for back in range(1, window):  # a run that begins 1 to window - 1 keys before a start
        begins = at - back
        within[begins[(begins >= 0) & (begins < count)]] = False
    return within


def _limit(level: int) -> int:
    return 1 << (_BITS - level)


def _settle(level: int, hashes: U64, kept: U64 | None = None) -> tuple[int, U64]:
    """Distinct hashes below the level's threshold, of ``hashes`` and ``kept`` (sorted,
    distinct and below it already), the level raised (the threshold halved) as far as
    needed for at most :data:`KEPT` to stay."""
    new = np.sort(hashes[hashes < np.uint64(_limit(level))])
    if kept is not None and kept.size:  # two sorted runs: merged by a stable sort
        new = np.concatenate([kept, new])
        new.sort(kind="stable")
    if new.size:  # distinct (np.unique hashes large arrays: slower than sorting)
        new = new[np.concatenate([[True], new[1:] != new[:-1]])]
    if new.size > KEPT:  # the lowest threshold at or below the (KEPT + 1)-th smallest
        level = max(level, 64 - int(new[KEPT]).bit_length())
        new = new[new < np.uint64(_limit(level))]
    return level, new


def merge_runs(parts: Iterable[tuple[int, Sequence[int]]]) -> tuple[int, tuple[int, ...]]:
    """Several inputs' kept run hashes, as (level, hashes), as one input's: the highest
    level's threshold, halved while more than :data:`KEPT` are kept (the same hashes as
    hashing all the runs at once)."""
    items = list(parts)
    level = max((lv for lv, _ in items), default=0)
    hashes = np.array([h for _, part in items for h in part], dtype=np.uint64)
    level, kept = _settle(level, hashes)
    return level, tuple(kept.tolist())


def runs_from_json(value: Any, where: str, path: str) -> tuple[int, tuple[int, ...]]:
    """A partial result's saved ``[level, [hashes]]``, checked."""
    if not isinstance(value, list) or len(value) != 2:
        raise AnalyzerError(f"{where}: {path}: must be [level, [hashes]]")
    level = check_int(value[0], where, f"{path}[0]", 0, _BITS)
    hashes = check_list(value[1], where, f"{path}[1]", lambda x, w, p: check_int(
        x, w, p, 0, (1 << _BITS) - 1), limit=KEPT)
    return level, tuple(hashes)


class HandRuns:
    """The kept run hashes of one input's hands, fed hand by hand (their :func:`hand_key`
    appended to :attr:`keys`, :meth:`flush` when it holds :data:`CHUNK`, :meth:`cut` where
    a shoe ends) or runs of whole shoes at once (:meth:`add_columns`)."""

    def __init__(self, values: bool = False) -> None:
        self.window = WINDOW_VALUES if values else WINDOW
        self.level = 0
        self.kept = np.zeros(0, dtype=np.uint64)
        self.keys = array("q")  # hand keys not hashed yet ...
        self.cuts: list[int] = []  # ... and where in them a shoe ends

    def cut(self) -> None:
        """A shoe ends: no run goes on across it."""
        if self.keys and (not self.cuts or self.cuts[-1] != len(self.keys)):
            self.cuts.append(len(self.keys))
        if len(self.keys) >= CHUNK:
            self.flush()

    def add_columns(self, player: npt.NDArray[np.int64], banker: npt.NDArray[np.int64],
                    starts: npt.NDArray[np.int64]) -> None:
        """Whole shoes at once: (n, 3) arrays of card indices 0-51 (-1: no third card),
        each shoe's first row."""
        self.cut()
        self.flush(True)
        self._hash(_keys(player, banker), starts[1:])

    def flush(self, everything: bool = False) -> None:
        """Hash the runs of the keys held (all, or all but the last few, which may begin
        runs that go on)."""
        if not self.keys:
            return
        keys = np.frombuffer(self.keys, dtype=np.int64).view(np.uint64).copy()
        self._hash(keys, [c for c in self.cuts if c < keys.size])
        held = keys.size if everything else max([keys.size - self.window + 1, *self.cuts])
        del self.keys[:held]
        self.cuts = []

    def _hash(self, keys: U64, starts: Starts) -> None:
        """Keep the hashes of the runs of ``keys`` within one shoe (``starts``: where in
        them a shoe after the first begins)."""
        hashes = _run_hashes(keys, self.window)
        if not hashes.size:
            return
        within = _within(hashes.size, starts, self.window)
        within &= hashes < np.uint64(_limit(self.level))
        self.level, self.kept = _settle(self.level, hashes[within], self.kept)

    def sums(self) -> tuple[int, tuple[int, ...]]:
        """(level, the kept hashes sorted), after the last hand."""
        self.flush(True)
        return self.level, tuple(self.kept.tolist())
