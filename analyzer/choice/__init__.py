"""Choice games (home Lucky 9, chemin de fer): the game's exact payoff arrays, strategies and
their files, the exact solver and its certificate, the matrix-game check, multi-player tables
(plans, table weights, seat values and best responses, simulation, the report) and sessions.
"""

__all__ = []  # the modules are imported by name; the package re-exports nothing
