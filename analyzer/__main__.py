"""``python -m analyzer`` runs the ``nine`` command."""

from analyzer.cli.commands import run

run()
