"""The ``nine`` command line: parses options, calls one library function, renders the result.
The library never imports this package.
"""

from analyzer.cli.commands import main

__all__ = ["main"]
