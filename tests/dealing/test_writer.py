"""Writing hand logs: what the writer writes, the reader reads back."""

from __future__ import annotations

import io
from pathlib import Path

from analyzer.dealing.handlog import Hand, ShoeEnd, read_log
from analyzer.dealing.writer import LogWriter
from analyzer.rules.cards import Card


def index(text: str) -> int:
    return Card.parse(text).index


def test_writer_round_trip_in_both_formats() -> None:
    for fmt in ("jsonl", "csv"):
        out = io.StringIO()
        writer = LogWriter(out, fmt, ("banker",))
        writer.header({"profile": "punto-banco"})
        writer.shoe_start("1", 8, (index("5S"),))
        writer.hand("1", 1, (index("9D"), index("TD")), (index("4S"), index("5H")), "player",
                    {"banker": (100, 0)}, (index("5S"),) if fmt == "csv" else ())
        writer.shoe_end("1", 400)
        suffix = ".jsonl" if fmt == "jsonl" else ".csv"
        path = Path(f"{__file__}.tmp{suffix}")
        try:
            path.write_text(out.getvalue(), encoding="utf-8")
            records = list(read_log(path))
        finally:
            path.unlink()
        hands = [r for r in records if isinstance(r, Hand)]
        assert hands[0].player_values == (9, 0) and hands[0].bets == (("banker", 100, 0),)
        # the shoe's end is marked in both formats (CSV: cards_left on its last hand)
        ends = [r for r in records if isinstance(r, ShoeEnd)]
        assert [(e.shoe, e.cards_left) for e in ends] == [("1", 400)], fmt
