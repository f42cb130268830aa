"""The exact engine: every coup a tableau can deal compiled into (multiset, cards) terms,
exact odds of every bet on any shoe, card-level bets, the two- and four-card forms, the compiled
coup lookup and the depleted-shoe evaluators. Imports only :mod:`analyzer.rules`.
"""

__all__: list[str] = []
