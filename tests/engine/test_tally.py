"""The fused tally plan against the per-tally Python-int path, numpy against the kernels,
at deck counts inside int64 and past it (residues and CRT)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.engine import backend
from analyzer.engine.enumeration import compile_tally, coups, term_weights, terms
from analyzer.engine.odds import odds
from analyzer.engine.tally import build_plan, check_plan, half_patterns
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import settle_codes
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

PROFILE = load_profile("punto-banco")
TABLEAU = PROFILE.tableau
KERNELS = ["numpy", pytest.param("numba", marks=pytest.mark.skipif(
    not backend.kernels_available(), reason="numba not installed"))]


def _codings() -> list[tuple[object, object]]:
    f = coups(TABLEAU).features
    codings = [settle_codes(bet, f) for bet in load_profile("side-bets").bets
               if not bet.card_level]
    codings.append((f["player_total"] * 10 + f["banker_total"], None))
    return codings


PLAN = build_plan(TABLEAU, _codings())


def _python_ints(shoe: Shoe) -> list[dict[object, int]]:
    """Each tally separately, weights as Python ints (object arrays): the old exact path."""
    weights = term_weights(terms(TABLEAU), shoe).astype(object)
    return [compile_tally(TABLEAU, codes, labels).evaluate(weights)
            for codes, labels in _codings()]


def test_the_fused_plan_has_fewer_entries_than_its_tallies_apart() -> None:
    apart = [compile_tally(TABLEAU, codes, labels) for codes, labels in _codings()]
    assert PLAN.size < sum(tally.term_index.size for tally in apart)
    assert PLAN.keys == tuple(tally.keys for tally in apart)
    check_plan(PLAN)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("decks", [1, 8, 30, 64, 1000])
def test_plan_equals_python_int_tallies(decks: int, kernel: str) -> None:
    shoe = Shoe.decks(decks)
    assert PLAN.evaluate(shoe, kernel) == _python_ints(shoe)


@pytest.mark.parametrize("kernel", KERNELS)
def test_plan_on_the_infinite_deck_and_a_thin_shoe(kernel: str) -> None:
    thin = Shoe.from_cards(Shoe.decks(1).cards()[:7])
    for shoe in (Shoe.infinite(), thin):
        assert PLAN.evaluate(shoe, kernel) == _python_ints(shoe)


@pytest.mark.skipif(not backend.kernels_available(), reason="numba not installed")
@settings(max_examples=30, deadline=None)
@given(decks=st.sampled_from([2, 8, 40, 300]), seed=st.integers(0, 2**32 - 1),
       dealt=st.integers(0, 400))
def test_kernel_and_numpy_agree_exactly_on_random_depleted_shoes(decks: int, seed: int,
                                                                 dealt: int) -> None:
    cards = Shoe.decks(decks).cards()
    random.Random(seed).shuffle(cards)
    shoe = Shoe.from_cards(cards[min(dealt, len(cards) - 6):])
    assert odds(PROFILE, shoe, "numba") == odds(PROFILE, shoe, "numpy")


def test_odds_past_int64_matches_the_python_int_path() -> None:
    shoe = Shoe.decks(64)
    table = odds(PROFILE, shoe)
    old = _python_ints(shoe)
    assert table.denominator > 2**63
    # punto banco's banker bet settles like side-bets' banker bet
    assert table.bet("banker").lines[0].ways == old[0][(0,)]
    assert sum(ways for _, ways in table.totals.cells) == table.denominator


def test_half_patterns_by_a_one_dimensional_key_match_unique_rows() -> None:
    multiplicity = terms(TABLEAU).multiplicity
    low_index, low, high_index, high = half_patterns(multiplicity)
    for index, patterns, columns in ((low_index, low, slice(0, 5)),
                                     (high_index, high, slice(5, 10))):
        unique, inverse = np.unique(multiplicity[:, columns], axis=0, return_inverse=True)
        assert np.array_equal(patterns, unique)
        assert np.array_equal(index, inverse.reshape(-1))


def test_terms_by_a_one_dimensional_key_match_unique_rows() -> None:
    table = coups(TABLEAU)
    cards = np.concatenate([table.player, table.banker], axis=1)
    counts = np.stack([(cards == v).sum(axis=1) for v in range(10)], axis=1)
    unique, inverse = np.unique(counts, axis=0, return_inverse=True)
    assert np.array_equal(terms(TABLEAU).multiplicity, unique)
    assert np.array_equal(terms(TABLEAU).of_coup, inverse.reshape(-1))


def test_a_plan_with_an_index_out_of_range_is_refused() -> None:
    from dataclasses import replace

    bad = replace(PLAN, entry_term=PLAN.entry_term + terms(TABLEAU).size)
    with pytest.raises(AnalyzerError):
        check_plan(bad)


@pytest.mark.parametrize("name", ["punto-banco", "side-bets", "ez-baccarat"])
def test_odds_records_equal_the_per_bet_tally_records(name: str) -> None:
    from analyzer.engine.odds import bet_odds, bet_tally

    profile = load_profile(name)
    for shoe in (Shoe.decks(8), Shoe.decks(64)):
        table = odds(profile, shoe)
        weights = term_weights(terms(profile.tableau), shoe)
        for bet, record in zip(profile.bets, table.bets, strict=True):
            if bet.card_level:
                continue
            ways = bet_tally(profile.tableau, bet).evaluate(weights)
            expected = bet_odds(bet, ways, table.denominator)
            assert record == expected
            assert (record.ev, record.variance, record.hit_frequency) == (
                expected.ev, expected.variance, expected.hit_frequency)
