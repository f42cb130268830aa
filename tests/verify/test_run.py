"""A whole run: the simulator's logs pass, formats told once per file, Dask and processes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import analyzer.verify.run as run
from analyzer.dealing.handlog import LogOptions, detect_format
from analyzer.errors import AnalyzerError
from analyzer.verify import EXIT_PASS
from analyzer.verify.partial import Partial, load_partial, save_partial
from analyzer.verify.run import collect, verify_logs
from tests.verify.conftest import cli, split_log, write_log


def test_the_simulators_own_logs_pass(clean_log: Path, tmp_path: Path) -> None:
    code, out, _ = cli("verify", str(clean_log))
    assert code == EXIT_PASS, out
    assert "PASS (exit 0)" in out and "shoe model" in out
    verdict = verify_logs([str(clean_log)], model_name="independent")
    assert verdict.exit_code == EXIT_PASS and verdict.model == "independent"
    assert verdict.violation_count == 0 and verdict.malformed_count == 0
    assert all(t.passed for t in verdict.tests)
    as_csv = tmp_path / "clean.csv"
    write_log(as_csv, shoes=12, seed=2024, fmt="csv")
    same = verify_logs([str(as_csv)])
    shoe_aware = verify_logs([str(clean_log)])
    assert same.hands == shoe_aware.hands == verdict.hands
    assert [t.statistic for t in same.tests] == pytest.approx(
        [t.statistic for t in shoe_aware.tests])


def test_each_file_format_is_told_once(clean_log: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = split_log(clean_log, tmp_path)
    saved = tmp_path / "first.json"
    save_partial(collect([str(first)])[0], saved)
    counts = tmp_path / "totals.json"
    counts.write_text(json.dumps({"format": "nine-counts", "hands": 10, "bets": {
        "tie": {"results": {"Tie": 1, "lose": 9}}}}), encoding="utf-8")
    calls: Counter[str] = Counter()

    def counted(path: str, declared: str = "auto") -> str:
        calls[Path(path).name] += 1
        return detect_format(path, declared)

    loads: Counter[str] = Counter()

    def loaded(path: str) -> Partial:
        loads[Path(path).name] += 1
        return load_partial(path)

    monkeypatch.setattr(run, "detect_format", counted)
    monkeypatch.setattr(run, "load_partial", loaded)
    partial, _ = collect([str(saved), str(second)])
    assert partial.model == "shoe" and calls == {"first.json": 1, "b.jsonl": 1}
    assert loads == {"first.json": 1}  # the saved partial is read once
    calls.clear()
    mixed, _ = collect([str(second), str(counts)])  # re-read independent to match the counts
    assert mixed.model == "independent" and calls == {"b.jsonl": 1, "totals.json": 1}
    # a saved partial is one whatever format is declared
    calls.clear()
    partial, _ = collect([str(saved)], options=LogOptions(format="jsonl"))
    assert partial.model == "shoe" and partial.sources == (str(saved),)
    with pytest.raises(AnalyzerError, match="cannot tell the log format"):
        collect([str(tmp_path / "log.txt")])


def test_a_local_dask_cluster_gives_the_same_sums(clean_log: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    first, second = split_log(clean_log, tmp_path)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        on_dask = verify_logs([str(first), str(second)], model_name="independent",
                              dask=cluster.scheduler_address)
    direct = verify_logs([str(first), str(second)], model_name="independent")
    assert on_dask.hands == direct.hands
    assert [t.statistic for t in on_dask.tests] == [t.statistic for t in direct.tests]
