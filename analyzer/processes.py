"""Worker processes that stop with their command: on Ctrl-C, on SIGTERM, and on SIGKILL.

* :func:`worker_pool` is the one way the tool starts worker processes (``nine verify
  --jobs``, ``nine tables --jobs``): a :class:`~concurrent.futures.ProcessPoolExecutor`
  whose workers die with their parent, and whose workers are ended at once (not waited
  for) when the block is left by an exception, an interrupt or a termination.
* :func:`die_with_parent` (each worker's initializer): on Linux the kernel sends the
  worker SIGKILL when its parent dies, whatever killed the parent (``prctl`` with
  ``PR_SET_PDEATHSIG``); elsewhere a watchdog thread ends the worker within a second of
  its parent's death. A worker ignores SIGINT: Ctrl-C reaches the whole process group, and
  the parent alone decides (it ends the workers).

* :func:`task_mapper` maps a picklable function over items on such a pool or on a Dask
  cluster (``--dask local`` or a scheduler's address): ``nine verify --dask`` and ``nine
  certify --dask``; :func:`task_starter` starts the same tasks and leaves this process
  free until it asks for their results (``nine verify`` checks a run of the log itself
  meanwhile).

SIGTERM reaches the command as :class:`analyzer.interrupts.Terminated`: it unwinds out of
:func:`worker_pool` as Ctrl-C does, ending the workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import importlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from functools import cache
from typing import Any

from analyzer.errors import AnalyzerError

__all__ = ["Apply", "Start", "die_with_parent", "each_on_threads", "spare_threads", "task_mapper",
           "task_starter", "worker_pool"]

#: prctl's option: the signal this process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)  # the parent is gone: nothing will read this worker's results


def spare_threads(tasks: int) -> int:
    """Threads worth running ``tasks`` independent compiled tasks that release the GIL on:
    1 in a worker process (a pool or Dask worker: its siblings hold the other cores) or where
    ``NINE_THREADS`` says 1, else the cores this process may run on (at most ``tasks``)."""
    if multiprocessing.parent_process() is not None:
        return 1
    asked = os.environ.get("NINE_THREADS", "")
    cores = int(asked) if asked.isdigit() and int(asked) > 0 else len(os.sched_getaffinity(0))
    return max(1, min(tasks, cores))


def each_on_threads(function: Callable[[int], Any], count: int,
                    parallel: bool = True) -> list[Any]:
    """``function(i)`` for ``i`` in ``range(count)``, in order, on :func:`spare_threads`
    threads (``function`` must be safe to run on several threads at once; ``parallel``
    False: one after another, where each call's memory is too large to hold twice)."""
    threads = spare_threads(count) if parallel else 1
    if threads <= 1:
        return [function(i) for i in range(count)]
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(function, range(count)))


@cache
def _libc() -> Any:
    """The C library (looked up by ``ldconfig`` in a subprocess: about 10 ms, so once, by
    the parent, whose forked workers inherit it)."""
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def die_with_parent(parent: int | None = None) -> None:
    """Make this (worker) process end when its parent dies, even by SIGKILL; ignore
    SIGINT (the parent handles Ctrl-C) and take SIGTERM's default (end at once)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    expected = os.getppid() if parent is None else parent
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            armed = _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    if os.getppid() != expected:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch, args=(expected,), daemon=True).start()


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool's workers now (SIGTERM, then SIGKILL after a second) and let it go."""
    processes = list(getattr(pool, "_processes", {}).values())  # no public accessor
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    for process in processes:
        process.join(1)
        if process.is_alive():
            process.kill()
            process.join()  # SIGKILL cannot be ignored: on a loaded machine it may take >1 s
    # the pool's manager thread reaps the workers too: a child it has reaped but not yet
    # marked still counts as running for multiprocessing.active_children(), so it is
    # joined (taken before shutdown, which forgets it) before the pool is let go
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    if manager is not None:
        manager.join(5)


