"""The speed targets, each printed beside its baseline measured in the same run.

Machines here are shared and noisy: every figure interleaves the two sides (A B A B ...) and
keeps the best of each, and the verdict reads the ratio as well as the absolute figure.

* one exact 8-deck composition: the fused kernel against the pure-numpy path;
* batch of depleted shoes: the fused kernel against the numpy chunks, one core (CPU time of
  this process), with the largest relative error against the exact engine;
* 64 and 1,000 decks against 8 decks (exact, residues and CRT past int64);
* cold ``nine odds --decks 8`` against a bare ``python -c "import numpy"``;
* ``nine verify`` from the command line, hands per second, against the record-by-record
  replay (``NINE_VERIFY_PATH=records``) and, shoe-aware, ``--jobs 2`` against ``--jobs 1``;
* ``nine tables`` (every published table), cold.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from analyzer.engine import backend
from analyzer.engine.evaluator import BatchEvaluator
from analyzer.engine.odds import odds
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe
from benchmarks import byte_compile

__all__ = ["batch_figures", "cold_start_figures", "composition_figures", "interleaved", "main",
           "scaling_figures", "tables_seconds", "verify_figures"]


def interleaved(sides: dict[str, Callable[[], object]], rounds: int, number: int,
                 clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Best seconds per call of each side, the sides taking turns round after round."""
    best = dict.fromkeys(sides, float("inf"))
    for _ in range(rounds):
        for name, func in sides.items():
            start = clock()
            for _ in range(number):
                func()
            best[name] = min(best[name], (clock() - start) / number)
    return best


def composition_figures(rounds: int = 15, number: int = 200) -> dict[str, float]:
    """Seconds per exact ``odds()`` of punto banco on one 8-deck shoe: fused and numpy."""
    profile = load_profile("punto-banco")
    shoe = Shoe.decks(8)
    fused = odds(profile, shoe, "numba")
    assert fused == odds(profile, shoe, "numpy")
    return interleaved({"fused": lambda: odds(profile, shoe, "numba"),
                         "numpy": lambda: odds(profile, shoe, "numpy")}, rounds, number)


def scaling_figures(rounds: int = 15, number: int = 100) -> dict[str, float]:
    """Seconds per exact ``odds()`` (fused kernel) at 8, 64 and 1,000 decks."""
    profile = load_profile("punto-banco")
    shoes = {f"{d} decks": Shoe.decks(d) for d in (8, 64, 1000)}
    for shoe in shoes.values():
        assert odds(profile, shoe, "numba") == odds(profile, shoe, "numpy")
    return interleaved({name: (lambda s=shoe: odds(profile, s, "numba"))
                         for name, shoe in shoes.items()}, rounds, number)


def batch_figures(rows: np.ndarray, rounds: int = 5) -> dict[str, float]:
    """Shoes per CPU second of this process, fused and numpy; the fused kernel's largest
    relative error against the exact engine over the first 20 shoes."""
    from benchmarks.__main__ import _shoe_of

    evaluator = BatchEvaluator.for_profile("punto-banco")
    evaluator.evaluate(rows[:64], "numba")
    best = interleaved({"fused": lambda: evaluator.evaluate(rows, "numba"),
                         "numpy": lambda: evaluator.evaluate(rows, "numpy")},
                        rounds, 1, time.process_time)
    values = evaluator.evaluate(rows[:20], "numba")
    error = 0.0
    for i, row in enumerate(rows[:20]):
        table = odds("punto-banco", _shoe_of(row))
        for j, bet in enumerate(table.bets):
            exact = float(bet.ev)
            error = max(error, abs(values[i, j] - exact) / abs(exact))
    return {"fused": rows.shape[0] / best["fused"], "numpy": rows.shape[0] / best["numpy"],
            "error": error}


