"""Whole home Lucky 9 tables, 2 to 9 people, in the rules' information model (a seat sees its
own cards, every natural and the earlier seats' choices; the bank sees every choice): the
extensive form (:mod:`.tree`), subgames per natural pattern (:mod:`.subgame`), CFR+
(:mod:`.cfr`), the exact indifference solve of a subgame (:mod:`.indifference`), the certified
table (:mod:`.solve`), strategies at a table (:mod:`.strategy`), the bank's edge and the cost
of simple rules (:mod:`.costs`, :mod:`.summary`) and advice in one situation (:mod:`.advice`).
Exact arithmetic (residues and CRT, exact evaluation, the equations) is :mod:`.exact`.
"""

__all__: list[str] = []
