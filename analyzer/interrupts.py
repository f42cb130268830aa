"""Ctrl-C and SIGTERM end a command cleanly: it unwinds (workers ended, temporary files
removed) and exits 130 or 143, as shells and CI runners expect.

Python turns SIGINT into :class:`KeyboardInterrupt`; :func:`stop_on_terminate` does the
same for SIGTERM (what ``timeout`` and ``subprocess.run(timeout=...)`` send), raising
:class:`Terminated` in the main thread. Neither is an :class:`Exception`, so no handler of
errors swallows them on the way out. A Python handler runs between two steps of the
interpreter: a process stuck inside a library's C code (holding the interpreter) sees
SIGTERM only when that code returns; SIGKILL always ends it, and its workers with it
(:mod:`analyzer.processes`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["EXIT_INTERRUPTED", "EXIT_TERMINATED", "Terminated", "stop_on_terminate"]

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130
#: Exit status after SIGTERM (128 + SIGTERM).
EXIT_TERMINATED = 143


class Terminated(BaseException):
    """SIGTERM arrived: the command unwinds (like KeyboardInterrupt) and exits 143."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def stop_on_terminate() -> Iterator[None]:
    """Inside the block, SIGTERM raises :class:`Terminated` in the main thread (the
    handler before it is put back after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


