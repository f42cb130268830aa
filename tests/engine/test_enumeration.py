"""The fast engine against an independent brute force over every ordering of real cards."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.engine.enumeration import (
    FeatureColumns,
    coup_ways,
    coups,
    deal,
    denominator,
    terms,
)
from analyzer.engine.odds import odds
from analyzer.rules.cards import DECK, Card, parse_cards
from analyzer.rules.profile import Tableau, load_profile
from analyzer.rules.shoe import Shoe
from tests.conftest import brute_force_deal

PROFILE_FILE = Path(__file__).parent.parent.parent / "analyzer" / "profiles" / "punto-banco.toml"
TABLEAU = load_profile("punto-banco").tableau
assert TABLEAU is not None


def brute_force(cards: list[Card]) -> tuple[Counter[str], Counter[tuple[int, int]], int]:
    """Count outcomes over every ordered choice of 6 of the shoe's physical cards."""
    winners: Counter[str] = Counter()
    totals: Counter[tuple[int, int]] = Counter()
    for ordering in permutations(range(len(cards)), 6):
        values = tuple(cards[i].points for i in ordering)
        winner, player, banker, _ = brute_force_deal(values)
        winners[winner] += 1
        totals[player, banker] += 1
    return winners, totals, sum(winners.values())


def engine_counts(shoe: Shoe) -> dict[str, int]:
    table = odds("punto-banco", shoe)
    return {"banker": table.bet("banker").lines[0].ways,
            "player": table.bet("player").lines[0].ways,
            "tie": table.bet("tie").lines[0].ways}


@settings(max_examples=6, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=8, max_size=9))
def test_engine_matches_brute_force_on_tiny_shoes(cards: list[Card]) -> None:
    shoe = Shoe.from_cards(cards)
    winners, totals, total = brute_force(cards)
    assert denominator(shoe) == total
    assert engine_counts(shoe) == {k: winners[k] for k in ("banker", "player", "tie")}
    engine_totals = {k: v for k, v in odds("punto-banco", shoe).totals.cells if v}
    assert engine_totals == dict(totals)


def test_engine_matches_brute_force_on_a_ten_card_shoe() -> None:
    cards = list(parse_cards("AS 2H 3D 4C 5S 6H 7D 8C 9S KD"))
    winners, _, total = brute_force(cards)
    shoe = Shoe.from_cards(cards)
    assert denominator(shoe) == total == 151200
    assert engine_counts(shoe) == {k: winners[k] for k in ("banker", "player", "tie")}


def test_probabilities_sum_to_one() -> None:
    for shoe in (Shoe.decks(1), Shoe.decks(8).remove([Card.parse("9S")]), Shoe.infinite()):
        table = odds("punto-banco", shoe)
        banker, player = table.bet("banker"), table.bet("player")
        assert banker.lines[0].ways + player.lines[0].ways + banker.lines[1].ways == \
            table.denominator
        assert sum(w for _, w in table.totals.cells) == table.denominator
        assert sum(w for _, w in table.cards_dealt.cells) == table.denominator
        assert sum(w for _, w in table.naturals.cells) == table.denominator
        for bet in table.bets:
            assert sum((line.probability for line in bet.lines), bet.lose_probability) == 1


def test_slow_per_coup_path_agrees_with_the_polynomial() -> None:
    shoe = Shoe.decks(1).remove([Card.parse(c) for c in ("5H", "5D", "KC")])
    per_coup = Counter[str]()
    for coup, ways in coup_ways(TABLEAU, shoe):
        per_coup[coup.features["winner"]] += ways
    assert dict(per_coup) == engine_counts(shoe)


def test_deal_follows_the_tableau() -> None:
    # Player 5 draws a 7 (total 2); Banker 6 draws on a third card of 7.
    coup = deal(TABLEAU, [2, 3, 3, 3, 7, 1, 9])
    assert (coup.player, coup.banker) == ((2, 3, 7), (3, 3, 1))
    assert coup.features["winner"] == "banker"
    # A natural ends the coup at four cards.
    assert deal(TABLEAU, [4, 0, 4, 0, 5, 5]).dealt == (4, 0, 4, 0)


def test_coup_table_size() -> None:
    table = coups(TABLEAU)
    # 10**4 ordered first-four sequences expand to 339,400 ordered value sequences.
    assert int(table.arrangements.sum()) == 339_400
    # NOTES.md: the value sequences collapse to 6,958 (multiset, cards) terms.
    assert terms(TABLEAU).size == 6958


