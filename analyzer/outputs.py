"""The one output layer: every file the tool writes is written here, whole or not at all.

* **Atomic.** :func:`write_file` (content in memory) and :func:`output_stream` (a log
  written as it is dealt) write a temporary file in the target's folder, ``fsync`` it,
  rename it over the target (:func:`os.replace`, atomic on POSIX and Windows) and
  ``fsync`` the folder. Readers see the old file or the new one, never a part; on any
  error (disk full, permission, an exception or Ctrl-C while writing) the old file stays
  and the temporary is removed. Temporaries are named ``.<name>.<random>.nine-tmp``
  (:func:`is_temporary`), so a run killed outright (SIGKILL) leaves one that can be told
  from the user's files.
* **Named from sanitised parts.** :func:`inside` joins a folder and a file name made
  from data (a profile's name) and refuses anything that does not stay inside the folder.
* **Never over an input.** :func:`refuse_inputs`: no output path is one of the command's
  inputs, compared by resolved path and by inode (a hard link is the same file).

Every failure is one :class:`analyzer.errors.AnalyzerError` naming the user's path (never
the temporary's); a full disk says so.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePath
from typing import IO, Any

from analyzer.errors import AnalyzerError

__all__ = ["MAX_NAME", "TEMPORARY_SUFFIX", "check_output_path", "inside", "is_temporary",
           "make_folder", "output_stream", "refuse_inputs", "write_failure", "write_file"]

#: Longest file name (bytes of one path component) the tool writes; the common file
#: systems' limit.
MAX_NAME = 255
#: How the output layer's temporary files end.
TEMPORARY_SUFFIX = ".nine-tmp"
#: How much of the target's name a temporary's name keeps (its name stays short).
_KEPT = 40


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "no space left on device"
    if exc.errno == errno.EDQUOT:
        return "disk quota exceeded"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "read-only file system"
    if exc.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return exc.strerror or str(exc)


def write_failure(path: str | Path, exc: OSError) -> AnalyzerError:
    """The one-line error for a failed write of ``path`` (the user's name for it)."""
    return AnalyzerError(f"{path}: cannot write ({_reason(exc)}); nothing was written")


def check_output_path(path: str | Path) -> Path:
    """``path`` as a Path, refused when no file system could hold it: a NUL byte, a name
    longer than :data:`MAX_NAME` bytes, or a folder where the file should go."""
    text = os.fspath(path)
    if "\x00" in text:
        raise AnalyzerError(f"{text!r}: a NUL byte in a file name")
    target = Path(text)
    if not target.name or target.name in (".", ".."):
        raise AnalyzerError(f"{text}: not a file name")
    for part in target.parts:
        if len(os.fsencode(part)) > MAX_NAME:
            raise AnalyzerError(f"{text[:60]}...: a file name longer than {MAX_NAME} bytes")
    if target.is_dir():
        raise AnalyzerError(f"{text}: is a folder, not a file")
    return target


def make_folder(path: str | Path) -> Path:
    """The output folder ``path``, created (with its parents) when missing; a file, a loop
    of symbolic links or a link to nothing in its place is one error naming it."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        try:
            os.stat(folder)
        except OSError as missing:
            if missing.errno == errno.ELOOP or os.path.islink(folder):
                what = ("a loop of symbolic links" if missing.errno == errno.ELOOP
                        else "a symbolic link to nothing")
                raise AnalyzerError(f"{path}: cannot create the folder ({what})") from None
        if isinstance(exc, FileExistsError):
            raise AnalyzerError(f"{path}: exists and is not a folder") from None
        raise AnalyzerError(f"{path}: cannot create the folder ({_reason(exc)})") from None
    return folder


def is_temporary(name: str) -> bool:
    """Is ``name`` the name of one of this layer's temporary files?"""
    return name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _temporary(target: Path, made: list[str]) -> int:
    """A new temporary file beside ``target``, opened for writing; its name is put in
    ``made`` before it is created, so that an interrupt at any point leaves the caller
    the name to remove (the name is random and created exclusively: a file of that name
    after a failure is this call's)."""
    kept = os.fsencode(target.name)[:_KEPT].decode("utf-8", "ignore")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        made.append(str(target.parent / f".{kept}.{os.urandom(6).hex()}{TEMPORARY_SUFFIX}"))
        try:
            return os.open(made[-1], flags, 0o600)
        except FileExistsError:
            made.pop()  # another file's name: never removed
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(target.parent))


def _sync_folder(folder: Path) -> None:
    """``fsync`` a folder, so a rename in it survives a crash (where the system allows)."""
    try:
        handle = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:
        return  # a folder that cannot be opened for reading (Windows): the rename stands
    try:
        os.fsync(handle)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(handle)


