"""The rules of a choice game (home Lucky 9, chemin de fer): who may choose, on which totals,
and what each side sees; the profile's ``[game]`` table, validated when the profile loads.

Two-card holdings are written by point value (``T`` for any ten-valued card):

>>> hand_label((0, 5)), parse_hand("K5")
('T+5', (0, 5))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from analyzer.errors import AnalyzerError

__all__ = ["BankerSees", "ChoiceRules", "DREW", "GAME_KEYS", "HANDS", "Information", "MAX_PEOPLE",
           "STOOD", "hand_label", "parse_hand", "value_symbol"]

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
                       "people", "player_sees", "pays", "ties", "commission"})
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
        even_money = type(game.get("pays", 1)) is int and game.get("pays", 1) == 1
        if not even_money or game.get("ties", "push") != "push" or game.get(
                "commission", 0) != 0:
            raise AnalyzerError(f"{where}: game: the solver handles even money, ties push, "
                                "no commission")
        player_sees = game.get("player_sees", "earlier choices")
        if player_sees not in ("earlier choices", "own cards"):
            raise AnalyzerError(f"{where}: game.player_sees: must be 'earlier choices' or "
                                "'own cards'")
        rules = cls(name=name, naturals=totals("naturals"),
                    player_draws=totals("player_draws"), player_stands=totals("player_stands"),
                    banker_draws=totals("banker_draws"), banker_stands=totals("banker_stands"),
                    banker_sees=sees, information=tuple(information),
                    default_information=str(game.get("default_information", information[0])),
                    people=(people[0], people[1]), player_sees=player_sees)
        if rules.player_draws & rules.player_stands or rules.banker_draws & rules.banker_stands:
            raise AnalyzerError(f"{where}: game: a total cannot be both a forced draw and stand")
        return rules

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
