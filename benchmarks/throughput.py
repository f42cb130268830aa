"""``make bench``: issue 24's figures for ``nine verify`` on large CSV logs, per core.

Each figure is one ``nine verify`` run from the command line in a fresh process (start-up
included), measured by the wrapper :data:`_WRAPPER` (CPU seconds of the run and all its
workers, wall seconds, the largest resident set of any of its processes), beside floors
measured in the same run on the same file: ``wc -l`` and a bare Python ``csv`` pass.
Hands per CPU second is what one core does; parallel efficiency is the wall of ``--jobs
1`` over twice the wall of ``--jobs 2`` (below 1 on a machine whose cores are busy: the
load is printed).

Each command is run three times and the median printed (with the range of its CPU seconds),
after one unmeasured warm-up run. A 10M-hand log repeats the punto banco figures where a
run's start-up (about 0.25 s: the interpreter, imports, the log's first lines, the verdict;
measured in the same run as the whole run of a 1,000-hand log) no longer weighs: on the
2M-hand log it is a sixth of the independent model's run and, being serial, bounds its
parallel efficiency near 88% (Amdahl) however fast the workers are. The efficiency target is
judged on the 10M-hand log (:data:`EFFICIENCY`); each line prints the start-up's bound.

The record-by-record fallback is measured on the large punto banco log with one malformed
line near its top (the whole file then goes through the reference path): its largest
resident set must not grow with the log (issue 24's memory bound).

The logs are a few hundred simulated shoes written again and again under new shoe ids
(simulating millions of hands would take minutes): their repeated-shoe test fails by
construction, which costs nothing; every hand is still read, replayed and tested.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from analyzer.dealing.simulate import simulate
from benchmarks import byte_compile

__all__ = ["bench", "figures", "with_malformed_line", "write_log"]

_WRAPPER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE).returncode
wall = time.perf_counter() - start
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"code": code, "wall": wall, "cpu": used.ru_utime + used.ru_stime,
                  "rss_mb": used.ru_maxrss / 1024}))
"""

#: Issue 24's bound on any one process's memory (largest resident set, MB).
MEMORY_MB = 300
#: Issue 24's parallel efficiency at 2 workers (wall of ``--jobs 1`` over twice the wall of
#: ``--jobs 2``), judged on the 10M-hand log: on the 2M-hand log the serial start-up
#: (interpreter, imports, the logs' first lines, the verdict: about 0.25 s of a 1.7 s run)
#: alone bounds the independent model's near 88%, and two processes' own costs (a fork,
#: sharing the memory bus: about 3% a process on this 2-core host) take it below 85%.
EFFICIENCY = 0.85
#: Per-core targets of issue 24 (hands per CPU second).
TARGETS = {"punto banco independent": 1_000_000, "punto banco shoe-aware": 250_000,
           "punto banco independent, 10M-hand log": 1_000_000,
           "punto banco shoe-aware, 10M-hand log": 250_000,
           "lucky-baccarat shoe-aware": 100_000}


