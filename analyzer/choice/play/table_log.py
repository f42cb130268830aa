"""A game of choices hand by hand with real cards: its rules as the verifier replays them,
each side's draw probability under a strategy file, and a seeded dealer writing the log.

The deal (``docs/rules/lucky9-home.md`` sections 3-6; chemin de fer is the same with one
player): two cards to each seat from the banker's right, the banker last, twice round;
naturals settle at once (a natural bank beats every hand that is not a natural, a natural
seat beats a bank that is not, two naturals compare their totals); every other seat, in
order, takes at most one third card (forced on the profile's ``player_draws``, refused on
its ``player_stands``, its choice otherwise); then the bank takes at most one, one choice
that stands against every seat still in the hand. Higher total wins even money, equal
totals push; the bank covers every stake.

A side's draw probability where it chooses comes from its strategy file
(:mod:`analyzer.choice.strategy`): a player reads its own two cards and, in home Lucky 9,
what the table showed before it (:func:`~analyzer.choice.table.strategy.seat_contexts`);
the bank reads its own cards and every choice (:func:`~analyzer.choice.table.strategy.
bank_contexts`), or in chemin de fer the player's third card.

:func:`deal_table` deals a seeded session with a rotating bank, each hand from a freshly
shuffled shoe, and writes it as ``table`` records of the hand log
(:meth:`analyzer.dealing.writer.LogWriter.table`).

>>> from analyzer.rules.profile import load_profile
>>> rules = load_profile("lucky9-home").choice_rules()
>>> settle(rules, [(0, 9)], (3, 4), [9], 7)  # a natural seat wins at once
[Fraction(1, 1)]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import IO

from analyzer.choice.strategy import Side, Strategy, load_strategy, parse_strategy
from analyzer.choice.table.solve import Pattern, solve_table
from analyzer.choice.table.strategy import bank_contexts, seat_contexts, table_strategy_text
from analyzer.dealing.dialects import CARD_VALUE
from analyzer.dealing.writer import LogWriter
from analyzer.errors import AnalyzerError
from analyzer.rules.choice_rules import STOOD, ChoiceRules
from analyzer.rules.profile import Profile
from analyzer.rules.shoe import Shoe

__all__ = ["bank_draw", "deal_hand", "deal_order", "deal_table", "natural", "Person",
           "seat_draw", "seating", "settle", "table_people", "table_strategy", "TableDeal"]


def _house(side: Side) -> Strategy:
    return load_strategy("house", side)


@dataclass(frozen=True)
class Person:
    """Someone at the table with a strategy for each role (the house rule unless given)."""

    name: str
    player: Strategy = field(default_factory=lambda: _house("player"))
    banker: Strategy = field(default_factory=lambda: _house("banker"))


def table_strategy(rules: ChoiceRules, name: str, side: Side, players: int) -> Strategy:
    """A strategy by name: a file, ``house``, or ``equilibrium`` -- home Lucky 9's certified
    equilibrium for ``players`` players at the infinite deck by total (the published
    tables; at a finite shoe an approximation), written and read as a strategy file."""
    if name != "equilibrium":
        return load_strategy(name, side)
    if rules.banker_sees != "choice":
        raise AnalyzerError(f"--{side} equilibrium: only for home Lucky 9; for "
                            f"{rules.name}, write it with nine solve --save-{side}")
    text = table_strategy_text(solve_table(rules, Shoe.infinite(), players, "total"), side,
                               any_shoe=True)
    return parse_strategy(text, f"equilibrium ({players} players)", side)


def natural(rules: ChoiceRules, cards: Sequence[int]) -> bool:
    """Do a hand's first two point values make a natural?"""
    return len(cards) >= 2 and (cards[0] + cards[1]) % 10 in rules.naturals


def seating(people: Sequence[str], banker: str) -> list[str]:
    """The players in seat order, from the banker's right.

    >>> seating(["A", "B", "C", "D"], "C")
    ['D', 'A', 'B']
    """
    at = list(people).index(banker)
    return [people[(at + k) % len(people)] for k in range(1, len(people))]


def _holding(values: Sequence[int]) -> tuple[int, int]:
    return (min(values[0], values[1]), max(values[0], values[1]))


def _naturals(rules: ChoiceRules, seats: Sequence[Sequence[int]],
              ) -> tuple[tuple[int, int] | None, ...]:
    """Each seat's natural holding, or None (live)."""
    return tuple(_holding(v) if natural(rules, v) else None for v in seats)


