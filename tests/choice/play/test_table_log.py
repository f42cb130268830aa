"""The one dealer of hands with real cards, checked against the certified table's exact
evaluation by dealing every card sequence of a tiny shoe."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from analyzer.choice.play.table_log import Person, deal_hand, settle
from analyzer.choice.strategy import Strategy, parse_strategy
from analyzer.choice.table.strategy import evaluate_strategies
from analyzer.rules.choice_rules import hand_label
from tests.choice.conftest import RULES, TINY

#: The live two-card holdings of the tiny shoe's point values (0, 4, 5, 9).
HOLDINGS = [(0, 0), (0, 4), (0, 5), (4, 4), (5, 5), (4, 9), (5, 9), (9, 9)]


def _random_file(rng: random.Random, side: str, contexts: list[str]) -> Strategy:
    """A pure strategy by holding in every context (and for ``any``), drawn at random."""
    lines = [f'side = "{side}"', 'default = "stand"']
    for context in ["", *contexts]:
        lines.append("[draw]" if not context else f'[draw."{context}"]')
        lines += [f'"{hand_label(h)}" = {rng.randint(0, 1)}' for h in HOLDINGS]
    return parse_strategy("\n".join(lines) + "\n", f"random {side}", side)  # type: ignore[arg-type]


def _deal_every_sequence(seats: list[Strategy], bank: Strategy) -> tuple[list[int], int]:
    """Each seat's summed result over every ordered deal of nine point values from the tiny
    shoe, played by :func:`deal_hand`, and the number of deals."""
    counts = Counter(v for v, n in enumerate(TINY.value_counts()) for _ in range(n))
    people = [Person(f"seat {i + 1}", player=s) for i, s in enumerate(seats)]
    banker = Person("bank", banker=bank)
    totals = [0] * len(seats)
    deals = 0

    def deal(sequence: list[int], ways: int) -> None:
        nonlocal deals
        if len(sequence) == 3 * (len(seats) + 1):
            cards = deal_hand(RULES, people, banker, sequence, random.Random(0), int)
            results = settle(RULES, cards[:-1], cards[-1], [sum(c) % 10 for c in cards[:-1]],
                             sum(cards[-1]) % 10)
            for seat, result in enumerate(results):
                totals[seat] += ways * result
            deals += ways
            return
        for value, left in list(counts.items()):
            if left:
                counts[value] -= 1
                deal([*sequence, value], ways * left)
                counts[value] += 1

    deal([], 1)
    return totals, deals


def test_the_dealer_and_the_exact_evaluation_agree_on_every_deal_of_a_tiny_shoe() -> None:
    # Two seats and the bank; seat 2 reads seat 1's choice and natural, the bank every
    # choice: the certified model's information, dealt card by card.
    rng = random.Random(7)
    first = _random_file(rng, "player", [])
    second = _random_file(rng, "player", ["live:D+0", "live:S+0", "N/-"])
    bank = _random_file(rng, "banker", ["live:DD", "live:DS", "live:SD", "live:SS",
                                        "live:D", "live:S"])
    exact = evaluate_strategies(RULES, TINY, 2, "cards", [first, second], bank)
    totals, deals = _deal_every_sequence([first, second], bank)
    assert deals == 10 * 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2
    assert exact.seats == (Fraction(totals[0], deals), Fraction(totals[1], deals))
    assert exact.seats[0] != exact.seats[1] and exact.bank == -sum(exact.seats)
