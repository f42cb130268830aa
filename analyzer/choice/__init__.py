"""Choice games (home Lucky 9, chemin de fer): the game's exact payoff arrays, strategies and
their files, the exact heads-up solver and its certificate, the matrix-game check; whole home
Lucky 9 tables of 2 to 9 people: the extensive form and its Gambit export, subgames per
natural pattern, CFR+, the exact indifference solve and certificate, table strategies, costs
and advice; the earlier table model (plans, weights, best-response dynamics, simulation) and
sessions.
"""

__all__ = []  # the modules are imported by name; the package re-exports nothing
