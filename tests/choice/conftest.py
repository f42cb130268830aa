"""Shared fixtures of the choice-game tests: the rules, a tiny shoe, cached exact tables."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

from analyzer.choice.plans import LUCKY9_RULES, InformedPlan
from analyzer.choice.table import TableGame, build_table
from analyzer.rules.cards import parse_cards
from analyzer.rules.choice_rules import HANDS
from analyzer.rules.shoe import Shoe

RULES = LUCKY9_RULES()
#: Ten cards, four point values: every three-person deal can be listed by hand.
TINY = Shoe.from_cards(parse_cards("TS TH TD TC 5S 5H 4S 4H 9S 9H"), "tiny shoe")


@cache
def table(decks: int, players: int) -> TableGame:
    return build_table(RULES, Shoe.infinite() if decks == 0 else Shoe.decks(decks), players)


def random_informed(rng: random.Random, seat: int) -> InformedPlan:
    return InformedPlan(seat, tuple(tuple(Fraction(rng.randint(0, 1)) for _ in range(3**seat))
                                    for _ in HANDS))
