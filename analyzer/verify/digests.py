"""The SHA-256 of each input file, computed on a thread while the command does serial work.

``nine verify --jobs N`` may use N cores, but before its workers start only one of them
is busy (reading the logs' first lines, building and loading what the workers inherit).
:class:`FileDigests` reads and hashes the files on a thread meanwhile (hashlib and file
reads release the GIL, so the thread runs on an idle core), stops before the process
forks its workers (:meth:`FileDigests.pause`: no thread runs across a fork), and
:meth:`FileDigests.of` hashes what is left. With one process (``--jobs 1``) nothing
runs on a thread: the files are hashed when their digests are asked for.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "log.csv")
>>> with open(path, "wb") as f:
...     _ = f.write(b"abc")
>>> digests = FileDigests([path])
>>> digests.start()
>>> digests.pause()
>>> digests.of(path)
'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from collections.abc import Sequence
from typing import Any

from analyzer.errors import AnalyzerError
from analyzer.inputs import open_regular

__all__ = ["FileDigests"]

#: Bytes read and hashed at a time (at most). The thread takes the GIL back after each
#: read and each hash, waiting up to the interpreter's switch interval (5 ms) while this
#: process runs Python: 16 MB a step hashes about 1.2 GB/s beside the parent's work on a
#: 2-core machine, 4 MB 0.85 GB/s (a 498 MB log, measured).
_BUFFER = 1 << 24


class FileDigests:
    """Each file's SHA-256 (hex), hashed in order a buffer at a time: on a thread between
    :meth:`start` and :meth:`pause`, the rest when a digest is asked for (:meth:`of`).
    Hashing stops at an unreadable file: asking for its digest raises its one-line error
    (the files after it are never read)."""

    def __init__(self, paths: Sequence[str]) -> None:
        self._paths = list(paths)
        self._done: dict[str, str] = {}
        self._next = 0  # the index of the file being hashed
        self._stream: io.BufferedReader | None = None
        self._hash: Any = None  # hashlib's object (its class is not public)
        self._error: BaseException | None = None
        self._buffer = bytearray()  # sized for each file (at most _BUFFER), then freed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Hash on a thread until :meth:`pause` (or the end of the files)."""
        if self._thread is None and self._error is None and self._next < len(self._paths):
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="nine-digests",
                                            daemon=True)
            self._thread.start()

    def pause(self) -> None:
        """Stop the thread after the buffer it is hashing (nothing is lost)."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    def close(self) -> None:
        """Stop hashing for good: the thread paused, the open file and buffer let go."""
        self.pause()
        self._close()

    def of(self, path: str) -> str:
        """One of the files' digests (the thread paused, the rest hashed in this one)."""
        self.pause()
        while path not in self._done and self._error is None and self._step():
            pass
        if path not in self._done and self._error is not None:
            raise self._error
        return self._done[path]

    def _run(self) -> None:
        while not self._stop.is_set() and self._error is None and self._step():
            pass

    def _step(self) -> bool:
        """Hash one buffer (opening the next file first); False when every file is done."""
        if self._next >= len(self._paths):
            return False
        path = self._paths[self._next]
        try:
            if self._stream is None:
                self._stream = open_regular(path)
                self._hash = hashlib.sha256()
                length = os.fstat(self._stream.fileno()).st_size
                # (a megabyte at least: a file growing as it is read is not read in crumbs)
                self._buffer = bytearray(min(_BUFFER, max(length + 1, 1 << 20)))
            view = memoryview(self._buffer)
            size = self._stream.readinto(view)
            if size:
                self._hash.update(view[:size])
                return True
        except OSError as exc:
            self._close()
            self._error = AnalyzerError(f"{path}: cannot read ({exc.strerror})")
            return False
        except BaseException as exc:  # (on the thread: raised again by of())
            self._close()
            self._error = exc
            return False
        self._done[path] = self._hash.hexdigest()
        self._close()
        self._next += 1
        return self._next < len(self._paths)

    def _close(self) -> None:
        self._buffer = bytearray()
        if self._stream is not None:
            self._stream.close()
            self._stream = None
