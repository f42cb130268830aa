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
from dataclasses import asdict, dataclass, replace
from functools import partial as bind
from pathlib import Path
from typing import Any

from analyzer.dealing.counts import CountedBet, Counts
from analyzer.dealing.handlog import PARTIAL_FORMAT, Hand
from analyzer.dealing.records import MAX_DECKS, NOT_CHECKED, NotChecked
from analyzer.dealing.schema import (
    check_count,
    check_int,
    check_list,
    check_number,
    check_object,
    check_string,
)
from analyzer.engine.lookup import Model
from analyzer.errors import AnalyzerError
from analyzer.inputs import parse_json, read_text
from analyzer.outputs import write_file
from analyzer.rules.profile import Profile, load_profile
from analyzer.verify.inference.fixed import to_floats
from analyzer.verify.inference.shuffle import ShuffleSums, merge_sums, sums_from_json
from analyzer.verify.overlap import merge_runs, runs_from_json

__all__ = ["add_not_checked", "BetTally", "check_against", "check_written_for", "counts_partial",
           "Issue", "IssueLog", "LISTED", "load_partial", "merge", "Partial", "PARTIAL_FORMAT",
           "partial_from_json", "save_partial"]

#: How many violations and malformed records are listed (all are counted).
LISTED = 100
_floats = bind(check_list, item=check_number)  # a list of finite numbers


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
    #: the shuffle sums of the whole shoes (None: no hand log)
    shuffle: ShuffleSums | None = None
    #: the logs held outcomes only (bead roads): nothing replayed, no payout, card or
    #: shuffle test (:mod:`analyzer.verify.outcomes`)
    outcomes_only: bool = False
    #: runs of outcomes within named shoes: (adjacent pairs, pairs whose winners differ,
    #: shoes with a pair); empty when no shoe held two hands
    runs: tuple[int, ...] = ()
    #: how many decks the whole shoes show (:mod:`analyzer.verify.inference.decks`): each deck
    #: count's summed log-likelihood, the fewest decks holding every shoe, the shoes
    deck_fit: tuple[float, ...] = ()
    deck_floor: int = 0
    deck_shoes: int = 0
    #: where the run's deck count came from: ``option`` (--decks), ``log`` (the shoes or
    #: the log's header), or ``profile`` (its default); "" when not told
    decks_from: str = ""
    #: each column (CSV/TSV) or key (JSON Lines) used, with its meaning, and those ignored
    columns_used: tuple[tuple[str, str], ...] = ()
    columns_ignored: tuple[str, ...] = ()
    #: checks an input could not support: (what, why, file), ``what`` one of
    #: :data:`~analyzer.dealing.records.NOT_CHECKED` (:func:`add_not_checked`)
    not_checked: tuple[tuple[str, str, str], ...] = ()
    #: money sums are in units of 1/money_scale (logs of decimal amounts)
    money_scale: int = 1
    #: shoes followed from their start whose end is not in the log (no end record or
    #: ``cards_left``, no shoe after them): a log cut short; not counted in whole_shoes
    cut_shoes: int = 0
    #: every float sum above exact, as integers in units of 2**-60
    #: (:mod:`~analyzer.verify.inference.fixed`): per shoe-aware bet its expected,
    #: covariance, EV, variance, money EV and money variance sums, then rank_expected,
    #: rank_covariance and deck_fit; partials that all hold them merge exactly, so the
    #: floats do not depend on how the logs were split (empty: added as floats)
    fixed: tuple[int, ...] = ()
    #: (level, kept hashes) of its runs of hands by content (:mod:`analyzer.verify.overlap`)
    hand_runs: tuple[int, tuple[int, ...]] = (0, ())


