"""Shared fixtures of the choice-game tests: the rules and a tiny shoe."""

from __future__ import annotations

from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.cards import parse_cards
from analyzer.rules.shoe import Shoe

RULES = LUCKY9
#: Ten cards, four point values: every three-person deal can be listed by hand.
TINY = Shoe.from_cards(parse_cards("TS TH TD TC 5S 5H 4S 4H 9S 9H"), "tiny shoe")