@contextmanager
def worker_pool(workers: int, method: str | None = None) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes (start ``method``: the platform's default, or
    ``spawn``...) that die with this process; left normally it is shut down and joined,
    left by any exception (Ctrl-C and SIGTERM included) its workers are ended at once."""
    context: Any = multiprocessing.get_context(method)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            _libc()  # before the fork: each worker would look it up again
    # a forkserver's workers are its children, not this process's
    parent = os.getpid() if context.get_start_method() in ("fork", "spawn") else None
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=die_with_parent, initargs=(parent,))
    try:
        yield pool
    except BaseException:
        _end_workers(pool)
        raise
    pool.shutdown(wait=True)


#: Maps a picklable function over items, in order (:func:`task_mapper`).
Apply = Callable[[Callable[[Any], Any], list[Any]], list[Any]]
#: Starts a picklable function over items (:func:`task_starter`); the call it returns
#: waits for the results, in order.
Start = Callable[[Callable[[Any], Any], list[Any]], Callable[[], list[Any]]]


@contextmanager
def task_mapper(dask: str | None, workers: int) -> Iterator[Apply]:
    """A way to map a picklable function over items, in order: a process pool of
    ``workers`` (:func:`worker_pool`), or a Dask cluster (``local``: one of ``workers``
    single-threaded processes; else a scheduler address)."""
    with task_starter(dask, workers) as start:
        yield lambda f, items: start(f, items)()


@contextmanager
def task_starter(dask: str | None, workers: int) -> Iterator[Start]:
    """:func:`task_mapper` in two steps: ``start(f, items)`` hands the tasks to the
    workers at once and returns a call that waits for their results, in order (this
    process is free in between). A pool's workers are all forked by the first start,
    before the pool runs a thread of its own."""
    if dask is None:
        with worker_pool(workers) as pool:
            def start(f: Callable[[Any], Any], items: list[Any]) -> Callable[[], list[Any]]:
                futures = [pool.submit(f, item) for item in items]
                return lambda: [future.result() for future in futures]

            yield start
        return
    try:  # imported by name: an optional extra, untyped
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise AnalyzerError("--dask needs the optional extra: pip install "
                            "'nine-analyzer[dask]'") from None

    def on(client: Any) -> Start:
        def start(f: Callable[[Any], Any], items: list[Any]) -> Callable[[], list[Any]]:
            futures = client.map(f, items, pure=False)
            return lambda: list(client.gather(futures))

        return start

    if dask == "local":
        # Measured settings of the local workers: Dask starts them with
        # MALLOC_TRIM_THRESHOLD_=65536, which hands every freed array back to the system (a
        # check's arrays then cost about twice the CPU), so they keep the allocator's
        # default; they start as the pool's workers do (forked on Linux), not spawned (each
        # importing dask, numpy, numba and the checker again: about 1.5 s of CPU); no
        # statistical profiler (it samples each worker's threads every 10 ms: about 7% of a
        # check's CPU); memory and system monitors every 5 s, not 0.1 and 0.5 s. The
        # workers' CPU then matches the pool's (2 million hands). No dashboard, and the
        # scheduler's HTTP server on a free port: a second cluster does not find 8787 taken.
        config: Any = importlib.import_module("dask").config
        environ = dict(config.get("distributed.nanny.pre-spawn-environ", {}))
        environ.pop("MALLOC_TRIM_THRESHOLD_", None)
        method = multiprocessing.get_context().get_start_method()
        with config.set({"distributed.nanny.pre-spawn-environ": environ,
                         "distributed.worker.multiprocessing-method": method,
                         "distributed.worker.profile.enabled": False,
                         "distributed.worker.memory.monitor-interval": "5s",
                         "distributed.admin.system-monitor.interval": "5s"}), \
                distributed.LocalCluster(n_workers=max(workers, 1), threads_per_worker=1,
                                         dashboard_address=":0",
                                         scheduler_kwargs={"dashboard": False}) as cluster, \
                distributed.Client(cluster) as client:
            try:
                yield on(client)
            except BaseException:  # Ctrl-C, SIGTERM, an error: end the workers now,
                _end_local_workers(cluster)  # without dask's warnings as it finds them gone
                raise
        return
    try:
        client = distributed.Client(dask, timeout=30)
    except OSError as exc:
        raise AnalyzerError(f"--dask {dask}: cannot reach the scheduler ({exc})") from None
    with client:
        yield on(client)


def _end_local_workers(cluster: Any) -> None:
    """End a local Dask cluster's worker processes (children of this process) at once, and
    quiet dask's logging of the cluster closing after them. Each nanny is told first that
    its worker is going away (``close_gracefully``): a nanny restarts a worker that dies
    unexpectedly, and the command would wait, on closing, for fresh workers to start (two
    new processes measured after SIGTERM; tens of seconds on a loaded machine). Only this
    cluster's workers are ended (another cluster's nanny would restart its own)."""
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    pids = set()
    for nanny in list(getattr(cluster, "workers", {}).values()):
        with contextlib.suppress(AttributeError):
            nanny.close_gracefully(reason="the command ends")
            pids.add(nanny.pid)
    ours = [child for child in multiprocessing.active_children() if child.pid in pids]
    for child in ours:
        child.kill()
    for child in ours:
        child.join(5)
