"""Exact odds of bets that read the ranks and suits of each hand's first two cards.

The value-level engine (:mod:`analyzer.engine.enumeration`) knows only point values. Card-level
bets (pairs, colours, suited hands, exact cards) need more, but only about four cards:

*Given the point values of the first four cards (P1 B1 P2 B2), the third cards depend only
on the point values left in the shoe.* So which cards of those values the hands hold is
independent of the rest of the coup given the four values, and for a coup row with
value-level ways ``w`` (:func:`analyzer.engine.enumeration.term_weights`), first-four value draws
``W4`` (falling factorials of the value counts) and a pair of card classes ``(p, b)``::

    ways(row, p, b) = (w / W4) x N(p, b)

``w / W4`` is an exact integer (the ways to fill the positions after the first four) and
``N(p, b)`` counts the ordered draws of four specific cards (Player's two in class ``p``,
Banker's two in class ``b``) from the 52 per-card counts, by falling factorials; Banker's
draws after Player's are counted by inclusion-exclusion on the cards Player took, so the
joint count of both hands costs one (2704 x classes) array per bet and shoe. A class is
a value pair together with the truth of every card-level comparison the bet makes, so
card pairs no payline tells apart are counted together and the work stays small.

Counts stay exact integers over the published ordered 6-card denominator. In the
infinite deck every card has probability 1/52, so card-level counts are over
``13**6 * 4**4`` (= ``52**4 * 13**2``) instead of ``13**6``.

>>> from analyzer.rules.profile import load_profile
>>> from analyzer.rules.shoe import Shoe
>>> bet = load_profile("side-bets").bet("player-pair")
>>> ways = card_bet_ways(load_profile("side-bets").tableau, bet, Shoe.decks(1))
>>> from fractions import Fraction
>>> Fraction(ways[(0,)], sum(ways.values()))   # (4d - 1)/(52d - 1) with d = 1
Fraction(1, 17)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import perm
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.engine.enumeration import (
    INFINITE_VALUE_WEIGHTS,
    INT64_LIMIT,
    PUNTO_BANCO_NATURALS,
    Coup,
    CoupTable,
    Tally,
    coup_features,
    coups,
    deal,
    denominator,
    term_weights,
    terms,
)
from analyzer.rules.bets import settle_codes
from analyzer.rules.cards import DECK, Card
from analyzer.rules.conditions import FEATURES, NO_CARD, cards_key, ranks_key
from analyzer.rules.profile import Bet, Tableau
from analyzer.rules.shoe import Shoe

__all__ = ["card_atoms", "card_bet_ways", "card_coup_features", "card_denominator", "card_tally",
           "CardTally", "deal_cards", "evaluate_card_tally", "first_four_ways",
           "hand_card_features", "HandClasses", "HANDS", "INFINITE_CARD_SCALE", "IntArray",
           "joint_card_counts", "card_feature_columns", "pair_feature_columns", "VALUE_PAIRS"]

IntArray = npt.NDArray[np.int64]
#: Entry indices of a compiled card-level bet (int32: hundreds of thousands of entries).
Entries = npt.NDArray[np.int32]

#: Infinite deck: card-level counts are over 13**6 * CARD_SCALE (each card is 1/52).
INFINITE_CARD_SCALE = 4**4
HANDS = ("player", "banker")
_CARDS = len(DECK)
#: Every ordered pair of card indices (first, second): 52 x 52 = 2704 pairs.
_FIRST = np.repeat(np.arange(_CARDS), _CARDS)
_SECOND = np.tile(np.arange(_CARDS), _CARDS)
#: The 55 point-value pairs (low, high) and the index of each.
VALUE_PAIRS = tuple((a, b) for a in range(10) for b in range(a, 10))
_VALUE_PAIR_INDEX = np.full((10, 10), -1, dtype=np.int64)
for _i, (_a, _b) in enumerate(VALUE_PAIRS):
    _VALUE_PAIR_INDEX[_a, _b] = _VALUE_PAIR_INDEX[_b, _a] = _i


def hand_card_features(hand: str, first: Card, second: Card) -> dict[str, Any]:
    """Every card-level feature of one hand (``"player"`` or ``"banker"``) from its two cards.

    >>> f = hand_card_features("player", Card.parse("4D"), Card.parse("4D"))
    >>> f["player_identical_pair"], f["player_suit"], f["player_pair_rank"], f["player_colour"]
    (True, 'D', 4, 'red')
    >>> hand_card_features("banker", Card.parse("TS"), Card.parse("JS"))["banker_pair"]
    False
    """
    pair = first.rank == second.rank
    suited = first.suit == second.suit
    colours = {first.colour, second.colour}
    return {
        f"{hand}_pair": pair,
        f"{hand}_identical_pair": pair and suited,
        f"{hand}_suited": suited,
        f"{hand}_colour": colours.pop() if len(colours) == 1 else "mixed",
        f"{hand}_suit": first.suit.value if suited else "none",
        f"{hand}_pair_rank": int(first.rank) if pair else NO_CARD,
        f"{hand}_first_ranks": ranks_key([int(first.rank), int(second.rank)]),
        f"{hand}_first_cards": cards_key([first, second]),
    }


def card_coup_features(player: Sequence[Card], banker: Sequence[Card],
                       naturals: frozenset[int] = PUNTO_BANCO_NATURALS) -> dict[str, Any]:
    """Every feature (coup- and card-level) of a coup dealt with these cards.

    >>> from analyzer.rules.cards import parse_cards
    >>> f = card_coup_features(parse_cards("4D 4D 2C"), parse_cards("KS 9S"))
    >>> f["winner"], f["player_identical_pair"], f["banker_suited"], f["player_cards"]
    ('banker', True, True, 3)
    """
    features = coup_features([c.points for c in player], [c.points for c in banker], naturals)
    features.update(hand_card_features("player", player[0], player[1]))
    features.update(hand_card_features("banker", banker[0], banker[1]))
    return features


def deal_cards(tableau: Tableau, cards: Sequence[Card]) -> tuple[Coup, dict[str, Any]]:
    """Play one coup from cards in shoe order: the coup and all its features.

    >>> from analyzer.rules.profile import load_profile
    >>> from analyzer.rules.cards import parse_cards
    >>> coup, f = deal_cards(load_profile("punto-banco").tableau, parse_cards("4D KS 5D 9H"))
    >>> coup, f["player_suited"], f["banker_colour"]
    (Coup(player=(4, 5), banker=(0, 9), arrangements=1), True, 'mixed')
    """
    coup = deal(tableau, [card.points for card in cards])
    player = [cards[0], cards[2], *cards[4:4 + len(coup.player) - 2]]
    banker = [cards[1], cards[3]]
    if len(coup.banker) == 3:
        banker.append(cards[4 + len(coup.player) - 2])
    return coup, card_coup_features(player, banker, tableau.naturals)


@cache
def pair_feature_columns(hand: str) -> dict[str, npt.NDArray[Any]]:
    """Card-level feature columns of every ordered card pair (2704 rows)."""
    return card_feature_columns(hand, _FIRST, _SECOND)


def card_feature_columns(hand: str, first: IntArray, second: IntArray
                         ) -> dict[str, npt.NDArray[Any]]:
    """:func:`hand_card_features` of many hands at once, as columns: ``first`` and
    ``second`` are the card indices of each hand's first two cards."""
    ranks, cards = _pair_keys()
    rank_first, rank_second = first // 4 + 1, second // 4 + 1
    suit_first, suit_second = first % 4, second % 4  # S H D C
    pair = rank_first == rank_second
    suited = suit_first == suit_second
    red_first, red_second = np.isin(suit_first, (1, 2)), np.isin(suit_second, (1, 2))
    return {
        f"{hand}_pair": pair,
        f"{hand}_identical_pair": pair & suited,
        f"{hand}_suited": suited,
        f"{hand}_colour": np.where(red_first & red_second, "red",
                                   np.where(~red_first & ~red_second, "black", "mixed")),
        f"{hand}_suit": np.where(suited, np.array(list("SHDC"))[suit_first], "none"),
        f"{hand}_pair_rank": np.where(pair, rank_first, NO_CARD),
        f"{hand}_first_ranks": ranks[rank_first, rank_second],
        f"{hand}_first_cards": cards[first, second],
    }


