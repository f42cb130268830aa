"""Preparing and running a shoe: the shuffle, the burn, the cut card, and where each hand
of a shoe starts when the profile's tableau deals it.

``nine simulate`` and ``nine shoe`` both deal through this module, so one seed deals the
same shoes in both.

>>> from analyzer.rules.profile import load_profile
>>> order = shuffled(random.Random(7), range(52))
>>> starts = deal_shoe(load_profile("punto-banco").tableau, order, Procedure("none", 16, (), ""))
>>> starts[0], all(b - a in (4, 5, 6) for a, b in zip(starts, starts[1:]))
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from analyzer.errors import AnalyzerError
from analyzer.rules.cards import DECK
from analyzer.rules.procedure import Procedure
from analyzer.rules.profile import Tableau

__all__ = ["CARD_BURN", "CARD_VALUES", "NEW_DECK_ORDER", "CutCardRule", "burned_cards",
           "deal_shoe", "hidden_burn", "new_decks", "play_coup", "riffled", "shuffled"]

IntArray = npt.NDArray[np.int64]

def shuffled(rng: random.Random, base: Iterable[int]) -> list[int]:
    """One shuffled shoe: ``base`` (card indexes) in the order ``rng`` deals it.

    ``nine simulate`` and ``nine shoe`` shuffle with this, so one seed deals the same shoes
    in both.
    """
    deck = list(base)
    rng.shuffle(deck)
    return deck


#: The order of a new deck: spades, hearts, diamonds, clubs, each ace to king (card
#: indices).
NEW_DECK_ORDER: tuple[int, ...] = tuple(rank * 4 + suit for suit in range(4)
                                        for rank in range(13))


def new_decks(decks: int) -> list[int]:
    """``decks`` new decks stacked, each in :data:`NEW_DECK_ORDER`."""
    return [card for _ in range(decks) for card in NEW_DECK_ORDER]


def riffled(rng: random.Random, cards: Sequence[int], times: int) -> list[int]:
    """``cards`` riffled ``times`` times by the Gilbert-Shannon-Reeds model (Bayer &
    Diaconis 1992): a binomial cut, then each next card dropped from a packet with
    probability proportional to its size. Three riffles leave a shoe far from random:
    ``nine simulate --inject riffle-3``.

    >>> deck = riffled(random.Random(1), list(range(52)), 1)
    >>> sorted(deck) == list(range(52)), deck != list(range(52))
    (True, True)
    """
    deck = list(cards)
    for _ in range(times):
        cut = sum(rng.random() < 0.5 for _ in deck)
        left, right = deck[:cut], deck[cut:]
        merged: list[int] = []
        i = j = 0
        while i < len(left) or j < len(right):
            rest_left, rest_right = len(left) - i, len(right) - j
            if rng.random() * (rest_left + rest_right) < rest_left:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                j += 1
        deck = merged
    return deck


def burned_cards(deck: Sequence[int], burn: str | int) -> int:
    """Cards taken from the top before the first hand (the position of its first card).

    ``"first-card"``: the first card is exposed and that many more are burned (A = 1,
    2-9 face value, 10 J Q K = 10); an integer burns that many; ``"none"`` none.

    >>> burned_cards([51, 0, 0], "first-card"), burned_cards([8, 0], 3), burned_cards([], "none")
    (11, 3, 0)
    """
    if burn == "first-card":
        return 1 + (int(CARD_VALUES[deck[0]]) or 10)
    if burn == "none":
        return 0
    return int(burn)


class CutCardRule:
    """When a shoe ends: the cut card lies ``cut_card`` cards from the end; the hand that
    reaches it (takes the last card before it, or passes it) is the last, then
    ``hands_after_cut`` more. So a hand starting exactly at the cut card is not dealt
    (unless ``hands_after_cut`` allows it), and no hand starts with fewer than 6 cards left.

    Shared by ``nine simulate`` and ``nine shoe`` (:func:`analyzer.analysis.drift.deal_shoe`).
    """

    def __init__(self, size: int, first: int, cut_card: int, hands_after_cut: int) -> None:
        self.size = size
        self.cut = size - cut_card
        self.hands_after_cut = hands_after_cut
        self.after_cut = -1
        self.started = False
        if self.cut - first < 6:
            raise AnalyzerError(f"a shoe of {size} cards is too small for a cut card "
                                f"{cut_card} from the end")

    def another_hand(self, position: int) -> bool:
        """Is a hand dealt starting at ``position`` (the next card)? Call once per hand."""
        if self.started and self.after_cut < 0 and position >= self.cut:
            self.after_cut = self.hands_after_cut
        self.started = True
        if self.size - position < 6 or self.after_cut == 0:
            return False
        if self.after_cut > 0:
            self.after_cut -= 1
        return True


#: Point value of each card index 0-51.
CARD_VALUES: IntArray = np.array([card.points for card in DECK], dtype=np.int64)


#: Burn count of each card index when exposed: A = 1, 2-9 face, 10 J Q K = 10.
CARD_BURN: IntArray = np.array([card.points or 10 for card in DECK], dtype=np.int64)


def play_coup(tableau: Tableau, values: Sequence[int], start: int) -> int:
    """Cards one coup uses, dealt from ``values[start:]`` by the tableau (4, 5 or 6).

    >>> from analyzer.rules.profile import load_profile
    >>> play_coup(load_profile("punto-banco").tableau, [9, 0, 0, 0, 5], 0)
    4
    """
    player, banker = tableau.play(values, start)
    return player + banker


def deal_shoe(tableau: Tableau, order: Sequence[int], procedure: Procedure) -> list[int]:
    """Positions in ``order`` (card indexes) where each hand of the shoe starts.

    Dealt exactly as ``nine simulate`` deals (:func:`analyzer.dealing.simulate.burned_cards` and
    :class:`CutCardRule`): the burn comes first; the cut card lies
    ``cut_card`` cards from the end, the hand that reaches it is the last, then
    ``hands_after_cut`` more.
    """
    values = CARD_VALUES[np.asarray(order)].tolist()
    position = burned_cards(order, procedure.burn)
    ending = CutCardRule(len(order), position, procedure.cut_card, procedure.hands_after_cut)
    starts = []
    while ending.another_hand(position):
        starts.append(position)
        position += play_coup(tableau, values, position)
    return starts


def hidden_burn(order: Sequence[int] | IntArray, procedure: Procedure) -> IntArray:
    """The 52 card counts of the cards burned face down (not seen by a player).

    With the first-card burn the first card is exposed and the cards it burns are hidden;
    a fixed burn hides every burned card.

    >>> from analyzer.rules.profile import load_profile
    >>> hidden_burn([8, 0, 1, 2, 4, 5],  # 3S exposed: 3 burned
    ...             load_profile("punto-banco").procedure).sum()
    np.int64(3)
    """
    cards = [int(c) for c in order]
    first = burned_cards(cards, procedure.burn)
    hidden = cards[1:first] if procedure.burn == "first-card" else cards[:first]
    counts: IntArray = np.bincount(np.asarray(hidden, dtype=np.int64),
                                   minlength=52).astype(np.int64)
    return counts
