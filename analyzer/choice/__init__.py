"""Choice games (home Lucky 9, chemin de fer), in four parts, each importing only those before:

* :mod:`~analyzer.choice.strategy` -- strategy files, read and written;
* :mod:`~analyzer.choice.headsup` -- one player against the banker: the exact payoff arrays,
  the certified solver, outcome probabilities and an independent matrix-game check;
* :mod:`~analyzer.choice.table` -- whole home Lucky 9 tables of 2 to 9 people in the rules'
  information model: the extensive form, subgames per natural pattern, CFR+, the exact
  indifference solve and certificate (its exact arithmetic in :mod:`~analyzer.choice.table.exact`),
  table strategies, costs, summaries and advice;
* :mod:`~analyzer.choice.play` -- hands dealt with real cards: seeded sessions and logs.
"""

__all__: list[str] = []
