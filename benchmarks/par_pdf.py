"""The punto banco PAR sheet as a PDF, cold from the command line (target <= 5 s).

``nine par --profile punto-banco --format pdf`` in a fresh process: the exact sheet (odds,
effects of removal over 200 seeded shoes), its HTML page and the page printed by
WeasyPrint. The wall clock is printed beside the CPU time of the process (the machine is
shared: a loaded machine stretches the wall clock, not the CPU time) and the load average.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analyzer.present.pdf import pdf_engine, pdf_pages

__all__ = ["bench", "par_pdf_seconds"]

#: The target: the punto banco PDF in at most this many seconds.
TARGET = 5.0


def par_pdf_seconds() -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, pages) of one cold ``nine par --format pdf`` run."""
    nine = str(Path(sys.executable).with_name("nine"))
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([nine, "par", "--profile", "punto-banco", "--format", "pdf", "--out",
                        folder], check=True, capture_output=True, timeout=600)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        data = (Path(folder) / "punto-banco-8-decks.pdf").read_bytes()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, len(pdf_pages(data))


def bench(baseline: float) -> None:
    """Print the best of three cold runs against the target."""
    if pdf_engine() is None:
        print("  nine par --format pdf, punto banco             skipped: neither WeasyPrint "
              "(the pdf extra) nor Chromium is installed")
        return
    runs = [par_pdf_seconds() for _ in range(3)]
    wall = min(run[0] for run in runs)
    cpu = min(run[1] for run in runs)
    pages = runs[0][2]
    load = os.getloadavg()[0]
    verdict = "met" if wall <= TARGET else f"NOT MET at load {load:.1f}"
    print(f"  nine par --format pdf, punto banco, cold      {wall:9.2f} s"
          f"    ({pages} pages)"
          f"    (CPU {cpu:.2f} s; target <= {TARGET:g} s: {verdict}; load average {load:.1f}; "
          f"{wall / baseline:,.0f}x the baseline)")