@cache
def _pair_keys() -> tuple[npt.NDArray[np.str_], npt.NDArray[np.str_]]:
    """The multiset keys of two ranks (by rank number) and of two cards (by index)."""
    ranks = np.array([[ranks_key([a, b]) if a and b else "" for b in range(14)]
                      for a in range(14)])
    cards = np.array([[cards_key([DECK[a], DECK[b]]) for b in range(52)] for a in range(52)])
    return ranks, cards


def _pair_value_index() -> IntArray:
    points = np.array([card.points for card in DECK], dtype=np.int64)
    return _VALUE_PAIR_INDEX[points[_FIRST], points[_SECOND]]


@dataclass(frozen=True)
class HandClasses:
    """The card pairs of one hand grouped by what a bet can tell apart.

    ``of_pair[p]`` is the class of ordered card pair ``p``; ``value_pair[c]`` the point-value
    pair (index into :data:`VALUE_PAIRS`) of class ``c``; ``representative[c]`` one pair of it.
    """

    of_pair: IntArray
    value_pair: IntArray
    representative: IntArray
    sizes: IntArray

    @property
    def size(self) -> int:
        """Number of classes."""
        return int(self.value_pair.shape[0])


def card_atoms(bet: Bet, hand: str) -> list[Callable[[Mapping[str, Any]], Any]]:
    """The card-level comparisons a bet makes on one hand's first two cards."""
    prefix = hand + "_"
    return [test for line in bet.lines for name, test in line.when.atoms
            if FEATURES[name].level == "cards" and name.startswith(prefix)]


