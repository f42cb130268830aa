"""Replaying one hand: its drawing against the tableau, its settlement, and its payouts.

Each hand is re-dealt from its logged cards by the profile's tableau: a coup's third cards
depend on its first four, so a missing or extra third card is a rule violation
(:func:`replay_rules`), as are a claimed outcome the cards do not give and an amount
returned that the paytable does not pay (:meth:`Settler.payout_problems`, with the
``rounding`` rule for fractional amounts). A coup's settlement is computed once and kept
(:func:`settled_coups`, per profile and deck count, shared by every file a process checks).

>>> from analyzer.rules.profile import load_profile
>>> table = replay_rules(load_profile("punto-banco").tableau)
>>> table((8, 0, 5), (1, 2))
('natural-draw', 'Player drew a third card on a natural (Player 8, Banker 3)')
>>> table((3, 1, 9), (2, 3)) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

from analyzer.dealing.handlog import ROUNDING, Hand
from analyzer.dealing.records import Amount
from analyzer.dealing.simulate import hand_features
from analyzer.engine.lookup import Model, coup_lookup
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import settle
from analyzer.rules.profile import Profile, Tableau

__all__ = ["Payouts", "replay_rules", "Settled", "SettledCoups", "settled_coups", "Settler"]

#: A settled coup: rule violation (kind, message) or None, winner, flat result labels,
#: and each bet's label by bet id.
Settled = tuple[tuple[str, str] | None, str, tuple[int, ...], dict[str, int]]
#: Logged bets of a hand: (bet id, stake, returned) each.
Payouts = tuple[tuple[str, Amount, Amount], ...]


def replay_rules(tableau: Tableau) -> Callable[[tuple[int, ...], tuple[int, ...]],
                                               tuple[str, str] | None]:
    """A checker of one hand's drawing against the tableau: (kind, message) or None."""
    naturals = tableau.naturals
    player_draws = tableau.player_draws

    def check(player: tuple[int, ...], banker: tuple[int, ...]) -> tuple[str, str] | None:
        if not 2 <= len(player) <= 3 or not 2 <= len(banker) <= 3:
            return ("card-count", f"Player has {len(player)} cards and Banker {len(banker)}"
                                  " (each hand has 2 or 3)")
        player_two = (player[0] + player[1]) % 10
        banker_two = (banker[0] + banker[1]) % 10
        where = f"Player {player_two}, Banker {banker_two}"
        if player_two in naturals or banker_two in naturals:
            if len(player) == 3:
                return ("natural-draw", f"Player drew a third card on a natural ({where})")
            if len(banker) == 3:
                return ("natural-draw", f"Banker drew a third card on a natural ({where})")
            return None
        must = player_two in player_draws
        if must and len(player) == 2:
            return ("player-draw", f"Player stood on {player_two} where it must draw ({where})")
        if not must and len(player) == 3:
            return ("player-draw", f"Player drew on {player_two} where it must stand ({where})")
        third = player[2] if len(player) == 3 else None
        draws = tableau.banker_draws_on(banker_two, third)
        after = "Player stood" if third is None else f"Player's third card {third}"
        if draws and len(banker) == 2:
            return ("banker-draw", f"Banker stood on {banker_two} where it must draw ({after})")
        if not draws and len(banker) == 3:
            return ("banker-draw", f"Banker drew on {banker_two} where it must stand ({after})")
        return None

    return check


class SettledCoups:
    """The bounded caches of settled coups of one compiled profile.

    ``by_row``: legal coups, by their row in the coup lookup; ``by_hand``: any coup, by its
    logged point values (or its cards, for a card-level profile).
    """

    LIMIT = 150_000

    def __init__(self) -> None:
        self.by_row: dict[int, Settled] = {}
        self.by_hand: dict[Any, Settled] = {}


@cache
def settled_coups(profile: Profile, decks: int) -> SettledCoups:
    """The settled coups of a profile at a deck count (its value is the key)."""
    return SettledCoups()


