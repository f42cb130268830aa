"""One log checked by several processes in runs of whole shoes gives the sums of one
process, and its problems keep the line numbers of the whole file."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import math
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from analyzer.dealing import segments
from analyzer.dealing.handlog import LogOptions
from analyzer.dealing.simulate import simulate
from analyzer.errors import AnalyzerError
from analyzer.present.report.verify import verdict_json
from analyzer.verify import digests, run
from analyzer.verify.run import Work, _check_piece, _split, collect, verify_logs


@pytest.mark.parametrize("model", ["shoe", "independent"])
def test_split_log_merges_to_the_single_process_sums(
        tmp_path: Path, model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    buffer = io.StringIO()
    simulate("punto-banco", 8, 4, 5, buffer, "csv")
    lines = buffer.getvalue().splitlines(keepends=True)
    broken = len(lines) - 10
    lines[broken] = "not,a,valid,row\n"  # a malformed record in the last shoe
    path = tmp_path / "log.csv"
    path.write_text("".join(lines), encoding="utf-8")
    one, _ = collect([str(path)], "punto-banco", model_name=model, jobs=1)
    two, _ = collect([str(path)], "punto-banco", model_name=model, jobs=2)
    assert two.sources == one.sources == (str(path),)
    for name in ("hands", "shoes", "whole_shoes", "shoe_aware_hands", "malformed_count",
                 "malformed", "violation_count", "card_counts"):
        assert getattr(two, name) == getattr(one, name), name
    assert one.malformed[0].line == broken + 1
    for a, b in zip(one.bets, two.bets, strict=True):
        assert (a.results, a.stake, a.returned) == (b.results, b.stake, b.returned)
        assert all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12)
                   for x, y in zip(a.expected, b.expected, strict=True))


def _rows(shoes: int, seed: int) -> tuple[str, list[list[str]]]:
    buffer = io.StringIO()
    simulate("punto-banco", 8, shoes, seed, buffer, "csv")
    header, *rows = buffer.getvalue().splitlines(keepends=True)
    by_shoe: dict[str, list[str]] = {}
    for row in rows:
        by_shoe.setdefault(row.split(",", 1)[0], []).append(row)
    return header, list(by_shoe.values())


@pytest.mark.parametrize("model", ["shoe", "independent"])
def test_interleaved_shoes_across_a_cut_are_checked_whole(
        tmp_path: Path, model: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second shoe opens while the first is still being dealt, then their rows
    alternate: a run that starts at hand 1 of the second is refused by its worker and
    the file checked whole."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    header, shoes = _rows(6, 7)
    lines = [header]
    for a, b in zip(shoes[0::2], shoes[1::2], strict=True):
        lines.extend(a[:60])
        for k in range(max(len(a) - 60, len(b))):
            lines.extend(x[k] for x in (a[60:], b) if k < len(x))
    path = tmp_path / "log.csv"
    path.write_text("".join(lines), encoding="utf-8")
    work = Work(str(path), "csv", "punto-banco", 8, LogOptions(cards="cards"),
                model == "shoe", True)
    pieces = [w for _, w in _split([work], 5)]
    assert len(pieces) > 1
    assert any(_check_piece(w) is None for w in pieces)  # a cut inside a shoe
    one, _ = collect([str(path)], "punto-banco", model_name=model, jobs=1)
    five, _ = collect([str(path)], "punto-banco", model_name=model, jobs=5)
    assert five.sources == one.sources == (str(path),)
    for name in ("hands", "shoes", "whole_shoes", "shoe_aware_hands", "malformed_count",
                 "violation_count", "violations", "card_counts"):
        assert getattr(five, name) == getattr(one, name), name
    assert one.violation_count == 0


def test_a_shoe_id_that_restarts_its_hands_is_never_cut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One shoe id for every shoe: hand 1 after hand 70 of the same id is a gap in the
    whole file, so no run may start there."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    header, shoes = _rows(4, 3)
    lines = [header, *("T" + row[row.index(","):] for shoe in shoes for row in shoe)]
    path = tmp_path / "log.csv"
    path.write_text("".join(lines), encoding="utf-8")
    assert len(segments.find_segments(path, "csv", 4, 1, 0)) == 1
    one, _ = collect([str(path)], "punto-banco", model_name="independent", jobs=1)
    four, _ = collect([str(path)], "punto-banco", model_name="independent", jobs=4)
    assert (four.hands, four.malformed_count, four.malformed) == (
        one.hands, one.malformed_count, one.malformed)


def _log(tmp_path: Path, shoes: int, seed: int, inject: str | None = None,
         profile: str = "punto-banco") -> Path:
    buffer = io.StringIO()
    simulate(profile, 8, shoes, seed, buffer, "csv", (inject,) if inject else ())
    path = tmp_path / f"{inject or 'clean'}.csv"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    return path


def _report(paths: list[Path], jobs: int, dask: str | None = None,
            profile: str = "punto-banco") -> str:
    """``nine verify --format json``'s report, the files it names left out."""
    report = verdict_json(verify_logs([str(p) for p in paths], profile, jobs=jobs,
                                      dask=dask, exact_hands=0))
    del report["files"]
    return json.dumps(report)


