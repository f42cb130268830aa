"""Partial results: the exact sums one or more files contributed, merged by addition.

A file's replay yields a :class:`Partial` (per bet a :class:`BetTally` of result counts,
money and shoe-aware moments, plus the :class:`Issue` list); partials of many files merge
by :func:`merge`, so files can be checked in parallel processes or on other machines and
saved between runs (:func:`save_partial`, :func:`load_partial`). An aggregated-counts file
becomes a partial directly (:func:`counts_partial`). A replay notes its issues in an
:class:`IssueLog`.

>>> one = Partial("punto-banco", 8, "independent", ("a.jsonl",), 100, 0, 0, 0, 0, (), 0, (),
...               (), (BetTally("tie", (90, 10)),), ())
>>> both = merge([one, one])
>>> both.bets[0].results, both.hands, both.sources
((180, 20), 200, ('a.jsonl', 'a.jsonl'))
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from analyzer.dealing.counts import CountedBet, Counts
from analyzer.dealing.handlog import PARTIAL_FORMAT, Hand
from analyzer.engine.lookup import Model
from analyzer.errors import AnalyzerError
from analyzer.inputs import parse_json, read_text

__all__ = ["BetTally", "counts_partial", "Issue", "IssueLog", "LISTED", "load_partial", "merge",
           "Partial", "PARTIAL_FORMAT", "save_partial"]

#: How many violations and malformed records are listed (all are counted).
LISTED = 100


@dataclass(frozen=True)
class Issue:
    """A violation or a malformed record, with where it is."""

    source: str
    line: int
    shoe: str
    hand: int | None
    kind: str
    message: str

    def where(self) -> str:
        """``file:line (shoe S, hand H)``."""
        hand = f" (shoe {self.shoe}, hand {self.hand})" if self.hand is not None else ""
        return f"{self.source}:{self.line}{hand}"


class IssueLog:
    """One file's issues as they are found: every one counted, the first :data:`LISTED` kept."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.malformed: list[Issue] = []
        self.malformed_count = 0
        self.violations: list[Issue] = []
        self.violation_count = 0
        self.kinds: dict[str, int] = {}

    def problem(self, line: int, message: str, shoe: str = "", hand: int | None = None,
                kind: str = "malformed") -> None:
        """A record that is unusable: malformed, out of sequence, or beyond the shoe."""
        self.malformed_count += 1
        if len(self.malformed) < LISTED:
            self.malformed.append(Issue(self.source, line, shoe, hand, kind, message))

    def violation(self, rec: Hand, kind: str, message: str) -> None:
        """A hand dealt or paid against the rules."""
        self.violation_at(rec.line, rec.shoe, rec.hand, kind, message)

    def violation_at(self, line: int, shoe: str, hand: int | None, kind: str,
                     message: str) -> None:
        """A violation found at a line (of a hand, or a shoe's burn)."""
        self.violation_count += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if len(self.violations) < LISTED:
            self.violations.append(Issue(self.source, line, shoe, hand, kind, message))


@dataclass(frozen=True)
class BetTally:
    """Sums for one bet: result counts (exact), money (exact), shoe-aware moments (float)."""

    id: str
    results: tuple[int, ...]
    staked_hands: int = 0
    stake: int = 0
    stake_squares: int = 0
    returned: int = 0
    expected: tuple[float, ...] = ()
    covariance: tuple[float, ...] = ()
    ev_sum: float = 0.0
    variance_sum: float = 0.0
    money_ev_sum: float = 0.0
    money_variance_sum: float = 0.0


@dataclass(frozen=True)
class Partial:
    """What one or more files contributed: exact sums that merge by addition."""

    profile: str
    decks: int
    model: str
    sources: tuple[str, ...]
    hands: int
    shoes: int
    whole_shoes: int
    shoe_aware_hands: int
    malformed_count: int
    malformed: tuple[Issue, ...]
    violation_count: int
    violations: tuple[Issue, ...]
    violation_kinds: tuple[tuple[str, int], ...]
    bets: tuple[BetTally, ...]
    card_counts: tuple[int, ...]
    rank_expected: tuple[float, ...] = ()
    rank_covariance: tuple[float, ...] = ()
    counts_only: bool = False
    #: stretches of hands logged without a shoe id that held more cards than one shoe
    #: (shoes could not be told apart: their composition check was skipped)
    undelimited_shoes: int = 0
    notes: tuple[str, ...] = ()
    #: shoe-aware model of a card-level profile: the null model each bet was tested against
    #: (:data:`analyzer.engine.shoe_aware.NULL_VALUES` ...); empty when every bet is
    #: shoe-aware on point values
    bet_nulls: tuple[str, ...] = ()
    #: the logs wrote point values only: composition, replay and statistics at the level
    #: of values; card_counts count the card standing for each value
    values_only: bool = False
    #: bets left out: they read ranks or suits, which a values-only log does not hold
    skipped_bets: tuple[str, ...] = ()
    #: SHA-256 of every log file counted here (hex): the same content given again, as a
    #: copy, in another partial, or beside the partial it made, is refused
    digests: tuple[str, ...] = ()


