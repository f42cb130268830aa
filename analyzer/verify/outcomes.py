"""Checking an outcome-only log (a bead road): who won each hand, tested for frequency and
for runs within shoes.

A bead road holds no cards and no stakes, so nothing can be replayed, no payout checked
and no card or shuffle test run; the verdict says so. What can be tested:

* the **result frequencies** of every bet whose result the winner alone decides (in punto
  banco: banker, player and tie; :func:`winner_labels`), against the exact probabilities
  of the full shoe, with the return to player at unit stake that they imply;
* where the log names shoes (a shoe column, or one string of outcomes per shoe), the
  **runs** within shoes: how many adjacent hands have different winners, against
  ``(pairs) q`` with ``q = 1 - sum p_w^2``, by a z-test whose variance counts the overlap
  of adjacent pairs (hands taken as independent: card removal within a shoe is ignored,
  which the method names).

>>> from analyzer.engine.lookup import build_model
>>> probabilities = winner_probabilities(build_model("punto-banco", 8))
>>> [round(float(probabilities[w]), 6) for w in ("banker", "player", "tie")]
[0.458597, 0.446247, 0.095156]
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from analyzer.dealing.beads import read_beads
from analyzer.dealing.dialects import LogOptions
from analyzer.dealing.records import Layout, NotChecked, Problem
from analyzer.engine.enumeration import coups, denominator, term_weights, terms
from analyzer.engine.lookup import Model
from analyzer.rules.bets import settle_codes
from analyzer.verify.partial import BetTally, IssueLog, Partial

__all__ = ["check_outcomes", "outcome_checks", "OUTCOMES", "runs_test", "winner_labels",
           "winner_probabilities"]

#: The winners an outcome-only log names, in the order runs are counted.
OUTCOMES = ("banker", "player", "tie")


def winner_probabilities(model: Model) -> dict[str, Fraction]:
    """The exact probability of each winner of one hand from the model's full shoe."""
    return dict(_winner_probabilities(model))


@cache
def _winner_probabilities(model: Model) -> tuple[tuple[str, Fraction], ...]:
    tableau = model.profile.tableau
    assert tableau is not None
    table = coups(tableau)
    weights = term_weights(terms(tableau), model.shoe)[terms(tableau).of_coup]
    ways = weights * table.arrangements.astype(weights.dtype)
    winners = np.asarray(table.features["winner"])
    total = denominator(model.shoe)
    return tuple((w, Fraction(int(ways[winners == w].sum()), total)) for w in OUTCOMES)


def winner_labels(model: Model) -> tuple[dict[str, int] | None, ...]:
    """Per bet of the model, the result label each winner gives, or None when the winner
    alone does not decide the bet (it reads cards, totals or third cards)."""
    tableau = model.profile.tableau
    assert tableau is not None
    table = coups(tableau)
    winners = np.asarray(table.features["winner"])
    found: list[dict[str, int] | None] = []
    for b in model.bets:
        codes, results = settle_codes(b.bet, table.features)
        labels = np.array([b.label(r) for r in results], dtype=np.int64)[
            np.asarray(codes, dtype=np.int64)]
        mapping: dict[str, int] | None = {}
        for w in OUTCOMES:
            seen = np.unique(labels[winners == w])
            if len(seen) != 1 or mapping is None:
                mapping = None
                break
            mapping[w] = int(seen[0])
        found.append(mapping)
    return tuple(found)