def test_reports_are_identical_across_jobs_and_dask(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 1, 2 and 3 and a Dask cluster cut the log at other shoes: the same report,
    byte for byte (p-values included), carried-over order across the cuts counted as in
    one piece."""
    distributed = pytest.importorskip("dask.distributed")
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _log(tmp_path, 7, 11)
    work = Work(str(path), "csv", "punto-banco", 8, LogOptions(cards="cards"), True, True)
    assert len(_split([work], 3)) == 3 and len(_split([work], 2)) == 2
    one = _report([path], 1)
    assert '"shuffle: shoe order carried over"' in one
    assert _report([path], 2) == one
    assert _report([path], 3) == one
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        assert _report([path], 3, cluster.scheduler_address) == one


def _spy_pools(monkeypatch: pytest.MonkeyPatch, events: list[str] | None = None
               ) -> list[tuple[int, list[str]]]:
    """Each pool this process starts (``run.task_starter``): its workers and the threads
    alive as it forks them (and "pool" added to ``events``)."""
    started = run.task_starter
    pools: list[tuple[int, list[str]]] = []

    @contextmanager
    def spy(dask: str | None, workers: int) -> Iterator[Any]:
        if events is not None:
            events.append("pool")
        pools.append((workers, [t.name for t in threading.enumerate()]))
        with started(dask, workers) as start:
            yield start

    monkeypatch.setattr(run, "task_starter", spy)
    return pools


@pytest.mark.parametrize("jobs", [2, 3])
def test_this_process_checks_one_run_and_a_worker_each_other_run(
        tmp_path: Path, jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log cut into one run per process: the pool has one worker fewer (this process
    checks the first run), no hashing thread runs when it forks, and the sums and the
    log's SHA-256 are those of one process."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    monkeypatch.setattr(digests, "_BUFFER", 1)  # the thread still hashing at the fork
    path = _log(tmp_path, 7, 11)
    paused = digests.FileDigests.pause
    events: list[str] = []
    pools = _spy_pools(monkeypatch, events)

    def pause(self: digests.FileDigests) -> None:
        events.append("pause")
        paused(self)

    monkeypatch.setattr(digests.FileDigests, "pause", pause)
    one, _ = collect([str(path)], jobs=1)
    assert pools == []
    events.clear()
    many, _ = collect([str(path)], jobs=jobs)
    assert [workers for workers, _ in pools] == [jobs - 1]
    assert "nine-digests" not in pools[0][1]
    assert events[:2] == ["pause", "pool"]  # paused, then the pool forks
    assert many.digests == one.digests == (hashlib.sha256(path.read_bytes()).hexdigest(),)
    assert many.fixed == one.fixed and many.shuffle == one.shuffle
    assert many.card_counts == one.card_counts and many.hands == one.hands


def test_more_files_than_processes_all_go_to_the_pool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three logs and two processes: the pool's two workers take them as they come free
    (this process keeps none, which would fix who checks what)."""
    paths = []
    for seed in (1, 2, 3):
        (tmp_path / str(seed)).mkdir()
        paths.append(str(_log(tmp_path / str(seed), 2, seed)))
    pools = _spy_pools(monkeypatch)
    merged, _ = collect(paths, jobs=2)
    assert [workers for workers, _ in pools] == [2]
    assert merged.digests == tuple(hashlib.sha256(Path(p).read_bytes()).hexdigest()
                                   for p in paths)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_copy_is_refused_before_any_file_is_checked(tmp_path: Path, jobs: int) -> None:
    """A log, its copy and a file that is no hand log: whatever ``--jobs``, the copy is
    refused (the digests are settled before any worker's result is taken)."""
    path = _log(tmp_path, 2, 3)
    copy = tmp_path / "copy.csv"
    copy.write_bytes(path.read_bytes())
    bad = tmp_path / "bad.csv"
    bad.write_text("not,a,hand,log\n1,2,3,4\n", encoding="utf-8")
    with pytest.raises(AnalyzerError, match="holds the same log content as"):
        collect([str(path), str(copy), str(bad)], jobs=jobs)


def test_card_level_bets_leave_every_run_to_the_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lucky-baccarat (card-level bets: the verdict's exact odds take a while): the pool
    checks both runs while this process builds them, and the sums are one process's."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _log(tmp_path, 4, 5, profile="lucky-baccarat")
    pools = _spy_pools(monkeypatch)
    one, _ = collect([str(path)], "lucky-baccarat", model_name="shoe", jobs=1)
    two, _ = collect([str(path)], "lucky-baccarat", model_name="shoe", jobs=2)
    assert [workers for workers, _ in pools] == [2]
    assert two.fixed == one.fixed and two.card_counts == one.card_counts
    assert two.digests == one.digests


def test_a_shoe_repeated_across_a_cut_counts_as_in_one_piece(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shoe dealt alike (a reused seed): each after the first is a repeat, however
    the log is cut."""
    monkeypatch.setattr(segments, "MIN_SEGMENT_BYTES", 1)
    path = _log(tmp_path, 4, 11, "repeat-seed")
    one, _ = collect([str(path)], jobs=1)
    three, _ = collect([str(path)], jobs=3)
    assert one.shuffle is not None and one.shuffle.repeats == 3
    assert three.shuffle == one.shuffle and three.fixed == one.fixed


def test_a_log_given_as_files_cut_at_shoes_gives_the_same_report(tmp_path: Path) -> None:
    """A log cut into three files at shoe boundaries, given in order: the report of the
    whole log (the shoes on either side of each cut paired, sums exact)."""
    path = _log(tmp_path, 4, 13, profile="punto-banco")
    header, *rows = path.read_text(encoding="utf-8").splitlines(keepends=True)
    opens = [i for i, row in enumerate(rows) if row.split(",")[1] == "1"]
    parts = []
    for k, (start, end) in enumerate(zip([0, opens[1], opens[2]],
                                         [opens[1], opens[2], len(rows)], strict=True)):
        parts.append(tmp_path / f"part{k}.csv")
        parts[-1].write_text("".join([header, *rows[start:end]]), encoding="utf-8")
    one = _report([path], 1, profile="punto-banco")
    assert _report(parts, 1, profile="punto-banco") == one
    whole, _ = collect([str(path)], "punto-banco", exact_hands=0)
    cut, _ = collect([str(p) for p in parts], "punto-banco", jobs=2, exact_hands=0)
    assert cut.fixed == whole.fixed and cut.shuffle == whole.shuffle
    assert cut.bets == whole.bets and cut.whole_shoes == whole.whole_shoes == 4


_PREPARED = """
import json, sys
from numba.core.dispatcher import Dispatcher
from analyzer.engine import backend, kernels
from analyzer.verify import digests, run
from analyzer.verify.inference import kernels as tallies

def loaded():
    return {f"{m.__name__}.{name}": len(d.overloads) for m in (kernels, tallies)
            for name, d in vars(m).items() if isinstance(d, Dispatcher)}

checked = run._run_pieces
def spy(work, jobs, dask=None, *hooks):
    run._prepare(work)  # as before a pool forks
    before = loaded()
    partials = checked(work, jobs, dask, *hooks)  # jobs 1: checked in this process
    print(json.dumps([before, loaded()]))
    return partials

run._run_pieces = spy
assert backend.preload("shoe-aware", 10**6)  # numba loaded, whatever the log's size
for path, profile in zip(sys.argv[1::2], sys.argv[2::2]):
    run.collect([path], profile, model_name="shoe", jobs=1)
"""


def test_workers_inherit_the_kernels_their_check_calls(tmp_path: Path) -> None:
    """What a parent prepares before forking (``_prepare``) holds numba's code for every
    kernel call of a shoe-aware check, in a fresh process: the check itself then loads
    nothing (each worker would load it again, about 0.3 s of CPU)."""
    args = []
    for profile in ("punto-banco", "lucky-baccarat"):
        (tmp_path / profile).mkdir()
        args += [str(_log(tmp_path / profile, 2, 3, profile=profile)), profile]
    done = subprocess.run([sys.executable, "-c", _PREPARED, *args], capture_output=True,
                          text=True, check=True)
    runs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(runs) == 2
    for before, after in runs:
        assert after == before
        for kernel in ("analyzer.engine.kernels._grouped",
                       "analyzer.verify.inference.kernels._shuffle",
                       "analyzer.verify.inference.kernels._rank_rows"):
            assert before[kernel] == 1, kernel


def test_an_independent_check_of_a_large_log_inherits_the_shuffle_loop(tmp_path: Path
                                                                       ) -> None:
    """The independent model: with the kernels loaded (a log past about 5M hands) the
    parent prepares the shuffle tally's fused loop, and the check loads nothing more."""
    script = _PREPARED.replace('model_name="shoe"', 'model_name="independent"')
    path = _log(tmp_path, 2, 3, profile="punto-banco")
    done = subprocess.run([sys.executable, "-c", script, str(path), "punto-banco"],
                          capture_output=True, text=True, check=True)
    before, after = json.loads(done.stdout)
    assert after == before
    assert before["analyzer.verify.inference.kernels._shuffle"] == 1


def test_the_size_estimate_reads_only_the_head_and_skips_gzip(tmp_path: Path) -> None:
    """``_hands_estimate``: a plain log's lines from its size and its first 64 KB (within
    a few percent on a simulated log); a gzipped log 0 (it loads nothing for it)."""
    path = _log(tmp_path, 40, 7, profile="punto-banco")
    lines = path.read_bytes().count(b"\n")
    assert abs(run._hands_estimate(str(path)) - lines) <= 0.05 * lines
    packed = tmp_path / "log.csv.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert run._hands_estimate(str(packed)) == 0
    assert run._hands_estimate(str(tmp_path / "missing.csv")) == 0
