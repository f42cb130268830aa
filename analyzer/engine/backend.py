"""Which implementation runs the engine's hot loops: the numpy reference or the fused
kernels of :mod:`analyzer.engine.kernels` (numba, compiled once and cached on disk).

Importing numba and loading the cached kernels costs about half a second, more than a
single exact tally or a small batch takes in numpy, so the choice is made per call:

* ``NINE_KERNELS=numpy`` or ``numba`` in the environment forces one (``numba`` falls back to
  numpy when numba is not installed);
* otherwise (``auto``) the kernels run once they are loaded, or once the numpy work done in
  this process would have paid for loading them (:data:`WORK_BEFORE_KERNELS` estimated
  seconds). A one-shot ``nine odds`` never imports numba.

A caller may also name the kernel (``"numpy"`` or ``"numba"``) for one call, as the tests
and benchmarks do. Both give the same exact integers; float results agree to rounding.
"""

from __future__ import annotations

import gc
import math
import os
import sys
from functools import cache
from importlib.util import find_spec

__all__ = ["ESTIMATED_SECONDS", "KERNEL_MODULE", "WORK_BEFORE_KERNELS", "kernels_available",
           "loaded", "preload", "preload_work", "use_kernels"]

KERNEL_MODULE = "analyzer.engine.kernels"
#: Switch to the kernels after this many estimated seconds of numpy work in one process.
WORK_BEFORE_KERNELS = 0.3
#: Estimated numpy seconds per unit of work, by kind of call.
#: ("shuffle": per hand of an independent-model log, the CPU the shuffle tally's fused loop
#: saves over its numpy one, about 0.15 s per 2M hands, against 0.3-0.4 s for loading numba
#: and the loop: it pays past about 5M hands; measured 3 December 2026.)
ESTIMATED_SECONDS = {"tally": 3e-4, "batch": 6e-5, "shoe-aware": 1e-4, "shuffle": 6e-8}
_done = {"seconds": 0.0}


@cache
def kernels_available() -> bool:
    """Is numba installed (without importing it)?"""
    return find_spec("numba") is not None


def loaded() -> bool:
    """Are the kernels loaded in this process? Then numba is imported already, and other
    fused loops (the verifier's shoe-aware tallies) cost no import of their own."""
    return KERNEL_MODULE in sys.modules and os.environ.get("NINE_KERNELS") != "numpy"


def use_kernels(kernel: str | None, kind: str, work: int = 1) -> bool:
    """Should this call (``work`` units of ``kind``) run the fused kernels?"""
    if kernel is None:
        kernel = os.environ.get("NINE_KERNELS", "auto")
    if kernel == "numpy" or not kernels_available():
        return False
    if kernel == "numba" or KERNEL_MODULE in sys.modules:
        return True
    _done["seconds"] += ESTIMATED_SECONDS.get(kind, 1e-3) * work
    return _done["seconds"] > WORK_BEFORE_KERNELS


def preload(kind: str, work: int) -> bool:
    """Load the kernels now if ``work`` units of ``kind`` will pay for them (a parent does
    this before forking workers, which then inherit them); True if loaded."""
    if os.environ.get("NINE_KERNELS", "auto") == "numpy" or not kernels_available():
        return False
    if ESTIMATED_SECONDS.get(kind, 1e-3) * work <= WORK_BEFORE_KERNELS:
        return False
    collecting = gc.isenabled()
    gc.disable()  # importing numba builds objects kept for good, which the collector would
    try:  # go through again and again (about 0.06 s of the import's 0.3 s)
        __import__(KERNEL_MODULE)
    except ImportError:
        return False
    finally:
        if collecting:
            gc.enable()
    return True


def preload_work(kind: str) -> int:
    """A ``work`` of ``kind`` past which :func:`preload` loads the kernels (when numba is
    installed and not refused): a caller counting its work may stop counting there."""
    return math.ceil(WORK_BEFORE_KERNELS / ESTIMATED_SECONDS.get(kind, 1e-3))