def add_not_checked(partial: Partial, what: str, why: str, source: str = "") -> Partial:
    """The partial with one more check it could not support (``what``: one of
    :data:`~analyzer.dealing.records.NOT_CHECKED`; ``source``: the file, default its
    first). A reader may instead yield a :class:`~analyzer.dealing.records.NotChecked`.

    >>> one = Partial("punto-banco", 8, "independent", ("a.txt",), 1, 0, 0, 0, 0, (), 0, (),
    ...               (), (), ())
    >>> add_not_checked(one, "cards", "the log holds outcomes only").not_checked
    (('cards', 'the log holds outcomes only', 'a.txt'),)
    """
    item = NotChecked.of(what, why)
    where = source or (partial.sources[0] if partial.sources else "")
    return replace(partial, not_checked=(*partial.not_checked, (item.what, item.why, where)))


def _rescaled(bets: Sequence[BetTally], factor: int) -> list[BetTally]:
    """Bets' money in units ``factor`` times smaller (see :attr:`Partial.money_scale`)."""
    if factor == 1:
        return list(bets)
    return [replace(b, stake=b.stake * factor, stake_squares=b.stake_squares * factor ** 2,
                    returned=b.returned * factor, money_ev_sum=b.money_ev_sum * factor,
                    money_variance_sum=b.money_variance_sum * factor ** 2) for b in bets]


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
    scale = math.lcm(*(i.money_scale for i in items))
    bets = _rescaled(first.bets, scale // first.money_scale)
    for other in items[1:]:
        bets = [BetTally(a.id, _add(a.results, b.results), a.staked_hands + b.staked_hands,
                         a.stake + b.stake, a.stake_squares + b.stake_squares,
                         a.returned + b.returned, _add(a.expected, b.expected),
                         _add(a.covariance, b.covariance), a.ev_sum + b.ev_sum,
                         a.variance_sum + b.variance_sum, a.money_ev_sum + b.money_ev_sum,
                         a.money_variance_sum + b.money_variance_sum)
                for a, b in zip(bets, _rescaled(other.bets, scale // other.money_scale),
                                strict=True)]
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
    if len({i.outcomes_only for i in items if not i.counts_only}) > 1:
        raise AnalyzerError("cannot merge outcome-only logs (bead roads) with logs of "
                            "cards: verify them separately")
    if len({i.values_only for i in items if not i.counts_only}) > 1:
        raise AnalyzerError("cannot merge logs of point values only with logs of cards: "
                            "verify them separately")
    meanings: dict[str, str] = {}
    for item in items:
        for name, meaning in item.columns_used:
            meanings.setdefault(name, meaning)
    used = tuple(meanings.items())
    ignored = dict.fromkeys(n for i in items for n in i.columns_ignored if n not in meanings)
    nulls = {i.bet_nulls for i in items if i.bet_nulls}
    if len(nulls) > 1:
        raise AnalyzerError("cannot merge results whose bets were tested against different "
                            "null models (exact odds per hand in some, the full shoe in "
                            "others)")
    merged = Partial(
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
        digests=tuple(d for i in items for d in i.digests),
        shuffle=merge_sums([i.shuffle for i in items]),
        columns_used=used, columns_ignored=tuple(ignored),
        not_checked=tuple(dict.fromkeys(n for i in items for n in i.not_checked)),
        money_scale=scale, cut_shoes=sum(i.cut_shoes for i in items),
        hand_runs=merge_runs(i.hand_runs for i in items),
        outcomes_only=any(i.outcomes_only for i in items),
        runs=tuple(sum(r) for r in zip(*(i.runs or (0, 0, 0) for i in items),
                                       strict=True)) if any(i.runs for i in items) else (),
        deck_fit=_deck_fit(items), deck_floor=max(i.deck_floor for i in items),
        deck_shoes=sum(i.deck_shoes for i in items), decks_from=first.decks_from)
    return _exact_floats(merged, items, scale)


def _float_layout(item: Partial) -> list[int]:
    """The lengths of a partial's float sums in :attr:`Partial.fixed`'s order."""
    sizes = [len(b.expected) + len(b.covariance) + 4 for b in item.bets if b.expected]
    return [*sizes, len(item.rank_expected) + len(item.rank_covariance), len(item.deck_fit)]


def _exact_floats(merged: Partial, items: Sequence[Partial], scale: int) -> Partial:
    """The merged partial with its float sums from the items' exact sums, added as
    integers, when every item with float sums holds them (else as added as floats)."""
    layout = _float_layout(merged)
    held = [i for i in items if sum(_float_layout(i))]
    if not held or any(_float_layout(i) != layout or len(i.fixed) != sum(layout)
                       for i in held):
        return merged
    total = [0] * sum(layout)
    for item in held:
        factor = scale // item.money_scale
        sums = list(item.fixed)
        at = 0
        for size in layout[:-2]:  # each bet's money EV and variance, rescaled
            sums[at + size - 2] *= factor
            sums[at + size - 1] *= factor * factor
            at += size
        total = [a + b for a, b in zip(total, sums, strict=True)]
    floats = to_floats(total)
    bets, at = [], 0
    for bet in merged.bets:
        if not bet.expected:
            bets.append(bet)
            continue
        k = len(bet.expected)
        part = floats[at:at + k + k * k + 4]
        bets.append(replace(bet, expected=part[:k], covariance=part[k:k + k * k],
                            ev_sum=part[-4], variance_sum=part[-3], money_ev_sum=part[-2],
                            money_variance_sum=part[-1]))
        at += k + k * k + 4
    ranks = len(merged.rank_expected)
    rank_end = at + layout[-2]
    return replace(merged, bets=tuple(bets), rank_expected=floats[at:at + ranks],
                   rank_covariance=floats[at + ranks:rank_end], deck_fit=floats[rank_end:],
                   fixed=tuple(total))


def _deck_fit(items: Sequence[Partial]) -> tuple[float, ...]:
    """The deck counts' log-likelihoods of several partials, added (in the order given)."""
    fits = [i.deck_fit for i in items if i.deck_fit]
    if len({len(f) for f in fits}) > 1:
        raise AnalyzerError("cannot merge deck-count fits of different ranges")
    return tuple(sum(x) for x in zip(*fits, strict=True)) if fits else ()


def save_partial(partial: Partial, path: str | Path) -> None:
    """Write merged sums as JSON (exact integers stay exact) for a later ``nine verify``."""
    document = {"format": PARTIAL_FORMAT, "version": 1, **asdict(partial)}
    write_file(path, json.dumps(document))


def load_partial(path: str | Path) -> Partial:
    """Read a partial result written by :func:`save_partial`, through the input layer, every
    field checked (types, lengths, signs, finite numbers; unknown fields refused)."""
    where = str(path)
    data = parse_json(read_text(path), where)
    if not isinstance(data, dict) or data.get("format") != PARTIAL_FORMAT:
        raise AnalyzerError(f"{where}: not a saved partial result")
    return partial_from_json(data, where)


def _issue(value: Any, where: str, path: str) -> Issue:
    fields = check_object(value, where, {
        "source": "string", "line": "count", "shoe": lambda v, w, p: check_string(v, w, p, 200),
        "hand": lambda v, w, p: None if v is None else check_int(v, w, p),
        "kind": lambda v, w, p: check_string(v, w, p, 100), "message": "string"}, path=path)
    return Issue(**fields)


def _not_checked(value: Any, where: str, path: str) -> tuple[str, str, str]:
    what, why, source = check_list(value, where, path, check_string, (3,))
    if what not in NOT_CHECKED:
        raise AnalyzerError(f"{where}: {path}[0]: must be one of {', '.join(NOT_CHECKED)}")
    return what, why, source


def _hex_digest(value: Any, where: str, path: str) -> str:
    text = check_string(value, where, path, 64)
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise AnalyzerError(f"{where}: {path}: must be a SHA-256 digest (64 hex digits)")
    return text


def _bet(value: Any, where: str, path: str) -> BetTally:
    fields = check_object(value, where, {
        "id": lambda v, w, p: check_string(v, w, p, 100),
        "results": lambda v, w, p: check_list(v, w, p, check_count, limit=1 << 16),
        "staked_hands": "count", "stake": "count", "stake_squares": "count",
        "returned": "count", "expected": _floats, "covariance": _floats,
        "ev_sum": "number", "variance_sum": lambda v, w, p: check_number(v, w, p, 0.0),
        "money_ev_sum": "number",
        "money_variance_sum": lambda v, w, p: check_number(v, w, p, 0.0)}, path=path)
    k = len(fields["results"])
    if len(fields["expected"]) not in (0, k) or len(fields["covariance"]) not in (0, k * k):
        raise AnalyzerError(f"{where}: {path}: expected and covariance must hold {k} and "
                            f"{k * k} numbers (or none)")
    return BetTally(**fields)


def partial_from_json(data: dict[str, Any], where: str) -> Partial:
    """A :class:`Partial` from its saved JSON document, every field checked."""
    listed = bind(check_list, limit=LISTED)
    texts = bind(check_list, item=check_string)
    fields = check_object(data, where, {
        "format": "string", "version": lambda v, w, p: check_int(v, w, p, 1, 1),
        "profile": lambda v, w, p: check_string(v, w, p, 1000),
        "decks": lambda v, w, p: check_int(v, w, p, 1, MAX_DECKS),
        "model": lambda v, w, p: check_string(v, w, p, choices=("independent", "shoe")),
        "sources": texts, "hands": "count", "shoes": "count", "whole_shoes": "count",
        "shoe_aware_hands": "count", "malformed_count": "count",
        "malformed": lambda v, w, p: listed(v, w, p, item=_issue),
        "violation_count": "count",
        "violations": lambda v, w, p: listed(v, w, p, item=_issue),
        "violation_kinds": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: (
            check_string(x[0], w2, f"{p2}[0]", 100), check_count(x[1], w2, f"{p2}[1]"))
            if isinstance(x, list) and len(x) == 2 else check_list(x, w2, p2, check_count,
                                                                   (2,))),
        "bets": lambda v, w, p: check_list(v, w, p, _bet, limit=1000),
        "card_counts": lambda v, w, p: check_list(v, w, p, check_count, (0, 52)),
        "rank_expected": lambda v, w, p: check_list(v, w, p, check_number, (0, 10, 13)),
        "rank_covariance": lambda v, w, p: check_list(v, w, p, check_number, (0, 100, 169)),
        "counts_only": "bool", "undelimited_shoes": "count", "notes": texts,
        "bet_nulls": texts, "values_only": "bool", "skipped_bets": texts,
        "digests": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: _hex_digest(
            x, w2, p2)),
        "shuffle": lambda v, w, p: None if v is None else sums_from_json(v, w, p),
        "outcomes_only": "bool", "deck_floor": "count", "deck_shoes": "count",
        "deck_fit": lambda v, w, p: check_list(v, w, p, check_number, limit=MAX_DECKS),
        "decks_from": lambda v, w, p: check_string(v, w, p, choices=(
            "", "option", "log", "profile")),
        "runs": lambda v, w, p: check_list(v, w, p, check_count, (0, 3)),
        "columns_used": lambda v, w, p: check_list(v, w, p, lambda x, w2, p2: tuple(
            check_list(x, w2, p2, check_string, (2,))), limit=10_000),
        "columns_ignored": lambda v, w, p: check_list(v, w, p, check_string, limit=10_000),
        "not_checked": lambda v, w, p: check_list(v, w, p, _not_checked, limit=10_000),
        "money_scale": lambda v, w, p: check_int(v, w, p, 1, 10 ** 30),
        "cut_shoes": "count", "hand_runs": runs_from_json,
        "fixed": lambda v, w, p: check_list(v, w, p, check_int, limit=1 << 20)},
        required=("format", "version", "profile", "decks", "model", "sources", "hands", "bets"))
    del fields["format"], fields["version"]
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    issues = fields.get("malformed", ()), fields.get("violations", ())
    counted = fields.get("malformed_count", 0), fields.get("violation_count", 0)
    if any(len(listed_) > count for listed_, count in zip(issues, counted, strict=True)):
        raise AnalyzerError(f"{where}: more issues listed than counted")
    if fields.get("whole_shoes", 0) + fields.get("cut_shoes", 0) > fields.get("shoes", 0) or \
            fields.get("shoe_aware_hands", 0) > fields["hands"]:
        raise AnalyzerError(f"{where}: whole_shoes or shoe_aware_hands exceed shoes or hands")
    settled = {sum(bet.results) for bet in fields["bets"]} - (
        {0} if fields.get("outcomes_only") else set())  # bets the winner does not decide
    if len(settled) > 1 or any(n > fields["hands"] for n in settled):
        raise AnalyzerError(f"{where}: the bets' result counts must add up to the same "
                            f"number of hands, at most hands = {fields['hands']}")
    expected, covariance = fields.get("rank_expected", ()), fields.get("rank_covariance", ())
    if len(covariance) != len(expected) ** 2:
        raise AnalyzerError(f"{where}: rank_covariance must hold {len(expected) ** 2} "
                            "numbers")
    item = Partial(**{"shoes": 0, "whole_shoes": 0, "shoe_aware_hands": 0,
                      "malformed_count": 0, "malformed": (), "violation_count": 0,
                      "violations": (), "violation_kinds": (), "card_counts": (),
                      **fields})
    if item.fixed and (len(item.fixed) != sum(_float_layout(item)) or
                       _exact_floats(item, [item], item.money_scale) != item):
        raise AnalyzerError(f"{where}: fixed must hold the exact form of the float sums "
                            f"({sum(_float_layout(item))} integers)")
    return item


