"""Card columns of a CSV/TSV hand log read as arrays: the column-wise path's card parsing.

:func:`parse_cards` reads a player or banker cards column (Arrow strings,
:mod:`analyzer.dealing.arrow`) as up to three card indices a row, :func:`burn_cards` a
burn column; both read two-character tokens straight off the column's bytes and any
other spelling one distinct field at a time, exactly as the per-record reader reads them
(:func:`~analyzer.dealing.dialects.card_tokens`), and give None where it would refuse one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from analyzer.dealing.arrow import text_buffers
from analyzer.dealing.dialects import _TOKENS, card_tokens

__all__ = ["burn_cards", "NO_BURNS", "parse_cards"]

IntArray = npt.NDArray[np.int64]


@cache
def _two_char_table(notation: str) -> IntArray:
    """Card index of every two-character token by its two character codes (-1: none)."""
    table = np.full((128, 128), -1, dtype=np.int64)
    for token, card in _TOKENS[notation].items():
        if len(token) == 2 and token.isascii():
            table[ord(token[0]), ord(token[1])] = card
    return table


def parse_cards(column: pa.Array | Sequence[str], notation: str) -> IntArray | None:
    """Each field of a cards column as up to three card indices (-1 where a hand has no
    third card), shape (n, 3); None unless every field holds two or three cards the
    notation reads, as the per-record reader would read them."""
    if not isinstance(column, pa.Array):
        column = pa.array(list(column), pa.string())
    n = len(column)
    if n == 0:
        return np.zeros((0, 3), dtype=np.int64)
    offsets, data = text_buffers(column)
    length = np.diff(offsets)
    three = length == 8
    if ((length == 5) | three).all():
        # each field's first eight bytes as one little-endian word: tokens at bytes 0, 3
        # and 6, spaces at 2 and 5 (the token table maps two ASCII characters only)
        start = offsets[:-1]
        if int(start[-1]) + 8 > len(data):
            data = np.concatenate([data, np.zeros(8, dtype=np.uint8)])
        words = np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))[start]
        table = _token_table(notation)
        # (checked as the table's int8 before the int64 result is written)
        first = table[(words & 0xFFFF).astype(np.intp)]
        second = table[((words >> 24) & 0xFFFF).astype(np.intp)]
        third = table[(words >> 48).astype(np.intp)]
        spaced = ((words >> 16) & 0xFF == 32) & (~three | ((words >> 40) & 0xFF == 32))
        if spaced.all() and int(first.min()) >= 0 and int(second.min()) >= 0 and \
                not (three & (third < 0)).any():
            cards = np.empty((n, 3), dtype=np.int64)
            cards[:, 0] = first
            cards[:, 1] = second
            cards[:, 2] = np.where(three, third, -1)
            return cards
    return _parse_slowly(column.to_pylist(), notation)


@cache
def _token_table(notation: str) -> npt.NDArray[np.int8]:
    """Card index of every two-character token by its two bytes as a little-endian
    16-bit word (-1: none)."""
    codes = _two_char_table(notation)
    first, second = np.nonzero(codes >= 0)
    table = np.full(1 << 16, -1, dtype=np.int8)
    table[first | second << 8] = codes[first, second]
    return table


NO_BURNS = (np.zeros(0, dtype=np.int64),) * 3


def burn_cards(column: pa.Array, notation: str) -> tuple[IntArray, IntArray, IntArray] | None:
    """The rows of a burn column holding cards, how many each, and the cards in order;
    None where a field holds a token the notation does not read. Fields of two-character
    tokens and single spaces are read as arrays, any other one by one."""
    offsets, data = text_buffers(column)
    size = np.diff(offsets)
    rows = np.flatnonzero(size)
    count = (size[rows] + 1) // 3
    first = np.repeat(offsets[rows] - 3 * (np.cumsum(count) - count), count) + \
        3 * np.arange(int(count.sum()))  # each token's first byte
    table = _two_char_table(notation)
    if not ((size[rows] + 1) % 3).any() and first.size and int(data[first].max()) < 128 \
            and int(data[first + 1].max()) < 128:
        cards = table[data[first], data[first + 1]]
        gaps = np.ones(first.size, dtype=bool)
        gaps[np.cumsum(count) - 1] = False  # a space after every token but a field's last
        if (cards >= 0).all() and (data[first[gaps] + 2] == 32).all():
            return rows, count, cards
    tokens_of = _TOKENS[notation]
    found: list[tuple[int, ...]] = []
    for text in column.take(pa.array(rows, pa.int64())).to_pylist():
        try:
            found.append(tuple(tokens_of[t] for t in card_tokens(text)))
        except KeyError:
            return None
    held = np.array([len(f) for f in found], dtype=np.int64)
    return rows[held > 0], held[held > 0], np.array([c for f in found for c in f],
                                                    dtype=np.int64)


def _parse_slowly(column: Sequence[str], notation: str) -> IntArray | None:
    """:func:`parse_cards` one distinct field at a time (other spellings: ``10d``, ``K♠``)."""
    tokens_of = _TOKENS[notation]
    seen: dict[str, tuple[int, ...]] = {}
    out = np.full((len(column), 3), -1, dtype=np.int64)
    for i, field in enumerate(column):
        cards = seen.get(field)
        if cards is None:
            try:
                cards = tuple(tokens_of[t] for t in card_tokens(field))
            except KeyError:
                return None
            if not 2 <= len(cards) <= 3:
                return None
            seen[field] = cards
        out[i, :len(cards)] = cards
    return out
