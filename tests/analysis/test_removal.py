"""Effects of removal: exact agreement with depleted shoes, published figures, counts."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from analyzer.analysis.removal import _integer_tags, removal_effects
from analyzer.engine.odds import odds
from analyzer.rules.cards import Card
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe
from tests.conftest import reference


def test_effects_equal_direct_evaluation_of_depleted_shoes() -> None:
    table = removal_effects("punto-banco", 8, samples=0)
    full = odds("punto-banco", Shoe.decks(8))
    for text in ("4S", "6D", "KC"):
        card = Card.parse(text)
        depleted = odds("punto-banco", Shoe.decks(8).remove([card]))
        for j, bet in enumerate(full.bets):
            assert table.cards[card.index][j] == depleted.bets[j].ev - bet.ev


def test_banker_effects_match_published_table() -> None:
    published = reference("eor_banker_8deck")["banker"]
    table = removal_effects("punto-banco", 8, samples=0)
    for rank, value in published.items():
        assert round(float(table.rank(str(rank)).effects[0]) * 100, 4) == value


def test_card_level_effects_and_count() -> None:
    profile = load_profile("lucky-baccarat")
    table = removal_effects(profile, 2, samples=300)
    red = profile.bets.index(profile.bet("player-red"))
    card = Card.parse("4D")
    shoe = Shoe.decks(2)
    direct = odds(profile, shoe.remove([card])).bets[red].ev - odds(profile, shoe).bets[red].ev
    assert table.cards[card.index][red] == direct
    assert table.reads_suits
    colours = {g.label: g.effects[red] for g in table.colours}
    assert colours["red"] < 0 < colours["black"]
    count = table.counts[red]
    assert count.balanced and sum(count.tags) == 0
    assert count.describe() == "black:+1 red:-1"
    assert count.ev_correlation > 0.95
    assert Fraction(0) not in {table.rank("9").effects[0]}


def test_equal_effects_get_equal_tags() -> None:
    """Tags are a function of the exact effect: T J Q K on a point-value bet, and the
    cards of the Lucky pair bet's effect classes, get one tag each."""
    profile = load_profile("lucky-baccarat")
    table = removal_effects(profile, 8, samples=0)
    for j, count in enumerate(table.counts):
        by_effect: dict[Fraction, set[int]] = {}
        for card in range(52):
            by_effect.setdefault(table.cards[card][j], set()).add(count.tags[card])
        assert all(len(tags) == 1 for tags in by_effect.values()), count.bet
        assert count.balanced == (sum(count.tags) == 0)
    low = table.counts[table.bet_ids.index("player-total-1-3")]
    assert low.describe().endswith("T:-2 J:-2 Q:-2 K:-2") and low.balanced
    pair = table.counts[table.bet_ids.index("lucky-player-pair")]
    assert pair.balanced and len(set(pair.tags)) == 4


def test_unbalanceable_effects_are_reported_unbalanced() -> None:
    """One rank's four cards against the other 48: no integer tags up to the top level
    balance without splitting a group, so the count says so rather than break symmetry."""
    effect = np.zeros(52)
    effect[:4] = 1.0
    tags, _, balanced, corr = _integer_tags(effect)
    assert not balanced and len(set(tags[:4])) == 1 and len(set(tags[4:])) == 1
    assert tags[0] > tags[4] and corr == 1.0
