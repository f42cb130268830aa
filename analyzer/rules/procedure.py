"""How a shoe is run: the burn, the cut card and the betting windows (a profile's
``[procedure]`` table), parsed once when the profile loads.

Burns and windows do not change one coup's odds from a full shoe; they matter for the odds
across a shoe (card removal) and for verifying logs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from analyzer.errors import AnalyzerError

__all__ = ["DEFAULT_CUT_CARD", "Procedure", "parse_procedure"]

#: The defaults of a profile without a [procedure] table.
DEFAULT_CUT_CARD = 16


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


#: Every key a ``[procedure]`` table may hold (the synonyms are the forms simulators and
#: rule sheets write).
KEYS = frozenset({"burn", "burn_rule", "burn_first_card", "burn_counts", "cut_card",
                  "cut_card_from_end", "cut", "windows", "betting_windows", "hands_after_cut",
                  "last_coup"})
#: The one burn-count rule supported: A = 1, 2-9 face value, 10 J Q K = 10.
BURN_COUNTS = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}
#: Largest number of hands a window, or the hands after the cut card, may name.
MAX_HANDS = 1_000
#: Largest distance of the cut card from the end, in cards.
MAX_CUT_CARD = 10_000


def _count(value: Any, field: str, low: int, high: int) -> int:
    """A whole number of ``field`` in ``[low, high]`` (``true`` is not 1)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AnalyzerError(f"{field}: must be an integer from {low} to {high:,}, "
                            f"not {value!r}")
    return value


def _windows(raw: Any, bet_ids: Sequence[str], field: str) -> dict[str, int]:
    """Betting windows from a [procedure] table: {bet = hands} or [{bets, hands}] forms."""
    found: dict[str, int] = {}
    items: list[tuple[str, Any]] = []
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            if isinstance(value, Mapping):
                items.append((f"{field}.{key}", value))
            else:
                found[str(key)] = _count(value, f"{field}.{key}", 1, MAX_HANDS)
    elif isinstance(raw, list):
        items = [(f"{field}[{i}]", item) for i, item in enumerate(raw)]
    else:
        raise AnalyzerError(f"{field}: must be a table of bet = hands")
    for place, item in items:
        if not isinstance(item, Mapping):
            raise AnalyzerError(f"{place}: must be a table with bets and hands")
        unknown = set(item) - {"bets", "bet", "hands", "last_hand", "first_hands"}
        if unknown:
            raise AnalyzerError(f"{place}.{sorted(unknown)[0]}: unknown field")
        hands = item.get("hands", item.get("last_hand", item.get("first_hands")))
        bets = item.get("bets", [item.get("bet")] if "bet" in item else [place.split(".")[-1]])
        if not isinstance(bets, list) or not all(isinstance(b, str) for b in bets):
            raise AnalyzerError(f"{place}.bets: must be a list of bet ids")
        for bet in bets:
            found[bet] = _count(hands, f"{place}.hands", 1, MAX_HANDS)
    unknown_bets = sorted(set(found) - set(bet_ids))
    if unknown_bets:
        raise AnalyzerError(f"{field}: windows name unknown bets: {', '.join(unknown_bets)}")
    return found


def parse_procedure(table: Mapping[str, Any], bet_ids: Sequence[str], name: str) -> Procedure:
    """A profile's ``[procedure]`` table, or the defaults (first-card burn, cut card 16).

    Errors name the field (``procedure.cut_card: ...``); unknown keys are errors.

    >>> parse_procedure({"burn": 3, "betting_windows": {"tie": 40}}, ["tie"], "x").describe()
    'burn 3 cards; cut card 16 cards from the end (profile x [procedure])'
    >>> parse_procedure({"cut_card": True}, [], "x")
    Traceback (most recent call last):
    ...
    analyzer.errors.AnalyzerError: procedure.cut_card: must be an integer from 0 to 10,000, not True
    """
    raw = dict(table)
    if not raw:
        return Procedure("first-card", DEFAULT_CUT_CARD, (), "defaults: no [procedure] table")
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise AnalyzerError(f"procedure.{unknown[0]}: unknown field")
    burn_raw = raw.get("burn", raw.get("burn_rule", "first-card"))
    if "burn_first_card" in raw:
        if not isinstance(raw["burn_first_card"], bool):
            raise AnalyzerError("procedure.burn_first_card: must be true or false")
        burn_raw = "first-card" if raw["burn_first_card"] else "none"
    counts = raw.get("burn_counts", BURN_COUNTS)
    if not isinstance(counts, Mapping) or any(isinstance(v, bool) for v in counts.values()) or {
            str(k).upper(): v for k, v in counts.items()} != BURN_COUNTS:
        raise AnalyzerError("procedure.burn_counts: only the A=1, 2-9 face value, "
                                "10/J/Q/K=10 burn counts are supported")
    if isinstance(burn_raw, bool) or not isinstance(burn_raw, str | int):
        raise AnalyzerError(f"procedure.burn: {burn_raw!r} unknown")
    burn = str(burn_raw).lower().replace("_", "-")
    if burn in ("first-card-value", "first-card", "by-first-card", "exposed-card"):
        burn = "first-card"
    elif burn in ("none", "0"):
        burn = "none"
    elif not (burn.isascii() and burn.isdigit()) or int(burn) > MAX_CUT_CARD:
        raise AnalyzerError(f"procedure.burn: {burn_raw!r} unknown (first-card, none or a "
                            "number of cards)")
    cut_field = next((k for k in ("cut_card", "cut_card_from_end", "cut") if k in raw),
                     "cut_card")
    cut = raw.get(cut_field, DEFAULT_CUT_CARD)
    source = f"profile {name} [procedure]"
    if isinstance(cut, Mapping):
        cut = cut.get("from_end", DEFAULT_CUT_CARD)
    if isinstance(cut, str):
        # a rule sheet's words ("dealer", "placed by the dealer"): the common position
        source += f"; cut card '{cut}' modelled {DEFAULT_CUT_CARD} cards from the end"
        cut = DEFAULT_CUT_CARD
    cut = _count(cut, f"procedure.{cut_field}", 0, MAX_CUT_CARD)
    window_field = "windows" if "windows" in raw else "betting_windows"
    windows = _windows(raw.get(window_field, {}), bet_ids, f"procedure.{window_field}")
    after = _count(raw.get("hands_after_cut", 0), "procedure.hands_after_cut", 0, MAX_HANDS)
    if "last_coup" in raw and not isinstance(raw["last_coup"], str):
        raise AnalyzerError("procedure.last_coup: must be a description (a string)")
    return Procedure(burn, cut, tuple(sorted(windows.items())), source, after)
