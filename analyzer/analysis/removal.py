"""Effects of removal: the exact change in every bet's EV when one card leaves the shoe,
and the best balanced integer card count built from them (``nine eor``).

The effect of removing card ``c`` is ``EV(shoe - c) - EV(shoe)``, exact. A rank's effect is
the mean over its suits, a suit's the mean over its ranks, a colour's the mean over its 26
cards. The best linear count gives each card a tag proportional to its effect minus the mean
effect (balanced: a full shoe counts zero), scaled and rounded to small integers (Thorp,
"The Mathematics of Gambling", 1984; Griffin, "The Theory of Blackjack", 1999, ch. 4-5:
betting correlation). How well the count tracks the exact EV is measured over seeded
depleted shoes evaluated exactly.

>>> table = removal_effects("punto-banco", 8, samples=0)
>>> effect = table.rank("9").effects[0]  # removing a 9 hurts Banker
>>> effect < 0, table.reads_suits
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import shoe_evaluator
from analyzer.errors import AnalyzerError
from analyzer.rules.cards import DECK, Rank, Suit
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["card_effects", "GOOD_ENOUGH", "LinearCount", "MAX_LEVEL", "removal_effects",
           "RemovalGroup", "RemovalTable"]

#: Integer tag levels tried for the best linear count and the correlation that suffices.
MAX_LEVEL = 6
GOOD_ENOUGH = 0.98


@dataclass(frozen=True)
class RemovalGroup:
    """The mean effect of removing one card of a rank, suit or colour, per bet."""

    kind: str
    label: str
    effects: tuple[Fraction, ...]


@dataclass(frozen=True)
class LinearCount:
    """A balanced integer count for one bet and how well it tracks the exact EV."""

    bet: str
    name: str
    #: Tag of each card index 0-51.
    tags: tuple[int, ...]
    level: int
    balanced: bool
    #: Correlation of the integer tags with the exact effects of removal (betting corr.).
    effect_correlation: float
    #: Correlation of the true count with the exact EV over simulated depleted shoes
    #: (nan when none were simulated), and the same for the unrounded ideal tags.
    ev_correlation: float
    ideal_ev_correlation: float
    samples: int

    def describe(self) -> str:
        """Tags in the shortest exact form: by rank, by colour, or card by card."""
        by_rank: dict[Rank, set[int]] = {}
        for card, tag in zip(DECK, self.tags, strict=True):
            by_rank.setdefault(card.rank, set()).add(tag)
        if all(len(tags) == 1 for tags in by_rank.values()):
            return " ".join(f"{rank.symbol}:{next(iter(tags)):+d}"
                            for rank, tags in by_rank.items())
        by_colour: dict[str, set[int]] = {}
        for card, tag in zip(DECK, self.tags, strict=True):
            by_colour.setdefault(card.suit.colour, set()).add(tag)
        if all(len(tags) == 1 for tags in by_colour.values()):
            return " ".join(f"{colour}:{next(iter(tags)):+d}"
                            for colour, tags in sorted(by_colour.items()))
        groups: dict[int, list[str]] = {}
        for card, tag in zip(DECK, self.tags, strict=True):
            groups.setdefault(tag, []).append(str(card))
        return "; ".join(
            f"{tag:+d}: {' '.join(cards) if len(cards) < 14 else f'{len(cards)} others'}"
            for tag, cards in sorted(groups.items(), key=lambda kv: len(kv[1])))


@dataclass(frozen=True)
class RemovalTable:
    """Every bet's exact effects of removal on one shoe, and the best linear counts."""

    profile: str
    title: str
    shoe: str
    decks: int
    bet_ids: tuple[str, ...]
    bet_names: tuple[str, ...]
    base_ev: tuple[Fraction, ...]
    #: Effect of removing each card index 0-51, per bet.
    cards: tuple[tuple[Fraction, ...], ...]
    ranks: tuple[RemovalGroup, ...]
    suits: tuple[RemovalGroup, ...]
    colours: tuple[RemovalGroup, ...]
    reads_suits: bool
    counts: tuple[LinearCount, ...]

    def rank(self, symbol: str) -> RemovalGroup:
        """The rank group by symbol (A 2 ... T J Q K)."""
        for group in self.ranks:
            if group.label == symbol:
                return group
        raise AnalyzerError(f"no rank {symbol!r}")


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def card_effects(profile: Profile, shoe: Shoe) -> tuple[tuple[Fraction, ...], ...]:
    """Exact effect of removing each card index 0-51 on each bet's EV."""
    base = [b.ev for b in odds(profile, shoe).bets]
    coup_only = all(line.when.level == "coup" for bet in profile.bets for line in bet.lines)
    cache: dict[tuple[int, ...], tuple[Fraction, ...]] = {}
    effects = []
    for card in DECK:
        if shoe.count(card) == 0:
            raise AnalyzerError(f"the shoe has no {card} to remove")
        depleted = shoe.remove([card])
        key = depleted.value_counts() if coup_only else depleted.counts
        if key not in cache:
            cache[key] = tuple(b.ev - e for b, e in zip(odds(profile, depleted).bets, base,
                                                       strict=True))
        effects.append(cache[key])
    return tuple(effects)


