"""One exact full evaluation of a home Lucky 9 table at one deck (issue 21 item 2).

The profile evaluated is the infinite deck's certified equilibrium played at one deck, by
cards (every holding as its total): every side's exact value and exact regret, so every
side's exact best response, over every natural pattern's subgame with exact card removal
(the walk over removed-card compositions, residues modulo primes and CRT). The infinite-
deck solve is done first and not timed; the numba kernels are loaded first (a one-time
compile of about 10 s when their disk cache is cold). Wall-clock and CPU seconds are both
printed: on a shared machine the wall clock can be several times the CPU time.

``NINE_BENCH_DECK_PEOPLE`` (comma-separated, default ``4,5,6``) picks the table sizes (6
people about 90 s of CPU and 1.2 GB; see the README's figures).

The one-deck solves (``make certify``'s work) are timed too, by cards and by total, at
the sizes ``NINE_BENCH_SOLVE_PEOPLE`` lists (default ``4,5``; empty skips them), CPU and
wall, against their target and, at 4 people, against the solve times ``make certify``
recorded before the dense float walk and the support-stable closure (the baseline: 308 s
by cards, 135 s by total, wall at load 5-12). Then every shipped certificate of up to 5
people is checked again exactly (timed), with the solve time it recorded when ``make
certify`` wrote it. Of the certificates of 6 or more people (the best play found and its
epsilon) it checks the 6-person one by total again exactly, subgames over two processes --
one exact full evaluation at 6 people, target 3 minutes -- and prints every one's epsilon as
its file states it (``NINE_BENCH_WIDE=0`` skips the check).
"""

from __future__ import annotations

import os
import resource
import time

from analyzer.choice.table.dealt.played import played_at
from analyzer.choice.table.dealt.wide import WIDE_PEOPLE
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.stored.algebraic import close_profile
from analyzer.choice.table.stored.certificate import (
    CERTIFICATES,
    Certificate,
    check_certificate,
    read_certificate,
    warm_starts,
)
from analyzer.choice.table.tree import LUCKY9
from analyzer.processes import task_mapper
from analyzer.rules.shoe import Shoe

__all__ = ["bench", "TARGETS"]

#: Target seconds for one exact full evaluation at one deck, by people at the table.
TARGETS = {4: 2.0, 5: 20.0, 6: 180.0}
#: Target seconds for one certified one-deck solve (``make certify``), by people.
SOLVE_TARGETS = {4: 120.0, 5: 120.0}
#: Wall seconds of the one-deck solves before issue 21's speed work, as the shipped
#: 4-person certificates recorded them (load 5-12): the baseline of the ratio printed.
SOLVE_BASELINE = {(4, "cards"): 308.1, (4, "total"): 135.0}


def _solves() -> None:
    """Time each one-deck solve, cold (no cached subgame), by cards and by total, as ``make
    certify`` runs it (warm-started from the shipped certificate one person smaller)."""
    sizes = [int(p) for p in os.environ.get("NINE_BENCH_SOLVE_PEOPLE", "4,5").split(",")
             if p]
    for people in sizes:
        for by in ("cards", "total"):
            wall, cpu = time.perf_counter(), time.process_time()
            table = solve_table(LUCKY9, Shoe.decks(1), people - 1, by, dealt=True,
                                starts=warm_starts(LUCKY9, Shoe.decks(1), people, by))
            closed = close_profile(LUCKY9, Shoe.decks(1), table)  # as nine certify does
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            target = SOLVE_TARGETS.get(people, 0.0)
            baseline = SOLVE_BASELINE.get((people, by))
            ratio = f", {baseline / wall:.1f}x the baseline's wall" if baseline else ""
            status = ("certified" if table.certified else
                      f"certified: {closed[2]}" if closed is not None
                      else f"NOT certified, epsilon {float(table.values.max_regret):.2e}")
            verdict = "met" if wall <= target else (
                f"NOT MET (CPU {'met' if cpu <= target else 'NOT MET'})")
            print(f"  {people} people, 1 deck, by {by}: solve {wall:7.1f} s wall {cpu:7.1f} s "
                  f"CPU, {status}; target <= {target:.0f} s: {verdict}{ratio}")


