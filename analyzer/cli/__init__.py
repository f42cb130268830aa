"""The ``nine`` command line: parses options, calls one library function, renders the result.

:mod:`~analyzer.cli.commands` assembles the group (each command's module is imported when
the command is run), :mod:`~analyzer.cli.common` holds what the commands share. The library
never imports this package.
"""

from analyzer.cli.commands import main, run

__all__ = ["main", "run"]