def _balanced_rounding(scaled: np.ndarray, sizes: np.ndarray,
                       spread: int = 2) -> np.ndarray | None:
    """Integer group tags ``t`` nearest ``scaled`` (least ``sum sizes (t - scaled)**2``)
    with ``sum sizes t = 0``, each within ``spread`` of its rounded value; None if none.

    A knapsack over the running sum: exact, and small (at most 52 cards x few choices).

    >>> _balanced_rounding(np.array([-1.4, 0.4, 0.6]), np.array([1, 1, 1])).tolist()
    [-1, 0, 1]
    """
    base = np.rint(scaled).astype(np.int64)
    offsets = np.arange(-spread, spread + 1)
    bound = int(sizes @ (np.abs(base) + spread))
    width = 2 * bound + 1
    cost = np.full(width, np.inf)
    cost[bound] = 0.0
    choices = []
    for g in range(scaled.size):
        new = np.full(width, np.inf)
        pick = np.zeros(width, dtype=np.int64)
        for k, offset in enumerate(offsets):
            tag = int(base[g] + offset)
            shift = int(sizes[g]) * tag
            step = float(sizes[g]) * (tag - float(scaled[g])) ** 2
            moved = np.full(width, np.inf)
            if shift >= 0:
                moved[shift:] = cost[:width - shift] + step
            else:
                moved[:shift] = cost[-shift:] + step
            better = moved < new
            new[better] = moved[better]
            pick[better] = k
        cost = new
        choices.append(pick)
    if not np.isfinite(cost[bound]):
        return None
    tags = np.empty(scaled.size, dtype=np.int64)
    position = bound
    for g in range(scaled.size - 1, -1, -1):
        tags[g] = base[g] + offsets[choices[g][position]]
        position -= int(sizes[g]) * int(tags[g])
    return tags


def _integer_tags(effect: np.ndarray) -> tuple[tuple[int, ...], int, bool, float]:
    """Best balanced integer tags for per-card effects: (tags, level, balanced, corr).

    Tags are a function of the effect: cards with equal effects (equal values) form a
    group and always get equal tags. Each level scales the centred effects so the largest
    is ``level`` and takes the balanced group tags nearest them
    (:func:`_balanced_rounding`); when no balanced tags exist the plain rounding is
    kept and reported unbalanced rather than split a group.
    """
    values, group = np.unique(effect, return_inverse=True)
    group = group.reshape(-1)
    sizes = np.bincount(group, minlength=values.size)
    centred = values - effect.mean()
    peak = np.abs(centred).max()
    if peak == 0:
        return (0,) * 52, 0, True, float("nan")
    best: tuple[tuple[int, ...], int, bool, float] | None = None
    for level in range(1, MAX_LEVEL + 1):
        scaled = centred * level / peak
        found = _balanced_rounding(scaled, sizes)
        if found is None or not found.any():  # all zero is no count
            found = np.rint(scaled).astype(np.int64)
        tags = found
        balanced = int(sizes @ tags) == 0
        card_tags = tags[group]
        corr = (float(np.corrcoef(card_tags, effect)[0, 1]) if card_tags.std() > 0
                else 0.0)
        candidate = (tuple(int(t) for t in card_tags), level, balanced, corr)
        if best is None or (balanced, corr) > (best[2], best[3] + 1e-12):
            best = candidate
        if corr >= GOOD_ENOUGH and balanced:
            return candidate
    assert best is not None
    return best