def test_infinite_deck_is_the_limit_of_many_decks() -> None:
    infinite = odds("punto-banco", Shoe.infinite())
    gaps = []
    for decks in (1, 8, 64, 512):
        finite = odds("punto-banco", Shoe.decks(decks))
        gaps.append(abs(finite.bet("banker").ev - infinite.bet("banker").ev))
    assert gaps == sorted(gaps, reverse=True)
    assert gaps[-1] < Fraction(1, 10**5)
    # The infinite deck is exact: over 13**6 equally likely rank-class draws.
    assert infinite.denominator == 13**6
    assert infinite.bet("tie").lines[0].ways == 460601


def test_natural_features_follow_the_profiles_naturals(tmp_path: Path) -> None:
    # A variant where only a two-card 9 is a natural: a two-card 8 that stands is not one.
    text = PROFILE_FILE.read_text().replace("naturals = [8, 9]", "naturals = [9]")
    text = text.replace("7 = []", "7 = []\n8 = []")  # a non-natural 8 needs its row
    text = text.replace('name = "punto-banco"', 'name = "nines-only"')
    text = text.replace('aliases = ["baccarat", "punto", "pb", "mini-baccarat"]', "aliases = []")
    text += ('\n[[bets]]\nid = "natural"\nlines = [{ when = "player_natural", pays = 1 }]\n'
             '\n[[bets]]\nid = "nine"\nlines = [{ when = "player_two_card_total == 9", '
             'pays = 1 }]\n')
    path = tmp_path / "nines-only.toml"
    path.write_text(text)
    table = odds(load_profile(str(path)), Shoe.decks(1))
    assert table.bet("natural").lines[0].ways == table.bet("nine").lines[0].ways
    eights = deal(load_profile(str(path)).tableau, [4, 3, 4, 3, 9, 9])  # type: ignore[arg-type]
    assert eights.features["player_two_card_total"] == 8
    assert not eights.features["player_natural"]


def test_feature_columns_match_each_coups_features_and_are_built_when_read() -> None:
    """Every column of the coup table equals :func:`Coup.features` row by row (a sample of
    rows), and a fresh table holds only the columns read and those they are built from."""
    fresh = FeatureColumns(coups(TABLEAU).player, coups(TABLEAU).banker, TABLEAU.naturals)
    assert fresh["margin"].shape == (len(coups(TABLEAU)),)
    assert set(fresh._held) == {"margin", "player_total", "banker_total"}
    table = coups(TABLEAU)
    for row in range(0, len(table), 997):
        expected = table.coup(row).features
        assert {name: table.features[name][row].item() for name in table.features} == \
            {name: expected[name] for name in table.features}, row


def _coup_rows(tableau: Tableau) -> list[tuple[int, ...]]:
    """The tableau's coups one by one (a reference for the array layout of ``coups``)."""
    rows = []
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]
    for (p1, p2), (b1, b2) in itertools.product(pairs, repeat=2):
        n = (1 if p1 == p2 else 2) * (1 if b1 == b2 else 2)
        pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
        if pt in tableau.naturals or bt in tableau.naturals:
            rows.append((p1, p2, -1, b1, b2, -1, n))
        elif pt in tableau.player_draws:
            for p3 in range(10):
                thirds = range(10) if tableau.banker_draws_on(bt, p3) else [-1]
                rows += [(p1, p2, p3, b1, b2, b3, n) for b3 in thirds]
        else:
            thirds = range(10) if tableau.banker_draws_on(bt, None) else [-1]
            rows += [(p1, p2, -1, b1, b2, b3, n) for b3 in thirds]
    return rows


@pytest.mark.parametrize("seed", range(6))
def test_coup_table_rows_in_order_for_any_tableau(seed: int) -> None:
    rng = random.Random(seed)
    base = load_profile("punto-banco").tableau
    assert base is not None

    def some() -> frozenset[int]:
        return frozenset(t for t in range(10) if rng.random() < 0.5)

    tableau = base if seed == 0 else replace(
        base, naturals=some(), player_draws=some(), banker_draws_player_stood=some(),
        banker_draws=tuple(some() for _ in range(10)))
    table = coups(tableau)
    found = np.concatenate([table.player, table.banker, table.arrangements[:, None]], axis=1)
    assert found.tolist() == [list(r) for r in _coup_rows(tableau)]
    assert table.player.dtype == table.arrangements.dtype == np.int64