# A session asks the same few views hand after hand: remembered (a pure function of the
# naturals, the seat and the choices; 80,000 simulated hands: about 2.4 s of CPU less).
@lru_cache(maxsize=4096)
def _seat_views(naturals: tuple[tuple[int, int] | None, ...], seat: int,
                earlier: int) -> tuple[str, ...]:
    return tuple(seat_contexts(Pattern(None, naturals, Fraction(1)), seat, earlier))


@lru_cache(maxsize=4096)
def _bank_views(naturals: tuple[tuple[int, int] | None, ...], vector: int) -> tuple[str, ...]:
    return tuple(bank_contexts(Pattern(None, naturals, Fraction(1)), vector))


def _bits(choices: Sequence[bool]) -> int:
    bits = 0
    for drew in choices:
        bits = bits * 2 + drew
    return bits


def seat_draw(rules: ChoiceRules, strategy: Strategy, seats: Sequence[Sequence[int]],
              seat: int, earlier: Sequence[bool]) -> Fraction:
    """The probability that ``seat`` (0-based, not a natural) draws: 1 or 0 where the rules
    force it, else its strategy's, given the earlier live seats' choices ``earlier``."""
    total = (seats[seat][0] + seats[seat][1]) % 10
    if total in rules.player_draws:
        return Fraction(1)
    if total in rules.player_stands:
        return Fraction(0)
    hand = _holding(seats[seat])
    if rules.banker_sees != "choice":
        return strategy.draw(hand)
    return strategy.table_draw(hand, _seat_views(_naturals(rules, seats), seat, _bits(earlier)))


def bank_draw(rules: ChoiceRules, strategy: Strategy, seats: Sequence[Sequence[int]],
              bank: Sequence[int], choices: Sequence[bool | None]) -> Fraction:
    """The probability that the bank (not a natural) draws, having seen each seat's
    choice (None: a natural) and, in chemin de fer, the player's third card."""
    total = (bank[0] + bank[1]) % 10
    if total in rules.banker_draws:
        return Fraction(1)
    if total in rules.banker_stands:
        return Fraction(0)
    hand = _holding(bank)
    if rules.banker_sees != "choice":  # heads-up: the player's third card, face up
        drew = choices[0] if choices else None
        return strategy.draw(hand, str(seats[0][2]) if drew else STOOD)
    live = [c for c in choices if c is not None]
    return strategy.table_draw(hand, _bank_views(_naturals(rules, seats), _bits(live)))


def settle(rules: ChoiceRules, seats: Sequence[Sequence[int]], bank: Sequence[int],
           seat_totals: Sequence[int], bank_total: int) -> list[Fraction]:
    """Each seat's net against the bank by the rules' payoffs (+1, 0 push or -1 at even
    money). Naturals settle on their two cards before any third card; other hands compare
    final totals."""
    bank_natural = natural(rules, bank)
    results = []
    for cards, total in zip(seats, seat_totals, strict=True):
        seat_natural = natural(rules, cards)
        if seat_natural or bank_natural:
            mine, theirs = (cards[0] + cards[1]) % 10, (bank[0] + bank[1]) % 10
        else:
            mine, theirs = total, bank_total
        results.append(rules.payoffs.seat(mine, theirs, seat_natural, bank_natural))
    return results


def _whole(amount: Fraction) -> int:
    """A returned amount as the log writes it: a whole number of units."""
    if amount.denominator != 1:
        raise AnalyzerError(f"a seat would be returned {amount} units: the hand log records "
                            "whole units; choose a stake the payoffs pay in whole units")
    return amount.numerator


def deal_order(seats: Sequence[Sequence[int]], bank: Sequence[int]) -> list[int]:
    """A hand's cards in the order they left the shoe: two rounds from the banker's right
    (the bank last each round), then the seats' third cards in order, the bank's last."""
    order = [cards[0] for cards in seats if cards] + ([bank[0]] if bank else [])
    order += [cards[1] for cards in seats if len(cards) > 1] + (
        [bank[1]] if len(bank) > 1 else [])
    order += [c for cards in seats for c in cards[2:]] + list(bank[2:])
    return order


@dataclass(frozen=True)
class TableDeal:
    """What :func:`deal_table` dealt: hands, the people in seat order, the seed."""

    hands: int
    people: tuple[str, ...]
    seed: int


