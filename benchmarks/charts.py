"""Strategy charts and advice of home Lucky 9 (issue 20).

``charts``: every published chart -- 2 to 9 people at the infinite deck, 2 and 3 people at
one deck -- solved from nothing (the solver's caches cleared) and rendered in every
published format, with the advisor page and its data (every information set of 2 to 9
people); target <= 30 s.
``advise``: one ``nine advise`` in this process once its table is solved (warm), and as a
new process at 5 and at 9 people (cold: it reads the published equilibria,
``tables/lucky9/advisor.json``, and certifies them again instead of solving); target <= 1 s.
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
from analyzer.present.advisor import advisor_data, render_advisor, strategies_json
from analyzer.present.report.chart import render_charts
from analyzer.present.report.common import json_text
from analyzer.rules.shoe import Shoe
from benchmarks.lucky9 import _clear, _preload

__all__ = ["advise_seconds", "bench", "charts_seconds"]

#: (players, decks) of every published chart.
SIZES = (*((n, None) for n in range(1, 9)), (1, 1), (2, 1))
ADVICE = ("advise", "--people", "5", "--cards", "8 7", "--earlier", "stood", "--infinite")
#: The largest table, for the cold run.
LARGEST = ("advise", "--people", "9", "--cards", "T 5", "--earlier", "stood,drew,stood",
           "--infinite")


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
    data = advisor_data(solve_table(LUCKY9, Shoe.infinite(), 8, "total"))
    render_advisor(data)
    json_text(strategies_json(data))
    return time.perf_counter() - start


def advise_seconds() -> tuple[float, float, float]:
    """One ``nine advise``: warm in this process (5 people), and as a new process at 5 and
    at 9 people."""
    runner = CliRunner()
    assert runner.invoke(main, list(ADVICE)).exit_code == 0  # the table once
    start = time.perf_counter()
    assert runner.invoke(main, list(ADVICE)).exit_code == 0
    warm = time.perf_counter() - start
    cold = []
    for args in (ADVICE, LARGEST):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analyzer", *args], check=True,
                       capture_output=True)
        cold.append(time.perf_counter() - start)
    return warm, cold[0], cold[1]


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the charts' and advice's ``make bench`` figures."""
    del baseline_seconds
    seconds = charts_seconds()
    print(f"  every Lucky 9 chart (2-9 people) + advisor  {seconds:9.2f} s   (target <= 30 s, "
          f"cold: {'met' if seconds <= 30 else 'NOT MET'})")
    warm, five, nine = advise_seconds()
    print(f"  one nine advise (5 people), warm            {warm:9.3f} s   (target <= 1 s: "
          f"{'met' if warm <= 1 else 'NOT MET'})")
    print(f"  one nine advise, a new process, 5 / 9 people {five:8.2f} s / {nine:.2f} s "
          f"(target <= 1 s: {'met' if max(five, nine) <= 1 else 'NOT MET'}; the published "
          "equilibria, certified again)")