class Settler:
    """Settles the hands of one model: rule check, winner, result labels and payouts.

    Result labels are flat over all bets: bet ``i``'s label ``j`` is ``offsets[i] + j``.
    """

    def __init__(self, model: Model, rounding: str = "down",
                 skipped: frozenset[str] = frozenset()) -> None:
        if rounding not in ROUNDING:
            raise AnalyzerError(f"unknown rounding rule {rounding!r} "
                                f"({', '.join(ROUNDING)})")
        self.model = model
        self.rounding = rounding
        self.skipped = skipped  # bets whose stakes are not checked (values-only logs)
        tableau = model.profile.tableau
        assert tableau is not None
        self.rules = replay_rules(tableau)
        self.naturals = tableau.naturals
        self.card_level = model.card_level
        self.offsets: list[int] = []
        total = 0
        for b in model.bets:
            self.offsets.append(total)
            total += len(b.labels)
        self.labels = total
        self.label_nets = [net for b in model.bets for net in b.nets]
        self.label_names = [(b.label_name(j) if b.labels[j] else "loses")
                            for b in model.bets for j in range(len(b.labels))]
        self.index = coup_lookup(model)
        coups = settled_coups(model.profile, model.decks)
        self.row_entries, self.entries = coups.by_row, coups.by_hand

    def entry_for(self, rec: Hand) -> Settled:
        """Rule check, winner, flat labels and per-bet label of a coup (cached)."""
        pv, bv = rec.player_values, rec.banker_values
        model = self.model
        key: Any = (rec.player, rec.banker) if self.card_level else (pv, bv)
        if self.card_level:
            found = self.entries.get(key)
            if found is not None:
                return found
        row = None if self.card_level else self.index.row(pv, bv)
        if row is not None:  # a legal coup: its settlement is precomputed, shared by row
            shared = self.row_entries.get(row)
            if shared is None:
                labels = tuple(self.offsets[i] + self.index.codes[i][row]
                               for i in range(len(model.bets)))
                shared = self.row_entries[row] = (
                    None, self.index.winners[row], labels,
                    {b.bet.id: labels[i] for i, b in enumerate(model.bets)})
            found = shared
        else:
            broken = self.rules(pv, bv)
            if len(pv) < 2 or len(bv) < 2:
                found = (broken, "", (), {})
            else:
                features = hand_features(rec.player, rec.banker, self.card_level,
                                         self.naturals)
                labels = tuple(self.offsets[i] + b.label(settle(b.bet, features))
                               for i, b in enumerate(model.bets))
                found = (broken, str(features["winner"]), labels,
                         {b.bet.id: labels[i] for i, b in enumerate(model.bets)})
        if len(self.entries) > SettledCoups.LIMIT:
            self.entries.clear()
        self.entries[key] = found
        return found

    def payout_problems(self, bet_labels: dict[str, int],
                        bets: Payouts) -> tuple[tuple[str, str], ...]:
        """The (kind, message) of each logged amount the paytable does not return."""
        problems = []
        for bet_id, stake, returned in bets:
            label = bet_labels.get(bet_id)
            if label is None:
                if bet_id in self.skipped:
                    continue
                problems.append(("unknown-bet", f"bet {bet_id!r} is not in profile "
                                                f"{self.model.profile.name!r}"))
                continue
            multiplier = 1 + self.label_nets[label]
            if returned * multiplier.denominator != stake * multiplier.numerator:
                exact = stake * multiplier
                rounded = ""
                if exact.denominator != 1:  # a fractional amount, paid in whole minor units
                    allowed = _rounded(exact, self.rounding)
                    if returned in allowed:
                        continue
                    rounded = f", {' or '.join(map(str, allowed))} rounding {self.rounding}"
                problems.append(("payout", f"{bet_id}: staked {stake}, returned {returned}, "
                                           f"the paytable returns {_amount(exact)}{rounded} "
                                           f"({self.label_names[label]})"))
        return tuple(problems)


def _rounded(exact: Fraction, rule: str) -> tuple[int, ...]:
    """The whole amounts a rounding rule allows for a fractional amount.

    >>> _rounded(Fraction(39, 2), "down"), _rounded(Fraction(39, 2), "nearest")
    ((19,), (20,))
    >>> _rounded(Fraction(39, 2), "either")
    (19, 20)
    """
    if rule == "down":
        return (math.floor(exact),)
    if rule == "nearest":
        return (math.floor(exact + Fraction(1, 2)),)
    return (math.floor(exact), math.ceil(exact))


def _amount(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"

