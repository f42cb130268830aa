"""Seat and banker plans at a table of several players: own-hand plans are informed plans."""

from __future__ import annotations

import pytest

from analyzer.choice.plans import banker_from_strategy, house_banker, house_player, informed_plan
from analyzer.choice.responses import banker_best_response, seat_values
from analyzer.errors import AnalyzerError
from tests.choice.conftest import table


@pytest.mark.parametrize("decks", [0, 1])
def test_own_hand_plans_are_informed_plans_that_ignore_the_earlier_choices(decks: int) -> None:
    game = table(decks, 2)
    plans = [house_player()] * 2
    bank = banker_from_strategy(game, house_banker())
    informed = [informed_plan(plan, seat) for seat, plan in enumerate(plans)]
    assert not any(p.uses_earlier_choices for p in informed)
    assert seat_values(game, informed, bank) == seat_values(game, plans, bank)
    assert banker_best_response(game, informed) == banker_best_response(game, plans)
    with pytest.raises(AnalyzerError, match="seat 2 given to seat 1"):
        seat_values(game, [informed[1], informed[1]], bank)