def _ev_correlation(profile: Profile, decks: int, tag_rows: np.ndarray, samples: int,
                    seed: int) -> np.ndarray:
    """Correlation of each count's true count with its bet's exact EV over depleted shoes."""

    generator = np.random.default_rng(seed)
    full = np.repeat(np.arange(52, dtype=np.int64), decks)
    rows = np.empty((samples, 52), dtype=np.int64)
    for i in range(samples):
        order = generator.permutation(full)
        dealt = int(generator.integers(len(full) // 10, len(full) * 85 // 100))
        rows[i] = decks - np.bincount(order[:dealt], minlength=52)
    ev = shoe_evaluator(build_model(profile, decks)).ev(rows)
    seen = decks - rows  # cards gone, per card
    remaining_decks = rows.sum(axis=1) / 52
    true_count = (seen @ tag_rows.T) / remaining_decks[:, None]
    result = np.full(tag_rows.shape[0], np.nan)
    for j in range(tag_rows.shape[0]):
        if true_count[:, j].std() > 0 and ev[:, j].std() > 0:
            result[j] = np.corrcoef(true_count[:, j], ev[:, j])[0, 1]
    return result


def removal_effects(profile: Profile | str, decks: int | None = None, samples: int = 2000,
                    seed: int = 1) -> RemovalTable:
    """Exact effects of removal on a ``decks``-deck shoe and the best linear counts."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    decks = profile.default_decks if decks is None else decks
    shoe = Shoe.decks(decks)
    base = tuple(b.ev for b in odds(profile, shoe).bets)
    per_card = card_effects(profile, shoe)
    bets = range(len(profile.bets))
    ranks = tuple(RemovalGroup("rank", rank.symbol, tuple(
        _mean([per_card[c.index][j] for c in DECK if c.rank == rank]) for j in bets))
        for rank in Rank)
    suits = tuple(RemovalGroup("suit", suit.name.title(), tuple(
        _mean([per_card[c.index][j] for c in DECK if c.suit == suit]) for j in bets))
        for suit in Suit)
    colours = tuple(RemovalGroup("colour", colour, tuple(
        _mean([per_card[c.index][j] for c in DECK if c.suit.colour == colour]) for j in bets))
        for colour in sorted({s.colour for s in Suit}))
    reads_suits = any(per_card[c.index] != per_card[DECK[(c.rank - 1) * 4].index]
                      for c in DECK)
    matrix = np.array([[float(e) for e in row] for row in per_card])  # cards x bets
    integer = [_integer_tags(matrix[:, j]) for j in bets]
    tag_rows = np.array([tags for tags, _, _, _ in integer], dtype=np.float64)
    ideal_rows = (matrix - matrix.mean(axis=0)).T
    if samples > 0:
        ev_corr = _ev_correlation(profile, decks, tag_rows, samples, seed)
        ideal_corr = _ev_correlation(profile, decks, ideal_rows, samples, seed)
    else:
        ev_corr = ideal_corr = np.full(len(profile.bets), np.nan)
    counts = tuple(LinearCount(bet.id, bet.name, tags, level, balanced, corr,
                               float(ev_corr[j]), float(ideal_corr[j]), samples)
                   for j, (bet, (tags, level, balanced, corr))
                   in enumerate(zip(profile.bets, integer, strict=True)))
    return RemovalTable(profile.name, profile.title, shoe.describe(), decks,
                        tuple(b.id for b in profile.bets), tuple(b.name for b in profile.bets),
                        base, per_card, ranks, suits, colours, reads_suits, counts)
