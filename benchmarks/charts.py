"""Strategy charts and advice of home Lucky 9 (issue 20).

``charts``: every published chart -- 2 to 9 people at the infinite deck, 2 and 3 people at
one deck -- solved from nothing (the solver's caches cleared) and rendered in every
published format, with the advisor page and its data (every information set of 2 to 9
people); target <= 30 s, printed beside the plain-enumeration baseline of the same run.
``advise``: ``nine advise`` as a new process, the way a player runs it: cold (an empty cache
folder: at the infinite deck it reads the published equilibria, ``tables/lucky9/advisor.json``,
and certifies them again; at one deck it solves and keeps the strategies) and warm (the next
run: the kept strategies certified again); target warm <= 1 s. Beside it, in turns with it, a
bare ``python -c "import numpy"``; with the CPU seconds of the run and the load average.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

from analyzer.choice.table.chart import table_charts
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.present.advisor import advisor_data, render_advisor, strategies_json
from analyzer.present.report.chart import render_charts
from analyzer.present.report.common import json_text
from analyzer.rules.shoe import Shoe
from benchmarks import byte_compile
from benchmarks.lucky9 import _clear, _preload

__all__ = ["ADVICE_CASES", "advise_figures", "bench", "charts_seconds"]

#: (players, decks) of every published chart.
SIZES = (*((n, None) for n in range(1, 9)), (1, 1), (2, 1))
ADVICE = ("advise", "--people", "5", "--cards", "8 7", "--earlier", "stood", "--infinite")
#: The largest table.
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


#: (label, arguments) of each ``nine advise`` timed: the infinite deck (published
#: equilibria) and the default one deck at 2 and 3 people.
ADVICE_CASES = (("5 people, infinite deck", ADVICE), ("9 people, infinite deck", LARGEST),
                ("2 people, 1 deck", ("advise", "--people", "2", "--cards", "8 7")),
                ("3 people, 1 deck", ("advise", "--people", "3", "--cards", "8 7", "--earlier",
                                      "stood")))


def _run(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the child's) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def advise_figures(rounds: int = 3) -> dict[str, dict[str, float]]:
    """Each case of :data:`ADVICE_CASES` as a new process: ``cold`` (an empty cache folder)
    and ``warm`` (best of ``rounds`` later runs, wall and CPU), each warm run in turns with
    a bare ``python -c "import numpy"`` (``baseline``); ``load``: the 1-minute load average.

    The package is byte-compiled first (as a regular install is), since this machine sets
    PYTHONDONTWRITEBYTECODE.
    """
    byte_compile()
    figures = {}
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "NINE_CACHE_DIR": cache}
        for label, args in ADVICE_CASES:
            command = [sys.executable, "-m", "analyzer", *args]
            cold, cold_cpu = _run(command, environment)
            warm = warm_cpu = baseline = float("inf")
            for _ in range(rounds):
                wall, cpu = _run(command, environment)
                warm, warm_cpu = min(warm, wall), min(warm_cpu, cpu)
                baseline = min(baseline, _run([sys.executable, "-c", "import numpy"],
                                              environment)[0])
            figures[label] = {"cold": cold, "cold_cpu": cold_cpu, "warm": warm,
                              "warm_cpu": warm_cpu, "baseline": baseline,
                              "load": os.getloadavg()[0]}
    return figures


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the charts' and advice's ``make bench`` figures (``baseline_seconds``: the
    plain enumeration's, measured in the same run)."""
    load = os.getloadavg()[0]
    cpu = time.process_time()
    seconds = charts_seconds()
    cpu = time.process_time() - cpu
    print(f"  every Lucky 9 chart (2-9 people) + advisor  {seconds:9.2f} s   ({cpu:.2f} s CPU; "
          f"{seconds / baseline_seconds if baseline_seconds else 0:,.0f}x the baseline; "
          f"load {load:.1f}; target <= 30 s: "
          f"{'met' if seconds <= 30 else 'NOT MET'})")
    for label, figure in advise_figures().items():
        warm = figure["warm"]
        print(f"  nine advise, {label + ':':25s} cold {figure['cold']:5.2f} s, warm "
              f"{warm:5.2f} s ({figure['warm_cpu']:.2f} s CPU; {warm / figure['baseline']:.1f}x "
              f"python -c 'import numpy'; load {figure['load']:.1f}; target warm <= 1 s: "
              f"{'met' if warm <= 1 else 'NOT MET'})")
