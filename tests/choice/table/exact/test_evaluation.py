"""Exact regrets: zero at the equilibrium, positive after any profitable deviation; the same
fractions whether the primes run on one thread or several."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from analyzer.choice.table.dealt.played import infinite_strategies
from analyzer.choice.table.dealt.residues import let_go
from analyzer.choice.table.exact.evaluation import (
    Integers,
    evaluate,
    evaluate_banks,
    exact_regrets,
)
from analyzer.choice.table.indifference import solve_subgame
from analyzer.choice.table.solve import subgame_of
from analyzer.choice.table.subgame import infinite_subgame
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.shoe import Shoe


def test_a_deviation_shows_as_exact_regret() -> None:
    game = infinite_subgame(LUCKY9, 2, "total")
    found = solve_subgame(game)
    seats = [[list(r) for r in rows] for rows in found.seats]
    bank = [list(r) for r in found.bank]
    assert exact_regrets(game, seats, bank)[1] == (0, 0, 0)
    seats[0][0][4] = Fraction(0)  # seat 1 stands on 4
    values, regrets, gaining = exact_regrets(game, seats, bank)
    assert regrets[0] > 0 and (0, 0, 4) in gaining
    assert values[0] < found.values[0]


@pytest.mark.parametrize("by", ["cards", "total"])
def test_primes_on_threads_give_the_same_fractions(by: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each prime's residue walk is independent (the compiled kernels release the GIL): on
    two threads, the same values and regrets, fraction for fraction, as one after another;
    the seats' equations' evaluation over several banks likewise."""
    start = infinite_strategies(LUCKY9, Shoe.decks(1), 3, by)
    key = max(start, key=lambda k: k[0])
    game = subgame_of(LUCKY9, Shoe.decks(1), key, by)
    profile = Integers.of(*start[key])

    def pick(seat_values: Any, bank_values: Any) -> Any:
        return np.concatenate([v.reshape(-1) for v in seat_values])

    banks = [profile.bank, profile.with_bank((0, 0), 1).bank]
    found = {}
    for threads in ("1", "2"):
        monkeypatch.setenv("NINE_THREADS", threads)
        let_go(game)
        game._cache.clear()  # noqa: SLF001 - no memo between the two runs
        found[threads] = (exact_regrets(game, *start[key]),
                          evaluate(game, profile, pick, "seats"),
                          evaluate_banks(game, profile, banks, pick))
    assert found["1"] == found["2"]
    assert found["1"][0][1][-1] > 0  # the infinite deck's play: the bank has a regret