def cold_start_figures(rounds: int = 9) -> dict[str, float]:
    """Wall seconds of a cold ``nine odds --decks 8`` (its compiled plan already cached, as
    after any first run) and of a bare ``python -c "import numpy"``, best of interleaved runs.

    The package is byte-compiled first (as a regular install is), since this machine sets
    PYTHONDONTWRITEBYTECODE.
    """
    byte_compile()
    odds_command = [sys.executable, "-m", "analyzer", "odds", "--decks", "8"]
    environment = dict(os.environ)
    environment.pop("NINE_KERNELS", None)
    first = time.perf_counter()
    with tempfile.TemporaryDirectory() as empty:
        subprocess.run(odds_command, check=True, capture_output=True,
                       env={**environment, "NINE_CACHE_DIR": empty})
    uncached = time.perf_counter() - first
    subprocess.run(odds_command, check=True, capture_output=True, env=environment)

    def run(command: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(command, check=True, capture_output=True,
                                      env=environment)

    best = interleaved({"odds": run(odds_command),
                         "numpy": run([sys.executable, "-c", "import numpy"])}, rounds, 1)
    return {**best, "uncached": uncached}


def verify_figures(hands: int = 200_000, card_hands: int = 50_000,
                   rounds: int = 2) -> dict[str, dict[str, float]]:
    """Hands per second of ``nine verify`` from the command line (start-up included), each
    beside its baseline run in turns with it: the record-by-record replay
    (``NINE_VERIFY_PATH=records``, the reference the column-wise path must match), and for
    the shoe-aware model of punto banco also ``--jobs 1``. Each figure: ``rate``,
    ``baseline`` (hands/s), ``cpu`` (hands per CPU second times the processes: what idle
    cores would do) and ``load`` (the 1-minute load average when it was measured)."""
    from analyzer.dealing.simulate import simulate

    environment = dict(os.environ)
    environment.pop("NINE_VERIFY_PATH", None)
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        logs = {}
        for profile, count in (("punto-banco", hands), ("lucky-baccarat", card_hands)):
            logs[profile] = Path(folder) / f"{profile}.csv"
            with logs[profile].open("w", encoding="utf-8", newline="") as stream:
                simulate(profile, 8, max(1, round(count / 80.8)), 1, stream, "csv")
        lines = {p: sum(1 for _ in path.open(encoding="utf-8")) - 1 for p, path in logs.items()}
        # name: (profile, model, jobs, baseline jobs, baseline path)
        runs = {"shoe-aware, --jobs 2": ("punto-banco", "shoe", 2, 2, "records"),
                "shoe-aware, --jobs 2 vs --jobs 1": ("punto-banco", "shoe", 2, 1, "auto"),
                "lucky-baccarat shoe-aware, --jobs 2": ("lucky-baccarat", "shoe", 2, 2,
                                                        "records"),
                "independent, --jobs 2": ("punto-banco", "independent", 2, 2, "records")}
        for name, (profile, model, jobs, base_jobs, base_path) in runs.items():
            command = [sys.executable, "-m", "analyzer", "verify", str(logs[profile]),
                       "--profile", profile, "--model", model, "--jobs"]
            sides = {"rate": ([*command, str(jobs)], environment, jobs),
                     "baseline": ([*command, str(base_jobs)],
                                  {**environment, "NINE_VERIFY_PATH": base_path}, base_jobs)}
            best = dict.fromkeys(sides, float("inf"))
            cpu = float("inf")
            for _ in range(rounds):
                for side, (argv, env, processes) in sides.items():
                    before = resource.getrusage(resource.RUSAGE_CHILDREN)
                    start = time.perf_counter()
                    subprocess.run(argv, capture_output=True, check=False, env=env)
                    best[side] = min(best[side], time.perf_counter() - start)
                    after = resource.getrusage(resource.RUSAGE_CHILDREN)
                    if side == "rate":
                        used = (after.ru_utime + after.ru_stime - before.ru_utime
                                - before.ru_stime)
                        cpu = min(cpu, used / processes)
            figures[name] = {"rate": lines[profile] / best["rate"],
                             "baseline": lines[profile] / best["baseline"],
                             "cpu": lines[profile] / cpu, "load": os.getloadavg()[0],
                             "hands": lines[profile]}
    return figures


def _verify_line(label: str, figure: dict[str, float], baseline: str, target: float) -> str:
    rate = figure["rate"]
    return (f"  nine verify, {label:<34s} {rate:9,.0f} hands/s   {baseline} "
            f"{figure['baseline']:,.0f}/s = {rate / figure['baseline']:.1f}x (CPU-bound "
            f"{figure['cpu']:,.0f}/s; {int(figure['hands']):,} hands; load "
            f"{figure['load']:.2f}); target >= {target:,.0f}/s: {_verdict(rate >= target)}")


def tables_seconds() -> float:
    """``nine tables`` for everything, cold, into a scratch folder."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analyzer", "tables", "--out", folder],
                       check=True, capture_output=True)
        return time.perf_counter() - start


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def main(rows: np.ndarray, with_tables: bool = True) -> None:
    """Print every target with its baseline, ratio and verdict."""
    print(f"targets (machine load {os.getloadavg()[0]:.2f}; numba kernels "
          f"{'available' if backend.kernels_available() else 'missing'})")
    figure = composition_figures()
    fused, plain = figure["fused"], figure["numpy"]
    print(f"  one exact 8-deck composition, fused      {fused * 1e3:9.3f} ms   numpy path "
          f"{plain * 1e3:.3f} ms = {plain / fused:.1f}x; target <= 0.200 ms: "
          f"{_verdict(fused <= 2e-4)}")
    scaling = scaling_figures()
    eight = scaling["8 decks"]
    for name in ("64 decks", "1000 decks"):
        ratio = scaling[name] / eight
        print(f"  exact odds, {name:<10} (fused)         {scaling[name] * 1e3:9.3f} ms   "
              f"= {ratio:.2f}x the 8-deck {eight * 1e3:.3f} ms; target <= 3x: "
              f"{_verdict(ratio <= 3)}")
    batch = batch_figures(rows)
    print(f"  batch of {rows.shape[0]:,} depleted shoes, fused   {batch['fused']:9,.0f} shoes/s"
          f" (one core)   numpy {batch['numpy']:,.0f}/s = {batch['fused'] / batch['numpy']:.1f}x;"
          f" target >= 100,000/s: {_verdict(batch['fused'] >= 100_000)}")
    print(f"  batch max relative error vs exact (20)   {batch['error']:9.1e}"
          f"            target <= 1e-12: {_verdict(batch['error'] <= 1e-12)}")
    cold = cold_start_figures()
    ratio = cold["odds"] / cold["numpy"]
    print(f"  cold `nine odds --decks 8`               {cold['odds'] * 1e3:9.0f} ms   bare "
          f"numpy import {cold['numpy'] * 1e3:.0f} ms = {ratio:.2f}x; target <= 300 ms and "
          f"<= 2x: {_verdict(cold['odds'] <= 0.3 and ratio <= 2)} (first run, building the "
          f"plan cache: {cold['uncached'] * 1e3:.0f} ms)")
    verify = verify_figures()
    print(_verify_line("shoe-aware, punto banco", verify["shoe-aware, --jobs 2"],
                       "record by record", 100_000))
    print(_verify_line("shoe-aware, punto banco", verify["shoe-aware, --jobs 2 vs --jobs 1"],
                       "--jobs 1", 100_000))
    print(_verify_line("shoe-aware, lucky-baccarat (19 bets)",
                       verify["lucky-baccarat shoe-aware, --jobs 2"], "record by record",
                       40_000))
    print(_verify_line("independent model, punto banco", verify["independent, --jobs 2"],
                       "record by record", 250_000))
    if with_tables:
        seconds = tables_seconds()
        print(f"  `nine tables` (every published table)    {seconds:9.1f} s    target "
              f"<= 15 s: {_verdict(seconds <= 15)}")