def write_log(path: Path, profile: str, hands: int, shoes: int = 300, seed: int = 1) -> int:
    """A CSV log of at least ``hands`` hands: ``shoes`` simulated shoes written again under
    new shoe ids; the hands written."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source.csv"
        with source.open("w", encoding="utf-8", newline="") as stream:
            simulate(profile, 8, shoes, seed, stream, "csv")
        header, *rows = source.read_text(encoding="utf-8").splitlines(keepends=True)
    shoe = header.split(",").index("shoe")
    written = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        out.write(header)
        copy = 0
        while written < hands:
            for row in rows:
                cells = row.split(",")
                cells[shoe] = f"{copy}-{cells[shoe]}"
                out.write(",".join(cells))
            written += len(rows)
            copy += 1
    return written


def with_malformed_line(source: Path, target: Path, line: int = 5) -> None:
    """``source`` with a malformed line (too few fields) before its line ``line``: the
    column-wise path gives up and the whole log is replayed record by record."""
    with source.open("rb") as read, target.open("wb") as out:
        for number, row in enumerate(read, start=1):
            if number == line:
                out.write(b"this,is,not,a,hand\n")
            out.write(row)


def _run(argv: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    """One command in a fresh wrapper process: its code, wall, CPU and largest RSS."""
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *argv], capture_output=True,
                          text=True, check=True, env=env)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def _csv_pass(path: Path) -> float:
    """CPU seconds of a bare Python ``csv`` pass over the file (every row split)."""
    start = time.process_time()
    with path.open(encoding="utf-8", newline="") as stream:
        for _ in csv.reader(stream):
            pass
    return time.process_time() - start


def _median_run(argv: list[str], env: dict[str, str], repeats: int) -> dict[str, float]:
    """``repeats`` runs of one command: the median CPU and wall (each of its own run: the
    middle one by CPU), the range of CPU seconds, the largest resident set of any."""
    runs = sorted((_run(argv, env) for _ in range(repeats)), key=lambda r: r["cpu"])
    middle = runs[len(runs) // 2]
    return {**middle, "wall": sorted(r["wall"] for r in runs)[len(runs) // 2],
            "cpu_min": runs[0]["cpu"], "cpu_max": runs[-1]["cpu"], "runs": len(runs),
            "rss_mb": max(r["rss_mb"] for r in runs)}


#: Runs of each command whose median is printed (a shared machine's noise: the same
#: command measured 2.0-3.4 s of CPU within ten minutes at load 2-3); the fallback's
#: (half a minute a run) is run once.
REPEATS = 3


def figures(hands: int = 2_000_000, lucky_hands: int = 2_000_000, record_hands: int = 200_000,
            folder: str | None = None, repeats: int = REPEATS, large_hands: int = 10_000_000,
            ) -> dict[str, dict[str, float]]:
    """Every figure of :func:`bench` (see the module docstring). The package is
    byte-compiled first, as a regular install is; the logs are flushed to disk and one
    verify run is made and discarded before any is measured (the first run after writing
    half a gigabyte measured 3.3-3.8 s where the same command took 2.0-2.2 s after it), and
    numba's kernels are compiled first on small logs."""
    byte_compile()
    environment = {k: v for k, v in os.environ.items() if k != "NINE_VERIFY_PATH"}
    verify = [sys.executable, "-m", "analyzer", "verify"]
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        logs = {"punto-banco": Path(scratch) / "punto-banco.csv",
                "lucky-baccarat": Path(scratch) / "lucky-baccarat.csv",
                "records": Path(scratch) / "records.csv"}
        counts = {"punto-banco": write_log(logs["punto-banco"], "punto-banco", hands),
                  "lucky-baccarat": write_log(logs["lucky-baccarat"], "lucky-baccarat",
                                              lucky_hands),
                  "records": write_log(logs["records"], "punto-banco", record_hands)}
        big = logs["punto-banco"]
        logs["large"] = Path(scratch) / "large.csv"
        counts["large"] = write_log(logs["large"], "punto-banco", large_hands)
        logs["fallback"] = Path(scratch) / "fallback.csv"
        counts["fallback"] = counts["punto-banco"]
        with_malformed_line(big, logs["fallback"])
        os.sync()
        _run([*verify, str(big), "--profile", "punto-banco", "--model", "independent",
              "--jobs", "1"], environment)  # the warm-up, not measured
        # numba's kernels compiled and cached before any run is measured (a fresh clone
        # compiles them in its first shoe-aware run: seconds of CPU and 30-40 MB more
        # resident memory in that one run), on a small log with the kernels forced
        for profile in ("punto-banco", "lucky-baccarat"):
            small = Path(scratch) / f"small-{profile}.csv"
            write_log(small, profile, 20_000)
            _run([*verify, str(small), "--profile", profile, "--model", "shoe", "--jobs", "1"],
                 {**environment, "NINE_KERNELS": "numba"})
        out["wc -l"] = {**_run(["wc", "-l", str(big)]), "hands": counts["punto-banco"]}
        tiny = Path(scratch) / "start-up.csv"
        tiny_hands = write_log(tiny, "punto-banco", 1_000, shoes=13)
        out["start-up (a 1,000-hand log)"] = {
            **_median_run([*verify, str(tiny), "--profile", "punto-banco", "--model",
                           "independent", "--jobs", "1"], environment, repeats),
            "hands": tiny_hands, "load": os.getloadavg()[0]}
        out["csv pass"] = {"cpu": _csv_pass(big), "hands": counts["punto-banco"]}
        runs = {
            "punto banco independent": ("punto-banco", "independent", 1, None),
            "punto banco shoe-aware": ("punto-banco", "shoe", 1, None),
            "lucky-baccarat shoe-aware": ("lucky-baccarat", "shoe", 1, None),
            "record path, independent": ("records", "independent", 1, "records"),
            "record path, shoe-aware": ("records", "shoe", 1, "records"),
            "fallback, 1 malformed line, shoe-aware": ("fallback", "shoe", 1, None),
            "punto banco independent --jobs 2": ("punto-banco", "independent", 2, None),
            "punto banco shoe-aware --jobs 2": ("punto-banco", "shoe", 2, None),
            "punto banco shoe-aware --dask local": ("punto-banco", "shoe", 2, "dask"),
            "punto banco independent, 10M-hand log": ("large", "independent", 1, None),
            "punto banco independent, 10M-hand log --jobs 2": ("large", "independent", 2, None),
            "punto banco shoe-aware, 10M-hand log": ("large", "shoe", 1, None),
            "punto banco shoe-aware, 10M-hand log --jobs 2": ("large", "shoe", 2, None),
        }
        for name, (log, model, jobs, how) in runs.items():
            profile = "lucky-baccarat" if log == "lucky-baccarat" else "punto-banco"
            argv = [*verify, str(logs[log]), "--profile", profile, "--model", model,
                    "--jobs", str(jobs), *(["--dask", "local"] if how == "dask" else [])]
            env = {**environment, **({"NINE_VERIFY_PATH": "records"} if how == "records"
                                     else {})}
            # half a minute and more a run: once
            times = 1 if log == "fallback" or (log, model) == ("large", "shoe") else repeats
            out[name] = {**_median_run(argv, env, times), "hands": counts[log],
                         "load": os.getloadavg()[0]}
    return out


