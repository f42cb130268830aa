"""A reference simulator: deals real shoes by a profile's rules and writes a hand log.

Each shoe is shuffled (Python's Mersenne Twister, seeded, so a run is reproducible), its
first card exposed and that many more burned (tens and faces burn ten), and a cut card
placed ``cut_card`` cards from the end. Hands are dealt P B P B with third cards by the
profile's tableau; the hand during which the cut card comes out is the last (then
``hands_after_cut`` more, 0 by default). A profile's ``[procedure]`` table sets the burn,
the cut card and betting windows (a bet is staked only on the first N hands of a shoe), as
:class:`analyzer.rules.procedure.Procedure` holds them; the defaults follow the common 8-deck
practice (docs/rules/lucky-baccarat.md §8 and common simulators: cut card 16 cards from the end).

Every hand stakes each of the profile's bets; a stake is 100 minor units (more when a
payout's fraction needs it, so every amount returned is a whole number of minor units).

``faults`` deliberately breaks the dealer, for testing a verifier: ``banker-stands``
(Banker stands on 5 when Player stood), ``natural-draw`` (Player draws on a natural 8),
``wrong-payout`` (a Tie pays 9:1), ``commission`` (Banker wins are paid 0.90:1),
``missing-rank`` (every seven is taken out of the shoe), and three shuffle faults:
``repeat-seed`` (every shoe is shuffled by a generator seeded afresh with the run's seed,
so every shoe repeats the first), ``riffle-3`` (each shoe starts as new decks and gets
three riffle shuffles instead of a full shuffle) and ``no-shuffle-between-shoes`` (each
shoe after the first is the last one's cards cut once, not shuffled). A shuffle fault is
listed in :attr:`SimulationSummary.faulted` as (shoe id, 0) for each shoe it shaped.

>>> import io
>>> out = io.StringIO()
>>> summary = simulate("punto-banco", decks=1, shoes=1, seed=7, out=out)
>>> summary.shoes, summary.hands == out.getvalue().count('"hand":')
(1, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import IO, Any

from analyzer.dealing.handlog import CARD_RANK, CARD_VALUE
from analyzer.dealing.shuffle import CutCardRule, burned_cards, new_decks, riffled, shuffled
from analyzer.dealing.writer import LogWriter
from analyzer.engine.cardbets import card_coup_features
from analyzer.engine.enumeration import PUNTO_BANCO_NATURALS, coup_features
from analyzer.engine.lookup import build_model, coup_lookup
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import net_payout, settle
from analyzer.rules.cards import DECK
from analyzer.rules.profile import Profile, Tableau, load_profile

__all__ = ["BASE_STAKE", "FAULTS", "hand_features", "SHUFFLE_FAULTS", "simulate",
           "SimulationSummary", "stakes"]

FAULTS = ("banker-stands", "natural-draw", "wrong-payout", "commission", "missing-rank",
          "repeat-seed", "riffle-3", "no-shuffle-between-shoes")
BASE_STAKE = 100


@dataclass(frozen=True)
class SimulationSummary:
    """What a run dealt, and where any injected faults went (shoe id, hand number)."""

    #: Shoes dealt.
    shoes: int
    #: Hands dealt and written.
    hands: int
    #: The seed that dealt them (the same seed deals the same shoes).
    seed: int
    #: (shoe id, hand number) of every hand an injected fault changed.
    faulted: tuple[tuple[str, int], ...]


def stakes(profile: Profile) -> dict[str, int]:
    """Stake per bet in minor units: 100, or a multiple making every payout whole.

    >>> stakes(load_profile("punto-banco"))
    {'banker': 100, 'player': 100, 'tie': 100}
    """
    return {bet.id: lcm(BASE_STAKE, *(line.pays.denominator for line in bet.lines))
            for bet in profile.bets}


def _third_cards(tableau: Tableau, player: list[int], banker: list[int], deck: list[int],
                 position: int, faults: frozenset[str]) -> tuple[int, bool]:
    """Draw third cards from ``deck[position:]``; returns the new position and fault flag."""
    player_total = (CARD_VALUE[player[0]] + CARD_VALUE[player[1]]) % 10
    banker_total = (CARD_VALUE[banker[0]] + CARD_VALUE[banker[1]]) % 10
    faulted = False
    if player_total in tableau.naturals or banker_total in tableau.naturals:
        if ("natural-draw" in faults and player_total == 8
                and banker_total not in tableau.naturals):
            player.append(deck[position])
            return position + 1, True
        return position, False
    third: int | None = None
    if player_total in tableau.player_draws:
        player.append(deck[position])
        third = CARD_VALUE[deck[position]]
        position += 1
    draws = tableau.banker_draws_on(banker_total, third)
    if draws and third is None and banker_total == 5 and "banker-stands" in faults:
        draws, faulted = False, True
    if draws:
        banker.append(deck[position])
        position += 1
    return position, faulted


def hand_features(player: tuple[int, ...], banker: tuple[int, ...], card_level: bool = True,
                  naturals: frozenset[int] = PUNTO_BANCO_NATURALS) -> dict[str, Any]:
    """Every feature of a hand dealt as these card indices (card level when asked).

    ``naturals`` are the profile's natural two-card totals (the tableau's).
    """
    if card_level:

        return card_coup_features([DECK[c] for c in player], [DECK[c] for c in banker],
                                  naturals)

    return coup_features(tuple(CARD_VALUE[c] for c in player),
                         tuple(CARD_VALUE[c] for c in banker), naturals)


def simulate(profile: Profile | str, decks: int | None = None, shoes: int = 1, seed: int = 0,
             out: IO[str] | None = None, fmt: str = "jsonl",
             faults: tuple[str, ...] = ()) -> SimulationSummary:
    """Deal ``shoes`` shoes and write every hand to ``out`` in the hand-log format."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    if profile.tableau is None:
        raise AnalyzerError(f"profile {profile.name!r} has no fixed tableau to simulate")
    unknown = set(faults) - set(FAULTS)
    if unknown:
        raise AnalyzerError(f"unknown fault {sorted(unknown)[0]!r} (faults: {', '.join(FAULTS)})")
    if shoes < 1:
        raise AnalyzerError(f"shoes must be a positive integer, got {shoes}")
    decks = profile.default_decks if decks is None else decks
    if decks < 1:
        raise AnalyzerError(f"decks must be a positive integer, got {decks}")
    tableau = profile.tableau
    procedure = profile.procedure
    windows = dict(procedure.windows)
    fault_set = frozenset(faults)
    card_level = profile.card_level
    lookup = None
    if not card_level:

        model = build_model(profile, decks)
        lookup = (coup_lookup(model), model.bets)
    stake = stakes(profile)
    rng = random.Random(seed)
    writer = LogWriter(out, fmt, tuple(stake)) if out is not None else None
    if writer is not None:
        writer.header({"profile": profile.name, "decks": decks, "seed": seed,
                       "generator": "nine simulate"})
    base = [c for c in range(52) for _ in range(decks)]
    fresh = new_decks(decks)
    if "missing-rank" in fault_set:
        base = [c for c in base if CARD_RANK[c] != 7]
        fresh = [c for c in fresh if CARD_RANK[c] != 7]
    cache: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[str, dict[str, int]]] = {}
    faulted: list[tuple[str, int]] = []
    total_hands = 0
    deck: list[int] = []
    for shoe_number in range(1, shoes + 1):
        shoe_id = str(shoe_number)
        deck = _shuffle(rng, base, fresh, deck, seed, fault_set)
        if fault_set & SHUFFLE_FAULTS and (shoe_number > 1 or "riffle-3" in fault_set):
            faulted.append((shoe_id, 0))
        position = burned_cards(deck, procedure.burn)
        burn = tuple(deck[:position])
        ending = CutCardRule(len(deck), position, procedure.cut_card, procedure.hands_after_cut)
        if writer is not None:
            writer.shoe_start(shoe_id, decks, burn)
        hand_number = 0
        while ending.another_hand(position):
            hand_number += 1
            player = [deck[position], deck[position + 2]]
            banker = [deck[position + 1], deck[position + 3]]
            position, broke = _third_cards(tableau, player, banker, deck, position + 4,
                                           fault_set)
            key = (tuple(player), tuple(banker))
            values = key if card_level else (tuple(CARD_VALUE[c] for c in player),
                                             tuple(CARD_VALUE[c] for c in banker))
            settled = cache.get(values)
            if settled is None:
                if len(cache) > 200_000:
                    cache.clear()
                settled = cache[values] = _settle_hand(profile, key[0], key[1], stake,
                                                       fault_set, lookup)
            outcome, money = settled
            if broke or (money.get("_fault", 0)):
                faulted.append((shoe_id, hand_number))
            if writer is not None:
                writer.hand(shoe_id, hand_number, key[0], key[1], outcome,
                            {b: (stake[b], r) for b, r in money.items()
                             if b != "_fault" and hand_number <= windows.get(b, hand_number)},
                            burn if hand_number == 1 and fmt == "csv" else ())
        total_hands += hand_number
        if writer is not None:
            writer.shoe_end(shoe_id, len(deck) - position)
    return SimulationSummary(shoes, total_hands, seed, tuple(faulted))