def check_outcomes(path: str | Path, model: Model, options: LogOptions, fmt: str) -> Partial:
    """Count one outcome-only log (``fmt``: ``beads`` or ``bead-csv``) into a partial:
    winners per bet label, and the runs within the shoes it names."""
    source = str(path)
    issues = IssueLog(source)
    wins = dict.fromkeys(OUTCOMES, 0)
    pairs = changes = runs_shoes = 0
    shoes: set[str] = set()
    last_shoe, last, length = "", "", 0
    layout = Layout(0, (), (), ())
    for record in read_beads(path, options, fmt):
        if isinstance(record, Layout):
            layout = record
            continue
        if isinstance(record, Problem):
            issues.problem(record.line, record.message)
            last_shoe, length = "", 0  # a lost line breaks the run
            continue
        for outcome in record.outcomes:
            wins[outcome] += 1
        if not record.shoe:
            last_shoe, length = "", 0
            continue
        if record.shoe != last_shoe:
            shoes.add(record.shoe)
            last_shoe, last, length = record.shoe, "", 0
        for outcome in record.outcomes:
            if length:
                pairs += 1
                changes += outcome != last
                runs_shoes += length == 1  # this shoe's first pair
            last, length = outcome, length + 1
    hands = sum(wins.values())
    bets = []
    for b, mapping in zip(model.bets, winner_labels(model), strict=True):
        results = [0] * len(b.labels)
        if mapping is not None:
            for w, n in wins.items():
                results[mapping[w]] += n
        bets.append(BetTally(b.bet.id, tuple(results)))
    why = "the log holds outcomes only (a bead road)"
    missing = (
        ("payouts", f"{why}: no stakes or amounts returned"),
        ("outcomes", f"{why}: no cards to replay the drawing rules and check each winner "
                     "against (their frequencies are tested)"),
        ("cards", f"{why}: no card tests"), ("burn", f"{why}: no cards"),
        ("decks", f"{why}: the deck count cannot be told ({model.decks} decks assumed: "
                  "the profile's, or --decks)"))
    return Partial(model.profile.name, model.decks, "independent", (source,), hands,
                   len(shoes), 0, 0, issues.malformed_count, tuple(issues.malformed), 0, (),
                   (), tuple(bets), (), outcomes_only=True,
                   runs=(pairs, changes, runs_shoes) if pairs else (),
                   not_checked=tuple((NotChecked.of(what, text).what, text, source)
                                     for what, text in missing),
                   columns_used=layout.used, columns_ignored=layout.ignored)


def outcome_checks(partial: Partial, model: Model) -> tuple[list[tuple[Any, ...]], list[str]]:
    """The tests of an outcome-only partial beyond its bets' frequencies (the runs within
    shoes, as the fields of a :class:`~analyzer.verify.verdict.StatisticalTest`: name, bet,
    method, statistic, df, p-value, Holm p-value, passed, note), and what else it could
    not show, in words."""
    tests = []
    if partial.runs:
        z, p, expected = runs_test(partial.runs, model)
        tests.append(("runs of winners within shoes", None, "z-test of changes of winner, "
                      "hands taken as independent (card removal ignored)", z, None, p, 1.0,
                      True, f"{partial.runs[1]:,} changes in {partial.runs[0]:,} adjacent "
                      f"pairs, {expected:,.1f} expected"))
    missing = []
    untested = [b.bet.id for b, tally in zip(model.bets, partial.bets, strict=True)
                if not sum(tally.results)]
    if untested:
        missing.append(f"bets {', '.join(untested)}: NOT tested, the winner alone does not "
                       "decide them")
    if not partial.runs:
        missing.append("runs of winners within shoes: NOT tested, the log names no shoe of "
                       "two hands or more")
    return tests, missing


def runs_test(runs: tuple[int, ...], model: Model) -> tuple[float, float, float]:
    """(z, p-value, expected changes) of the runs within shoes: ``runs`` = (adjacent pairs,
    pairs whose winners differ, shoes with a pair)."""
    pairs, changes, shoes = runs
    p = [float(v) for v in winner_probabilities(model).values()]
    q = 1 - sum(x * x for x in p)
    # adjacent pairs overlap: Cov(I_k, I_k+1) = sum p_w (1 - p_w)^2 - q^2
    overlap = sum(x * (1 - x) ** 2 for x in p) - q * q
    variance = pairs * q * (1 - q) + 2 * (pairs - shoes) * overlap
    expected = pairs * q
    z = (changes - expected) / math.sqrt(variance) if variance > 0 else 0.0
    return z, 2 * NormalDist().cdf(-abs(z)), expected
