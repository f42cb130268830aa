"""Threads for compiled work that releases the GIL: the cores of the process that runs the
command, one in a worker process (its siblings hold the other cores)."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ProcessPoolExecutor

import pytest

from analyzer.processes import each_on_threads, spare_threads


def test_the_command_process_gets_its_cores_a_worker_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NINE_THREADS", raising=False)
    cores = len(os.sched_getaffinity(0))
    assert spare_threads(100) == cores and spare_threads(1) == 1
    monkeypatch.setenv("NINE_THREADS", "3")
    assert spare_threads(100) == 3 and spare_threads(2) == 2
    monkeypatch.setenv("NINE_THREADS", "none")  # not a count: the cores
    assert spare_threads(100) == cores
    with ProcessPoolExecutor(1) as pool:
        assert pool.submit(spare_threads, 100).result() == 1


def test_each_on_threads_keeps_the_order_and_uses_the_threads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NINE_THREADS", "2")
    seen: set[int] = set()
    both = threading.Barrier(2, timeout=10)

    def square(i: int) -> int:
        seen.add(threading.get_ident())
        if i < 2:
            both.wait()  # the first two run at once, or this times out
        return i * i

    assert each_on_threads(square, 5) == [0, 1, 4, 9, 16]
    assert len(seen) == 2 and threading.get_ident() not in seen
    monkeypatch.setenv("NINE_THREADS", "1")
    here: set[int] = set()

    def double(i: int) -> int:
        here.add(threading.get_ident())
        return 2 * i

    assert each_on_threads(double, 3) == [0, 2, 4] and here == {threading.get_ident()}
    monkeypatch.setenv("NINE_THREADS", "2")  # too large to hold twice: one after another
    here.clear()
    assert each_on_threads(double, 3, parallel=False) == [0, 2, 4]
    assert here == {threading.get_ident()}