def check_against(item: Partial, model: Model) -> None:
    """A partial result (saved, or from counts) fits the run's model: the same bets in the
    same order, each with its number of result lines."""
    if (item.profile, item.decks) != (model.profile.name, model.decks):
        raise AnalyzerError(f"{item.sources[0] if item.sources else '?'}: saved for "
                            f"{item.profile} with {item.decks} decks, not "
                            f"{model.profile.name} with {model.decks}")
    ids = [b.id for b in item.bets]
    known = [b.bet.id for b in model.bets]
    if ids != known:
        unknown = sorted(set(ids) - set(known))
        detail = f"unknown bet {unknown[0]!r}" if unknown else f"bets {ids} not {known}"
        raise AnalyzerError(f"{item.sources[0] if item.sources else '?'}: {detail} for "
                            f"profile {model.profile.name!r}")
    for tally, bet in zip(item.bets, model.bets, strict=True):
        if len(tally.results) != len(bet.labels):
            raise AnalyzerError(f"{item.sources[0] if item.sources else '?'}: bet "
                                f"{tally.id!r} has {len(tally.results)} result counts, the "
                                f"profile's {len(bet.labels)}")


def check_written_for(where: str, said: str, said_profile: str | None, said_decks: int | None,
                      profile: Profile, decks: int) -> None:
    """Refuse, in one line, a file that says it was written for another profile (by any of
    its names) or deck count than the run's: its hands would be judged by the wrong rules.

    >>> check_written_for("a.jsonl: line 1", "the log's header says", "baccarat", 6,
    ...                   load_profile("punto-banco"), 8)
    Traceback (most recent call last):
    analyzer.errors.AnalyzerError: a.jsonl: line 1: the log's header says profile 'baccarat' \
with 6 decks; this run verifies punto-banco with 8 decks (give --decks 6)
    """
    def named(name: str) -> bool:
        try:
            return name == profile.name or load_profile(name).name == profile.name
        except AnalyzerError:
            return False

    wrong_profile = said_profile is not None and not named(said_profile)
    if not wrong_profile and (said_decks is None or said_decks == decks):
        return
    what = " with ".join(part for part in (
        f"profile {said_profile!r}" if said_profile is not None else "",
        f"{said_decks} decks" if said_decks is not None else "") if part)
    fix = f"--profile {said_profile}" if wrong_profile else f"--decks {said_decks}"
    raise AnalyzerError(f"{where}: {said} {what}; this run verifies {profile.name} with "
                        f"{decks} decks (give {fix})")


def counts_partial(counts: Counts, model: Model) -> Partial:
    """A partial result from an aggregated-counts file (no replay, no card tests); its
    profile and deck count, when given, must be the run's."""
    check_written_for(str(counts.path), "counted for", counts.profile, counts.decks,
                      model.profile, model.decks)
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

