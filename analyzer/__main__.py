"""``python -m analyzer`` runs the ``nine`` command."""

from analyzer.cli import main

main()
