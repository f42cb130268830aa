"""``nine advise --decks 1`` where a one-deck epsilon-certificate is shipped (6 people by
cards): it plays the certificate's strategies and its margins are the one-deck conditional
values, checked against a brute-force deal of every holding of the other live hands (the
naturals' cards out of the deck), exactly; the float path within its stated bound."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import analyzer.choice.table.advice as advice_module
from analyzer.choice.table.advice import advise_bank, advise_seat
from analyzer.choice.table.dealt.rounding import bound_text
from analyzer.choice.table.deck_play import epsilon_certificate
from analyzer.choice.table.subgame import info_classes
from analyzer.choice.table.tree import LUCKY9
from analyzer.present.report.lucky9 import advice_json, render_advice
from analyzer.rules.cards import parse_hand
from analyzer.rules.choice_rules import HANDS
from analyzer.rules.shoe import Shoe
from tests.choice.table.test_advice_at_the_deck import _results

LIVE = [h for h in HANDS if sum(h) % 10 != 9]
SHOE = Shoe.decks(1)


def _holding(cards: str) -> tuple[int, int]:
    low, high = sorted(c.points for c in parse_hand(cards))
    return low, high


def _strategies(people: int, removed: tuple[tuple[int, int], ...]) -> tuple[Any, Any]:
    found = epsilon_certificate(LUCKY9, SHOE, people - 1, "cards")
    assert found is not None
    return found.strategies[(people - 1 - len(removed), tuple(sorted(removed)))]


def _seat_values(people: int, removed: tuple[tuple[int, int], ...], own: tuple[int, int],
                 position: int, earlier: int) -> tuple[Fraction, Fraction]:
    """The live seat at ``position``'s exact conditional expected result of standing and of
    drawing: every ordered deal of the bank's and the other live seats' holdings (none a
    natural) from the deck less ``removed`` and ``own``, weighted by its ways, the others
    playing the certificate's strategies."""
    seats, bank = _strategies(people, removed)
    live = people - 1 - len(removed)
    counts = np.asarray(SHOE.value_counts(), dtype=np.int64)
    for a, b in (*removed, own):
        counts[a] -= 1
        counts[b] -= 1
    usage = np.zeros((len(LIVE), 10), dtype=np.int64)
    for i, (a, b) in enumerate(LIVE):
        usage[i, a] += 1
        usage[i, b] += 1
    rows = np.asarray(list(itertools.product(range(len(LIVE)), repeat=live)))
    used = usage[rows].sum(1)
    stock = counts[None, :] - used
    keep = (stock >= 0).all(1)
    rows, used, stock = rows[keep], used[keep], stock[keep]
    ways = np.ones(len(rows), dtype=np.int64)
    for j in range(int(used.max())):
        ways *= np.prod(np.where(j < used, counts[None, :] - j, 1), axis=1)
    ways *= np.prod(np.where([a == b for a, b in LIVE], 1, 2)[rows], axis=1)
    size = int(counts.sum()) - 2 * live
    total = np.asarray([sum(h) % 10 for h in LIVE])
    results = _results(np.full(len(rows), sum(own) % 10), total[rows[:, 0]], stock, size)
    others = [k for k in range(live) if k != position]
    column = {k: 1 + i for i, k in enumerate(others)}
    # draw probabilities as integers over one denominator per side (Python ints: exact)
    scale = math.lcm(*(v.denominator for rows in seats for row in rows for v in row),
                     *(v.denominator for row in bank for v in row))

    def draws(row: Any) -> Any:
        return np.asarray([int(v * scale) for v in row], dtype=object)

    reach = np.asarray([int(w) for w in ways], dtype=object)
    for k in range(position):
        bit = earlier >> (position - 1 - k) & 1
        draw = draws(seats[k][earlier >> (position - k)])[rows[:, column[k]]]
        reach = reach * (draw if bit else scale - draw)
    values = []
    for d in (0, 1):
        acc = np.zeros(len(rows), dtype=object)
        for later in range(2 ** (live - 1 - position)):
            prefix, play = earlier * 2 + d, reach.copy()
            for k in range(position + 1, live):
                bit = later >> (live - 1 - k) & 1
                draw = draws(seats[k][prefix])[rows[:, column[k]]]
                play = play * (draw if bit else scale - draw)
                prefix = prefix * 2 + bit
            bank_draw = draws([row[prefix] for row in bank])[rows[:, 0]]
            acc = acc + play * ((scale - bank_draw) * results[:, d, 0].astype(object)
                                + bank_draw * results[:, d, 1].astype(object))
        values.append(int(acc.sum()))
    later_scale = scale ** (live - position)  # the later seats' and the bank's weights
    whole = int(reach.sum()) * later_scale * size * (size - 1)
    return Fraction(values[0], whole), Fraction(values[1], whole)


