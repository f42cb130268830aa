"""Aggregated-counts files: per bet, how many hands ended in each of its lines, and the money.

A counts file (JSON, ``"format": "nine-counts"``) holds only totals, no cards: ``nine
verify`` can test its frequencies and return to player but cannot replay it. The format is
told apart from a hand log by :func:`analyzer.dealing.handlog.detect_format`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from analyzer.dealing.dialects import MAX_ID, short
from analyzer.dealing.handlog import COUNTS_FORMAT
from analyzer.dealing.records import MAX_DECKS
from analyzer.dealing.schema import (
    check_count,
    check_int,
    check_object,
    check_string,
)
from analyzer.errors import AnalyzerError
from analyzer.inputs import parse_json, read_text

__all__ = ["CountedBet", "Counts", "read_counts"]


@dataclass(frozen=True)
class CountedBet:
    """One bet's totals from an aggregated-counts file."""

    id: str
    results: tuple[tuple[str, int], ...]
    stake: int | None = None
    returned: int | None = None
    stake_squares: int | None = None
    staked_hands: int | None = None


@dataclass(frozen=True)
class Counts:
    """An aggregated-counts log: hands in all, and per bet its result counts and money."""

    path: str
    profile: str | None
    decks: int | None
    hands: int
    bets: tuple[CountedBet, ...]


def read_counts(path: str | Path) -> Counts:
    """Read an aggregated-counts JSON file.

    Layout::

        {"format": "nine-counts", "profile": "punto-banco", "decks": 8, "hands": 1000000,
         "bets": {"banker": {"results": {"Banker wins": 458597, "Tie (push)": 95156,
                                         "lose": 446247},
                             "stake": 100000000, "returned": 98940000,
                             "staked_hands": 1000000}}}

    ``results`` counts hands by the line that paid (the payline names of the profile) and
    ``lose``; ``stake`` and ``returned`` (optional) are the money totals in minor units.
    Money totals need ``stake_squares`` (the sum of squared stakes) or ``staked_hands``
    (how many hands the bet was staked on, each with the same stake) for the RTP test's
    variance; without either, ``nine verify`` tests the RTP from the result counts at unit
    stake instead (a bet staked on only some hands would otherwise look far too steady).

    The file is read through the input layer and every field checked: counts and money
    are whole numbers from 0, unknown fields are refused (``version``, ``unit``, ``seed``,
    ``generator`` and ``notes`` may be given), and the profile and deck count, when given,
    must be the run's (:func:`analyzer.verify.partial.counts_partial`).
    """
    where = str(path)
    data = parse_json(read_text(path), where)
    if not isinstance(data, dict) or data.get("format") != COUNTS_FORMAT:
        raise AnalyzerError(f'{where}: not an aggregated-counts file (needs "format": '
                            '"nine-counts")')
    fields = check_object(data, where, {
        "format": "string", "version": lambda v, w, p: check_int(v, w, p, 1, 1),
        "profile": lambda v, w, p: check_string(v, w, p, 1000),
        "decks": lambda v, w, p: check_int(v, w, p, 1, MAX_DECKS), "hands": "count",
        "bets": lambda v, w, p: v, "unit": "string", "seed": "int", "generator": "string",
        "notes": "string"}, required=("format", "hands", "bets"))
    hands = fields["hands"]
    raw_bets = fields["bets"]
    if not isinstance(raw_bets, dict) or not raw_bets:
        raise AnalyzerError(f"{where}: bets: must be an object of bet id -> counts")
    bets = []
    for bet_id, raw in raw_bets.items():
        place = f"bets.{short(bet_id)}"
        if len(bet_id) > MAX_ID:
            raise AnalyzerError(f"{where}: {place}: a bet id longer than {MAX_ID} characters")
        bet = check_object(raw, where, {
            "results": lambda v, w, p: v, "stake": "count", "returned": "count",
            "stake_squares": "count", "staked_hands": "count"}, required=("results",),
            path=place)
        if not isinstance(bet["results"], dict):
            raise AnalyzerError(f"{where}: {place}.results: must be an object of line name "
                                "-> hands")
        results = tuple((check_string(name, where, f"{place}.results", 200),
                         check_count(n, where, f"{place}.results.{short(name)}"))
                        for name, n in bet["results"].items())
        if sum(n for _, n in results) != hands:
            raise AnalyzerError(f"{where}: bet {bet_id!r}: results add up to "
                                f"{sum(n for _, n in results)}, not hands = {hands}")
        if bet.get("staked_hands", 0) > hands:
            raise AnalyzerError(f"{where}: bet {bet_id!r}: staked_hands "
                                f"{bet['staked_hands']} exceeds hands = {hands}")
        bets.append(CountedBet(bet_id, results, bet.get("stake"), bet.get("returned"),
                               bet.get("stake_squares"), bet.get("staked_hands")))
    return Counts(where, fields.get("profile"), fields.get("decks"), hands, tuple(bets))
