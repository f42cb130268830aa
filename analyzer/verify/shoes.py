"""Per-shoe bookkeeping of one log: which shoe each hand is from, and the cards it held.

A log names its shoes by a shoe id, by ``shoe`` records, or not at all; then a hand
numbered 1, or one with burn cards, opens a new shoe. Shoes are kept apart by id however
their rows interleave: a hand of a shoe seen before continues it (its hand number must
follow that shoe's last), unless it is numbered 1, which opens a new shoe under the same
id. At most :data:`OPEN_SHOES` shoes are open at once; the least recently dealt is closed
when another opens.

A shoe that opens with a shoe record, or whose first hand is number 1, is followed from
its start: the shoe-aware model follows it (each hand against the cards left). It is
counted *whole* when its end is in the log too (a ``shoe_end`` record or a CSV
``cards_left`` value, or another shoe opening after it), else *cut*
(:attr:`ShoeTracker.cut_shoes`: the file ends inside it, as a killed simulator leaves it).
A gap in the hand numbers stops the following. A card (or, in a values-only log, a point
value) dealt more often than the shoe holds it is a **rule violation** of kind
``composition``, reported at the hand where it went past the shoe; for a shoe without an
id or a shoe record that held more cards than one shoe (several shoes that could not be
told apart) the check is skipped and counted in :attr:`ShoeTracker.undelimited`.

Every shoe followed from its start (a cut one too: its cards are a shorter prefix, as every
shoe stopped at its cut card is) is handed, with its cards in dealt order, to the
``on_whole_shoe`` callback (the shuffle checks, :mod:`analyzer.verify.inference.shuffle`),
in the order the shoes opened (a shoe closed by its end while one opened before it is still
open waits for it, as the column-wise path hands shoes on in the log's order; when more
than :data:`OPEN_SHOES` wait, the shoe they wait for is closed then).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from analyzer.dealing.dialects import CARD_RANK, CARD_VALUE, VALUE_CARD, card_text
from analyzer.dealing.handlog import Hand, ShoeStart
from analyzer.engine.lookup import Model
from analyzer.verify.inference.decks import DeckTally
from analyzer.verify.inference.moments import ShoeMoments
from analyzer.verify.partial import IssueLog

__all__ = ["OPEN_SHOES", "OpenShoe", "RECENT_IDS", "RecentIds", "ShoeTracker",
           "shoe_composition"]

#: Most shoes kept open at once (shoes of interleaved rows); the least recently dealt one
#: is closed when another opens.
OPEN_SHOES = 64
#: Shoe ids the column-wise path remembers (:class:`RecentIds`), at least
#: :data:`OPEN_SHOES`.
RECENT_IDS = 1024


class RecentIds:
    """The shoe ids of the runs of a log read so far, for the column-wise path
    (:mod:`analyzer.verify.columnar`), which leaves a log using an id again to the
    reference.

    With ``keep``, only the last ``keep`` ids (at least :data:`OPEN_SHOES`): so memory does
    not grow with the number of shoes. A shoe opened :data:`OPEN_SHOES` shoes or more
    before another is closed in the :class:`ShoeTracker` by then, which keeps nothing of
    it, so a new shoe of its id opening at hand 1 is to the tracker what a fresh id is. So
    too without a hand column: the reader numbers an id's hands from 1 again once
    :data:`~analyzer.dealing.handlog.NUMBERED_IDS` (= :data:`OPEN_SHOES`) other ids were
    dealt from since. Without ``keep``, every id."""

    def __init__(self, keep: int | None = None) -> None:
        self.keep = keep
        self.ids: set[str] = set()
        self.order: deque[str] = deque()

    def isdisjoint(self, ids: Iterable[str]) -> bool:
        """Is none of ``ids`` among those remembered?"""
        return self.ids.isdisjoint(ids)

    def update(self, ids: Sequence[str]) -> None:
        """Remember ``ids`` (each new), forgetting the oldest past ``keep``."""
        self.ids.update(ids)
        if self.keep is not None:
            self.order.extend(ids)
            while len(self.order) > self.keep:
                self.ids.discard(self.order.popleft())


def shoe_composition(model: Model, values: bool) -> list[int]:
    """The full shoe's count of each card index; in a values-only log, the count of each
    point value on the card standing for it (:data:`VALUE_CARD`), 0 on the others."""
    counts = list(model.shoe.counts)
    if not values:
        return counts
    composition = [0] * 52
    for value, n in enumerate(model.shoe.value_counts()):
        composition[VALUE_CARD[value]] = n
    return composition


class OpenShoe:
    """One shoe being dealt: its id, whether it is whole and followed, and its cards."""

    def __init__(self, shoe_id: str, whole: bool, unnamed: bool, composition: list[int],
                 full_values: list[int]) -> None:
        self.id = shoe_id
        self.whole = whole
        self.tracking = whole
        self.unnamed = unnamed  # no id and no shoe record: its end is a guess
        self.ended = False  # its end record is in the log
        self.mark = 0  # the tracker's shoe count when it was last dealt from after another
        self.opened = 0  # ... when it opened: its place in the order shoes are handed on
        self.last_hand = 0
        self.hands = 0  # hands dealt from it
        self.counts = [0] * 52  # cards taken one by one (shoe-aware model, and burns)
        self.remaining = list(full_values)
        self.remaining_cards = list(composition)
        self.sequence: list[int] = []  # a followed shoe's cards in dealt order
        self.tested: list[bool] = []  # ... and whether each is a hand card (burns are not)
        #: hand cards of a shoe not followed from its start (shoe-aware model): counted,
        #: not kept (each is tested against the full shoe, whatever its card)
        self.untracked = 0
        self.hand_records: list[Hand] = []  # independent model: checked when it closes
        #: hands kept before :meth:`ShoeTracker.spill` looks at them again
        self.spill_at = sum(composition)
        self.spilled = 0  # cards of hands counted and let go (more cards than a shoe)
        self.let_go = [0] * 52  # ... each card's count
        #: a named shoe's hands let go: per card, (line, hand) of its first hand cards,
        #: as many as the shoe holds and one more (where it went past the shoe is there)
        self.first_seen: list[list[tuple[int, int | None]]] = [[] for _ in range(52)]
        self.pending: list[tuple[int, str, int | None]] = []  # its composition problems
        self.reported: set[int] = set()


class ShoeTracker:
    """The shoes of one file: their ids, whether each is followed, and the cards it dealt.

    With ``moments`` (the shoe-aware model) every dealt card is taken out as it comes and
    a shoe's rank (or value) moments are added up when it closes; without, a shoe's hands
    are kept and their cards checked against the composition when it closes.
    ``card_rows``: the shoe-aware rows are 52 card counts instead of ten point values.
    ``values``: the log writes point values only; composition is checked per value.
    """

    def __init__(self, model: Model, issues: IssueLog, moments: ShoeMoments | None = None,
                 card_rows: bool = False, values: bool = False,
                 on_whole_shoe: Callable[[list[int]], None] | None = None,
                 decks: DeckTally | None = None) -> None:
        self.model = model
        self.issues = issues
        self.moments = moments
        self.card_rows = card_rows
        self.values = values
        self.on_whole_shoe = on_whole_shoe
        self.decks = decks
        self.composition = shoe_composition(model, values)
        self.full_values = list(model.shoe.value_counts())
        self.shoe_size = sum(self.composition)
        self.categories = [CARD_VALUE[c] for c in range(52)] if values else \
            [CARD_RANK[c] - 1 for c in range(52)]
        self.start = [0] * (10 if values else 13)
        for c in range(52):
            self.start[self.categories[c]] += self.composition[c]
        self.card_counts = [0] * 52  # every dealt hand card, over all shoes
        self.shoes = self.whole_shoes = self.cut_shoes = self.undelimited = 0
        self.open: OrderedDict[str, OpenShoe] = OrderedDict()
        self.current: OpenShoe | None = None
        self.announced: str | None = None
        #: hands (and shoe ends) of a named shoe not open at the time: in a run of whole
        #: shoes of a larger file (:mod:`analyzer.dealing.segments`), rows of a shoe begun
        #: before the run
        self.unopened = 0
        #: records that could not be read since the last hand: a gap of as many hand
        #: numbers is theirs (already counted as malformed), not a sequence error
        self.lost = 0
        #: shoes closed before one opened earlier: by when they opened, their cards for
        #: ``on_whole_shoe`` (None: not a whole shoe followed); and the last handed on
        self.waiting: dict[int, list[int] | None] = {}
        self.handed_on = 0

    # -- which shoe ----------------------------------------------------------------------
    @property
    def tracking(self) -> bool:
        """Is the current shoe followed card by card from its start?"""
        return self.current is not None and self.current.tracking

    @property
    def last_hand(self) -> int:
        """The current shoe's last hand number."""
        return self.current.last_hand if self.current is not None else 0

    def hand(self, rec: Hand) -> OpenShoe:
        """Route a hand to its shoe (opening, resuming or continuing one), take out its
        burn cards, and count it; returns the shoe."""
        shoe = self.current
        if shoe is None or rec.shoe != shoe.id or self.announced is not None:
            shoe = self._switch(rec)
        elif not rec.shoe and (rec.hand == 1 or rec.burn) and shoe.last_hand:
            shoe = self.open_shoe("", rec.hand == 1 or rec.hand == shoe.last_hand + 1, (),
                                  rec.line, unnamed=True)  # no shoe id: hand 1 or a burn
        elif rec.hand != shoe.last_hand + 1:
            self.gap(rec)
        shoe.last_hand = rec.hand
        shoe.hands += 1
        self.lost = 0
        if rec.burn:
            self.take(rec.burn, rec.line, rec.hand, False)
        return shoe

    def _switch(self, rec: Hand) -> OpenShoe:
        """A hand from another shoe than the last, or the first after a shoe record."""
        if self.announced is not None and self.announced == rec.shoe \
                and self.current is not None:
            self.announced = None
            self.current.last_hand = rec.hand - 1
            return self.current
        self.announced = None
        known = self.open.get(rec.shoe) if rec.shoe else None
        if known is not None and rec.hand != 1:  # interleaved rows: the shoe continues
            self.open.move_to_end(rec.shoe)
            self.current = known
            known.mark = self.shoes  # another shoe came between: not its end after all
            if rec.hand != known.last_hand + 1:
                self.gap(rec)
            return known
        if rec.shoe and rec.hand != 1:
            self.unopened += 1  # continues a shoe not open here (begun before, or closed)
        last = self.current
        whole = rec.hand == 1 or (last is not None and rec.hand == last.last_hand + 1)
        return self.open_shoe(rec.shoe, whole, (), rec.line, unnamed=not rec.shoe)

    def lost_record(self) -> None:
        """A record could not be read (a malformed record): the next hand may skip its
        number."""
        self.lost += 1

    def gap(self, rec: Hand) -> None:
        """A hand number that does not follow the last: the shoe is no longer followed (a
        sequence problem, unless records lost just before account for the gap)."""
        shoe = self.current
        assert shoe is not None
        shoe.tracking = False
        if shoe.last_hand < rec.hand <= shoe.last_hand + 1 + self.lost:
            return
        self.issues.problem(rec.line, f"hand number {rec.hand} follows {shoe.last_hand} in "
                                      f"shoe {rec.shoe} (a hand is missing or out of order)",
                            rec.shoe, rec.hand, "sequence")

    def shoe_start(self, rec: ShoeStart) -> None:
        """A shoe record: a whole shoe opens, with its burn cards."""
        if rec.decks is not None and rec.decks != self.model.decks:
            self.issues.problem(rec.line, f"shoe {rec.shoe} has {rec.decks} decks, verifying "
                                          f"against {self.model.decks} (give --decks "
                                          f"{rec.decks})")
        self.open_shoe(rec.shoe, True, rec.burn, rec.line)
        self.announced = rec.shoe

    def shoe_end(self, shoe_id: str) -> None:
        """A shoe record closes a shoe."""
        self.announced = None
        shoe = self.open.get(shoe_id)
        if shoe is not None:
            shoe.ended = True
            self._close(shoe)
        else:
            self.unopened += 1

    def open_shoe(self, new_id: str, whole: bool, burn: tuple[int, ...], line: int,
                  unnamed: bool = False) -> OpenShoe:
        """Open a shoe (closing one of the same id, or the least recently dealt when
        :data:`OPEN_SHOES` are open): a shoe closed here ended, since this one follows it."""
        if unnamed or new_id in self.open:
            previous = self.current if unnamed else self.open[new_id]
            if previous is not None:
                previous.ended = True
                self._close(previous)
        while len(self.open) >= OPEN_SHOES:
            oldest = next(iter(self.open.values()))
            oldest.ended = True
            self._close(oldest)
        shoe = OpenShoe(new_id, whole, unnamed, self.composition, self.full_values)
        self.open[new_id] = shoe
        self.current = shoe
        self.shoes += 1
        shoe.mark = shoe.opened = self.shoes
        self.take(burn, line, None, False)
        return shoe

    def spill(self, shoe: OpenShoe) -> None:
        """Independent model, a shoe keeping :attr:`OpenShoe.spill_at` hands that already
        holds more cards than one shoe: its hands' cards are counted and the hands let go,
        so memory stays that of one shoe, not of the log.

        One without an id or a shoe record is several shoes that cannot be told apart (a
        log without shoe columns), whose composition is not checked. A named one (a shoe
        id that never ends) is checked when it closes, from each card's count and, per
        card, the lines of its first hand cards (:attr:`OpenShoe.first_seen`): the same
        violations, at the same hands, as with every hand kept."""
        records = shoe.hand_records
        cards = shoe.spilled + sum(shoe.counts) + sum(len(h.player) + len(h.banker)
                                                      for h in records)
        if cards <= self.shoe_size:
            shoe.spill_at = 2 * len(records)
            return
        dealt = _dealt_cards(records)
        for c in dealt:
            self.card_counts[c] += 1
            shoe.let_go[c] += 1
        shoe.spilled += len(dealt)
        if not shoe.unnamed:
            self._first_seen(shoe, records, set(dealt))
        records.clear()

    def _first_seen(self, shoe: OpenShoe, records: list[Hand], dealt: set[int]) -> None:
        """Note where each card was dealt in the hands let go, up to one more time than
        the shoe holds it (after that, :meth:`_check_composition` needs no more)."""
        seen, composition = shoe.first_seen, self.composition
        wanted = {c for c in dealt if len(seen[c]) <= composition[c]}
        if not wanted:
            return
        for h in records:
            for c in h.player + h.banker:
                if c in wanted and len(seen[c]) <= composition[c]:
                    seen[c].append((h.line, h.hand))

    # -- its cards -----------------------------------------------------------------------
    def depleted(self) -> list[int]:
        """The shoe the next hand is dealt from, for the shoe-aware model: what is left of
        a followed shoe, else the full shoe (52 card counts with ``card_rows``, else ten
        point-value counts)."""
        shoe = self.current
        if shoe is None or not shoe.tracking:
            return self.composition[:] if self.card_rows else self.full_values[:]
        return shoe.remaining_cards[:] if self.card_rows else shoe.remaining[:]

    def deal(self, rec: Hand) -> None:
        """A hand's cards leave the shoe, in the order they were dealt: one by one in the
        shoe-aware model, kept for the check at its close otherwise."""
        shoe = self.current
        assert shoe is not None
        if self.moments is None:
            shoe.hand_records.append(rec)
            return
        player, banker = rec.player, rec.banker
        if len(player) >= 2 and len(banker) >= 2:
            self.take((player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]),
                      rec.line, rec.hand, True)
        else:
            self.take(player + banker, rec.line, rec.hand, True)

    def take(self, cards: tuple[int, ...], line: int, hand: int | None, in_hand: bool) -> None:
        """Cards leave the current shoe (shoe-aware model, and burns in either model)."""
        shoe = self.current
        if shoe is None or not cards:
            return
        following = self.moments is not None
        counts, composition = shoe.counts, self.composition
        remaining, remaining_cards = shoe.remaining, shoe.remaining_cards
        sequence, tested = shoe.sequence, shoe.tested
        for c in cards:
            if shoe.tracking:
                sequence.append(c)
                tested.append(in_hand)
            elif in_hand and following:
                shoe.untracked += 1
                self.card_counts[c] += 1
            counts[c] += 1
            remaining[CARD_VALUE[c]] -= 1
            remaining_cards[c] -= 1
            if counts[c] > composition[c] and c not in shoe.reported:
                shoe.reported.add(c)
                shoe.tracking = False
                message = self._excess(c, counts[c], shoe.id)
                if shoe.unnamed:  # judged when the shoe closes: it may be several shoes
                    shoe.pending.append((line, message, hand))
                else:
                    self.issues.violation_at(line, shoe.id, hand, "composition", message)

    def _excess(self, c: int, seen: int, shoe_id: str) -> str:
        """The message for a card (or value) dealt more often than the shoe holds it."""
        held = self.composition[c]
        if self.values:
            return (f"point value {CARD_VALUE[c]} appears {seen} times in shoe {shoe_id}, "
                    f"more than the {held} cards of that value {self.model.decks} deck(s) "
                    "hold")
        if held == 0:
            return f"card {card_text(c)} appears in shoe {shoe_id}, which holds none"
        return (f"card {card_text(c)} appears {seen} times in shoe {shoe_id}, more than "
                f"{self.model.decks} deck(s) hold")

    def close_shoe(self, more: bool = False) -> None:
        """Close every open shoe: the end of the file (a shoe without its end was cut), or
        with ``more`` the end of a run of a larger file (the file's next shoes follow)."""
        while self.open:  # (one at a time: closing one may close another)
            shoe = next(iter(self.open.values()))
            shoe.ended = shoe.ended or more
            self._close(shoe)
        self.current = None
        for opened in sorted(self.waiting):  # (a shoe never closed: one lost to the log)
            self._hand_on(self.waiting.pop(opened))
        self.handed_on = self.shoes

    def _close(self, shoe: OpenShoe) -> None:
        """Check a closing shoe's composition and add its cards up.

        A shoe without an id or a shoe record that held more cards than one shoe is
        several shoes that could not be told apart: its composition is not checked.
        """
        if self.open.get(shoe.id) is shoe:
            del self.open[shoe.id]
        if self.current is shoe:
            self.current = None
        if shoe.whole:  # its end: an end record, or a shoe opened after its last hand
            ended = shoe.ended or self.shoes > shoe.mark
            self.whole_shoes += ended
            self.cut_shoes += not ended
        undelimited = shoe.unnamed and (shoe.spilled > 0 or sum(shoe.counts) + sum(
            len(h.player) + len(h.banker) for h in shoe.hand_records) > self.shoe_size)
        if undelimited:
            self.undelimited += 1
        else:
            for line, message, number in shoe.pending:
                self.issues.violation_at(line, "", number, "composition", message)
        if self.decks is not None and shoe.whole and not undelimited:
            # the shoe-aware model took every card out
            dealt = [n + m for n, m in zip(shoe.counts, shoe.let_go, strict=True)]
            for c in _dealt_cards(shoe.hand_records):
                dealt[c] += 1
            self.decks.add_counts([dealt])
        if self.moments is not None:
            self.moments.add_shoe(self.start, shoe.sequence, shoe.tested, self.categories)
            self.moments.add_unfollowed(self.start, shoe.untracked, self.categories)
            for c, in_hand in zip(shoe.sequence, shoe.tested, strict=True):
                self.card_counts[c] += in_hand
            whole_sequence = shoe.sequence
        else:
            hand_cards = _dealt_cards(shoe.hand_records)
            if shoe.hand_records or shoe.spilled:
                self._check_composition(shoe, undelimited, hand_cards)
            whole_sequence = shoe.sequence + hand_cards
        if self.on_whole_shoe is not None:
            self.waiting[shoe.opened] = whole_sequence if (
                shoe.whole and shoe.tracking and not undelimited and whole_sequence) else None
            self._release()

    def _release(self) -> None:
        """Hand on the whole shoes closed, in the order they opened, up to the first still
        open; when more than :data:`OPEN_SHOES` wait, close that one."""
        waiting = self.waiting
        while True:
            while self.handed_on + 1 in waiting:
                self.handed_on += 1
                self._hand_on(waiting.pop(self.handed_on))
            if len(waiting) <= OPEN_SHOES:
                return
            first = next((s for s in self.open.values() if s.opened == self.handed_on + 1),
                         None)
            if first is not None:
                first.ended = True
                self._close(first)  # (hands on what waits for it)
                return
            self.handed_on += 1  # (a shoe never closed: one lost to the log)

    def _hand_on(self, sequence: list[int] | None) -> None:
        """One shoe to the ``on_whole_shoe`` callback (None: not a whole shoe followed)."""
        if sequence is not None and self.on_whole_shoe is not None:
            self.on_whole_shoe(sequence)

    def _check_composition(self, shoe: OpenShoe, undelimited: bool,
                           hand_cards: list[int]) -> None:
        """Independent model: the hands of a closing shoe (those kept, and those let go
        by :meth:`spill`) against its composition."""
        records = shoe.hand_records
        dealt = np.bincount(np.fromiter(hand_cards, np.int64, len(hand_cards)), minlength=52)
        # burns were counted by take()
        total = dealt + np.array(shoe.counts) + np.array(shoe.let_go)
        excess = [] if undelimited else np.flatnonzero(
            total > np.array(self.composition)).tolist()
        for c in excess:
            if c in shoe.reported:  # a burn went past the shoe: reported by take()
                continue
            line, number = _past_shoe(shoe, records, c, self.composition[c])
            shoe.tracking = False
            self.issues.violation_at(line, shoe.id, number, "composition",
                                     self._excess(c, int(total[c]), shoe.id))
        for c, n in enumerate(dealt.tolist()):
            self.card_counts[c] += n


