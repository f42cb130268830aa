"""Writing output files atomically: readers see the old file or the new one, never a part."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write"]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, content: bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file in the same folder, then
    :func:`os.replace` (atomic on POSIX and Windows); the temporary file never outlives a
    failure. The file keeps its mode (a new one gets the umask's, as ``open`` gives it).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = pathlib.Path(folder) / "a.txt"
    ...     atomic_write(target, b"one"); atomic_write(target, b"two")
    ...     target.read_bytes(), sorted(p.name for p in pathlib.Path(folder).iterdir())
    (b'two', ['a.txt'])
    """
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        # mkstemp makes the file private (0600); give it the mode a plain write would
        os.chmod(temporary, target.stat().st_mode & 0o7777 if target.is_file()
                 else 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
