"""The infinite deck's equilibrium played at one deck: its strategies per finite-shoe subgame
evaluated as a whole table (the epsilon-certificate ``nine certify --infinite-play`` writes)
agree exactly with :func:`played_at`'s evaluation of the same play."""

from __future__ import annotations

from analyzer.choice.table.dealt.played import infinite_strategies, played_at
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.shoe import Shoe


def test_the_infinite_play_as_strategies_has_played_ats_exact_values_and_epsilon() -> None:
    shoe = Shoe.decks(1)
    known = infinite_strategies(LUCKY9, shoe, 3, "cards")
    assert sorted(k[0] for k in known) == [1] * 15 + [2] * 5 + [3]
    table = solve_table(LUCKY9, shoe, 3, "cards", known=known, given_only=True)
    played = played_at(LUCKY9, shoe, 3, "cards")
    assert table.exact and not table.certified
    assert table.values == played
    assert table.max_regret == played.max_regret > 0
