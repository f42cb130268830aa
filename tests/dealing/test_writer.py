"""Writing hand logs: what the writer writes, the reader reads back."""

from __future__ import annotations

import io
from pathlib import Path

from analyzer.dealing.handlog import Hand, read_log
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
        suffix = ".jsonl" if fmt == "jsonl" else ".csv"
        path = Path(f"{__file__}.tmp{suffix}")
        try:
            path.write_text(out.getvalue(), encoding="utf-8")
            hands = [r for r in read_log(path) if isinstance(r, Hand)]
        finally:
            path.unlink()
        assert hands[0].player_values == (9, 0) and hands[0].bets == (("banker", 100, 0),)