def _past_shoe(shoe: OpenShoe, records: list[Hand], c: int,
               held: int) -> tuple[int, int | None]:
    """(line, hand) of the hand where card ``c`` went past the ``held`` copies of it the
    shoe holds, counting its burns first: among the hands let go (their first cards of
    ``c``, :attr:`OpenShoe.first_seen`), else the hands kept."""
    seen = shoe.counts[c]
    for line, number in shoe.first_seen[c]:
        seen += 1
        if seen > held:
            return line, number
    culprit = records[-1] if records else None
    for hand in records:
        seen += (hand.player + hand.banker).count(c)
        if seen > held:
            culprit = hand
            break
    if culprit is None:  # (not reached: a card past the shoe was dealt in a hand)
        line, number = shoe.first_seen[c][-1]
        return line, number
    return culprit.line, culprit.hand


def _dealt_order(hand: Hand) -> tuple[int, ...]:
    """A hand's cards in the order they left the shoe: P B P B, then third cards."""
    player, banker = hand.player, hand.banker
    if len(player) >= 2 and len(banker) >= 2:
        return (player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:])
    return player + banker


def _dealt_cards(records: list[Hand]) -> list[int]:
    """The cards of a shoe's hands in the order they left it (one pass; a hand with fewer
    than two cards in its dealt order as far as it goes)."""
    out: list[int] = []
    extend = out.extend
    for h in records:
        player, banker = h.player, h.banker
        if len(player) < 2 or len(banker) < 2:
            extend(_dealt_order(h))
            continue
        extend((player[0], banker[0], player[1], banker[1]))
        if len(player) > 2:
            extend(player[2:])
        if len(banker) > 2:
            extend(banker[2:])
    return out
