"""The coup index: every legal coup found by its point values, in a small flat table."""

from __future__ import annotations

import numpy as np

from analyzer.engine.enumeration import coups
from analyzer.engine.lookup import CODES, build_model, card_coup_codes, coup_code, coup_lookup
from analyzer.rules.cards import DECK


def test_every_coup_is_found_by_its_values_and_nothing_else_is() -> None:
    model = build_model("lucky-baccarat", 8)
    index = coup_lookup(model)
    table = coups(model.profile.tableau)
    assert index.rows.nbytes == CODES * 4 < 2_000_000  # 1.5 MB (the base-11 layout: 7 MB)
    for row in range(len(table)):
        player = [int(v) for v in table.player[row] if v >= 0]
        banker = [int(v) for v in table.banker[row] if v >= 0]
        assert index.row(player[::-1] if len(player) == 2 else player, banker) == row
    assert int((index.rows >= 0).sum()) == len(table)
    assert index.row((9, 0), (4, 3, 5)) is None  # a natural: nobody draws
    assert index.row((1, 1), (4, 3)) is None  # Player on 2 draws
    # the arrays path gives the same cells as one coup at a time
    p = np.array([0, 3, 9]), np.array([9, 3, 9]), np.array([10, 5, 10])
    b = np.array([4, 0, 9]), np.array([3, 0, 9]), np.array([10, 10, 10])
    assert coup_code(*p, *b).tolist() == [coup_code(*(int(a[i]) for a in (*p, *b)))
                                          for i in range(3)]


def test_card_coup_codes_match_coup_code_on_every_pair_and_third_card() -> None:
    """Looked up by the cards, the code is coup_code's of their values (lowest first, 10
    for no third card) for every first two cards in either order and every third."""
    value = [card.points for card in DECK] + [10]  # index -1: no third card
    first, second, third = np.meshgrid(np.arange(52), np.arange(52), np.arange(-1, 52),
                                       indexing="ij")
    hands = np.stack([first.ravel(), second.ravel(), third.ravel()], axis=1)
    other = hands[::-1]  # Banker's hands in another order, so the two sides differ
    expected = [coup_code(min(value[a], value[b]), max(value[a], value[b]), value[c],
                          min(value[d], value[e]), max(value[d], value[e]), value[f])
                for (a, b, c), (d, e, f) in zip(hands.tolist(), other.tolist(), strict=True)]
    assert card_coup_codes(hands, other).tolist() == expected