def bench(baseline_seconds: float = 0.0) -> None:
    """Print the one-deck evaluation figures."""
    del baseline_seconds
    sizes = [int(p) for p in os.environ.get("NINE_BENCH_DECK_PEOPLE", "4,5,6").split(",") if p]
    played_at(LUCKY9, Shoe.decks(1), 1, "cards")  # load (or compile) the kernels
    for people in sizes:
        solve_table(LUCKY9, Shoe.infinite(), people - 1, "total")
        wall, cpu = time.perf_counter(), time.process_time()
        values = played_at(LUCKY9, Shoe.decks(1), people - 1, "cards")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        target = TARGETS.get(people)
        verdict = "" if target is None else (
            f"; target <= {target:.0f} s: {'met' if wall <= target else 'NOT MET'}"
            f"{' (CPU ' + ('met' if cpu <= target else 'NOT MET') + ')' if wall > target else ''}")
        print(f"  {people} people, 1 deck, exact full evaluation   {wall:8.2f} s wall "
              f"{cpu:7.2f} s CPU   (bank {float(values.bank):.4%} per hand, largest regret "
              f"{float(values.max_regret):.2e}{verdict})")
    _solves()
    for path in sorted(CERTIFICATES.glob("*.json")):
        found = read_certificate(path, LUCKY9, Shoe.decks(1), None, None)
        if found.people >= WIDE_PEOPLE:
            _wide(found)
            continue
        wall, cpu = time.perf_counter(), time.process_time()
        table = check_certificate(found, LUCKY9)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        target = SOLVE_TARGETS.get(found.people)
        status = ("certified" if table.certified else
                  "certified (its irrational subgame's algebraic block checked exactly; the "
                  f"rounded play's exact regret {float(table.values.max_regret):.2e})"
                  if found.algebraic is not None
                  else f"epsilon {float(table.values.max_regret):.2e}")
        if "--infinite-play" in found.command:  # evaluated, not solved: no solve target
            solve = (f"the infinite deck's play evaluated in {found.solve_seconds:.0f} s "
                     "wall when written (no one-deck solve shipped)")
        else:
            solve = (f"the file records its solve as {found.solve_seconds:.0f} s wall (the code "
                     "of the day it was written; today's solve is timed above)")
        print(f"  {found.people} people, 1 deck, by {found.by}: certificate checked again "
              f"{wall:6.2f} s wall {cpu:6.2f} s CPU, {status}; {solve}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wide(found: Certificate) -> None:
    """A certificate of 6+ people: its epsilon; the 6-person one by total checked again
    exactly over two processes (one exact full evaluation at 6 people)."""
    how = ("largest exact regret" if found.rounding is None else
           f"at most {float(found.epsilon_at_most):.4g}: largest float regret, rounding bound "
           f"{float(found.rounding.max_regret):.1g}")
    status = (f"epsilon {float(found.max_regret):.3g} ({how}, "
              f"written by `{found.command}` in {found.solve_seconds:.0f} s wall)")
    if (found.people, found.by) != (6, "total") or os.environ.get("NINE_BENCH_WIDE") == "0":
        print(f"  {found.people} people, 1 deck, by {found.by}: {status}, as the file states")
        return
    wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    with task_mapper(None, 2) as apply:
        check_certificate(found, LUCKY9, apply)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu + _children_cpu() - children
    target = TARGETS[6]
    print(f"  6 people, 1 deck, by total: certificate checked again exactly (one exact full "
          f"evaluation, 2 processes) {wall:6.1f} s wall {cpu:6.1f} s CPU (target <= "
          f"{target:.0f} s: {'met' if wall <= target else 'NOT MET'}"
          f"{'' if wall <= target else ', CPU ' + ('met' if cpu <= target else 'NOT MET')}"
          f"); {status}")
