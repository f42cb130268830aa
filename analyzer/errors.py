"""The one error type the library raises for bad input.

>>> issubclass(AnalyzerError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["AnalyzerError"]


class AnalyzerError(ValueError):
    """Bad input: an unknown card, an impossible shoe, an invalid profile or log.

    The message is one line that names the file, line or field at fault, so the
    command-line interface can print it as it is and exit non-zero.
    """