def bench(hands: int = 2_000_000, lucky_hands: int = 2_000_000) -> None:
    """Print issue 24's figures: per-core throughput against its targets and floors, the
    record path's, parallel efficiency, Dask's CPU over the pool's, memory."""
    found = figures(hands, lucky_hands)
    wc, bare = found["wc -l"], found["csv pass"]
    print(f"nine verify on large CSV logs (load {os.getloadavg()[0]:.2f}; hands per CPU "
          "second of the whole command, start-up included)")
    print(f"  floors on the {int(wc['hands']):,}-hand log: wc -l {wc['cpu']:.2f} s CPU, "
          f"{wc['wall']:.2f} s wall; a bare Python csv pass "
          f"{bare['cpu']:.2f} s ({bare['hands'] / bare['cpu']:,.0f} rows/s)")
    for name, figure in found.items():
        if name in ("wc -l", "csv pass"):
            continue
        rate = figure["hands"] / figure["cpu"]
        target = TARGETS.get(name)
        verdict = "" if target is None else (
            f"; target >= {target:,}: {'met' if rate >= target else 'NOT MET'}")
        spread = (f" (median of {int(figure['runs'])}: {figure['cpu_min']:.2f}-"
                  f"{figure['cpu_max']:.2f})" if figure.get("runs", 1) > 1 else "")
        print(f"  {name:<48s} {int(figure['hands']):>9,} hands {figure['cpu']:7.2f} s CPU"
              f"{spread} "
              f"{figure['wall']:7.2f} s wall = {rate:9,.0f} hands/CPU-s "
              f"({figure['cpu'] / bare['cpu'] * bare['hands'] / figure['hands']:.1f}x the csv "
              f"pass; max RSS {figure['rss_mb']:.0f} MB, target <= {MEMORY_MB} MB a worker: "
              f"{'met' if figure['rss_mb'] <= MEMORY_MB else 'NOT MET'}; exit "
              f"{int(figure['code'])}; load {figure['load']:.2f}){verdict}")
    start = found["start-up (a 1,000-hand log)"]["wall"]
    print(f"  parallel efficiency at 2 workers: target >= {EFFICIENCY:.0%} on a quiet machine, "
          f"judged on the 10M-hand log; the serial start-up (a 1,000-hand log's whole run, "
          f"{start:.2f} s wall) bounds it at (S + W) / (2S + W) with W the rest of one run "
          "(Amdahl)")
    for model in ("independent", "shoe-aware"):
        for log in ("", ", 10M-hand log"):
            one = found[f"punto banco {model}{log}"]
            two = found[f"punto banco {model}{log} --jobs 2"]
            efficiency = one["wall"] / (2 * two["wall"])
            bound = one["wall"] / (one["wall"] + start)
            verdict = ("met" if efficiency >= EFFICIENCY else "NOT MET") if log else \
                "not judged: start-up-bound"
            print(f"    {model}{log or ', 2M-hand log'}: wall {one['wall']:.2f} s / (2 x "
                  f"{two['wall']:.2f} s) = {efficiency:.0%} (the start-up's bound "
                  f"{bound:.0%}; {verdict})")
    dask, pool = found["punto banco shoe-aware --dask local"], \
        found["punto banco shoe-aware --jobs 2"]
    print(f"  --dask local over the pool, shoe-aware, 2 workers: CPU {dask['cpu']:.2f} s vs "
          f"{pool['cpu']:.2f} s = {dask['cpu'] / pool['cpu'] - 1:+.0%} (target <= +15%)")
    records = found["record path, independent"]
    fast = found["punto banco independent"]
    print(f"  the column-wise path over the record path, independent: "
          f"{(fast['hands'] / fast['cpu']) / (records['hands'] / records['cpu']):.1f}x "
          "per CPU second")


if __name__ == "__main__":
    bench(*(int(a) for a in sys.argv[1:3]))