def _hand_classes(bet: Bet, hand: str) -> HandClasses:
    columns = pair_feature_columns(hand)
    parts = [_pair_value_index()]
    for atom in card_atoms(bet, hand):
        truth = np.broadcast_to(np.asarray(atom(columns), dtype=bool), (_CARDS * _CARDS,))
        parts.append(truth.astype(np.int64))
    stacked = np.column_stack(parts)
    unique, first, inverse = np.unique(stacked, axis=0, return_index=True,
                                       return_inverse=True)
    of_pair = inverse.reshape(-1).astype(np.int64)
    return HandClasses(of_pair, unique[:, 0].astype(np.int64), first.astype(np.int64),
                       np.bincount(of_pair, minlength=unique.shape[0]).astype(np.int64))


def _expand(rows: Entries, row_value_pair: IntArray,
            classes: HandClasses) -> tuple[Entries, Entries]:
    """Repeat each row once per class of its value pair: (row index, class) per entry, as
    int32 (a few hundred thousand entries: half the transient memory of int64)."""
    order = np.argsort(classes.value_pair, kind="stable").astype(np.int32)
    per_value = np.bincount(classes.value_pair, minlength=len(VALUE_PAIRS))
    offset = np.concatenate([[0], np.cumsum(per_value)[:-1]]).astype(np.int32)
    repeats = per_value[row_value_pair]
    expanded = np.repeat(rows, repeats)
    starts = np.repeat((np.cumsum(repeats) - repeats).astype(np.int32), repeats)
    within = np.arange(expanded.shape[0], dtype=np.int32) - starts
    del starts
    chosen = offset[np.repeat(row_value_pair.astype(np.int32), repeats)] + within
    return expanded, order[chosen]


@dataclass(frozen=True)
class CardTally:
    """A card-level bet compiled against a tableau.

    Every (coup row, Player class, Banker class) is settled once at compile time. For each
    result and class pair, the coup rows giving that result form a *row set*; identical row
    sets (the common case: most classes of a value pair split the rows alike) are stored
    once. Per shoe, ``row_sets`` sums the value-level weights of each set, and each
    (result, Player class, Banker class) group multiplies its set's sum by the joint card
    count of its classes.
    """

    keys: tuple[Hashable, ...]
    starts: IntArray
    group_set: IntArray
    player_class: IntArray
    banker_class: IntArray
    set_player_value: IntArray
    set_banker_value: IntArray
    row_sets: Tally
    player: HandClasses
    banker: HandClasses