def _add(a: Sequence[Any], b: Sequence[Any]) -> tuple[Any, ...]:
    if not a:
        return tuple(b)
    if not b:
        return tuple(a)
    return tuple(x + y for x, y in zip(a, b, strict=True))


def merge(partials: Iterable[Partial]) -> Partial:
    """Add partial results of the same profile and model (in the order given)."""
    items = list(partials)
    if not items:
        raise AnalyzerError("nothing to merge: no log was read")
    first = items[0]
    for other in items[1:]:
        if (other.profile, other.decks, other.model) != (first.profile, first.decks,
                                                           first.model):
            raise AnalyzerError("cannot merge results of different profiles, decks or models")
    kinds: dict[str, int] = {}
    bets = list(first.bets)
    for other in items[1:]:
        bets = [BetTally(a.id, _add(a.results, b.results), a.staked_hands + b.staked_hands,
                         a.stake + b.stake, a.stake_squares + b.stake_squares,
                         a.returned + b.returned, _add(a.expected, b.expected),
                         _add(a.covariance, b.covariance), a.ev_sum + b.ev_sum,
                         a.variance_sum + b.variance_sum, a.money_ev_sum + b.money_ev_sum,
                         a.money_variance_sum + b.money_variance_sum)
                for a, b in zip(bets, other.bets, strict=True)]
    for item in items:
        for kind, n in item.violation_kinds:
            kinds[kind] = kinds.get(kind, 0) + n
    rank_expected: tuple[float, ...] = ()
    rank_covariance: tuple[float, ...] = ()
    card_counts: tuple[int, ...] = ()
    for item in items:
        rank_expected = _add(rank_expected, item.rank_expected)
        rank_covariance = _add(rank_covariance, item.rank_covariance)
        card_counts = _add(card_counts, item.card_counts)
    if len({i.values_only for i in items if not i.counts_only}) > 1:
        raise AnalyzerError("cannot merge logs of point values only with logs of cards: "
                            "verify them separately")
    nulls = {i.bet_nulls for i in items if i.bet_nulls}
    if len(nulls) > 1:
        raise AnalyzerError("cannot merge results whose bets were tested against different "
                            "null models (exact odds per hand in some, the full shoe in "
                            "others)")
    return Partial(
        first.profile, first.decks, first.model,
        tuple(s for item in items for s in item.sources),
        sum(i.hands for i in items), sum(i.shoes for i in items),
        sum(i.whole_shoes for i in items), sum(i.shoe_aware_hands for i in items),
        sum(i.malformed_count for i in items),
        tuple(x for i in items for x in i.malformed)[:LISTED],
        sum(i.violation_count for i in items),
        tuple(x for i in items for x in i.violations)[:LISTED],
        tuple(sorted(kinds.items())), tuple(bets), card_counts, rank_expected,
        rank_covariance, all(i.counts_only for i in items),
        sum(i.undelimited_shoes for i in items),
        tuple(dict.fromkeys(note for i in items for note in i.notes)),
        nulls.pop() if nulls else (), any(i.values_only for i in items),
        tuple(dict.fromkeys(b for i in items for b in i.skipped_bets)),
        digests=tuple(d for i in items for d in i.digests))


def save_partial(partial: Partial, path: str | Path) -> None:
    """Write merged sums as JSON (exact integers stay exact) for a later ``nine verify``."""
    document = {"format": PARTIAL_FORMAT, "version": 1, **asdict(partial)}
    try:
        Path(path).write_text(json.dumps(document), encoding="utf-8")
    except OSError as exc:
        raise AnalyzerError(f"{path}: cannot write partial result ({exc.strerror})") from None


def load_partial(path: str | Path) -> Partial:
    """Read a partial result written by :func:`save_partial`."""
    data = parse_json(read_text(path), str(path))  # UTF-8, bounded, no NaN or infinity
    if not isinstance(data, dict) or data.get("format") != PARTIAL_FORMAT:
        raise AnalyzerError(f"{path}: not a saved partial result")
    try:
        issues = {key: tuple(Issue(**item) for item in data[key])
                  for key in ("malformed", "violations")}
        bets = tuple(BetTally(**_tuples(bet)) for bet in data["bets"])
        fields = _tuples({k: v for k, v in data.items()
                          if k not in ("format", "version", "malformed", "violations", "bets")})
        fields["violation_kinds"] = tuple(tuple(kv) for kv in fields["violation_kinds"])
        partial = Partial(**fields, malformed=issues["malformed"],
                          violations=issues["violations"], bets=bets)
    except (KeyError, TypeError) as exc:
        raise AnalyzerError(f"{path}: malformed partial result ({exc})") from None
    _check_partial(partial, str(path))
    return partial


