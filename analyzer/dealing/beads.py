"""Outcome-only logs ("bead roads"): who won each hand, and nothing else.

Three shapes are read, whatever the file is called (``.txt`` included):

* one outcome per line (``B``, ``P``, ``T``, or any word of
  :data:`~analyzer.dealing.dialects.OUTCOME_WORDS`): one run of hands, no shoes;
* one string per line, each character one hand (``BPPBT...``, or ``庄闲闲和``): a line
  is a shoe;
* a CSV/TSV log (any separator) with an outcome column (``result``, ``winner``,
  ``outcome``, or ``--column outcome=HEADER``) and no card columns, one hand or one
  string of hands per row, with an optional ``shoe`` column naming each row's shoe.

:func:`read_beads` yields one :class:`Beads` per line that holds outcomes, in file order,
and a :class:`~analyzer.dealing.records.Problem` for a line that cannot be read (never
skipped in silence). :func:`bead_format` tells such a log from a hand log.

>>> parse_beads("BPPBT"), parse_beads("Banker wins"), parse_beads("闲")
(('banker', 'player', 'player', 'banker', 'tie'), ('banker',), ('player',))
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from itertools import chain
from pathlib import Path
from typing import NamedTuple

from analyzer.dealing.columns import find_columns
from analyzer.dealing.dialects import (
    MAX_ID,
    LogOptions,
    normalize_outcome,
    short,
    sniff_delimiter,
)
from analyzer.dealing.records import Layout, Problem, outcome_table
from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_LINE, read_lines

__all__ = ["bead_format", "BEAD_LETTERS", "Beads", "parse_beads", "read_beads"]

#: The one-character outcomes a string of hands is written in.
BEAD_LETTERS: dict[str, str] = {
    **{c: "banker" for c in "Bb庄莊"}, **{c: "player" for c in "Pp闲閒"},
    **{c: "tie" for c in "Tt和"}}
#: Lines peeked at to tell an outcome-only text file.
_PEEK = 20


class Beads(NamedTuple):
    """The outcomes of one line, in order: ``shoe`` is the shoe they belong to ("" when
    the log names none)."""

    line: int
    shoe: str
    outcomes: tuple[str, ...]


def parse_beads(text: str, draw_is_tie: bool = True,
                words: tuple[tuple[str, str], ...] = ()) -> tuple[str, ...]:
    """The outcomes a cell or line holds: one outcome word, or a string of one-character
    outcomes (:data:`BEAD_LETTERS`); AnalyzerError otherwise."""
    cell = text.strip()
    try:
        return (normalize_outcome(cell, draw_is_tie, words),)
    except AnalyzerError:
        if len(cell) > 1 and all(c in BEAD_LETTERS for c in cell):
            return tuple(BEAD_LETTERS[c] for c in cell)
        raise AnalyzerError(f"unknown outcome {short(cell)} (expected one outcome word, "
                            "e.g. B/P/T or Banker, or a string of them such as BPPBT; "
                            "give --outcome-words banker=X,player=Y,tie=Z for words of "
                            "your own)") from None


def _is_beads(text: str, options: LogOptions) -> bool:
    try:
        parse_beads(text, options.draw_is_tie, options.outcome_words)
    except AnalyzerError:
        return False
    return True


def bead_format(path: str | Path, fmt: str | None, options: LogOptions) -> str | None:
    """``beads`` (outcomes one per line or one string per line) or ``bead-csv`` (a header
    line naming an outcome column and no card columns, any separator) when the file is an
    outcome-only log, else None. ``fmt``: the format the name told (None: it told none);
    one unreadable line among the first few does not stop a bead road being told (it is a
    malformed record)."""
    if fmt not in (None, "csv", "tsv"):
        return None
    lines = read_lines(path)
    try:
        head = [line for _, line in zip(range(_PEEK), lines, strict=False) if line.strip()]
    except AnalyzerError:
        return None
    finally:
        lines.close()
    if not head:
        return None
    if not _is_beads(head[0], options):  # a header line: an outcome column, no cards?
        try:
            header = next(csv.reader([head[0]], delimiter=sniff_delimiter(
                head[0], fmt or "csv", options.delimiter)))
            found = find_columns(header, options, path, cards=False)
            single, split = found.single, found.split
        except (AnalyzerError, csv.Error):  # e.g. a lone carriage return: no header of beads
            single, split = {}, {}
        cards = {"player_cards", "banker_cards"} & (set(single) | set(split))
        if "outcome" in single and not cards:
            return "bead-csv"
    read = sum(_is_beads(line, options) for line in head)
    if read >= 2 and read >= 0.8 * len(head):  # a bad line among them is a malformed record
        return "beads"
    return None


def read_beads(path: str | Path, options: LogOptions, fmt: str
               ) -> Iterator[Beads | Problem | Layout]:
    """Every line of an outcome-only log (``fmt``: ``beads`` or ``bead-csv``); a CSV's
    :class:`~analyzer.dealing.records.Layout` (its columns used and ignored) first."""
    draw, words = options.draw_is_tie, options.outcome_words
    table = outcome_table(draw, words)
    if fmt == "beads":
        for number, text in enumerate(read_lines(path), start=1):
            if not text.strip():
                continue
            found = table.get(text.strip())
            try:
                outcomes = (found,) if found else parse_beads(text, draw, words)
            except AnalyzerError as exc:
                yield Problem(number, str(exc))
                continue
            yield Beads(number, str(number) if len(outcomes) > 1 else "", outcomes)
        return
    csv.field_size_limit(MAX_LINE)
    lines = read_lines(path)
    first = next(lines, None)
    if first is None:
        raise AnalyzerError(f"{path}: empty CSV log (no header row)")
    reader = csv.reader(chain((first,), lines), delimiter=sniff_delimiter(
        first, "csv", options.delimiter))
    try:
        headers = next(reader)
        columns = find_columns(headers, options, path, cards=False)
        kept = {"shoe", "outcome"}  # a bead road's other columns are read past
        used = tuple((h, m) for h, m in columns.used if m in ("shoe id", "outcome"))
        yield Layout(1, used, tuple(h for h in headers if h not in dict(used)),
                     tuple(r for r in columns.roles if r in kept))
        outcome, shoe = columns.single["outcome"], columns.single.get("shoe")
        for row in reader:
            number = reader.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != len(headers):
                yield Problem(number, f"expected {len(headers)} fields, found {len(row)} "
                                      "(truncated or extra fields)")
                continue
            cell = row[outcome]
            found = table.get(cell)
            try:
                outcomes = (found,) if found else parse_beads(cell, draw, words)
            except AnalyzerError as exc:
                yield Problem(number, str(exc))
                continue
            shoe_id = row[shoe].strip() if shoe is not None else \
                str(number) if len(outcomes) > 1 else ""
            if len(shoe_id) > MAX_ID:
                yield Problem(number, f"shoe {short(shoe_id)} is longer than {MAX_ID} "
                                      "characters")
                continue
            yield Beads(number, shoe_id, outcomes)
    except csv.Error as exc:
        yield Problem(reader.line_num, f"unreadable CSV row ({exc})")
