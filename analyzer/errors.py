"""The one error type the library raises for bad input, and the nearest names a mistyped
name is offered (:func:`did_you_mean`).

>>> issubclass(AnalyzerError, ValueError)
True
>>> did_you_mean("player_suited_pair", ["player_pair", "player_suited", "winner"])
' (did you mean player_suited or player_pair?)'
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["AnalyzerError", "did_you_mean"]


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
