"""Warnings that matter in a paytable: the player's edge, a line that never pays, lines that
overlap.

Computed exactly from the odds of the profile on one shoe (:func:`paytable_warnings`):

* ``player-edge``: a bet's house edge is negative -- the player has the advantage;
* ``never-pays``: a line with a payout never pays on this shoe (its condition cannot hold
  here, or under the "highest" rule a better line always holds with it);
* ``overlap``: two lines hold on the same coup with a positive probability where that is
  surely unmeant: with ``pay_rule = "all"`` both pay (the payouts stack), or under "highest"
  they pay the same (which one the coup is counted under is arbitrary).

``nine odds``, ``nine par`` and ``nine tables`` print them (JSON ``"warnings"``);
``--strict`` makes any warning exit 2. The shipped profiles give none.

>>> from analyzer.rules.shoe import Shoe
>>> paytable_warnings("punto-banco", Shoe.decks(8))
()
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations

from analyzer.engine.odds import OddsTable, odds
from analyzer.rules.conditions import parse_condition
from analyzer.rules.profile import Bet, PayLine, Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["PaytableWarning", "paytable_warnings"]


@dataclass(frozen=True)
class PaytableWarning:
    """One warning: its kind, the bet, the lines concerned (1-based) and a sentence."""

    kind: str  # "player-edge", "never-pays" or "overlap"
    bet: str
    lines: tuple[int, ...]
    message: str


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


def _overlap_pairs(bet: Bet) -> list[tuple[int, int]]:
    """The pairs of lines whose overlap would be a mistake (see the module docstring)."""
    return [(i, j) for i, j in combinations(range(len(bet.lines)), 2)
            if bet.lines[i].pays > 0 and bet.lines[j].pays > 0
            and (bet.pay_rule == "all" or bet.lines[i].pays == bet.lines[j].pays)]


def _overlaps(profile: Profile, shoe: Shoe) -> list[PaytableWarning]:
    """The overlapping pairs, each tested exactly as a one-line bet on both conditions."""
    probes: list[tuple[Bet, Bet, int, int]] = []
    for bet in profile.bets:
        for i, j in _overlap_pairs(bet):
            both = parse_condition(f"({bet.lines[i].when.text}) and ({bet.lines[j].when.text})")
            probe = Bet(f"overlap-{len(probes)}", "overlap",
                        (PayLine("both", both, Fraction(1)),))
            probes.append((probe, bet, i, j))
    if not probes:
        return []
    found = odds(replace(profile, bets=tuple(p for p, _, _, _ in probes)), shoe)
    out = []
    for probe, bet, i, j in probes:
        chance = found.bet(probe.id).lines[0].probability
        if chance == 0:
            continue
        how = ("both pay (pay_rule = \"all\": the payouts stack)" if bet.pay_rule == "all"
               else f"they pay the same ({bet.lines[i].pays}:1), so which one a coup counts "
                    "under is arbitrary")
        out.append(PaytableWarning(
            "overlap", bet.id, (i + 1, j + 1),
            f"bet {bet.id}: lines {i + 1} ({bet.lines[i].name}) and {j + 1} "
            f"({bet.lines[j].name}) both hold on {_percent(chance)} of coups and {how}"))
    return out


def paytable_warnings(profile: Profile | str, shoe: Shoe,
                      result: OddsTable | None = None) -> tuple[PaytableWarning, ...]:
    """Every warning of ``profile`` on ``shoe`` (``result``: its odds there, if computed)."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    result = result if result is not None else odds(profile, shoe)
    out: list[PaytableWarning] = []
    on = f"the {result.shoe}" if result.shoe == "infinite deck" else result.shoe
    for bet in result.bets:
        if bet.house_edge < 0:
            out.append(PaytableWarning(
                "player-edge", bet.id, (),
                f"bet {bet.id} ({bet.name}): the player has the edge on {on}: house "
                f"edge {_percent(bet.house_edge)}"))
        for number, line in enumerate(bet.lines, start=1):
            if line.pays > 0 and line.probability == 0:
                out.append(PaytableWarning(
                    "never-pays", bet.id, (number,),
                    f"bet {bet.id}: line {number} ({line.name}) never pays on {on}"))
    return tuple(out + _overlaps(profile, shoe))
