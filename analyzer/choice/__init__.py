"""Choice games (home Lucky 9, chemin de fer): the game's exact payoff arrays, strategies and
their files, the exact solver and its certificate, the matrix-game check, multi-player tables
and sessions.
"""

__all__: list[str] = []