#: Rows settled at a time by :func:`_settle_rows` (their feature columns are held only
#: for one run of rows: 5 string and integer columns of 231,620 rows took 21 MB at once).
SETTLE_ROWS = 1 << 16


def _settle_rows(bet: Bet, table: CoupTable, row: Entries, player: tuple[HandClasses, Entries],
                 banker: tuple[HandClasses, Entries]) -> tuple[IntArray, list[Any]]:
    """The result code of each (coup row, Player class, Banker class) entry, and the labels:
    settled in runs of :data:`SETTLE_ROWS` entries (conditions read one entry at a time)."""
    parts: list[IntArray] = []
    labels: list[Any] = []
    for start in range(0, max(row.shape[0], 1), SETTLE_ROWS):
        stop = min(start + SETTLE_ROWS, row.shape[0])
        features: dict[str, npt.NDArray[Any]] = {}
        for name in bet.features:
            if FEATURES[name].level == "coup":
                features[name] = table.features[name][row[start:stop]]
            else:
                hand, (classes, chosen) = (("player", player) if name.startswith("player_")
                                           else ("banker", banker))
                column = pair_feature_columns(hand)[name][classes.representative]
                features[name] = column[chosen[start:stop]]
        codes, labels = settle_codes(bet, features)
        parts.append(np.broadcast_to(np.asarray(codes, dtype=np.int64), (stop - start,)))
    return np.concatenate(parts), labels


@cache
def card_tally(tableau: Tableau, bet: Bet) -> CardTally:
    """Compile a card-level bet: settle every (coup, Player class, Banker class) once."""
    table = coups(tableau)
    term_set = terms(tableau)
    player = _hand_classes(bet, "player")
    banker = _hand_classes(bet, "banker")
    rows = np.arange(len(table), dtype=np.int32)
    player_vp = _VALUE_PAIR_INDEX[table.player[:, 0], table.player[:, 1]]
    banker_vp = _VALUE_PAIR_INDEX[table.banker[:, 0], table.banker[:, 1]]
    row, player_class = _expand(rows, player_vp, player)
    order, banker_class = _expand(np.arange(row.shape[0], dtype=np.int32), banker_vp[row],
                                  banker)
    row, player_class = row[order], player_class[order]
    codes, labels = _settle_rows(bet, table, row, (player, player_class),
                                 (banker, banker_class))
    # groups: (result, Player class, Banker class), each with its set of coup rows
    group_code = (codes * player.size + player_class) * banker.size + banker_class
    by_group = np.argsort(group_code, kind="stable")
    group_code, row = group_code[by_group], row[by_group]
    group_start = np.flatnonzero(np.r_[True, group_code[1:] != group_code[:-1]])
    # identify equal row sets by two random 64-bit fingerprints and the size
    generator = np.random.default_rng(20261129)
    fingerprints = generator.integers(0, 2**62, size=(2, len(table)), dtype=np.int64)
    with np.errstate(over="ignore"):
        first_hash = np.add.reduceat(fingerprints[0][row], group_start)
        second_hash = np.add.reduceat(fingerprints[1][row], group_start)
    sizes = np.diff(np.r_[group_start, row.shape[0]])
    _, set_first, group_set = np.unique(np.column_stack([first_hash, second_hash, sizes]),
                                        axis=0, return_index=True, return_inverse=True)
    group_set = group_set.reshape(-1).astype(np.int64)
    # the rows of each distinct set (taken from its first group) -> a tally of terms
    set_rows = [row[group_start[g]:group_start[g] + sizes[g]] for g in set_first]
    set_index = np.repeat(np.arange(len(set_rows)), [len(r) for r in set_rows])
    all_rows = np.concatenate(set_rows)
    combined = set_index * term_set.size + term_set.of_coup[all_rows]
    unique, count = np.unique(combined, return_counts=True)
    set_of = unique // term_set.size
    starts = np.flatnonzero(np.r_[True, set_of[1:] != set_of[:-1]])
    row_sets = Tally(tuple(range(len(set_rows))), (unique % term_set.size).astype(np.int64),
                     count.astype(np.int64), starts.astype(np.int64))
    first_rows = all_rows[np.r_[0, np.cumsum([len(r) for r in set_rows])[:-1]]]
    # groups in result order
    group_code = group_code[group_start]
    banker_of = group_code % banker.size
    player_of = group_code // banker.size % player.size
    code_of = group_code // banker.size // player.size
    result_start = np.flatnonzero(np.r_[True, code_of[1:] != code_of[:-1]])
    keys = tuple(labels[int(c)] for c in code_of[result_start])
    return CardTally(keys, result_start.astype(np.int64), group_set, player_of.astype(np.int64),
                     banker_of.astype(np.int64), player_vp[first_rows], banker_vp[first_rows],
                     row_sets, player, banker)


