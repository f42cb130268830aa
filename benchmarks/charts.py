"""Strategy charts and advice of home Lucky 9 (issue 20).

``charts``: every published chart -- 2 to 9 people at the infinite deck, 2 and 3 people at
one deck -- solved from nothing (the solver's caches cleared) and rendered in every
published format; target <= 30 s (with the advisor's data, which is not built yet).
``advise``: one ``nine advise`` in this process once its table is solved (warm), and as a
new process (which solves its table again); target <= 1 s warm.
"""

from __future__ import annotations

import subprocess
import sys
import time

from click.testing import CliRunner

from analyzer.choice.table.chart import table_charts
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.cli.commands import main
from analyzer.present.report.chart import render_charts
from analyzer.rules.shoe import Shoe
from benchmarks.lucky9 import _clear, _preload

__all__ = ["advise_seconds", "bench", "charts_seconds"]

#: (players, decks) of every published chart.
SIZES = (*((n, None) for n in range(1, 9)), (1, 1), (2, 1))
ADVICE = ("advise", "--people", "5", "--cards", "8 7", "--earlier", "stood", "--infinite")


def charts_seconds() -> float:
    """Seconds to solve every published chart's table from nothing and render it."""
    _preload()
    _clear()
    start = time.perf_counter()
    for players, decks in SIZES:
        shoe = Shoe.infinite() if decks is None else Shoe.decks(decks)
        charts = table_charts(solve_table(LUCKY9, shoe, players, "total"))
        for fmt in ("markdown", "html", "svg", "text"):
            render_charts(charts, fmt)
    return time.perf_counter() - start


def advise_seconds() -> tuple[float, float]:
    """One ``nine advise`` (5 people): warm in this process, and as a new process."""
    runner = CliRunner()
    assert runner.invoke(main, list(ADVICE)).exit_code == 0  # solves the table once
    start = time.perf_counter()
    assert runner.invoke(main, list(ADVICE)).exit_code == 0
    warm = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "analyzer", *ADVICE], check=True,
                   capture_output=True)
    return warm, time.perf_counter() - start


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the charts' and advice's ``make bench`` figures."""
    del baseline_seconds
    seconds = charts_seconds()
    print(f"  every Lucky 9 chart (2-9 people), cold      {seconds:9.2f} s   (target <= 30 s "
          f"with the advisor's data, not built yet: {'met' if seconds <= 30 else 'NOT MET'})")
    warm, process = advise_seconds()
    print(f"  one nine advise (5 people), warm            {warm:9.3f} s   (target <= 1 s: "
          f"{'met' if warm <= 1 else 'NOT MET'}); as a new process {process:.2f} s (it "
          "solves its table again)")
