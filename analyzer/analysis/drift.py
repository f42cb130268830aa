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

>>> run = simulate_shoes("punto-banco", decks=1, shoes=2, seed=7)
>>> run.hands_dealt == sum(run.hands_per_shoe), run.bets[0].bet
(True, 'banker')
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from analyzer.dealing.shuffle import deal_shoe, hidden_burn, shuffled
from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import ShoeEvaluator, shoe_evaluator
from analyzer.errors import AnalyzerError
from analyzer.rules.procedure import Procedure
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["BetDrift", "FloatArray", "IntArray", "remaining_before_hands",
           "shoe_positions", "ShoeRun", "simulate_shoes", "visible_before_hands"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]



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


def shoe_positions(profile: Profile, decks: int, shoes: int, seed: int,
                   procedure: Procedure | None = None) -> tuple[list[IntArray], list[list[int]]]:
    """The seeded card orders of ``shoes`` shoes and the start of every hand in each.

    Shuffled and dealt as ``nine simulate`` does: the same seed deals the same shoes.
    """
    if profile.tableau is None:
        raise AnalyzerError(f"profile {profile.name!r} has no fixed tableau to deal shoes by")
    procedure = procedure or profile.procedure
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
                   seed: int = 1, evaluator: ShoeEvaluator | None = None,
                   on_progress: Callable[[int, int], None] | None = None) -> ShoeRun:
    """Deal ``shoes`` shoes and evaluate every bet before every hand from the exact cards.

    ``on_progress(done, total)`` is called after each block of evaluated hands (the
    command line draws its progress bar from it; the library prints nothing).
    """
    if isinstance(profile, str):
        profile = load_profile(profile)
    decks = profile.default_decks if decks is None else decks
    if decks < 1 or shoes < 1:
        raise AnalyzerError("decks and shoes must be positive")
    began = time.perf_counter()
    procedure = profile.procedure
    evaluator = evaluator or shoe_evaluator(build_model(profile, decks))
    orders, starts = shoe_positions(profile, decks, shoes, seed, procedure)
    rows = np.concatenate([remaining_before_hands(o, s, decks) for o, s in
                           zip(orders, starts, strict=True)])
    hidden = np.concatenate([np.repeat(hidden_burn(o, procedure)[None, :], len(s), axis=0)
                             for o, s in zip(orders, starts, strict=True)])
    hand_number = np.concatenate([np.arange(1, len(s) + 1) for s in starts])
    ev, seen_ev = _evaluate_rows(evaluator, rows, hidden, on_progress)
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


def _evaluate_rows(evaluator: ShoeEvaluator, rows: IntArray, hidden: IntArray,
                   on_progress: Callable[[int, int], None] | None
                   ) -> tuple[FloatArray, FloatArray]:
    """True EVs (exact remaining cards) and seen EVs (remaining plus hidden burn) per row."""
    total = rows.shape[0]
    ev = np.empty((total, len(evaluator.model.bets)), dtype=np.float64)
    seen_ev = np.empty_like(ev)
    blind: npt.NDArray[np.bool_] = np.asarray(hidden.any(axis=1), dtype=bool)
    step = 4096
    for begin in range(0, total, step):
        block = slice(begin, begin + step)
        ev[block] = evaluator.ev(rows[block])
        seen_ev[block] = ev[block]
        need = np.flatnonzero(blind[block]) + begin
        if need.size:
            seen_ev[need] = evaluator.ev(rows[need] + hidden[need])
        if on_progress is not None:
            on_progress(min(begin + step, total), total)
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


# -- per-result probabilities of bets on one hand's first two cards ----------------------


# -- per-result probabilities of bets on both hands' first two cards ---------------------
