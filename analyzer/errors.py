"""The one error type the library raises for bad input, the nearest names a mistyped name
is offered (:func:`did_you_mean`), and the test that tells a failure that means "out of
memory" (a library that cannot be loaded under a memory limit says so only in its own words).

>>> issubclass(AnalyzerError, ValueError)
True
>>> did_you_mean("player_suited_pair", ["player_pair", "player_suited", "winner"])
' (did you mean player_suited or player_pair?)'
"""

from __future__ import annotations

import difflib
import errno
from collections.abc import Iterable

try:
    import resource
except ImportError:  # not on Windows
    resource = None  # type: ignore[assignment]

__all__ = ["AnalyzerError", "did_you_mean", "is_out_of_memory", "OUT_OF_MEMORY"]

#: What a command says when it runs out of memory.
OUT_OF_MEMORY = "out of memory (see the limits in the README)"


def did_you_mean(name: str, known: Iterable[str], most: int = 3) -> str:
    """`` (did you mean a or b?)`` with the known names nearest ``name``, or ``""``."""
    near = difflib.get_close_matches(name.lower(), list(known), n=most, cutoff=0.6)
    if not near:
        return ""
    listed = near[0] if len(near) == 1 else ", ".join(near[:-1]) + f" or {near[-1]}"
    return f" (did you mean {listed}?)"


class AnalyzerError(ValueError):
    """Bad input: an unknown card, an impossible shoe, an invalid profile or log.

    The message is one line that names the file, line or field at fault, so the
    command-line interface can print it as it is and exit non-zero.
    """


#: What a shared library that could not be mapped into memory is reported as (the loader's
#: words, llvmlite's and ctypes').
_LOAD_FAILURES = ("shared object", "map segment", "cannot allocate memory",
                  "Cannot allocate memory")


def _memory_limited() -> bool:
    """Does this process run under a finite address-space limit (``ulimit -v``)?"""
    if resource is None:
        return False
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    return bool(soft != resource.RLIM_INFINITY)


def is_out_of_memory(exc: BaseException) -> bool:
    """Does ``exc`` mean the process ran out of memory: a MemoryError, an ENOMEM, or a
    library (numba's llvmlite, a numpy extension) that failed to load under a memory
    limit?"""
    if isinstance(exc, MemoryError):
        return True
    if isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
        return True
    return (isinstance(exc, OSError | ImportError)
            and any(words in str(exc) for words in _LOAD_FAILURES) and _memory_limited())