def _publish(temporary: str, target: Path) -> None:
    """Give the temporary the target's mode, rename it over the target, sync the folder."""
    try:
        mode = target.stat().st_mode & 0o7777 if target.is_file() else 0o666 & ~_umask()
    except OSError:
        mode = 0o666 & ~_umask()
    os.chmod(temporary, mode)  # the temporary was made private (0600)
    os.replace(temporary, target)
    _sync_folder(target.parent)


def _discard(made: list[str]) -> None:
    for temporary in made:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def write_file(path: str | Path, content: bytes | str) -> None:
    """Write ``content`` (text is UTF-8) to ``path`` atomically (see the module docstring).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = pathlib.Path(folder) / "a.txt"
    ...     write_file(target, b"one"); write_file(target, "two")
    ...     target.read_bytes(), sorted(p.name for p in pathlib.Path(folder).iterdir())
    (b'two', ['a.txt'])
    """
    target = check_output_path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    made: list[str] = []
    try:
        handle = _temporary(target, made)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view):]
            os.fsync(handle)
        finally:
            os.close(handle)
        _publish(made[-1], target)
    except OSError as exc:
        _discard(made)
        raise write_failure(path, exc) from None
    except BaseException:
        _discard(made)
        raise


@contextmanager
def output_stream(path: str | Path, binary: bool = False,
                  newline: str | None = None) -> Iterator[IO[Any]]:
    """A stream to write ``path`` through: a temporary file renamed over ``path`` when
    the block ends without an error, removed otherwise (the old file stays).

    A write error inside the block (a full disk) is one error naming ``path``.
    """
    target = check_output_path(path)
    made: list[str] = []
    try:
        handle = _temporary(target, made)
        mode = "wb" if binary else "w"
        with open(handle, mode, encoding=None if binary else "utf-8",  # noqa: SIM115
                  newline=None if binary else newline) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        _publish(made[-1], target)
    except OSError as exc:
        _discard(made)
        if exc.filename is not None and exc.filename not in made:
            raise  # not this file's write: an input's error, reported as it is
        raise write_failure(path, exc) from None
    except BaseException:
        _discard(made)
        raise


def inside(folder: str | Path, name: str) -> Path:
    """``folder / name`` for a file name made from data, refused unless it is one plain
    name that stays inside ``folder`` (no separator, no ``..``, no NUL, not too long).

    >>> inside("out", "punto-banco.html").as_posix()
    'out/punto-banco.html'
    >>> inside("out", "../victim")
    Traceback (most recent call last):
    ...
    analyzer.errors.AnalyzerError: out: '../victim' is not a file name inside the folder
    """
    pure = PurePath(name)
    if ("\x00" in name or not name or "/" in name or "\\" in name or name in (".", "..")
            or pure.is_absolute() or len(pure.parts) != 1):
        raise AnalyzerError(f"{folder}: {name!r} is not a file name inside the folder")
    path = Path(folder) / name
    check_output_path(path)
    try:
        base, resolved = Path(folder).resolve(), path.resolve()
    except (RuntimeError, OSError):  # Python 3.11 raises RuntimeError on a loop
        raise AnalyzerError(f"{path}: cannot write (a loop of symbolic links)") from None
    if not resolved.is_relative_to(base):
        raise AnalyzerError(f"{path}: resolves outside {folder} (a symbolic link); "
                            "nothing was written")
    return path


def _identity(path: str | Path) -> tuple[str, tuple[int, int] | None]:
    """A path's resolved form and (device, inode) when it exists."""
    resolved = os.path.realpath(path)
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return resolved, None
    return resolved, (status.st_dev, status.st_ino)


def refuse_inputs(outputs: Iterable[tuple[str, str | Path | None]],
                  inputs: Iterable[str | Path | None]) -> None:
    """Refuse before any work when an output (option, path) is one of the inputs or
    another output: the same resolved path, or the same file by inode (a hard link).

    Inputs that are not files (a shipped profile's name) are passed over.
    """
    seen: list[tuple[str, str, tuple[int, int] | None]] = []
    for item in inputs:
        if item is None or not os.path.isfile(item):
            continue
        seen.append((f"the input {item}", *_identity(item)))
    for option, path in outputs:
        if path is None:
            continue
        resolved, inode = _identity(path)
        for what, other, other_inode in seen:
            if resolved == other or (inode is not None and inode == other_inode):
                raise AnalyzerError(f"{path}: {option} would overwrite {what}; give "
                                    "another path (nothing was written)")
        seen.append((f"the file of {option}", resolved, inode))