@cache
def _first_four_multiplicity() -> IntArray:
    """Value multiplicities of the first four cards for each (Player, Banker) value pair."""
    result = np.zeros((len(VALUE_PAIRS), len(VALUE_PAIRS), 10), dtype=np.int64)
    for i, player in enumerate(VALUE_PAIRS):
        for j, banker in enumerate(VALUE_PAIRS):
            for v in (*player, *banker):
                result[i, j, v] += 1
    return result


def first_four_ways(shoe: Shoe) -> IntArray:
    """Ordered value draws of the first four cards, per (Player, Banker) value pair.

    For a finite shoe the product of falling factorials of the value counts; for the
    infinite deck the product of the value weights out of 13.
    """
    if shoe.is_infinite:
        factors = [[w**m for m in range(5)] for w in INFINITE_VALUE_WEIGHTS]
    else:
        factors = [[perm(c, m) for m in range(5)] for c in shoe.value_counts()]
    table = np.array(factors, dtype=np.int64)
    multiplicity = _first_four_multiplicity()
    ways = np.ones(multiplicity.shape[:2], dtype=np.int64)
    for v in range(10):
        ways = ways * table[v, multiplicity[:, :, v]]
    return ways


def joint_card_counts(shoe: Shoe, player: HandClasses, banker: HandClasses) -> IntArray:
    """Ordered draws of four specific cards (P1 P2 B1 B2) by (Player class, Banker class).

    Finite shoe: Player's pair (i, j) draws ``k_i (k_j - [i = j])``; Banker's pair (l, m)
    then draws ``(k_l - a_l)(k_m - a_m - [l = m])`` with ``a`` the cards Player took, which
    summed over a class ``B`` of pairs (symmetric in order) is
    ``T(B) - 2 R_B(i) - 2 R_B(j) + 2 [(i, j) in B]`` with ``T(B)`` the unconditioned draws and
    ``R_B(l) = sum_m [(l, m) in B] (k_m - [l = m])``. When one hand's classes are bare value
    pairs, only values are removed from the shoe and the count factors through
    :func:`first_four_ways`. Infinite deck: class sizes multiply.
    """
    if shoe.is_infinite:
        return np.outer(player.sizes, banker.sizes).astype(np.int64)
    k = np.array(shoe.counts, dtype=np.int64)
    pair_ways = k[_FIRST] * (k[_SECOND] - (_FIRST == _SECOND))
    if banker.size == len(VALUE_PAIRS) or player.size == len(VALUE_PAIRS):
        return _marginal_counts(shoe, pair_ways, player, banker)
    indicator = np.zeros((banker.size, _CARDS * _CARDS), dtype=np.int64)
    indicator[banker.of_pair, np.arange(_CARDS * _CARDS)] = 1
    total = indicator @ pair_ways
    square = indicator.reshape(banker.size, _CARDS, _CARDS)
    row_sums = square @ k - square[:, np.arange(_CARDS), np.arange(_CARDS)]
    after = (total[None, :] - 2 * (row_sums.T[_FIRST] + row_sums.T[_SECOND])
             + 2 * indicator.T)
    contribution = pair_ways[:, None] * after
    order = np.argsort(player.of_pair, kind="stable")
    starts = np.searchsorted(player.of_pair[order], np.arange(player.size))
    joint: IntArray = np.add.reduceat(contribution[order], starts, axis=0)
    return joint


