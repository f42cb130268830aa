"""Natural patterns of a home Lucky 9 table: who holds a natural, and the chance of it.

Naturals are shown at once, so a table splits by its natural pattern: the bank's hand and each
seat's (a natural holding, or None for a live hand). A pattern whose bank is live is played in
the subgame of its live seats against the bank, dealt from the shoe less the naturals' cards
(:data:`SubgameKey`). :func:`table_patterns` lists every pattern with its exact probability;
:func:`grouped_patterns` merges the patterns that differ only in which of a group of natural
holdings each natural seat holds -- what the values, the subgames and their chances read stays
the same, and there are far fewer of them (6**9 holding assignments at nine people: each of
nine hands live or one of five natural holdings).

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> one_deck = Shoe.decks(1)
>>> every, grouped = table_patterns(LUCKY9, one_deck, 2), grouped_patterns(LUCKY9, one_deck, 2)
>>> len(every), len(grouped), sum(p.probability for p in grouped) == 1
(216, 30, True)
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from analyzer.choice.table.dealt.compositions import live_ways
from analyzer.rules.choice_rules import HANDS, ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["grouped_patterns", "Hand", "NATURAL", "natural_holdings", "Pattern", "SubgameKey",
           "table_patterns", "without"]

#: A natural at the infinite deck, where its cards carry no information.
NATURAL = "N"
#: Natural holding, ``NATURAL``, or None for a live hand.
Hand = tuple[int, int] | str | None
#: A subgame: the live seats and the natural holdings out of the shoe (sorted).
SubgameKey = tuple[int, tuple[tuple[int, int], ...]]


def natural_holdings(rules: ChoiceRules) -> list[tuple[int, int]]:
    """The two-card holdings (point values) that are naturals."""
    return [h for h in HANDS if sum(h) % 10 in rules.naturals]


@dataclass(frozen=True)
class Pattern:
    """Who holds a natural, and the chance of it: the bank's hand and each seat's
    (a natural holding, :data:`NATURAL` at the infinite deck, or None if live)."""

    bank: Hand
    seats: tuple[Hand, ...]
    probability: Fraction

    @cached_property
    def live(self) -> list[int]:
        """The seats without a natural, in seat order."""
        return [j for j, hand in enumerate(self.seats) if hand is None]

    @cached_property
    def key(self) -> SubgameKey:
        """The subgame this pattern is played in (bank live)."""
        removed = sorted(h for h in self.seats if isinstance(h, tuple))
        return len(self.live), tuple(removed)


def _ways(counts: Sequence[int], hand: tuple[int, int]) -> int:
    a, b = hand
    return counts[a] * (counts[a] - 1) if a == b else 2 * counts[a] * counts[b]


def without(counts: Sequence[int], hand: tuple[int, int]) -> tuple[int, ...]:
    """Point-value ``counts`` less the two cards of ``hand``."""
    out = list(counts)
    out[hand[0]] -= 1
    out[hand[1]] -= 1
    return tuple(out)


def table_patterns(rules: ChoiceRules, shoe: Shoe, players: int) -> list[Pattern]:
    """Every natural pattern of a table with its exact probability."""
    if shoe.is_infinite:
        q = Fraction(sum(_ways([16] + [4] * 9, h) for h in natural_holdings(rules)), 52 * 52)
        out = []
        for bank in (NATURAL, None):
            for flags in itertools.product((False, True), repeat=players):
                naturals = sum(flags)
                p = (q if bank else 1 - q) * q**naturals * (1 - q) ** (players - naturals)
                out.append(Pattern(bank, tuple(NATURAL if f else None for f in flags), p))
        return out
    counts = tuple(shoe.value_counts())
    size = sum(counts)
    total = math.perm(size, 2 * (players + 1))
    options: list[Hand] = [None, *natural_holdings(rules)]
    found = []
    for hands in itertools.product(options, repeat=players + 1):
        rest, ways = counts, 1
        for hand in hands:
            if isinstance(hand, tuple):
                ways *= _ways(rest, hand)
                rest = without(rest, hand)
        if not ways:
            continue
        ways *= live_ways(rules, rest, sum(1 for h in hands if h is None))
        if ways:
            found.append(Pattern(hands[0], tuple(hands[1:]), Fraction(ways, total)))
    return found


def grouped_patterns(rules: ChoiceRules, shoe: Shoe, players: int) -> list[Pattern]:
    """:func:`table_patterns` grouped: with the bank live, one pattern per set of natural
    seats and multiset of their holdings (the seats hold it in sorted order); with the
    bank natural, one per set of natural seats (the first holdings found stand for the
    group). Each group's probability is the sum of its members'. The subgames played, their
    chances and every side's value and regret (:func:`~analyzer.choice.table.solve.combine`)
    are those of :func:`table_patterns`; what a seat's view names (the exact holdings of
    each natural) is not. Every assignment of a multiset ``M`` of ``n`` holdings to ``n``
    given seats is dealt in the same number of ordered ways (a product over the holdings),
    and there are ``n! / prod(multiplicities!)`` of them."""
    if shoe.is_infinite:
        return table_patterns(rules, shoe, players)
    counts = tuple(shoe.value_counts())
    total = math.perm(sum(counts), 2 * (players + 1))
    holdings = natural_holdings(rules)
    live_bank: dict[int, list[tuple[tuple[tuple[int, int], ...], Fraction]]] = {}
    natural_bank: dict[int, tuple[Hand, tuple[tuple[int, int], ...], int]] = {}
    for n in range(players + 1):
        for group in itertools.combinations_with_replacement(holdings, n):
            rest, ways = counts, 1
            for hand in group:
                ways *= _ways(rest, hand)
                rest = without(rest, hand)
            if not ways:
                continue
            ways *= math.factorial(n) // math.prod(
                math.factorial(k) for k in Counter(group).values())
            played = ways * live_ways(rules, rest, players - n + 1)
            if played:
                live_bank.setdefault(n, []).append((group, Fraction(played, total)))
            for bank in holdings:
                dealt = ways * _ways(rest, bank)
                if dealt:
                    dealt *= live_ways(rules, without(rest, bank), players - n)
                if dealt:
                    first = natural_bank.get(n, (bank, group, 0))
                    natural_bank[n] = (first[0], first[1], first[2] + dealt)
    # every set of natural seats of a size has its group's chance (exchangeable seats)
    bank_natural = {n: (hand, group, Fraction(ways, total))
                    for n, (hand, group, ways) in natural_bank.items()}
    found = []
    for size in range(players + 1):
        for naturals in itertools.combinations(range(players), size):
            if size in bank_natural:
                bank_hand, group, chance = bank_natural[size]
                found.append(Pattern(bank_hand, _placed(players, naturals, group), chance))
            for group, chance in live_bank.get(size, []):
                found.append(Pattern(None, _placed(players, naturals, group), chance))
    return found


def _placed(players: int, naturals: Sequence[int],
            group: Sequence[tuple[int, int]]) -> tuple[Hand, ...]:
    """Seats holding ``group`` (in order) at the seats ``naturals``, live elsewhere."""
    seats: list[Hand] = [None] * players
    for seat, hand in zip(naturals, group, strict=True):
        seats[seat] = hand
    return tuple(seats)
