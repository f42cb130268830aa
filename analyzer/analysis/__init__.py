"""Analyses built on the engine: payouts solved for a target edge, closed-form deck formulas,
effects of removal, and the odds across a shoe (drift, betting windows, card counting).
"""

__all__: list[str] = []