def _marginal_counts(shoe: Shoe, pair_ways: IntArray, player: HandClasses,
                     banker: HandClasses) -> IntArray:
    """Joint counts when one hand's classes are only value pairs.

    With hand ``h`` card-level and the other hand only a value pair ``v``, the count is
    ``N_h(c) x arrangements(v) x W4(vp(c), v) / W2(vp(c))``: Player's exact cards change the
    other hand's draws only through their values.
    """
    # a zero divisor only meets a zero numerator (the values are not in the shoe)
    first_four = first_four_ways(shoe)
    two = np.maximum(_two_card_ways(shoe), 1)
    arrangements = np.array([1 if a == b else 2 for a, b in VALUE_PAIRS], dtype=np.int64)
    if banker.size == len(VALUE_PAIRS):
        card = np.zeros(player.size, dtype=np.int64)
        np.add.at(card, player.of_pair, pair_ways)
        vp = player.value_pair
        other = banker.value_pair
        joint = (card[:, None] * arrangements[other][None, :] * first_four[vp][:, other]
                 // two[vp][:, None])
        return joint.astype(np.int64)
    card = np.zeros(banker.size, dtype=np.int64)
    np.add.at(card, banker.of_pair, pair_ways)
    vp = banker.value_pair
    other = player.value_pair
    joint = (card[None, :] * arrangements[other][:, None] * first_four[other][:, vp]
             // two[vp][None, :])
    return joint.astype(np.int64)


def _two_card_ways(shoe: Shoe) -> IntArray:
    """Ordered value draws of one value pair (one ordering), per value pair."""
    counts = shoe.value_counts()
    return np.array([perm(counts[a], 2) if a == b else counts[a] * counts[b]
                     for a, b in VALUE_PAIRS], dtype=np.int64)


def evaluate_card_tally(tally: CardTally, shoe: Shoe,
                        weights: npt.NDArray[Any]) -> dict[Hashable, int]:
    """Exact ordered-sequence ways per result of a compiled card-level bet on ``shoe``.

    Finite shoes are over :func:`analyzer.engine.enumeration.denominator`; the infinite deck over
    ``13**6 * INFINITE_CARD_SCALE``. ``weights`` are the shoe's term weights (object dtype
    when the denominator exceeds int64).
    """
    big = weights.dtype == object
    joint = joint_card_counts(shoe, tally.player, tally.banker)
    first_four = first_four_ways(shoe)
    if big:
        joint = joint.astype(object)
        first_four = first_four.astype(object)
    products = weights[tally.row_sets.term_index] * tally.row_sets.count.astype(weights.dtype)
    set_sums = np.add.reduceat(products, tally.row_sets.starts)
    divisor = first_four[tally.set_player_value, tally.set_banker_value]
    # a zero divisor (values missing from the shoe) only meets zero weights
    rest = set_sums // np.where(divisor == 0, 1, divisor)
    ways = rest[tally.group_set] * joint[tally.player_class, tally.banker_class]
    sums = np.add.reduceat(ways, tally.starts)
    return {key: int(total) for key, total in zip(tally.keys, sums, strict=True)}


def card_denominator(shoe: Shoe) -> int:
    """The denominator card-level counts are over (see :func:`evaluate_card_tally`)."""
    base = denominator(shoe)
    return base * INFINITE_CARD_SCALE if shoe.is_infinite else base


def card_bet_ways(tableau: Tableau, bet: Bet, shoe: Shoe) -> dict[Hashable, int]:
    """Exact ways of each result of a bet, reading ranks and suits (one shoe)."""
    weights = term_weights(terms(tableau), shoe)
    if card_denominator(shoe) > INT64_LIMIT and weights.dtype != object:
        weights = weights.astype(object)
    return evaluate_card_tally(card_tally(tableau, bet), shoe, weights)