#: The faults that break the shuffle, not the dealing of a coup.
SHUFFLE_FAULTS = frozenset({"repeat-seed", "riffle-3", "no-shuffle-between-shoes"})


def _shuffle(rng: random.Random, base: list[int], fresh: list[int], last: list[int],
             seed: int, faults: frozenset[str]) -> list[int]:
    """The next shoe's order: a full shuffle, or as a shuffle fault makes it."""
    if "repeat-seed" in faults:
        return shuffled(random.Random(seed), base)
    if "riffle-3" in faults:
        return riffled(rng, fresh, 3)
    if "no-shuffle-between-shoes" in faults and last:
        cut = rng.randrange(1, len(last))
        return last[cut:] + last[:cut]
    return shuffled(rng, base)


def _settle_hand(profile: Profile, player: tuple[int, ...], banker: tuple[int, ...],
                 stake: Mapping[str, int], faults: frozenset[str], lookup: Any = None
                 ) -> tuple[str, dict[str, int]]:
    """The winner and each bet's amount returned (faults applied) for one coup.

    ``lookup`` (from :func:`analyzer.verify.run.coup_lookup`) settles a legal coup of
    point-value bets from a precomputed table; otherwise the bets' conditions are evaluated.
    """
    nets: list[Fraction] = []
    winner = ""
    if lookup is not None:
        index, models = lookup
        row = index.row([CARD_VALUE[c] for c in player], [CARD_VALUE[c] for c in banker])
        if row is not None:
            winner = index.winners[row]
            nets = [m.nets[codes[row]] for m, codes in zip(models, index.codes, strict=True)]
    if not winner:
        assert profile.tableau is not None
        features = hand_features(player, banker, profile.card_level,
                                 profile.tableau.naturals)
        winner = str(features["winner"])
        nets = [net_payout(bet, settle(bet, features)) for bet in profile.bets]
    money: dict[str, int] = {}
    fault = 0
    for bet, net in zip(profile.bets, nets, strict=True):
        if "wrong-payout" in faults and bet.id == "tie" and net == 8:
            net, fault = Fraction(9), 1
        if "commission" in faults and bet.id == "banker" and net == Fraction(19, 20):
            net, fault = Fraction(9, 10), 1
        returned = stake[bet.id] * (1 + net)
        # whole already (stakes() clears every payout's denominator); were it not, the house
        # keeps the fraction: the rule nine verify checks by default (--rounding down)
        money[bet.id] = math.floor(returned)
    if fault:
        money["_fault"] = fault
    return winner, money