def _check_partial(partial: Partial, where: str) -> None:
    """The schema of a saved partial: counts are whole numbers, none negative, sums finite,
    variances not negative; the first field that breaks it is named."""

    def count(value: Any, field: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise AnalyzerError(f"{where}: {field}: {value!r} is not a count (a whole number, "
                                "0 or more)")

    def number(value: Any, field: str, low: float = -math.inf) -> None:
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or value < low):
            raise AnalyzerError(f"{where}: {field}: {value!r} is not a finite number"
                                + (" of 0 or more" if low == 0 else ""))

    for field in ("decks", "hands", "shoes", "whole_shoes", "shoe_aware_hands",
                  "malformed_count", "violation_count", "undelimited_shoes"):
        count(getattr(partial, field), field)
    for i, n in enumerate(partial.card_counts):
        count(n, f"card_counts[{i}]")
    for kind, n in partial.violation_kinds:
        count(n, f"violation_kinds.{kind}")
    for values, field in ((partial.rank_expected, "rank_expected"),
                          (partial.rank_covariance, "rank_covariance")):
        for i, value in enumerate(values):
            number(value, f"{field}[{i}]")
    for bet in partial.bets:
        if not isinstance(bet.id, str) or not bet.id:
            raise AnalyzerError(f"{where}: bets: a bet without an id")
        here = f"bets.{bet.id}"
        for i, n in enumerate(bet.results):
            count(n, f"{here}.results[{i}]")
        for field in ("staked_hands", "stake", "stake_squares", "returned"):
            count(getattr(bet, field), f"{here}.{field}")
        for values, field in ((bet.expected, "expected"), (bet.covariance, "covariance")):
            for i, value in enumerate(values):
                number(value, f"{here}.{field}[{i}]")
        number(bet.ev_sum, f"{here}.ev_sum")
        number(bet.money_ev_sum, f"{here}.money_ev_sum")
        number(bet.variance_sum, f"{here}.variance_sum", 0)
        number(bet.money_variance_sum, f"{here}.money_variance_sum", 0)


def _tuples(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}


def counts_partial(counts: Counts, model: Model) -> Partial:
    """A partial result from an aggregated-counts file (no replay, no card tests)."""
    bets = []
    by_id = {b.id: b for b in counts.bets}
    unknown = set(by_id) - {m.bet.id for m in model.bets}
    if unknown:
        raise AnalyzerError(f"{counts.path}: bet {sorted(unknown)[0]!r} is not in profile "
                            f"{model.profile.name!r}")
    notes: list[str] = []
    for bet_model in model.bets:
        counted = by_id.get(bet_model.bet.id)
        results = [0] * len(bet_model.labels)
        stake = stake_squares = returned = staked = 0
        if counted is not None:
            names = {bet_model.label_name(i).lower(): i for i in range(len(bet_model.labels))}
            names["loses"] = names["lose"]
            for name, n in counted.results:
                index = names.get(name.lower())
                if index is None:
                    raise AnalyzerError(f"{counts.path}: bet {bet_model.bet.id!r} has no line "
                                        f"{name!r} (lines: {', '.join(sorted(names))})")
                results[index] += n
            money = _counted_money(counts, counted)
            if money is None and counted.stake:
                notes.append(f"bet {counted.id}: money totals without stake_squares or "
                             "staked_hands: their variance is unknown (the bet may not be "
                             "staked every hand), so its RTP was tested from the result "
                             "counts at unit stake")
            elif money is not None:
                staked, stake, stake_squares, returned = money
        bets.append(BetTally(bet_model.bet.id, tuple(results), staked, stake, stake_squares,
                             returned))
    return Partial(model.profile.name, model.decks, "independent", (counts.path,), counts.hands,
                   0, 0, 0, 0, (), 0, (), (), tuple(bets), (), counts_only=True,
                   notes=tuple(notes))


def _counted_money(counts: Counts, counted: CountedBet) -> tuple[int, int, int, int] | None:
    """(staked hands, stake, stake squares, returned) of a counted bet, or None when its
    money cannot be tested (no totals, a zero stake, or no way to know their variance).

    The RTP test's variance is the bet's per-unit variance times the sum of squared stakes,
    which the totals alone do not give: a bet staked on a fraction f of the hands has
    1/f times the squares of one staked every hand at the same total.
    """
    where = f"{counts.path}: bet {counted.id!r}"
    if counted.stake is None or counted.returned is None:
        if counted.stake is not None or counted.returned is not None:
            raise AnalyzerError(f"{where}: give both stake and returned, or neither")
        return None
    stake, returned = counted.stake, counted.returned
    if stake == 0:
        if returned:
            raise AnalyzerError(f"{where}: returned {returned} on a total stake of 0")
        return None
    squares, staked = counted.stake_squares, counted.staked_hands
    if staked == 0:
        raise AnalyzerError(f"{where}: staked_hands is 0 but the stake is {stake}")
    if squares is None:
        if staked is None:
            return None
        squares = -(-stake * stake // staked)  # equal stakes on each staked hand
    if squares * (staked or counts.hands) < stake * stake:
        raise AnalyzerError(f"{where}: stake_squares {squares} is too small for a stake of "
                            f"{stake} over {staked or counts.hands} hands")
    return (staked or counts.hands, stake, squares, returned)

