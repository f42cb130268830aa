"""``nine advise --decks 1``: the margins are the exact conditional values at one deck,
checked against a brute-force deal of every holding of the other hands (3 people: the
certified one-deck equilibrium, in exact fractions; 4 people: the certified one-deck
equilibrium of the shipped certificate, in floats)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from analyzer.choice.table.advice import advise_bank, advise_seat
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.stored.certificate import shipped_strategies
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.cards import parse_cards
from analyzer.rules.choice_rules import HANDS
from analyzer.rules.shoe import Shoe

LIVE = [h for h in HANDS if sum(h) % 10 != 9]


def _strategies(people: int) -> tuple[list[Any], list[Any]]:
    """Draw probability per live holding: seats[k][e][h], bank[h][v] (the live subgame
    without naturals)."""
    players = people - 1
    known = shipped_strategies(LUCKY9, Shoe.decks(1), players, "cards")
    solution = solve_table(LUCKY9, Shoe.decks(1), players, "cards", known=known,
                           given_only=known is not None).solution((players, ()))
    if people == 3:
        return ([[list(row) for row in rows] for rows in solution.seats],
                [list(row) for row in solution.bank])
    return ([[[float(v) for v in row] for row in rows] for rows in solution.seats],
            [[float(x) for x in row] for row in solution.bank])


def _results(own: Any, bank: Any, stock: Any, size: int) -> Any:
    """Per row, a seat of total ``own`` against the bank's ``bank`` (rows), third cards
    from ``stock`` (rows x 10): ``[row, drew, bank drew]`` times ``size (size - 1)``."""
    x = np.arange(10)
    seat_final = (own[:, None] + x[None, :]) % 10
    bank_final = (bank[:, None] + x[None, :]) % 10
    out = np.zeros((len(bank), 2, 2), dtype=np.int64)
    out[:, 0, 0] = np.sign(own - bank) * size * (size - 1)
    out[:, 1, 0] = (stock * np.sign(seat_final - bank[:, None])).sum(1) * (size - 1)
    out[:, 0, 1] = (stock * np.sign(own[:, None] - bank_final)).sum(1) * (size - 1)
    for a in range(10):  # the seat's third card a, the bank's any other card of the stock
        other = stock - (x[None, :] == a)
        signs = np.sign(seat_final[:, a, None] - bank_final)
        out[:, 1, 1] += stock[:, a] * (other * signs).sum(1)
    return out


def _deals(own: tuple[int, int], others: int) -> tuple[Any, Any, Any, int]:
    """Every ordered tuple of ``others`` live holdings dealt after ``own`` from one deck:
    holdings (rows x others), ordered ways, the stock left, its size."""
    counts = np.asarray(Shoe.decks(1).value_counts(), dtype=np.int64)
    counts[own[0]] -= 1
    counts[own[1]] -= 1
    usage = np.zeros((len(LIVE), 10), dtype=np.int64)
    for i, (a, b) in enumerate(LIVE):
        usage[i, a] += 1
        usage[i, b] += 1
    rows = np.asarray(list(itertools.product(range(len(LIVE)), repeat=others)))
    used = usage[rows].sum(1)
    stock = counts[None, :] - used
    keep = (stock >= 0).all(1)
    rows, used, stock = rows[keep], used[keep], stock[keep]
    ways = np.ones(len(rows), dtype=np.int64)
    for j in range(int(used.max())):
        ways *= np.prod(np.where(j < used, counts[None, :] - j, 1), axis=1)
    order = np.where([a == b for a, b in LIVE], 1, 2)
    ways *= np.prod(order[rows], axis=1)
    return rows, ways, stock, int(counts.sum()) - 2 * others


def _seat_values(people: int, own: tuple[int, int], position: int, earlier: int,
                 exact: bool) -> tuple[Any, Any]:
    """The seat's conditional expected result of standing and of drawing, by brute force:
    other hands are (bank, the other live seats in order)."""
    seats, bank = _strategies(people)
    live = people - 1
    rows, ways, stock, size = _deals(own, live)
    total = np.asarray([sum(h) % 10 for h in LIVE])
    results = _results(np.full(len(rows), sum(own) % 10), total[rows[:, 0]], stock, size)
    held = {}  # live position -> column of rows
    column = 1
    for k in range(live):
        if k != position:
            held[k] = column
            column += 1
    kind = object if exact else float
    weights = ways.astype(object if exact else float)
    if exact:
        weights = np.asarray([int(w) for w in ways], dtype=object)
    reach = weights.copy()
    for k in range(position):
        bit = earlier >> (position - 1 - k) & 1
        probability = np.asarray(seats[k][earlier >> (position - k)], dtype=kind)
        draw = probability[rows[:, held[k]]]
        reach = reach * (draw if bit else 1 - draw)
    values = []
    for d in (0, 1):
        acc = np.zeros(len(rows), dtype=kind)
        for later in range(2 ** (live - 1 - position)):
            prefix = earlier * 2 + d
            play = reach.copy()
            for k in range(position + 1, live):
                bit = later >> (live - 1 - k) & 1
                probability = np.asarray(seats[k][prefix], dtype=kind)
                draw = probability[rows[:, held[k]]]
                play = play * (draw if bit else 1 - draw)
                prefix = prefix * 2 + bit
            bank_draw = np.asarray([row[prefix] for row in bank], dtype=kind)[rows[:, 0]]
            acc = acc + play * ((1 - bank_draw) * results[:, d, 0].astype(kind)
                                + bank_draw * results[:, d, 1].astype(kind))
        values.append(acc.sum())
    scale = reach.sum() * size * (size - 1)
    if exact:
        return Fraction(values[0]) / Fraction(scale), Fraction(values[1]) / Fraction(scale)
    return values[0] / scale, values[1] / scale


def _holding(cards: str) -> tuple[int, int]:
    low, high = sorted(c.points for c in parse_cards(cards))
    return low, high


CHOICES = ["stood", "drew"]
SITUATIONS_3 = [("AH 4S", 1, ""), ("2C 3D", 1, ""), ("TH 5S", 2, "stood"),
                ("6H 8D", 2, "drew"), ("AD 4C", 2, "stood"), ("7S 8S", 1, ""),
                ("2H 2D", 2, "drew"), ("KH QS", 1, ""), ("9C 7D", 2, "stood"),
                ("3S 3C", 1, "")]
SITUATIONS_4 = [("AH 4S", 1, ""), ("2C 3D", 2, "stood"), ("TH 5S", 2, "drew"),
                ("6H 9D", 3, "stood,stood"), ("7S 8C", 3, "drew,stood"), ("AD 4C", 3, "stood,drew"),
                ("5H TC", 1, ""), ("3D 3H", 2, "stood"), ("KH 6S", 3, "drew,drew"),
                ("8D 8S", 1, "")]


@pytest.mark.parametrize(("cards", "seat", "earlier"), SITUATIONS_3)
def test_three_people_margins_are_the_exact_one_deck_values(cards: str, seat: int,
                                                            earlier: str) -> None:
    advice = advise_seat(LUCKY9, Shoe.decks(1), 3, cards, seat=seat, earlier=earlier)
    bits = sum(1 << (seat - 2 - i) for i, c in enumerate(earlier.split(",")) if c == "drew")
    stand, draw = _seat_values(3, _holding(cards), seat - 1, bits if earlier else 0, True)
    assert advice.certified and advice.by == "cards"
    assert (advice.ev_stand, advice.ev_draw) == (stand, draw)


@pytest.mark.parametrize(("cards", "seat", "earlier"), SITUATIONS_4)
def test_four_people_margins_are_the_values_at_the_certified_one_deck_equilibrium(
        cards: str, seat: int, earlier: str) -> None:
    advice = advise_seat(LUCKY9, Shoe.decks(1), 4, cards, seat=seat, earlier=earlier)
    bits = sum(1 << (seat - 2 - i) for i, c in enumerate(earlier.split(",")) if c == "drew")
    stand, draw = _seat_values(4, _holding(cards), seat - 1, bits if earlier else 0, False)
    assert advice.certified and advice.by == "cards" and advice.solved_at == "1 deck"
    assert float(advice.ev_stand) == pytest.approx(stand, rel=1e-12, abs=1e-15)
    assert float(advice.ev_draw) == pytest.approx(draw, rel=1e-12, abs=1e-15)
    assert float(advice.margin) == pytest.approx(draw - stand, abs=1e-13)


def test_the_bank_at_one_deck_for_four_people_plays_the_certified_one_deck_equilibrium(
        ) -> None:
    advice = advise_bank(LUCKY9, Shoe.decks(1), "AH 4S", "stood,drew,stood")
    assert advice.certified and advice.play == "equilibrium play"
    assert advice.shoe == advice.solved_at == "1 deck" and advice.by == "cards"
