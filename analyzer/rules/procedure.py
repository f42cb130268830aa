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


def parse_procedure(table: Mapping[str, Any], bet_ids: Sequence[str], name: str) -> Procedure:
    """A profile's ``[procedure]`` table, or the defaults (first-card burn, cut card 16).

    >>> parse_procedure({"burn": 3, "betting_windows": {"tie": 40}}, ["tie"], "x").describe()
    'burn 3 cards; cut card 16 cards from the end (profile x [procedure])'
    """
    raw = dict(table)
    if not raw:
        return Procedure("first-card", DEFAULT_CUT_CARD, (), "defaults: no [procedure] table")
    burn_raw = raw.get("burn", raw.get("burn_rule", "first-card"))
    if "burn_first_card" in raw:
        burn_raw = "first-card" if raw["burn_first_card"] else "none"
    counts = raw.get("burn_counts")
    if counts is not None and {str(k).upper(): int(v) for k, v in counts.items()} != {
            "A": 1, **{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}:
        raise AnalyzerError(f"profile {name!r}: only the A=1 ... 10/J/Q/K=10 burn "
                            "counts are supported")
    burn = str(burn_raw).lower().replace("_", "-")
    if burn in ("first-card-value", "first-card", "by-first-card", "exposed-card", "true"):
        burn = "first-card"
    elif burn in ("none", "0", "false"):
        burn = "none"
    elif not burn.isdigit():
        raise AnalyzerError(f"profile {name!r}: [procedure] burn {burn_raw!r} unknown")
    cut = raw.get("cut_card", raw.get("cut_card_from_end", raw.get("cut", DEFAULT_CUT_CARD)))
    source = f"profile {name} [procedure]"
    if isinstance(cut, Mapping):
        cut = cut.get("from_end", DEFAULT_CUT_CARD)
    if isinstance(cut, str) and not cut.isdigit():
        source += f"; cut card '{cut}' modelled {DEFAULT_CUT_CARD} cards from the end"
        cut = DEFAULT_CUT_CARD
    windows = _windows(raw.get("windows", raw.get("betting_windows", {})),
                       bet_ids)
    after = raw.get("hands_after_cut", 0)
    if (not isinstance(after, int) or isinstance(after, bool) or after < 0
            or int(cut) < 0):
        raise AnalyzerError(f"profile {name!r}: procedure.cut_card and "
                            "hands_after_cut must be non-negative integers")
    return Procedure(burn, int(cut), tuple(sorted(windows.items())), source, after)
