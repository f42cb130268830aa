"""Writing hand logs: the simulator's JSON Lines or CSV, in the format :mod:`handlog` reads.

Every shoe's end is marked, so that a reader can tell a whole shoe from one cut short: a
``shoe_end`` record in JSON Lines, and in CSV the ``cards_left`` column, filled on a shoe's
last hand only (a CSV row is therefore written when the next hand, or the shoe's end,
comes: call :meth:`LogWriter.shoe_end` after a shoe's last hand).

>>> import io
>>> out = io.StringIO()
>>> LogWriter(out, "jsonl", ("banker",)).shoe_end("1", 15)
>>> out.getvalue()
'{"type":"shoe_end","shoe":"1","cards_left":15}\\n'
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from typing import IO, Any

from analyzer.dealing.handlog import CARD_TEXT, card_text
from analyzer.errors import AnalyzerError

__all__ = ["LogWriter"]


class LogWriter:
    """Write a hand log (JSON Lines, or CSV with one pair of money columns per bet)."""

    def __init__(self, stream: IO[str], fmt: str, bet_ids: tuple[str, ...]) -> None:
        if fmt not in ("jsonl", "csv"):
            raise AnalyzerError(f"cannot write log format {fmt!r} (jsonl or csv)")
        self.stream = stream
        self.fmt = fmt
        self.bet_ids = bet_ids
        self._csv = csv.writer(stream, lineterminator="\n") if fmt == "csv" else None
        self._held: list[str] | None = None  # a CSV row waiting to learn if it ends a shoe

    def header(self, fields: Mapping[str, Any]) -> None:
        """The optional first record (JSON Lines) or the header row (CSV)."""
        if self._csv is not None:
            self._csv.writerow(["shoe", "hand", "player_cards", "banker_cards", "winner",
                                "burn", *(f"{b}_{k}" for b in self.bet_ids
                                          for k in ("stake", "returned")), "cards_left"])
        else:
            self._line({"type": "header", "format": "nine-handlog", "version": 1, **fields})

    def shoe_start(self, shoe: str, decks: int, burn: tuple[int, ...]) -> None:
        """A shoe opens (JSON Lines only; a CSV log carries burns on the first hand)."""
        if self._csv is None:
            self._line({"type": "shoe", "shoe": shoe, "decks": decks,
                        "burn": [card_text(c) for c in burn]})

    def hand(self, shoe: str, number: int, player: tuple[int, ...], banker: tuple[int, ...],
             outcome: str, bets: Mapping[str, tuple[int, int]],
             burn: tuple[int, ...] = ()) -> None:
        """One hand record."""
        if self._csv is not None:
            money = [str(x) for b in self.bet_ids for x in bets.get(b, ("", ""))]
            self._release("")
            self._held = [shoe, str(number), " ".join([CARD_TEXT[c] for c in player]),
                          " ".join([CARD_TEXT[c] for c in banker]), outcome[0].upper(),
                          " ".join([CARD_TEXT[c] for c in burn]), *money]
            return
        record: dict[str, Any] = {"shoe": shoe, "hand": number,
                                  "player": [CARD_TEXT[c] for c in player],
                                  "banker": [CARD_TEXT[c] for c in banker], "outcome": outcome,
                                  "bets": {b: list(m) for b, m in bets.items()}}
        if burn:
            record["burn"] = [card_text(c) for c in burn]
        self._line(record)

    def table(self, shoe: str, number: int, banker: str,
              seats: Sequence[tuple[str, Sequence[int], int, int]], bank: Sequence[int]) -> None:
        """One hand of a game of choices (JSON Lines only): the banker, each seat's
        (person, cards, stake, returned) from the banker's right, the bank's cards."""
        if self._csv is not None:
            raise AnalyzerError("a game of choices is logged as JSON Lines (--log-format "
                                "jsonl)")
        self._line({"type": "table", "shoe": shoe, "hand": number, "banker": banker,
                    "seats": [{"person": person, "cards": [CARD_TEXT[c] for c in cards],
                               "stake": stake, "returned": returned}
                              for person, cards, stake, returned in seats],
                    "bank": [CARD_TEXT[c] for c in bank]})

    def shoe_end(self, shoe: str, cards_left: int) -> None:
        """A shoe closes: a ``shoe_end`` record, or its last CSV row with ``cards_left``."""
        if self._csv is None:
            self._line({"type": "shoe_end", "shoe": shoe, "cards_left": cards_left})
        else:
            self._release(str(cards_left))

    def _release(self, cards_left: str) -> None:
        """Write the CSV row held back, with its ``cards_left`` field."""
        if self._held is not None and self._csv is not None:
            self._csv.writerow([*self._held, cards_left])
            self._held = None

    def _line(self, record: Mapping[str, Any]) -> None:
        self.stream.write(json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n")
