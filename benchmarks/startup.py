"""Cold start: ``nine odds --decks 8`` and ``import analyzer``, against the same code before.

The baseline is the package as it is at a git revision (``BENCH_BEFORE``, default ``main``;
``make bench BEFORE=REV``), unpacked into a scratch folder and timed in the same run, in
turns with this tree (A B A B ..., best of each), each in a new process from its own folder
and byte-compiled first, as an installed package is; a bare ``python -c pass`` is printed
beside them. Wall time and the process's CPU time (user + system) are both measured; on a
shared, loaded machine the CPU time is the steadier, and the verdict reads it. Run alone:
``python -m benchmarks.startup``.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.targets import interleaved

__all__ = ["bench", "startup_figures"]

ROOT = Path(__file__).resolve().parent.parent
#: What is timed: each a new process.
COMMANDS = {"nine odds --decks 8": ["-m", "analyzer", "odds", "--decks", "8"],
            "import analyzer": ["-c", "import analyzer"]}


def _unpack(revision: str, folder: Path) -> str:
    """The package as it is at ``revision``, unpacked into ``folder``; why not, or empty."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "analyzer"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, capture_output=True,
                       check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        stderr = getattr(exc, "stderr", b"") or b""
        return stderr.decode("utf-8", "replace").strip() or str(exc)
    return ""


def _children_cpu() -> float:
    """CPU seconds (user + system) of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def startup_figures(revision: str, rounds: int = 15) -> tuple[dict[str, dict[str, float]], str]:
    """Best seconds, ``wall`` and ``cpu``, of each command in this tree (``now: ...``) and at
    ``revision`` (``before: ...``), and of ``python -c pass``; the second item says why the
    revision was not timed (empty when it was)."""
    environment = dict(os.environ)
    environment.pop("NINE_KERNELS", None)
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"now": ROOT}
        why = _unpack(revision, Path(scratch))
        if not why:
            trees["before"] = Path(scratch)
        sides = {}
        for tree_name, tree in trees.items():
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "analyzer")],
                           capture_output=True, check=False)
            env = {**environment, "PYTHONPATH": str(tree)}
            for name, args in COMMANDS.items():
                command = [sys.executable, *args]
                # once first: the engine's plan cache is built on a first run
                subprocess.run(command, cwd=tree, env=env, capture_output=True, check=True)
                sides[f"{tree_name}: {name}"] = (
                    lambda c=command, t=tree, e=env: subprocess.run(
                        c, cwd=t, env=e, capture_output=True, check=True))
        sides["python -c pass"] = lambda: subprocess.run([sys.executable, "-c", "pass"],
                                                         capture_output=True, check=True)
        return {"wall": interleaved(sides, rounds, 1),
                "cpu": interleaved(sides, rounds, 1, _children_cpu)}, why


def bench(revision: str | None = None) -> None:
    """Print each cold start now and before, with the ratio and the verdict."""
    revision = revision or os.environ.get("BENCH_BEFORE") or "main"
    best, why = startup_figures(revision)
    wall, cpu = best["wall"], best["cpu"]
    print(f"cold start against the package at {revision!r} (machine load "
          f"{os.getloadavg()[0]:.2f}; best of 15 interleaved runs, CPU and wall; bare python "
          f"{cpu['python -c pass'] * 1e3:.0f} ms CPU)")
    for name in COMMANDS:
        now = cpu[f"now: {name}"]
        line = (f"  {name:<22} {now * 1e3:5.0f} ms CPU ({wall[f'now: {name}'] * 1e3:.0f} ms "
                f"wall)")
        if why:
            print(f"{line}   before: not measured ({why})")
            continue
        before = cpu[f"before: {name}"]
        ratio = now / before
        print(f"{line}   before {before * 1e3:.0f} ms CPU ({wall[f'before: {name}'] * 1e3:.0f} "
              f"ms wall) = {ratio:.2f}x; target: no slower (CPU <= 1.05x): "
              f"{'met' if ratio <= 1.05 else 'NOT MET'}")


if __name__ == "__main__":
    bench(sys.argv[1] if len(sys.argv) > 1 else None)
