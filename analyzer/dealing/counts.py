"""Aggregated-counts files: per bet, how many hands ended in each of its lines, and the money.

A counts file (JSON, ``"format": "nine-counts"``) holds only totals, no cards: ``nine
verify`` can test its frequencies and return to player but cannot replay it. The format is
told apart from a hand log by :func:`analyzer.dealing.handlog.detect_format`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from analyzer.dealing.handlog import COUNTS_FORMAT, int_field, open_text
from analyzer.errors import AnalyzerError

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
    """
    with open_text(path) as stream:
        try:
            data = json.load(stream)
        except ValueError as exc:
            raise AnalyzerError(f"{path}: invalid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != COUNTS_FORMAT:
        raise AnalyzerError(f'{path}: not an aggregated-counts file (needs "format": '
                            '"nine-counts")')
    where = str(path)
    try:
        hands = int_field(data.get("hands"), "hands")
        raw_bets = data.get("bets")
        if not isinstance(raw_bets, dict) or not raw_bets:
            raise AnalyzerError("bets must be an object of bet id -> counts")
        bets = []
        for bet_id, raw in raw_bets.items():
            if not isinstance(raw, dict) or not isinstance(raw.get("results"), dict):
                raise AnalyzerError(f"bet {bet_id!r}: needs a results object")
            results = tuple((str(k), int_field(v, f"bet {bet_id} result {k}"))
                            for k, v in raw["results"].items())
            if any(n < 0 for _, n in results) or hands < 0:
                raise AnalyzerError(f"bet {bet_id!r}: a negative count of hands")
            if sum(n for _, n in results) != hands:
                raise AnalyzerError(f"bet {bet_id!r}: results add up to "
                                    f"{sum(n for _, n in results)}, not hands = {hands}")
            money = {key: int_field(raw[key], f"bet {bet_id} {key}")
                     for key in ("stake", "returned", "stake_squares", "staked_hands")
                     if key in raw}
            if any(v < 0 for v in money.values()):
                raise AnalyzerError(f"bet {bet_id!r}: negative money total or hand count")
            if money.get("staked_hands", 0) > hands:
                raise AnalyzerError(f"bet {bet_id!r}: staked_hands {money['staked_hands']} "
                                    f"exceeds hands = {hands}")
            bets.append(CountedBet(str(bet_id), results, money.get("stake"),
                                   money.get("returned"), money.get("stake_squares"),
                                   money.get("staked_hands")))
        decks = data.get("decks")
        return Counts(where, data.get("profile"),
                      int_field(decks, "decks") if decks is not None else None, hands,
                      tuple(bets))
    except AnalyzerError as exc:
        raise AnalyzerError(f"{where}: {exc}") from None
