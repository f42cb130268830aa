"""Odds across the shoe: dealing whole shoes by a profile's procedure and the exact EV of
every bet before every hand (``nine shoe``), with the betting windows' effect.

Before each hand the true EV of each bet is computed from the exact remaining cards (Thorp,
"The Mathematics of Gambling", 1984, ch. 5, and Griffin, "The Theory of Blackjack", 6th ed.
1999, on baccarat's small effects of removal); the mean, percentiles and share above zero by
hand number are of that true EV. A player sees only the exposed first card and the cards of
the previous hands, not the cards burned face down, so the counter decides on the EV
computed from the cards it has seen (the remaining cards plus the hidden burned ones: given
what it saw, the cards it has not seen are in random order, so that is its exact EV). It
bets one unit exactly when that EV is positive and is credited the true EV of the hands it
bets (in expectation the same as its own EV of them, with less sampling noise).

>>> run = simulate_shoes("punto-banco", decks=1, shoes=2, seed=7, quiet=True)
>>> run.hands_dealt == sum(run.hands_per_shoe), run.bets[0].bet
(True, 'banker')
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.bets import net_payout
from analyzer.cards import DECK
from analyzer.errors import AnalyzerError
from analyzer.odds import BatchEvaluator, odds
from analyzer.profile import Profile, Tableau, load_profile
from analyzer.shoe import Shoe
from analyzer.simulate import ShoeEnd, burned_cards, shuffled

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Point value of each card index 0-51.
CARD_VALUES: IntArray = np.array([card.points for card in DECK], dtype=np.int64)
#: Burn count of each card index when exposed: A = 1, 2-9 face, 10 J Q K = 10.
CARD_BURN: IntArray = np.array([card.points or 10 for card in DECK], dtype=np.int64)
#: The defaults of a profile without a [procedure] table.
DEFAULT_CUT_CARD = 16


def value_counts(card_counts: npt.ArrayLike) -> IntArray:
    """Rows of 52 card counts -> rows of 10 point-value counts.

    >>> value_counts([Shoe.decks(1).counts])[0].tolist()
    [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    """
    rows = np.asarray(card_counts, dtype=np.int64)
    result = np.zeros((rows.shape[0], 10), dtype=np.int64)
    np.add.at(result.T, CARD_VALUES, rows.T)
    return result


def _is_card_level(profile: Profile, index: int) -> bool:
    return any(line.when.level != "coup" for line in profile.bets[index].lines)


@dataclass(frozen=True)
class ShoeEvaluator:
    """Float EVs of every bet of a profile for many shoes given as rows of 52 card counts.

    Bets that read only point values go through :class:`analyzer.odds.BatchEvaluator`
    (rel. error about 1e-15). Bets that read ranks or suits use the batch evaluator too when
    it accepts 52-count rows; otherwise each distinct composition is evaluated exactly with
    :func:`analyzer.odds.odds` (much slower; ``method`` says which).
    """

    profile: Profile
    bet_ids: tuple[str, ...]
    value_columns: tuple[int, ...]
    card_columns: tuple[int, ...]
    value_batch: BatchEvaluator | None
    card_batch: BatchEvaluator | None
    card_profile: Profile | None
    method: str
    #: Bets on one hand's first two cards: column and 52 x 52 net payoff of each card pair.
    pair_columns: tuple[int, ...] = ()
    pair_payoffs: tuple[FloatArray, ...] = ()
    #: Bets on both hands' first two cards: column, four-card form and net payoff per result.
    four_columns: tuple[int, ...] = ()
    four_forms: tuple[FourCardForm, ...] = ()
    four_payoffs: tuple[FloatArray, ...] = ()
    cache: dict[tuple[int, ...], tuple[float, ...]] = field(
        default_factory=dict, compare=False, repr=False)

    @classmethod
    def for_profile(cls, profile: Profile | str) -> ShoeEvaluator:
        """Split a profile's bets by what they read and compile each group."""
        if isinstance(profile, str):
            profile = load_profile(profile)
        value_columns = tuple(i for i in range(len(profile.bets))
                              if not _is_card_level(profile, i))
        card_columns = tuple(i for i in range(len(profile.bets)) if _is_card_level(profile, i))
        value_batch = None
        if value_columns:
            value_batch = BatchEvaluator.for_profile(
                replace(profile, bets=tuple(profile.bets[i] for i in value_columns)))
        card_batch = None
        card_profile = None
        method = "batch evaluator (float64) for every bet"
        if card_columns:
            card_profile = replace(profile, bets=tuple(profile.bets[i] for i in card_columns))
            try:
                candidate = BatchEvaluator.for_profile(card_profile)
                candidate.evaluate(np.array([Shoe.decks(1).counts], dtype=np.int64))
                card_batch = candidate
            except (AnalyzerError, ValueError, IndexError, TypeError):
                card_batch = None
                method = ("batch evaluator for point-value bets; exact odds() per distinct "
                          "composition for bets that read ranks or suits")
        two_card = {i: matrix for i in card_columns
                    if card_batch is None
                    and (matrix := two_card_payoff(profile, i)) is not None}
        if two_card:
            method = ("batch evaluator for point-value bets; exact two-card quadratic form "
                      "for bets on one hand's first two cards")
            if len(two_card) < len(card_columns):
                method += "; exact odds() per composition for the other card-level bets"
            card_columns = tuple(i for i in card_columns if i not in two_card)
            card_profile = replace(profile, bets=tuple(profile.bets[i] for i in card_columns))
        four_card = {i: form for i in card_columns
                     if card_batch is None
                     and (form := FourCardForm.for_bet(profile, i)) is not None}
        if four_card:
            method = ("batch evaluator for point-value bets; exact "
                      + ("two-card quadratic and " if two_card else "")
                      + "four-card forms for bets on the hands' first two cards")
            card_columns = tuple(i for i in card_columns if i not in four_card)
            if card_columns:
                method += "; exact odds() per composition for the other card-level bets"
            card_profile = replace(profile, bets=tuple(profile.bets[i] for i in card_columns))
        four_payoffs = tuple(
            np.array([float(net_payout(profile.bets[i], label)) for label in form.labels])
            for i, form in four_card.items())
        return cls(profile, tuple(b.id for b in profile.bets), value_columns, card_columns,
                   value_batch, card_batch, card_profile if card_columns else None, method,
                   tuple(two_card), tuple(two_card.values()), tuple(four_card),
                   tuple(four_card.values()), four_payoffs)

    def evaluate(self, card_counts: npt.ArrayLike) -> FloatArray:
        """EV of every bet (columns) for each shoe (rows of 52 card counts)."""
        rows = np.asarray(card_counts, dtype=np.int64)
        if rows.ndim != 2 or rows.shape[1] != 52:
            raise AnalyzerError("shoes must be rows of 52 card counts")
        result = np.empty((rows.shape[0], len(self.bet_ids)), dtype=np.float64)
        if self.value_batch is not None:
            result[:, list(self.value_columns)] = self.value_batch.evaluate(value_counts(rows))
        if self.pair_columns:
            size = rows.sum(axis=1).astype(np.float64)
            counts = rows.astype(np.float64)
            for column, payoff in zip(self.pair_columns, self.pair_payoffs, strict=True):
                quadratic = ((counts @ payoff) * counts).sum(axis=1)
                quadratic -= counts @ np.diagonal(payoff)
                result[:, column] = quadratic / (size * (size - 1))
        for column, form, nets in zip(self.four_columns, self.four_forms, self.four_payoffs,
                                      strict=True):
            result[:, column] = form.evaluate(rows) @ nets
        if self.card_columns:
            if self.card_batch is not None:
                result[:, list(self.card_columns)] = self.card_batch.evaluate(rows)
            else:
                result[:, list(self.card_columns)] = self._exact_card_bets(rows)
        return result

    def _exact_card_bets(self, rows: IntArray) -> FloatArray:
        assert self.card_profile is not None
        out = np.empty((rows.shape[0], len(self.card_columns)), dtype=np.float64)
        for r, row in enumerate(rows.tolist()):
            key = tuple(row)
            if key not in self.cache:
                table = odds(self.card_profile, Shoe(key, label="depleted"))
                self.cache[key] = tuple(float(b.ev) for b in table.bets)
            out[r] = self.cache[key]
        return out


def two_card_payoff(profile: Profile, index: int) -> FloatArray | None:
    """Net payoff of a bet for each ordered pair of a hand's first two cards (52 x 52).

    Only for bets whose every condition reads card-level features of one hand's first two
    cards: by exchangeability those two cards are a uniform ordered pair of distinct cards
    of the shoe, so ``EV = (n'Mn - sum_i n_i M_ii) / (N (N - 1))`` exactly. None otherwise.
    """
    try:
        from analyzer.bets import net_payout, settle
        from analyzer.cardbets import hand_card_features
    except ImportError:  # pragma: no cover - the card-level engine is not installed
        return None
    bet = profile.bets[index]
    for hand in ("player", "banker"):
        names = set(hand_card_features(hand, DECK[0], DECK[1]))
        if bet.features <= names:
            payoff = np.empty((52, 52), dtype=np.float64)
            for i, first in enumerate(DECK):
                for j, second in enumerate(DECK):
                    features = hand_card_features(hand, first, second)
                    payoff[i, j] = float(net_payout(bet, settle(bet, features)))
            return payoff
    return None


# -- the shoe procedure -----------------------------------------------------------------

@dataclass(frozen=True)
class Procedure:
    """How a shoe is played: burn rule, cut card, and per-bet betting windows (hands)."""

    burn: str
    cut_card: int
    windows: tuple[tuple[str, int], ...]
    source: str
    #: Hands dealt after the one during which the cut card comes out (``nine simulate``'s
    #: ``hands_after_cut``).
    hands_after_cut: int = 0

    def window(self, bet_id: str) -> int | None:
        """The last hand of the shoe on which the bet may be placed (None: every hand)."""
        return dict(self.windows).get(bet_id)

    def describe(self) -> str:
        """One line for reports."""
        burn = {"first-card": "expose the first card and burn that many (10 J Q K: 10)",
                "none": "no burn"}.get(self.burn, f"burn {self.burn} cards")
        after = (f", then {self.hands_after_cut} more hand"
                 f"{'s' if self.hands_after_cut > 1 else ''}" if self.hands_after_cut else "")
        return f"{burn}; cut card {self.cut_card} cards from the end{after} ({self.source})"


def _windows(raw: Any, bet_ids: Sequence[str]) -> dict[str, int]:
    """Betting windows from a [procedure] table: {bet = hands} or [{bets, hands}] forms."""
    found: dict[str, int] = {}
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            if isinstance(value, Mapping):
                hands = value.get("hands", value.get("last_hand"))
                for bet in value.get("bets", [key]):
                    found[str(bet)] = int(hands)
            else:
                found[str(key)] = int(value)
    elif isinstance(raw, list):
        for item in raw:
            hands = item.get("hands", item.get("last_hand", item.get("first_hands")))
            for bet in item.get("bets", [item.get("bet")]):
                found[str(bet)] = int(hands)
    unknown = sorted(set(found) - set(bet_ids))
    if unknown:
        raise AnalyzerError(f"[procedure] windows name unknown bets: {', '.join(unknown)}")
    return found


def procedure_of(profile: Profile) -> Procedure:
    """The profile's [procedure] table, or the defaults (first-card burn, cut card 16)."""
    raw = dict(profile.procedure)
    if not raw:
        return Procedure("first-card", DEFAULT_CUT_CARD, (), "defaults: no [procedure] table")
    burn_raw = raw.get("burn", raw.get("burn_rule", "first-card"))
    if "burn_first_card" in raw:
        burn_raw = "first-card" if raw["burn_first_card"] else "none"
    counts = raw.get("burn_counts")
    if counts is not None and {str(k).upper(): int(v) for k, v in counts.items()} != {
            "A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}:
        raise AnalyzerError(f"profile {profile.name!r}: only the A=1 ... 10/J/Q/K=10 burn "
                            "counts are supported")
    burn = str(burn_raw).lower().replace("_", "-")
    if burn in ("first-card-value", "first-card", "by-first-card", "exposed-card", "true"):
        burn = "first-card"
    elif burn in ("none", "0", "false"):
        burn = "none"
    elif not burn.isdigit():
        raise AnalyzerError(f"profile {profile.name!r}: [procedure] burn {burn_raw!r} unknown")
    cut = raw.get("cut_card", raw.get("cut_card_from_end", raw.get("cut", DEFAULT_CUT_CARD)))
    source = f"profile {profile.name} [procedure]"
    if isinstance(cut, Mapping):
        cut = cut.get("from_end", DEFAULT_CUT_CARD)
    if isinstance(cut, str) and not cut.isdigit():
        source += f"; cut card '{cut}' modelled {DEFAULT_CUT_CARD} cards from the end"
        cut = DEFAULT_CUT_CARD
    windows = _windows(raw.get("windows", raw.get("betting_windows", {})),
                       [b.id for b in profile.bets])
    after = raw.get("hands_after_cut", 0)
    if (not isinstance(after, int) or isinstance(after, bool) or after < 0
            or int(cut) < 0):
        raise AnalyzerError(f"profile {profile.name!r}: procedure.cut_card and "
                            "hands_after_cut must be non-negative integers")
    return Procedure(burn, int(cut), tuple(sorted(windows.items())), source, after)


def play_coup(tableau: Tableau, values: Sequence[int], start: int) -> int:
    """Cards one coup uses, dealt from ``values[start:]`` by the tableau (4, 5 or 6).

    >>> from analyzer.profile import load_profile
    >>> play_coup(load_profile("punto-banco").tableau, [9, 0, 0, 0, 5], 0)
    4
    """
    p = (values[start] + values[start + 2]) % 10
    b = (values[start + 1] + values[start + 3]) % 10
    if p in tableau.naturals or b in tableau.naturals:
        return 4
    used = 4
    third: int | None = None
    if p in tableau.player_draws:
        third = values[start + used]
        used += 1
    if tableau.banker_draws_on(b, third):
        used += 1
    return used


def deal_shoe(tableau: Tableau, order: Sequence[int], procedure: Procedure) -> list[int]:
    """Positions in ``order`` (card indexes) where each hand of the shoe starts.

    Dealt exactly as ``nine simulate`` deals (:func:`analyzer.simulate.burned_cards` and
    :class:`analyzer.simulate.ShoeEnd`): the burn comes first; the cut card lies
    ``cut_card`` cards from the end, the hand that reaches it is the last, then
    ``hands_after_cut`` more.
    """
    values = CARD_VALUES[np.asarray(order)].tolist()
    position = burned_cards(order, procedure.burn)
    ending = ShoeEnd(len(order), position, procedure.cut_card, procedure.hands_after_cut)
    starts = []
    while ending.another_hand(position):
        starts.append(position)
        position += play_coup(tableau, values, position)
    return starts


def hidden_burn(order: Sequence[int] | IntArray, procedure: Procedure) -> IntArray:
    """The 52 card counts of the cards burned face down (not seen by a player).

    With the first-card burn the first card is exposed and the cards it burns are hidden;
    a fixed burn hides every burned card.

    >>> hidden_burn([8, 0, 1, 2, 4, 5],  # 3S exposed: 3 burned
    ...             procedure_of(load_profile("punto-banco"))).sum()
    np.int64(3)
    """
    cards = [int(c) for c in order]
    first = burned_cards(cards, procedure.burn)
    hidden = cards[1:first] if procedure.burn == "first-card" else cards[:first]
    counts: IntArray = np.bincount(np.asarray(hidden, dtype=np.int64),
                                   minlength=52).astype(np.int64)
    return counts


# -- the simulation -----------------------------------------------------------------------

@dataclass(frozen=True)
class BetDrift:
    """One bet across the simulated shoes: EV by hand number and a counter's yield."""

    bet: str
    name: str
    window: int | None
    full_shoe_ev: Fraction
    #: Per hand number 1..H: shoes reaching it, mean EV, 5th/50th/95th percentile, share > 0.
    reached: tuple[int, ...]
    mean: tuple[float, ...]
    p5: tuple[float, ...]
    p50: tuple[float, ...]
    p95: tuple[float, ...]
    positive: tuple[float, ...]
    #: Flat bettor's mean EV per hand over every hand, inside and after the window.
    mean_ev_all: float
    mean_ev_in_window: float
    mean_ev_after_window: float | None
    #: Counter betting 1 unit when the EV from the cards it has seen is > 0 (the burned
    #: cards are hidden): bets per shoe and expected units won per shoe (true EVs).
    counter_bets_per_shoe: float
    counter_units_per_shoe: float
    counter_bets_per_shoe_window: float
    counter_units_per_shoe_window: float

    @property
    def counter_yield(self) -> float:
        """Expected units per unit bet for the counter without windows."""
        return self.counter_units_per_shoe / self.counter_bets_per_shoe if \
            self.counter_bets_per_shoe else 0.0

    @property
    def counter_yield_window(self) -> float:
        """Expected units per unit bet for the counter inside the windows."""
        return self.counter_units_per_shoe_window / self.counter_bets_per_shoe_window if \
            self.counter_bets_per_shoe_window else 0.0

    @property
    def protected_share(self) -> float:
        """Share of the counter's expected gain that the window removes."""
        if self.counter_units_per_shoe <= 0:
            return 0.0
        return 1 - self.counter_units_per_shoe_window / self.counter_units_per_shoe


@dataclass(frozen=True)
class ShoeRun:
    """Result of ``nine shoe``: K seeded shoes dealt by the procedure, every hand evaluated."""

    profile: str
    title: str
    decks: int
    shoes: int
    seed: int
    procedure: str
    method: str
    hands_per_shoe: tuple[int, ...]
    bets: tuple[BetDrift, ...]
    seconds: float

    @property
    def hands_dealt(self) -> int:
        """Hands evaluated in all."""
        return sum(self.hands_per_shoe)

    def bet(self, bet_id: str) -> BetDrift:
        """One bet's drift by id."""
        for bet in self.bets:
            if bet.bet == bet_id:
                return bet
        raise AnalyzerError(f"no bet {bet_id!r} in this run")


class Progress:
    """A progress bar on stderr, drawn only when stderr is a terminal and not quiet."""

    def __init__(self, total: int, label: str, quiet: bool = False) -> None:
        self.total = max(total, 1)
        self.label = label
        self.enabled = not quiet and sys.stderr.isatty()
        self.start = time.perf_counter()
        self.last = -1

    def update(self, done: int) -> None:
        """Redraw with ``done`` of ``total`` finished."""
        if not self.enabled:
            return
        percent = int(100 * done / self.total)
        if percent == self.last and done < self.total:
            return
        self.last = percent
        filled = percent * 30 // 100
        elapsed = time.perf_counter() - self.start
        sys.stderr.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {percent:3d}% "
                         f"{done}/{self.total} {elapsed:5.1f}s")
        sys.stderr.flush()

    def close(self) -> None:
        """Finish the line."""
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def shoe_positions(profile: Profile, decks: int, shoes: int, seed: int,
                   procedure: Procedure | None = None) -> tuple[list[IntArray], list[list[int]]]:
    """The seeded card orders of ``shoes`` shoes and the start of every hand in each.

    Shuffled and dealt as ``nine simulate`` does: the same seed deals the same shoes.
    """
    if profile.tableau is None:
        raise AnalyzerError(f"profile {profile.name!r} has no fixed tableau to deal shoes by")
    procedure = procedure or procedure_of(profile)
    generator = random.Random(seed)
    base = [c for c in range(52) for _ in range(decks)]
    orders = []
    starts = []
    for _ in range(shoes):
        order = shuffled(generator, base)
        orders.append(np.array(order, dtype=np.int64))
        starts.append(deal_shoe(profile.tableau, order, procedure))
    return orders, starts


def remaining_before_hands(order: IntArray, starts: Sequence[int], decks: int) -> IntArray:
    """Rows of 52 card counts left in the shoe before each hand."""
    onehot = np.zeros((len(order) + 1, 52), dtype=np.int64)
    onehot[np.arange(1, len(order) + 1), order] = 1
    gone = np.cumsum(onehot, axis=0)[np.asarray(starts, dtype=np.int64)]
    result: IntArray = decks - gone
    return result


def simulate_shoes(profile: Profile | str, decks: int | None = None, shoes: int = 100,
                   seed: int = 1, quiet: bool = False,
                   evaluator: ShoeEvaluator | None = None,
                   on_progress: Callable[[int, int], None] | None = None) -> ShoeRun:
    """Deal ``shoes`` shoes and evaluate every bet before every hand from the exact cards."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    decks = profile.default_decks if decks is None else decks
    if decks < 1 or shoes < 1:
        raise AnalyzerError("decks and shoes must be positive")
    began = time.perf_counter()
    procedure = procedure_of(profile)
    evaluator = evaluator or ShoeEvaluator.for_profile(profile)
    orders, starts = shoe_positions(profile, decks, shoes, seed, procedure)
    rows = np.concatenate([remaining_before_hands(o, s, decks) for o, s in
                           zip(orders, starts, strict=True)])
    hidden = np.concatenate([np.repeat(hidden_burn(o, procedure)[None, :], len(s), axis=0)
                             for o, s in zip(orders, starts, strict=True)])
    hand_number = np.concatenate([np.arange(1, len(s) + 1) for s in starts])
    ev, seen_ev = _evaluate_rows(evaluator, rows, hidden, quiet, on_progress)
    full_odds = odds(profile, Shoe.decks(decks))
    bets = tuple(_bet_drift(profile, procedure, j, ev[:, j], seen_ev[:, j], hand_number,
                            shoes, full_odds.bets[j].ev) for j in range(len(profile.bets)))
    return ShoeRun(profile.name, profile.title, decks, shoes, seed, procedure.describe(),
                   evaluator.method, tuple(len(s) for s in starts), bets,
                   time.perf_counter() - began)


def visible_before_hands(order: IntArray, starts: Sequence[int], decks: int,
                         procedure: Procedure) -> IntArray:
    """Rows of 52 card counts a player cannot have seen before each hand: the cards left
    in the shoe plus the cards burned face down (the exposed first card and every card of
    the previous hands are seen)."""
    result: IntArray = np.add(remaining_before_hands(order, starts, decks),
                              hidden_burn(order, procedure))
    return result


def _evaluate_rows(evaluator: ShoeEvaluator, rows: IntArray, hidden: IntArray, quiet: bool,
                   on_progress: Callable[[int, int], None] | None
                   ) -> tuple[FloatArray, FloatArray]:
    """True EVs (exact remaining cards) and seen EVs (remaining plus hidden burn) per row."""
    total = rows.shape[0]
    progress = Progress(total, "nine shoe", quiet)
    ev = np.empty((total, len(evaluator.bet_ids)), dtype=np.float64)
    seen_ev = np.empty_like(ev)
    blind: npt.NDArray[np.bool_] = np.asarray(hidden.any(axis=1), dtype=bool)
    step = 4096
    for begin in range(0, total, step):
        block = slice(begin, begin + step)
        ev[block] = evaluator.evaluate(rows[block])
        seen_ev[block] = ev[block]
        need = np.flatnonzero(blind[block]) + begin
        if need.size:
            seen_ev[need] = evaluator.evaluate(rows[need] + hidden[need])
        done = min(begin + step, total)
        progress.update(done)
        if on_progress is not None:
            on_progress(done, total)
    progress.close()
    return ev, seen_ev


def _bet_drift(profile: Profile, procedure: Procedure, column: int, ev: FloatArray,
               seen_ev: FloatArray, hand_number: IntArray, shoes: int,
               full_ev: Fraction) -> BetDrift:
    """One bet's drift. ``ev`` is the true EV (exact remaining cards) of each hand and
    ``seen_ev`` the EV a player can compute from the cards it has seen: the counter bets
    when ``seen_ev > 0`` and is credited the true EV of those hands."""
    bet = profile.bets[column]
    window = procedure.window(bet.id)
    last = int(hand_number.max())
    order = np.argsort(hand_number, kind="stable")
    sorted_hands = hand_number[order]
    sorted_ev = ev[order]
    bounds = np.searchsorted(sorted_hands, np.arange(1, last + 2))
    reached, mean, p5, p50, p95, positive = [], [], [], [], [], []
    for h in range(last):
        block = sorted_ev[bounds[h]:bounds[h + 1]]
        reached.append(int(block.size))
        mean.append(float(block.mean()))
        q5, q50, q95 = np.percentile(block, [5, 50, 95])
        p5.append(float(q5))
        p50.append(float(q50))
        p95.append(float(q95))
        positive.append(float((block > 0).mean()))
    inside = hand_number <= window if window is not None else np.ones(ev.shape, dtype=bool)
    bets = seen_ev > 0
    gain = np.where(bets, ev, 0.0)
    return BetDrift(
        bet.id, bet.name, window, full_ev, tuple(reached), tuple(mean), tuple(p5),
        tuple(p50), tuple(p95), tuple(positive),
        float(ev.mean()), float(ev[inside].mean()) if inside.any() else 0.0,
        float(ev[~inside].mean()) if (~inside).any() else None,
        float(bets.sum() / shoes), float(gain.sum() / shoes),
        float((bets & inside).sum() / shoes), float(gain[inside].sum() / shoes))


def bench(baseline_seconds: float) -> None:
    """``make bench`` figures of issue 6: batch compositions/s and 1,000 eight-deck shoes."""
    name = "lucky-baccarat"
    try:
        profile = load_profile(name)
    except AnalyzerError:
        name = "punto-banco"
        profile = load_profile(name)
    evaluator = ShoeEvaluator.for_profile(profile)
    orders, starts = shoe_positions(profile, 8, 130, 2024)
    rows = np.concatenate([remaining_before_hands(o, s, 8)
                           for o, s in zip(orders, starts, strict=True)])[:10_000]
    evaluator.evaluate(rows[:300])
    begin = time.perf_counter()
    evaluator.evaluate(rows)
    batch = time.perf_counter() - begin
    print(f"  issue 6: shoe evaluator, {name}, {rows.shape[0]:,} depleted shoes "
          f"{batch * 1e3:9.1f} ms   = {rows.shape[0] / batch:,.0f} compositions/s "
          f"(target >= 10,000/s; {evaluator.method})")
    run = simulate_shoes(profile, 8, 1000, 1, quiet=True, evaluator=evaluator)
    print(f"  issue 6: 1,000 eight-deck shoes of {name}, {run.hands_dealt:,} hands "
          f"{run.seconds:9.2f} s    ({run.seconds / baseline_seconds:,.0f}x baseline; "
          "target < 60 s)")


# -- per-result probabilities of bets on one hand's first two cards ----------------------

#: Point-value features of one hand that its first two cards decide (with the card-level
#: ones of :func:`analyzer.cardbets.hand_card_features`).
_TWO_CARD_VALUE_FEATURES = ("two_card_total", "low_value", "high_value", "pair_value")


def first_two_card_features(hand: str) -> dict[str, npt.NDArray[Any]]:
    """Every feature one hand's first two cards decide, for each ordered card pair.

    Rows are the 2704 ordered pairs ``first * 52 + second``: the card-level features and
    the point-value ones (two-card total, low and high value, pair of values).
    """
    from analyzer.cardbets import pair_feature_columns

    columns = dict(pair_feature_columns(hand))
    first = np.repeat(CARD_VALUES, 52)
    second = np.tile(CARD_VALUES, 52)
    columns[f"{hand}_two_card_total"] = (first + second) % 10
    columns[f"{hand}_low_value"] = np.minimum(first, second)
    columns[f"{hand}_high_value"] = np.maximum(first, second)
    columns[f"{hand}_pair_value"] = first == second
    return columns


def two_card_hand(profile: Profile, index: int) -> str | None:
    """The hand (``"player"`` or ``"banker"``) whose first two cards alone settle a bet.

    None when the bet reads anything else (the other hand, third cards, the outcome).
    """
    try:
        from analyzer.cardbets import hand_card_features
    except ImportError:  # pragma: no cover - the card-level engine is not installed
        return None
    bet = profile.bets[index]
    for hand in ("player", "banker"):
        names = {f"{hand}_{name}" for name in _TWO_CARD_VALUE_FEATURES}
        names.update(hand_card_features(hand, DECK[0], DECK[1]))
        if bet.features and bet.features <= names:
            return hand
    return None


@dataclass(frozen=True)
class TwoCardForm:
    """Exact per-result probabilities of one bet on one hand's first two cards.

    By exchangeability a hand's first two cards are a uniform ordered pair of distinct
    physical cards of the shoe, so the probability of result ``r`` from a shoe of card
    counts ``n`` (``N`` cards) is the quadratic form
    ``(n' M_r n - sum_i n_i M_r[i, i]) / (N (N - 1))`` with ``M_r[i, j] = 1`` where the
    ordered pair (i, j) settles to ``r`` (the bet's pay rule applied per pair). Numerators
    are integer sums below 2**53, exact in float64; the one division rounds (relative
    error below 1e-15).
    """

    hand: str
    #: (52, results x 52): column ``r * 52 + j`` is column ``j`` of ``M_r``
    stacked: FloatArray
    #: (results, 52): the diagonals of each ``M_r``
    diagonals: FloatArray
    results: int

    @classmethod
    def for_bet(cls, profile: Profile, index: int) -> TwoCardForm | None:
        """Compile a bet's forms (result codes as :func:`analyzer.bets.settle_codes`)."""
        from analyzer.bets import settle_codes

        hand = two_card_hand(profile, index)
        if hand is None:
            return None
        bet = profile.bets[index]
        codes, labels = settle_codes(bet, first_two_card_features(hand))
        codes = np.broadcast_to(np.asarray(codes, dtype=np.int64), (52 * 52,))
        results = len(labels)
        indicator = np.zeros((results, 52, 52), dtype=np.float64)
        indicator[codes, np.repeat(np.arange(52), 52), np.tile(np.arange(52), 52)] = 1.0
        stacked = np.ascontiguousarray(indicator.transpose(1, 0, 2).reshape(52, results * 52))
        diagonals = np.ascontiguousarray(indicator[:, np.arange(52), np.arange(52)])
        return cls(hand, stacked, diagonals, results)

    def evaluate(self, card_counts: npt.ArrayLike) -> FloatArray:
        """Rows of 52 card counts -> per row the probability of each result code."""
        counts = np.asarray(card_counts, dtype=np.float64)
        if counts.ndim != 2 or counts.shape[1] != 52:
            raise AnalyzerError("shoes must be rows of 52 card counts")
        size = counts.sum(axis=1)
        if (size < 2).any():
            raise AnalyzerError("every shoe needs at least 2 cards for a hand's first two")
        quadratic = ((counts @ self.stacked).reshape(-1, self.results, 52)
                     * counts[:, None, :]).sum(axis=2)
        quadratic -= counts @ self.diagonals.T
        out: FloatArray = quadratic / (size * (size - 1))[:, None]
        return out


# -- per-result probabilities of bets on both hands' first two cards ---------------------

def four_card_features() -> frozenset[str]:
    """The features the first two cards of Player and of Banker decide (no drawing)."""
    from analyzer.cardbets import hand_card_features

    names: set[str] = set()
    for hand in ("player", "banker"):
        names.update(f"{hand}_{name}" for name in _TWO_CARD_VALUE_FEATURES)
        names.update(hand_card_features(hand, DECK[0], DECK[1]))
    return frozenset(names)


def _four_card_classes(profile: Profile, index: int,
                       hand: str) -> tuple[IntArray, IntArray, dict[str, npt.NDArray[Any]]]:
    """Ordered card pairs of one hand grouped by the truth of every comparison on it.

    Returns the class of each of the 2704 ordered pairs, one representative pair per
    class, and the hand's feature columns.
    """
    columns = first_two_card_features(hand)
    prefix = hand + "_"
    parts = [np.zeros(52 * 52, dtype=np.int64)]
    for line in profile.bets[index].lines:
        for name, test in line.when.atoms:
            if name.startswith(prefix):
                truth = np.broadcast_to(np.asarray(test(columns), dtype=bool), (52 * 52,))
                parts.append(truth.astype(np.int64))
    _, first, inverse = np.unique(np.column_stack(parts), axis=0, return_index=True,
                                  return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), first.astype(np.int64), columns


@dataclass(frozen=True)
class FourCardForm:
    """Exact per-result probabilities of a bet on both hands' first two cards.

    By exchangeability Player's and Banker's first two cards are a uniform ordered sample
    of four distinct physical cards. Group each hand's 2704 ordered card pairs into the
    classes the bet's comparisons tell apart (``I_p`` for Player, ``J_b`` for Banker, 0/1
    52 x 52 indicators) and settle every class pair once (highest-line rule included):
    ``G_r[p, b] = 1`` when it gives result ``r``. With ``n`` the card counts, ``N`` their
    sum and ``w_ij = n_i (n_j - [i = j])``, Banker drawing (l, m) after Player took
    ``a = e_i + e_j`` has ``(n_l - a_l)(n_m - a_m - [l = m])`` ways, and summing over a class::

        sum_J = V_b - u_b[i] - u_b[j] + c_b(i, j),   V_b = sum J_lm w_lm,
        u_b = (J_b + J_b') n,   c_b(i, j) = 2 J_ii + 2 J_jj + J_ij + J_ji

    so the ordered draws of result ``r`` are the quartic::

        C_r = sum_{p,b} G_r[p, b] (W_p V_b - Y_p . u_b) + sum_ij K_r[i, j] w_ij

    with ``W_p = sum I_p w``, ``Y_p = n o ((I_p + I_p') n - 2 diag I_p)`` and the constant
    ``K_r[i, j] = sum_{p,b} G_r[p, b] I_p[i, j] c_b(i, j)``; the probability is
    ``C_r / (N (N-1) (N-2) (N-3))``. Every intermediate is an integer below 2**53, exact in
    float64; the one division rounds (relative error below 1e-15).
    """

    #: (52, classes x 52): block ``p`` is ``I_p + I_p'`` (Player), same for Banker
    player_sym: FloatArray
    player_diag: FloatArray
    banker_sym: FloatArray
    banker_diag: FloatArray
    #: (Player classes x Banker classes, results): ``G``
    settle: FloatArray
    #: (52, results x 52) and (results, 52): the constant forms ``K_r`` and their diagonals
    constant: FloatArray
    constant_diag: FloatArray
    results: int
    #: the result of each code (as :func:`analyzer.bets.settle_codes` labels them)
    labels: tuple[tuple[int, ...], ...]

    @classmethod
    def for_bet(cls, profile: Profile, index: int) -> FourCardForm | None:
        """Compile a bet's forms (result codes as :func:`analyzer.bets.settle_codes`).

        None unless every condition reads only features of the two hands' first two cards.
        """
        from analyzer.bets import settle_codes

        bet = profile.bets[index]
        try:
            names = four_card_features()
        except ImportError:  # pragma: no cover - the card-level engine is not installed
            return None
        if not bet.features or not bet.features <= names:
            return None
        player, player_rep, player_columns = _four_card_classes(profile, index, "player")
        banker, banker_rep, banker_columns = _four_card_classes(profile, index, "banker")
        p_size, b_size = player_rep.size, banker_rep.size
        features: dict[str, npt.NDArray[Any]] = {}
        for name in bet.features:
            if name.startswith("player_"):
                features[name] = np.repeat(player_columns[name][player_rep], b_size)
            else:
                features[name] = np.tile(banker_columns[name][banker_rep], p_size)
        codes, labels = settle_codes(bet, features)
        codes = np.broadcast_to(np.asarray(codes, dtype=np.int64), (p_size * b_size,))
        results = len(labels)
        settle = np.zeros((p_size * b_size, results))
        settle[np.arange(p_size * b_size), codes] = 1.0

        def indicators(of_pair: IntArray, size: int) -> FloatArray:
            out = np.zeros((size, 52 * 52))
            out[of_pair, np.arange(52 * 52)] = 1.0
            return out.reshape(size, 52, 52)

        ip = indicators(player, p_size)
        jb = indicators(banker, b_size)
        diagonal = np.arange(52)
        jdiag = jb[:, diagonal, diagonal]  # (b, 52)
        # c_b(i, j) for every Banker class: (b, 52, 52)
        c = 2 * jdiag[:, :, None] + 2 * jdiag[:, None, :] + jb + jb.transpose(0, 2, 1)
        grid = settle.reshape(p_size, b_size, results)
        constant = np.einsum("pbr,pij,bij->rij", grid, ip, c)

        def stacked(m: FloatArray) -> FloatArray:
            sym = m + m.transpose(0, 2, 1)
            return np.ascontiguousarray(sym.transpose(1, 0, 2).reshape(52, -1))

        return cls(stacked(ip), np.ascontiguousarray(ip[:, diagonal, diagonal]),
                   stacked(jb), jdiag.copy(),
                   settle, stacked(constant) / 2,
                   np.ascontiguousarray(constant[:, diagonal, diagonal]), results,
                   tuple(tuple(label) for label in labels))

    def evaluate(self, card_counts: npt.ArrayLike) -> FloatArray:
        """Rows of 52 card counts -> per row the probability of each result code."""
        n = np.asarray(card_counts, dtype=np.float64)
        if n.ndim != 2 or n.shape[1] != 52:
            raise AnalyzerError("shoes must be rows of 52 card counts")
        size = n.sum(axis=1)
        if (size < 4).any():
            raise AnalyzerError("every shoe needs at least 4 cards for both hands' first two")
        rows = n.shape[0]
        p_sym = (n @ self.player_sym).reshape(rows, -1, 52)
        b_sym = (n @ self.banker_sym).reshape(rows, -1, 52)
        # W_p and V_b: quadratic forms sum I w = (n . (I + I')n) / 2 - diag(I) . n
        player_ways = (p_sym * n[:, None, :]).sum(axis=2) / 2 - n @ self.player_diag.T
        banker_ways = (b_sym * n[:, None, :]).sum(axis=2) / 2 - n @ self.banker_diag.T
        y = n[:, None, :] * (p_sym - 2 * self.player_diag[None])
        grid = player_ways[:, :, None] * banker_ways[:, None, :]
        grid -= np.einsum("npk,nbk->npb", y, b_sym, optimize=False)
        ways = grid.reshape(rows, -1) @ self.settle
        # K_r is not symmetric: n' K n from its symmetrised stack, minus diag(K) . n
        k_sym = (n @ self.constant).reshape(rows, self.results, 52)
        ways += (k_sym * n[:, None, :]).sum(axis=2) - n @ self.constant_diag.T
        falling = size * (size - 1) * (size - 2) * (size - 3)
        out: FloatArray = ways / falling[:, None]
        return out


#: The bets on both hands' first two cards measured by :func:`four_card_benchmark`.
FOUR_CARD_BENCH = {"side-bets": ("either-pair", "perfect-pair", "perfect-pair-both"),
                   "nine-and-nines": ("nines",)}


def four_card_benchmark(compositions: int = 10_000, repeats: int = 3) -> dict[str, float]:
    """Compositions per second of the four-card forms, per profile (all its bets together).

    Rows are the cards left before every hand of seeded 8-deck shoes; best of ``repeats``.
    """
    result: dict[str, float] = {}
    for name, bet_ids in FOUR_CARD_BENCH.items():
        profile = load_profile(name)
        index = {bet.id: i for i, bet in enumerate(profile.bets)}
        forms = [form for bet in bet_ids
                 if (form := FourCardForm.for_bet(profile, index[bet])) is not None]
        orders, starts = shoe_positions(profile, 8, compositions // 70 + 1, 2024)
        rows = np.concatenate([remaining_before_hands(o, s, 8)
                               for o, s in zip(orders, starts, strict=True)])[:compositions]
        for form in forms:
            form.evaluate(rows[:100])
        best = float("inf")
        for _ in range(repeats):
            begin = time.perf_counter()
            for form in forms:
                form.evaluate(rows)
            best = min(best, time.perf_counter() - begin)
        result[name] = rows.shape[0] / best
    return result