# 6 people, two naturals showing (their cards out of the deck): three live seats
SITUATIONS = [("AH 4S", "4=9K,5=9Q", 1, ""), ("2C 3D", "4=9K,5=9Q", 2, "stood"),
              ("TH 5S", "1=4H 5C,5=9D TC", 3, "drew"),
              ("6H 8D", "1=4H 5C,5=9D TC", 4, "stood,drew"),
              ("AD 4C", "2=9C KH,3=8D AC", 4, "stood")]


def _bits(earlier: str) -> int:
    return sum(1 << (len(earlier.split(",")) - 1 - i)
               for i, c in enumerate(earlier.split(",")) if c == "drew") if earlier else 0


@pytest.mark.parametrize(("cards", "naturals", "seat", "earlier"), SITUATIONS)
def test_six_people_margins_are_the_exact_values_at_the_shipped_best_play(
        cards: str, naturals: str, seat: int, earlier: str) -> None:
    advice = advise_seat(LUCKY9, SHOE, 6, cards, seat=seat, naturals=naturals, earlier=earlier)
    removed = tuple(_holding(item.split("=")[1]) for item in naturals.split(","))
    declared = {int(item.split("=")[0]) for item in naturals.split(",")}
    position = [j for j in range(1, 6) if j not in declared].index(seat)
    stand, draw = _seat_values(6, removed, _holding(cards), position, _bits(earlier))
    assert (advice.ev_stand, advice.ev_draw) == (stand, draw)
    assert advice.exact and advice.error is None and not advice.certified
    assert advice.solved_at == advice.values_at == "1 deck" and advice.by == "cards"
    assert advice.play.startswith("best play found at 1 deck (not an equilibrium")
    assert advice.certificate is not None and not advice.certificate.certified
    seats, _ = _strategies(6, removed)
    cls = next(i for i, h in enumerate(LIVE) if h == _holding(cards))
    assert advice.draw == seats[position][_bits(earlier)][cls]  # the certificate's play


