"""Settling a bet on a coup: which paylines hold, which pay, and the net result.

By default only the single highest holding line pays (the Lucky pair rule); a bet with
``pay_rule = "all"`` pays every holding line. A bet with no holding line loses its stake.

>>> from analyzer.rules.profile import load_profile
>>> from analyzer.engine.enumeration import Coup
>>> banker = load_profile("punto-banco").bet("banker")
>>> settle(banker, Coup((0, 0), (4, 5)).features), net_payout(banker, (0,))
((0,), Fraction(19, 20))
>>> settle(banker, Coup((0, 0), (0, 0)).features), net_payout(banker, (1,))
((1,), Fraction(0, 1))
>>> net_payout(banker, ())
Fraction(-1, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from analyzer.rules.profile import Bet

__all__ = ["net_payout", "Result", "settle", "settle_codes"]

#: A bet's result on one coup: indices of the paylines that pay (empty when it loses).
Result = tuple[int, ...]


def settle(bet: Bet, features: Mapping[str, Any]) -> Result:
    """The paylines that pay on a coup with these features."""
    holding = [i for i, line in enumerate(bet.lines) if line.when(features)]
    if not holding or bet.pay_rule == "all":
        return tuple(holding)
    best = max(holding, key=lambda i: (bet.lines[i].pays, -i))
    return (best,)


def settle_codes(bet: Bet, features: Mapping[str, Any]) -> tuple[Any, list[Result]]:
    """Settle every coup of a feature table at once: a result code per row, and the labels.

    Code ``c`` stands for ``labels[c]``; with the "highest" rule code 0 is a loss and
    code ``i + 1`` line ``i``; with the "all" rule the code is a bit mask of paying lines.
    """
    import numpy as np

    holding = [np.asarray(line.when(features), dtype=bool) for line in bet.lines]
    if bet.pay_rule == "all":
        codes = sum(h.astype(np.int64) << i for i, h in enumerate(holding))
        labels = [tuple(i for i in range(len(bet.lines)) if mask >> i & 1)
                  for mask in range(1 << len(bet.lines))]
        return codes, labels
    # highest payout first; among equal payouts the line listed first
    order = sorted(range(len(bet.lines)), key=lambda i: (-bet.lines[i].pays, i))
    codes = np.zeros(holding[0].shape, dtype=np.int64)
    for i in reversed(order):
        codes = np.where(holding[i], i + 1, codes)
    labels = [(), *((i,) for i in range(len(bet.lines)))]
    return codes, labels


def net_payout(bet: Bet, result: Result) -> Fraction:
    """Net win per unit staked: the paying lines' odds, or -1 when nothing holds."""
    if not result:
        return Fraction(-1)
    return sum((bet.lines[i].pays for i in result), Fraction(0))
