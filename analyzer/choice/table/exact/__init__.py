"""Exact arithmetic of the table solver: the residue ring over primes with CRT
(:mod:`.ring`), exact counterfactual values and regrets (:mod:`.evaluation`), and the
indifference equations built and solved exactly (:mod:`.equations`).
"""

__all__: list[str] = []