def test_the_float_path_is_within_its_bound_of_the_exact_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced to floats (as from five live seats), the same situations' expected results
    lie within the stated bound of the brute-force exact ones, and the text says so."""
    monkeypatch.setattr(advice_module, "EXACT_LIVE", 2)
    for cards, naturals, seat, earlier in SITUATIONS[:2]:
        advice = advise_seat(LUCKY9, SHOE, 6, cards, seat=seat, naturals=naturals,
                             earlier=earlier)
        removed = tuple(_holding(item.split("=")[1]) for item in naturals.split(","))
        stand, draw = _seat_values(6, removed, _holding(cards), seat - 1, _bits(earlier))
        assert advice.error is not None and 0 < advice.error < Fraction(1, 10**8)
        assert abs(advice.ev_stand - stand) <= advice.error
        assert abs(advice.ev_draw - draw) <= advice.error
        assert (advice.ev_stand, advice.ev_draw) != (stand, draw) or advice.error > 0
        assert not advice.exact and advice.values_at == "1 deck"
        text = render_advice(advice, exact=True)
        assert f"float evaluation, error at most {bound_text(advice.error)}" in text
        assert "Exact:" not in text and "exact at 1 deck" not in text
        document = advice_json(advice)
        assert document["exact"] is False and document["certified"] is False
        assert document["evaluation"].startswith("float evaluation, error at most")
        assert Fraction(document["error_bound"]) == advice.error


def test_the_bank_in_floats_agrees_with_the_exact_path_within_the_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    exact = advise_bank(LUCKY9, SHOE, "AH 4S", "stood,natural,drew,natural,stood",
                        people=6, naturals="2=9K,4=9Q")
    monkeypatch.setattr(advice_module, "EXACT_LIVE", 2)
    floats = advise_bank(LUCKY9, SHOE, "AH 4S", "stood,natural,drew,natural,stood",
                         people=6, naturals="2=9K,4=9Q")
    assert exact.exact and exact.error is None and floats.error is not None
    assert exact.draw == floats.draw
    for name in ("ev_stand", "ev_draw", "house_ev_stand", "house_ev_draw"):
        assert abs(getattr(exact, name) - getattr(floats, name)) <= floats.error


def test_the_epsilon_is_never_printed_below_its_value() -> None:
    found = epsilon_certificate(LUCKY9, SHOE, 5, "cards")
    assert found is not None
    assert float(bound_text(found.max_regret)) >= found.max_regret > 4 * 10**-6
    assert bound_text(Fraction(1026, 10**11)) == "1.1e-08"
    assert bound_text(Fraction(1, 10**10)) == "1.0e-10"


def _file_draw(people: int, position: int, context: int, holding: tuple[int, int],
               removed: tuple[tuple[int, int], ...] = (), by: str = "cards") -> Fraction:
    """The shipped one-deck file's draw probability in the subgame of the naturals
    ``removed``, read straight from its JSON (class order: the information classes of
    ``by``)."""
    path = (Path(advice_module.__file__).parent / "stored" / "certificates"
            / f"lucky9-home-{people}-people-1-deck-by-{by}.json")
    document = json.loads(path.read_text(encoding="utf-8"))
    live = people - 1 - len(removed)
    subgame = next(s for s in document["subgames"] if s["live"] == live
                   and sorted(map(tuple, s["removed"])) == sorted(removed))
    cls = next(c for c, info in enumerate(info_classes(LUCKY9, by)) if holding in info.hands)
    row = subgame["seats"][position][context] if position < live else \
        [r[context] for r in subgame["bank"]]
    return Fraction(row[cls])


@pytest.mark.parametrize(("earlier", "cards"), [("", "AH 4S"), ("drew,stood", "2C 3D"),
                                                ("stood,stood,drew", "6S KH")])
def test_a_subgame_too_large_to_evaluate_still_gives_the_files_play(earlier: str,
                                                                    cards: str) -> None:
    """9 people at one deck, no natural (8 live seats: not evaluated at the deck, so the
    answer is the infinite deck's): the shipped file's own play in the situation is read
    and printed beside it, the file's fraction, and says its values are not computed."""
    seat = len(earlier.split(",")) + 1 if earlier else 1
    answer = advise_seat(LUCKY9, SHOE, 9, cards, seat=seat, earlier=earlier)
    assert not answer.exact and answer.certificate is not None
    context = sum(1 << (seat - 2 - i) for i, c in enumerate(earlier.split(",")) if c == "drew") \
        if earlier else 0
    expected = _file_draw(9, seat - 1, context, _holding(cards))
    assert answer.certificate_draw == expected
    text = render_advice(answer)
    assert "That file's play here: " in text and "not computed" in text
    played = advice_json(answer)["one_deck_certificate_play"]
    assert Fraction(played["draw_probability"]) == expected


def test_the_bank_of_a_large_subgame_gets_the_files_play_and_small_ones_none() -> None:
    """The bank at 9 people (8 live seats): the file's play for its cards and the seats'
    choices, read from the file; where the certificate itself is advised (a subgame it
    evaluates) there is no second play to state."""
    choices = "drew,drew,stood,drew,stood,drew,drew,drew"
    answer = advise_bank(LUCKY9, SHOE, "AH 4S", choices, people=9)
    vector = sum(1 << (7 - i) for i, c in enumerate(choices.split(",")) if c == "drew")
    assert answer.certificate_draw == _file_draw(9, 8, vector, (1, 4))
    small = advise_seat(LUCKY9, SHOE, 7, "AH 4S", seat=4, naturals="1=9K,2=9Q,3=54")
    assert small.certificate is not None and small.certificate_draw is None
    assert advice_json(small)["one_deck_certificate_play"] is None


def test_a_large_subgame_with_a_natural_out_gives_the_files_play() -> None:
    """9 people at one deck, seat 1 showing 9+K (7 live seats: the infinite deck's answer):
    the file's play is read from the subgame of that natural's cards (seat 3 is the second
    live seat, after one that drew)."""
    answer = advise_seat(LUCKY9, SHOE, 9, "AH 4S", seat=3, naturals="1=9K",
                         earlier="natural,drew")
    assert not answer.exact and answer.certificate is not None
    assert answer.certificate_draw == _file_draw(9, 1, 1, (1, 4), removed=((0, 9),))
