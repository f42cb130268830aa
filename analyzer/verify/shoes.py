"""Per-shoe bookkeeping of one log: which shoe each hand is from, and the cards it held.

A log names its shoes by a shoe id, by ``shoe`` records, or not at all; then a hand
numbered 1, or one with burn cards, opens a new shoe. A shoe that opens with a shoe record,
or whose first hand is number 1, is *whole*: every card dealt from it is in the log, and
the shoe-aware model follows it (each hand against the cards left). A gap in the hand
numbers stops the following. A card dealt more often than the shoe holds it is an input
problem, reported where it went past the shoe; for a shoe without an id or a shoe record
that held more cards than one shoe (several shoes that could not be told apart) the check
is skipped and counted in :attr:`ShoeTracker.undelimited`.
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from analyzer.dealing.handlog import CARD_RANK, CARD_VALUE, Hand, ShoeStart, card_text
from analyzer.engine.lookup import Model
from analyzer.verify.moments import ShoeMoments
from analyzer.verify.partial import IssueLog

__all__ = ["ShoeTracker"]


class ShoeTracker:
    """The shoes of one file: their ids, whether each is followed, and the cards it dealt.

    With ``moments`` (the shoe-aware model) every dealt card is taken out as it comes and
    a shoe's rank moments are added up when it closes; without, a shoe's hands are kept
    (:attr:`shoe_hands`) and their cards checked against the composition when it closes.
    ``card_rows``: the shoe-aware rows are 52 card counts instead of ten point values.
    """

    def __init__(self, model: Model, issues: IssueLog, moments: ShoeMoments | None = None,
                 card_rows: bool = False) -> None:
        self.model = model
        self.issues = issues
        self.moments = moments
        self.card_rows = card_rows
        self.composition = [model.decks] * 52
        self.full_values = list(model.shoe.value_counts())
        self.shoe_size = 52 * model.decks
        self.start_ranks = [0] * 13
        for c in range(52):
            self.start_ranks[CARD_RANK[c] - 1] += self.composition[c]
        self.card_counts = [0] * 52  # every dealt hand card, over all shoes
        self.shoes = self.whole_shoes = self.undelimited = 0
        self.shoe_id: str | None = None
        self.unnamed = False  # the shoe has no id and no shoe record: its end is a guess
        self.pending: list[tuple[int, str, int | None]] = []  # its composition problems
        self.shoe_counts = [0] * 52
        self.remaining = list(self.full_values)
        self.remaining_cards = list(self.composition)  # card-level shoe-aware rows
        self.tracking = False
        self.last_hand = 0
        self.announced: str | None = None
        self.shoe_hands: list[Hand] = []  # independent model: the shoe's hands, checked at close
        self.sequence: list[int] = []  # shoe-aware: a followed shoe's cards in dealt order
        self.tested: list[bool] = []  # ... and whether each is a hand card (burns are not)
        self.untracked: list[int] = []  # hand cards of shoes not followed from their start
        self.reported: set[int] = set()

    # -- which shoe ----------------------------------------------------------------------
    def new_hand_shoe(self, rec: Hand) -> None:
        """A hand from another shoe than the last, or the first after a shoe record."""
        if self.announced is not None and self.announced == rec.shoe:
            self.announced = None
            self.last_hand = rec.hand - 1
            return
        self.announced = None
        whole = rec.hand == 1 or (self.shoe_id is not None and rec.hand == self.last_hand + 1)
        self.open_shoe(rec.shoe, whole, (), rec.line, unnamed=not rec.shoe)

    def unnamed_shoe(self, rec: Hand) -> None:
        """A hand numbered 1, or with burn cards, in a log without shoe ids: a new shoe."""
        whole = rec.hand == 1 or rec.hand == self.last_hand + 1
        self.open_shoe("", whole, (), rec.line, unnamed=True)

    def gap(self, rec: Hand) -> None:
        """A hand number that does not follow the last: the shoe is no longer followed."""
        self.issues.problem(rec.line, f"hand number {rec.hand} follows {self.last_hand} in "
                                      f"shoe {rec.shoe} (a hand is missing or out of order)",
                            rec.shoe, rec.hand, "sequence")
        self.tracking = False

    def shoe_start(self, rec: ShoeStart) -> None:
        """A shoe record: a whole shoe opens, with its burn cards."""
        if rec.decks is not None and rec.decks != self.model.decks:
            self.issues.problem(rec.line, f"shoe {rec.shoe} has {rec.decks} decks, verifying "
                                          f"against {self.model.decks} (give --decks "
                                          f"{rec.decks})")
        self.open_shoe(rec.shoe, True, rec.burn, rec.line)
        self.announced = rec.shoe
        self.last_hand = 0

    def open_shoe(self, new_id: str, whole: bool, burn: tuple[int, ...], line: int,
                  unnamed: bool = False) -> None:
        """Close the last shoe and open another."""
        self.close_shoe()
        self.unnamed = unnamed
        self.shoe_id = new_id
        self.shoes += 1
        self.whole_shoes += whole
        self.tracking = whole
        self.take(burn, line, None, False)

    # -- its cards -----------------------------------------------------------------------
    def depleted(self) -> list[int]:
        """The shoe the next hand is dealt from, for the shoe-aware model: what is left of
        a followed shoe, else the full shoe (52 card counts with ``card_rows``, else ten
        point-value counts)."""
        if self.card_rows:
            return self.remaining_cards[:] if self.tracking else self.composition[:]
        return self.remaining[:] if self.tracking else self.full_values[:]

    def deal(self, rec: Hand) -> None:
        """A hand's cards leave the shoe, in the order they were dealt."""
        player, banker = rec.player, rec.banker
        if len(player) >= 2 and len(banker) >= 2:
            self.take((player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]),
                      rec.line, rec.hand, True)
        else:
            self.take(player + banker, rec.line, rec.hand, True)

    def take(self, cards: tuple[int, ...], line: int, hand: int | None, in_hand: bool) -> None:
        """Cards leave the shoe (shoe-aware model, and burns in either model)."""
        following = self.moments is not None
        counts, composition = self.shoe_counts, self.composition
        remaining, remaining_cards = self.remaining, self.remaining_cards
        for c in cards:
            if following:
                if self.tracking:
                    self.sequence.append(c)
                    self.tested.append(in_hand)
                elif in_hand:
                    self.untracked.append(c)
            counts[c] += 1
            remaining[CARD_VALUE[c]] -= 1
            remaining_cards[c] -= 1
            if counts[c] > composition[c] and c not in self.reported:
                self.reported.add(c)
                self.tracking = False
                message = (f"card {card_text(c)} appears {self.shoe_counts[c]} times in shoe "
                           f"{self.shoe_id}, more than {self.model.decks} deck(s) hold")
                if self.unnamed:  # judged when the shoe closes: it may be several shoes
                    self.pending.append((line, message, hand))
                else:
                    self.issues.problem(line, message, self.shoe_id or "", hand,
                                        "composition")

    def close_shoe(self) -> None:
        """Check the closing shoe's composition and add its cards up.

        A shoe without an id or a shoe record that held more cards than one shoe is
        several shoes that could not be told apart: its composition is not checked.
        """
        dealt_cards = sum(self.shoe_counts) + sum(
            len(h.player) + len(h.banker) for h in self.shoe_hands)
        undelimited = self.unnamed and dealt_cards > self.shoe_size
        if undelimited:
            self.undelimited += 1
        else:
            for line, message, number in self.pending:
                self.issues.problem(line, message, "", number, "composition")
        self.pending = []
        if self.moments is not None:
            self.moments.add_shoe(self.start_ranks, self.sequence, self.tested)
            self.moments.add_shoe(self.start_ranks, self.untracked,
                                  [True] * len(self.untracked), fixed=True)
            for c, in_hand in zip(self.sequence, self.tested, strict=True):
                self.card_counts[c] += in_hand
            for c in self.untracked:
                self.card_counts[c] += 1
        elif self.shoe_hands:
            self._check_composition(undelimited)
        self.shoe_hands.clear()
        self.sequence = []
        self.tested = []
        self.untracked = []
        self.shoe_counts = [0] * 52
        self.remaining = list(self.full_values)
        self.remaining_cards = list(self.composition)
        self.reported = set()

    def _check_composition(self, undelimited: bool) -> None:
        """Independent model: the kept hands of a closing shoe against its composition."""
        cards = np.fromiter(chain.from_iterable(h.player + h.banker for h in self.shoe_hands),
                            dtype=np.int64)
        dealt = np.bincount(cards, minlength=52)
        total = dealt + np.array(self.shoe_counts)  # burns were counted by take()
        excess = [] if undelimited else np.flatnonzero(
            total > np.array(self.composition)).tolist()
        for c in excess:
            seen = self.shoe_counts[c]  # find the hand where the card went past the shoe
            culprit = self.shoe_hands[-1]
            for hand in self.shoe_hands:
                seen += (hand.player + hand.banker).count(c)
                if seen > self.composition[c]:
                    culprit = hand
                    break
            self.issues.problem(culprit.line, f"card {card_text(c)} appears {int(total[c])} "
                                              f"times in shoe {self.shoe_id}, more than "
                                              f"{self.model.decks} deck(s) hold",
                                self.shoe_id or "", culprit.hand, "composition")
        for c, n in enumerate(dealt.tolist()):
            self.card_counts[c] += n
