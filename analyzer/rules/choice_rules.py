"""The rules of a choice game (home Lucky 9, chemin de fer): who may choose, on which totals,
and what each side sees; the profile's ``[game]`` table, validated when the profile loads.

Two-card holdings are written by point value (``T`` for any ten-valued card):

>>> hand_label((0, 5)), parse_hand("K5")
('T+5', (0, 5))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from hashlib import sha256
from math import lcm
from typing import Any, Literal

from analyzer.errors import AnalyzerError

__all__ = ["BankerSees", "ChoiceRules", "DREW", "GAME_KEYS", "HANDS", "Information", "MAX_PEOPLE",
           "Payoffs", "STOOD", "hand_label", "parse_hand", "value_symbol"]

Information = Literal["total", "cards"]
BankerSees = Literal["choice", "third-card"]

#: Every two-card holding as a pair of point values ``(low, high)``: 55 of them.
HANDS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(10) for b in range(a, 10))
STOOD = "stood"
#: Most people at a choice-game table (home Lucky 9 is played by 2 to 9).
MAX_PEOPLE = 9
#: Every key a ``[game]`` table may hold.
GAME_KEYS = frozenset({"kind", "naturals", "player_draws", "player_stands", "banker_draws",
                       "banker_stands", "banker_sees", "information", "default_information",
                       "people", "player_sees", "pays", "natural_pays", "ties", "commission",
                       "commission_on", "pair_bonus"})
DREW = "drew"


def value_symbol(value: int) -> str:
    """A point value as a card symbol: ``T`` stands for any ten-valued card, ``A`` for one.

    >>> value_symbol(0), value_symbol(1), value_symbol(7)
    ('T', 'A', '7')
    """
    return "T" if value == 0 else "A" if value == 1 else str(value)


def hand_label(hand: tuple[int, int]) -> str:
    """A two-card holding by its point values, e.g. ``T+5`` or ``A+A``.

    >>> hand_label((0, 5)), hand_label((1, 1))
    ('T+5', 'A+A')
    """
    return f"{value_symbol(hand[0])}+{value_symbol(hand[1])}"


def parse_hand(text: str) -> tuple[int, int]:
    """A holding written ``T+5``, ``5+T``, ``A+A``, ``10+5``, ``T5`` or ``Q/5``.

    (A dash is not accepted: ``2-3`` means the totals 2 to 3 in strategy files.)

    >>> parse_hand("5+t"), parse_hand("10+a"), parse_hand("K5")
    ((0, 5), (0, 1), (0, 5))
    """
    cleaned = text.strip().upper().replace("10", "T")
    for separator in ("+", "/", " "):
        if separator in cleaned:
            parts = [part.strip() for part in cleaned.split(separator)]
            break
    else:
        parts = list(cleaned)
    symbols = {"T": 0, "J": 0, "Q": 0, "K": 0, "A": 1, "0": 0,
               **{str(v): v for v in range(1, 10)}}
    if len(parts) != 2 or any(part not in symbols for part in parts):
        raise AnalyzerError(f"hand {text!r}: expected two card values like 'T+5' or 'A+A'")
    low, high = sorted(symbols[part] for part in parts)
    return (low, high)


def _amount(raw: Any, where: str, key: str, low: Fraction, high: Fraction | None) -> Fraction:
    """A payoff field: an integer, a decimal or a fraction written ``"19/20"``, exactly."""
    try:
        if isinstance(raw, bool) or not isinstance(raw, int | float | str):
            raise ValueError(raw)
        value = Fraction(str(raw)) if isinstance(raw, float) else Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise AnalyzerError(f"{where}: game.{key}: expected a number like 2, 0.05 or "
                            f"\"1/20\", got {raw!r}") from None
    if value < low or (high is not None and value >= high):
        bound = f"from {low} to below {high}" if high is not None else f"at least {low}"
        raise AnalyzerError(f"{where}: game.{key}: must be {bound}, got {raw!r}")
    return value


@dataclass(frozen=True)
class Payoffs:
    """What a seat's stake wins or loses against the bank (the profile's payoff fields).

    A seat's winning hand is paid ``pays`` to 1, a seat's winning natural ``natural_pays`` to
    1, less ``commission`` (a fraction of the seat's winnings the bank keeps); a losing seat
    pays its stake, to a natural bank too. Equal
    totals push (``ties = "push"``) or the bank takes the stake (``ties = "bank"``), a natural
    tie included. Zero-sum: the bank's net is minus the seats'.

    >>> Payoffs().seat(5, 3), Payoffs(ties="bank").seat(4, 4), Payoffs(Fraction(2)).seat(9, 5, True)
    (Fraction(1, 1), Fraction(-1, 1), Fraction(2, 1))
    >>> Payoffs(Fraction(2)).seat(5, 9, bank_natural=True)
    Fraction(-1, 1)
    """

    natural_pays: Fraction = Fraction(1)
    pays: Fraction = Fraction(1)
    ties: Literal["push", "bank"] = "push"
    commission: Fraction = Fraction(0)

    @property
    def even_money(self) -> bool:
        """Every win 1:1, ties push, no commission (the plain home game)."""
        return self == Payoffs()

    @property
    def win(self) -> Fraction:
        """A seat's net when its non-natural hand wins."""
        return self.pays * (1 - self.commission)

    @property
    def natural_win(self) -> Fraction:
        """A seat's net when its natural beats the bank."""
        return self.natural_pays * (1 - self.commission)

    @property
    def tie(self) -> Fraction:
        """A seat's net on equal totals."""
        return Fraction(0) if self.ties == "push" else Fraction(-1)

    def seat(self, own: int, bank: int, natural: bool = False,
             bank_natural: bool = False) -> Fraction:
        """The seat's net per unit staked with final totals ``own`` and ``bank``; a natural
        is a two-card total the rules call natural (it settles before anyone chooses and
        beats every hand that is not one)."""
        if natural != bank_natural:
            return self.natural_win if natural else Fraction(-1)
        if own == bank:
            return self.tie
        if own > bank:
            return self.natural_win if natural else self.win
        return Fraction(-1)

    @property
    def scale(self) -> int:
        """The least integer making every payoff whole (1 for even money)."""
        return lcm(self.win.denominator, self.natural_win.denominator)

    def describe(self) -> str:
        """The payoffs in words."""
        def odds(value: Fraction) -> str:
            return f"{value.numerator}:{value.denominator}"
        words = [f"the higher final total wins {odds(self.pays)}"]
        if self.natural_pays != 1:
            words.append(f"a seat's natural wins {odds(self.natural_pays)}")
        words.append("equal totals push" if self.ties == "push"
                     else "the bank wins equal totals (natural ties too)")
        words.append(f"the bank keeps {float(self.commission):.4g} of a seat's winnings"
                     if self.commission else "no commission")
        return ", ".join(words)

    @classmethod
    def from_table(cls, game: Mapping[str, Any], where: str) -> Payoffs:
        """The payoff fields of a ``[game]`` table; one the solver cannot take is refused,
        naming the field."""
        ties = game.get("ties", "push")
        if ties not in ("push", "bank"):
            raise AnalyzerError(f"{where}: game.ties: must be 'push' or 'bank', got {ties!r}")
        on = game.get("commission_on", "players")
        if on != "players":
            raise AnalyzerError(f"{where}: game.commission_on: the solver takes a commission on "
                                f"the players' winnings kept by the bank; {on!r} would pay a "
                                "third party, and the game would no longer be zero-sum")
        bonus = _amount(game.get("pair_bonus", 0), where, "pair_bonus", Fraction(0), None)
        if bonus:
            raise AnalyzerError(f"{where}: game.pair_bonus: the solver cannot take a pair bonus "
                                "yet (a pair is two cards of one rank; the model deals point "
                                "values, where 10-K and K-K look the same)")
        return cls(natural_pays=_amount(game.get("natural_pays", 1), where, "natural_pays",
                                        Fraction(1, 100), None),
                   pays=_amount(game.get("pays", 1), where, "pays", Fraction(1, 100), None),
                   ties=ties,
                   commission=_amount(game.get("commission", 0), where, "commission",
                                      Fraction(0), Fraction(1)))


@dataclass(frozen=True)
class ChoiceRules:
    """A choice game's rules and information structure (the profile's ``[game]`` table)."""

    name: str
    naturals: frozenset[int]
    player_draws: frozenset[int]
    player_stands: frozenset[int]
    banker_draws: frozenset[int]
    banker_stands: frozenset[int]
    banker_sees: BankerSees
    information: tuple[str, ...] = ("total", "cards")
    default_information: str = "cards"
    people: tuple[int, int] = (2, 2)
    player_sees: str = "earlier choices"
    payoffs: Payoffs = field(default_factory=Payoffs)

    @classmethod
    def from_table(cls, game: Mapping[str, Any], name: str, where: str) -> ChoiceRules:
        """Read a profile's ``[game]`` table; errors name the file (``where``) and field."""
        unknown = sorted(set(game) - GAME_KEYS)
        if unknown:
            raise AnalyzerError(f"{where}: game.{unknown[0]}: unknown field")
        if game.get("kind") != "choice":
            raise AnalyzerError(f"{where}: game.kind: profile {name!r} is not a choice "
                                "game (needs [game] kind = \"choice\")")

        def totals(key: str) -> frozenset[int]:
            raw = game.get(key, [])
            if not isinstance(raw, list) or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for v in raw):
                raise AnalyzerError(f"{where}: game.{key}: must be a list of totals 0-9")
            return frozenset(raw)

        sees = game.get("banker_sees", "choice")
        if sees not in ("choice", "third-card"):
            raise AnalyzerError(f"{where}: game.banker_sees: must be 'choice' or 'third-card'")
        information = game.get("information", ["total", "cards"])
        if not isinstance(information, list) or not set(information) <= {"total", "cards"}:
            raise AnalyzerError(f"{where}: game.information: a list of 'total' and 'cards'")
        people = game.get("people", [2, 2])
        if (not isinstance(people, list) or len(people) != 2
                or not all(isinstance(p, int) and not isinstance(p, bool) for p in people)
                or not 2 <= people[0] <= people[1] <= MAX_PEOPLE):
            raise AnalyzerError(f"{where}: game.people: must be [fewest, most], from 2 to "
                                f"{MAX_PEOPLE}")
        payoffs = Payoffs.from_table(game, where)
        player_sees = game.get("player_sees", "earlier choices")
        if player_sees not in ("earlier choices", "own cards"):
            raise AnalyzerError(f"{where}: game.player_sees: must be 'earlier choices' or "
                                "'own cards'")
        rules = cls(name=name, naturals=totals("naturals"),
                    player_draws=totals("player_draws"), player_stands=totals("player_stands"),
                    banker_draws=totals("banker_draws"), banker_stands=totals("banker_stands"),
                    banker_sees=sees, information=tuple(information),
                    default_information=str(game.get("default_information", information[0])),
                    people=(people[0], people[1]), player_sees=player_sees,
                    payoffs=payoffs)
        if rules.player_draws & rules.player_stands or rules.banker_draws & rules.banker_stands:
            raise AnalyzerError(f"{where}: game: a total cannot be both a forced draw and stand")
        return rules

    @property
    def fingerprint(self) -> str:
        """SHA-256 of these rules (what a solution found earlier must have been solved for)."""
        return sha256(repr(self).encode("utf-8")).hexdigest()

    def player_action(self, total: int) -> Literal["draw", "stand", "choice"]:
        """What a non-natural player holding ``total`` does: forced, or a choice."""
        if total in self.player_draws:
            return "draw"
        if total in self.player_stands:
            return "stand"
        return "choice"

    def banker_action(self, total: int) -> Literal["draw", "stand", "choice"]:
        """What a non-natural banker holding ``total`` does: forced, or a choice."""
        if total in self.banker_draws:
            return "draw"
        if total in self.banker_stands:
            return "stand"
        return "choice"

    @property
    def observations(self) -> tuple[str, ...]:
        """What the banker may see of the player: ``drew``/``stood`` or the third card."""
        if self.banker_sees == "choice":
            return (DREW, STOOD)
        return (*(str(v) for v in range(10)), STOOD)