def table_people(rules: ChoiceRules, count: int, players: Sequence[str],
                 bankers: Sequence[str]) -> list[Person]:
    """The people at a table: strategies (files, ``house`` or ``equilibrium``) given once
    for everyone or once per person (``house`` when none)."""
    def pick(values: Sequence[str], option: str) -> list[str]:
        if not values:
            return ["house"] * count
        if len(values) not in (1, count):
            raise AnalyzerError(f"{option}: give one strategy for everyone or one per person "
                                f"({count}), got {len(values)}")
        return list(values) * (count if len(values) == 1 else 1)

    chosen = zip(pick(players, "--player"), pick(bankers, "--banker"), strict=True)
    return [Person(chr(ord("A") + i), table_strategy(rules, p, "player", count - 1),
                   table_strategy(rules, b, "banker", count - 1))
            for i, (p, b) in enumerate(chosen)]


def deal_table(profile: Profile, people: Sequence[Person], hands: int, seed: int,
               out: IO[str], decks: int | None = None, stake: int = 100) -> TableDeal:
    """Deal ``hands`` hands of a game of choices with a rotating bank and write the log.

    The bank starts with the first person and passes to the right after every hand; each
    hand is dealt from a freshly shuffled shoe of ``decks`` decks (a shoe record of its
    own); mixed choices draw from the same seeded generator.
    """
    rules = profile.choice_rules()
    count = len(people)
    if not rules.people[0] <= count <= rules.people[1]:
        raise AnalyzerError(f"--people {count}: profile {profile.name!r} seats "
                            f"{rules.people[0]} to {rules.people[1]} people")
    if hands < 1:
        raise AnalyzerError(f"--shoes (hands): must be a positive integer, got {hands}")
    decks = profile.default_decks if decks is None else decks
    base = [c for c in range(52) for _ in range(decks)]
    if len(base) < 3 * count:
        raise AnalyzerError(f"{decks} deck(s): too few cards for {count} people")
    names = tuple(p.name for p in people)
    by_name = {p.name: p for p in people}
    rng = random.Random(seed)
    writer = LogWriter(out, "jsonl", ())
    writer.header({"profile": profile.name, "decks": decks, "seed": seed, "people": list(names),
                   "generator": "nine simulate"})
    banker = 0
    for number in range(1, hands + 1):
        deck = list(base)
        rng.shuffle(deck)
        shoe = str(number)
        writer.shoe_start(shoe, decks, ())
        seated = seating(names, names[banker])
        cards = deal_hand(rules, [by_name[n] for n in seated], by_name[names[banker]], deck,
                          rng)
        seat_cards, bank_cards = cards[:-1], cards[-1]
        values = [[CARD_VALUE[c] for c in hand] for hand in cards]
        results = settle(rules, values[:-1], values[-1],
                         [sum(v) % 10 for v in values[:-1]], sum(values[-1]) % 10)
        rows = [(name, hand, stake, _whole(stake + result * stake))
                for name, hand, result in zip(seated, seat_cards, results, strict=True)]
        writer.table(shoe, number, names[banker], rows, bank_cards)
        writer.shoe_end(shoe, len(deck) - sum(len(h) for h in cards))
        banker = (banker + 1) % count
    return TableDeal(hands, names, seed)


def deal_hand(rules: ChoiceRules, players: Sequence[Person], bank: Person,
              deck: Sequence[int], rng: random.Random,
              value: Callable[[int], int] = CARD_VALUE.__getitem__) -> list[list[int]]:
    """One hand's cards (each seat's, then the bank's) dealt from the top of ``deck``: two
    rounds from the banker's right, the bank last; then each live seat in order takes a third
    card with its strategy's probability (mixed choices draw from ``rng``), the bank last.
    ``value`` gives a card's point value (cards are 0-51 by default; the identity deals point
    values directly)."""
    size = len(players)
    hands: list[list[int]] = [[] for _ in range(size + 1)]
    position = 0
    for _ in range(2):
        for hand in hands:
            hand.append(deck[position])
            position += 1
    values = [[value(c) for c in hand] for hand in hands]
    if natural(rules, values[-1]):
        return hands
    choices: list[bool | None] = []
    for seat in range(size):
        if natural(rules, values[seat]):
            choices.append(None)
            continue
        earlier = [c for c in choices if c is not None]
        p = seat_draw(rules, players[seat].player, values[:-1], seat, earlier)
        drew = rng.random() < p
        choices.append(drew)
        if drew:
            hands[seat].append(deck[position])
            values[seat].append(value(deck[position]))
            position += 1
    p = bank_draw(rules, bank.banker, values[:-1], values[-1], choices)
    if rng.random() < p:
        hands[-1].append(deck[position])
    return hands
