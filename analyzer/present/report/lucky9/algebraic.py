"""A table certified with one irrational subgame, as ``nine solve`` reports it (5 people at
one deck by total).

Its equilibrium mixes, in one subgame, at roots of an irreducible polynomial, so its values
are algebraic numbers: elements of QQ(alpha), alpha that polynomial's root in an interval
(the certificate's algebraic block, verified against the subgame by
:func:`~analyzer.choice.table.stored.certificate.closed_certificate`). They are shown as
decimals of those elements -- never as fractions, never called exact fractions -- and in the
JSON with their coefficients on ``1, alpha, alpha^2, ...`` and the minimal polynomial. The
strategy the file holds in that subgame is the mixing rounded to
:data:`~analyzer.choice.table.exact.algebraic.APPROXIMATION_DIGITS` decimals: shown as that
decimal and said to be rounded.

>>> rounded_text(Fraction(37177654463870213457, 10**20))
'0.37177654463870213457'
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.choice.table.exact.algebraic import APPROXIMATION_DIGITS, decimal
from analyzer.present.report.common import percent, table

if TYPE_CHECKING:
    from analyzer.choice.table.exact.algebraic import Element
    from analyzer.choice.table.stored.algebraic import AlgebraicTable
    from analyzer.choice.table.summary import TableSummary

__all__ = ["algebraic_json", "closed_edges", "closed_json", "closed_size_json",
           "closed_status", "closed_words",
           "element_json", "near", "NO_COSTS", "ROUNDED", "rounded_draws", "rounded_text",
           "seat_rows", "VALUES_NOTE"]

#: How a play in the irrational subgame is labelled wherever it is shown.
ROUNDED = f"rounded to {APPROXIMATION_DIGITS} decimals"

#: Why such a table has no simple rules' costs.
NO_COSTS = ("Simple rules' costs: not computed for this table (against its rounded play "
            "they would not be the certified equilibrium's)")

#: What the values of such a table are, in one sentence.
VALUES_NOTE = ("values are algebraic numbers, exact in QQ(alpha) (alpha a root of the "
               "certificate's minimal polynomial), shown as decimals")


def _closed(summary: TableSummary) -> AlgebraicTable:
    assert summary.closed is not None  # only called for a table certified through a block
    return summary.closed


def rounded_draws(summary: TableSummary) -> frozenset[Fraction]:
    """The draw probabilities the irrational subgame's unknown cells hold in the evaluated
    profile (each its exact, irrational value rounded to :data:`APPROXIMATION_DIGITS`
    decimals); empty for any other table."""
    closed = summary.closed
    if closed is None:
        return frozenset()
    solution = summary.table.solution(closed.key)
    live = closed.key[0]
    return frozenset(solution.bank[c][e] if k == live else solution.seats[k][e][c]
                     for k, e, c in closed.closed.solution.unknowns)


def rounded_text(draw: Fraction) -> str:
    """A probability rounded to :data:`APPROXIMATION_DIGITS` decimals, written out in full."""
    scaled = draw * 10**APPROXIMATION_DIGITS
    if scaled.denominator != 1:
        raise ValueError(f"{draw} has more than {APPROXIMATION_DIGITS} decimals")
    whole, rest = divmod(int(scaled), 10**APPROXIMATION_DIGITS)
    return f"{whole}.{rest:0{APPROXIMATION_DIGITS}d}"


def near(summary: TableSummary, value: Element) -> Fraction:
    """An element's decimal as a fraction, for percentages only (not its exact value)."""
    return Fraction(decimal(_closed(summary).field, value))


def closed_status(summary: TableSummary) -> str:
    """The certificate line: certified, with the irrational subgame in words."""
    found = summary.closed_from
    assert found is not None and found.algebraic is not None  # as summary.closed
    return (f"certified equilibrium: every side's exact regret is 0 (one subgame's "
            f"equilibrium irrational: {found.algebraic.describe()}; its block in "
            f"{Path(found.path).name} verified exactly against that subgame); {VALUES_NOTE}; "
            f"in that subgame the play shown is the mixing {ROUNDED}, not its exact value")


def closed_words(summary: TableSummary, model: str, method: str) -> tuple[str, str]:
    """The model and method lines, with how the irrational subgame is certified when there
    is one (else as given)."""
    if summary.closed is None:
        return model, method
    return (f"{model}; one subgame's equilibrium irrational: values in QQ(alpha)",
            f"{method}; the irrational subgame: the certificate's algebraic block, its "
            "equilibrium interpolated again from exact evaluations and every regret verified "
            "exactly 0 in QQ(alpha), the values recomputed there")


def seat_rows(summary: TableSummary, fmt: str) -> str:
    """Each side's value as the decimal of its element, and its exact regret (0)."""
    closed = _closed(summary)
    rows = [[f"seat {i + 1}", decimal(closed.field, v), percent(near(summary, v), 4), "0"]
            for i, v in enumerate(closed.seat_values)]
    rows.append(["bank", decimal(closed.field, closed.bank_value),
                 percent(near(summary, closed.bank_value), 4), "0"])
    return str(table(rows, ["side", "value (algebraic, in QQ(alpha); decimal)", "value",
                            "regret"], fmt))


def closed_edges(summary: TableSummary) -> dict[str, Element]:
    """The bank's edge as elements: per hand, per player stake, per rotation (banking, and
    each person's net, 0)."""
    closed = _closed(summary)
    field, bank = closed.field, closed.bank_value
    return {"total": bank, "per_stake": field.scale(bank, Fraction(1, summary.table.players)),
            "rotation_banking": bank, "rotation_net": field.rational(Fraction(0))}


def element_json(summary: TableSummary, value: Element) -> dict[str, Any]:
    """An element in JSON: no fraction (``value`` null), its decimal, a float and its
    coefficients on ``1, alpha, alpha^2, ...``."""
    return {"value": None, "decimal": decimal(_closed(summary).field, value),
            "float": float(near(summary, value)),
            "in_qq_alpha": [str(c) for c in value]}


def algebraic_json(summary: TableSummary) -> dict[str, Any] | None:
    """The field the values lie in and how the strategy is rounded (None for any other
    table)."""
    if summary.closed is None or summary.closed_from is None:
        return None
    closed, name = summary.closed, Path(summary.closed_from.path).name
    return {"values": VALUES_NOTE, "certificate": name,
            "subgame": {"live": closed.key[0], "naturals_out": [list(h) for h in closed.key[1]]},
            "minimal_polynomial": [str(c) for c in closed.field.minimal],
            "root_interval": [str(closed.field.low), str(closed.field.high)],
            "strategy_rounding": {"digits": APPROXIMATION_DIGITS,
                                  "note": f"in that subgame every mixed play is {ROUNDED} "
                                          "(its exact value is irrational)"},
            "checked_by": f"nine certify --check {name}"}


def closed_json(summary: TableSummary, document: dict[str, Any]) -> dict[str, Any]:
    """``nine solve``'s JSON document of such a table: certified with every regret "0" (in
    the field), each value null as a fraction, given as its decimal, float and coefficients;
    the irrational subgame certified in the field; the field and the rounding under
    ``algebraic``; no rule costs."""
    closed = _closed(summary)
    model, method = closed_words(summary, document["model"], document["method"])
    seats = [seat | {"value": None, "value_decimal": decimal(closed.field, v),
                     "value_float": float(near(summary, v)),
                     "value_in_qq_alpha": [str(c) for c in v], "regret": "0"}
             for seat, v in zip(document["seats"], closed.seat_values, strict=True)]
    edges = closed_edges(summary)
    per_stake = element_json(summary, edges["per_stake"])
    banker = document["banker"] | {
        "value": None, "value_decimal": decimal(closed.field, closed.bank_value),
        "value_float": float(near(summary, closed.bank_value)),
        "value_in_qq_alpha": [str(c) for c in closed.bank_value],
        "per_stake": None, "per_stake_decimal": per_stake["decimal"],
        "per_stake_float": per_stake["float"], "regret": "0"}
    subgames = [entry | ({"certified": closed.certified, "max_regret": "0",
                          "in_qq_alpha": True} if (entry["live"], tuple(
                              tuple(h) for h in entry["naturals_out"])) == closed.key else {})
                for entry in document["subgames"]]
    return document | {
        "model": model, "method": method, "certified": closed.certified,
        "exact": True, "max_regret": "0" if closed.certified else None,
        "max_regret_float": 0.0 if closed.certified else None, "seats": seats,
        "banker": banker, "subgames": subgames, "rules": [],
        "rules_note": NO_COSTS,
        "edge": {key: element_json(summary, v) for key, v in edges.items()},
        "algebraic": algebraic_json(summary)}


def closed_size_json(summary: TableSummary) -> dict[str, Any]:
    """One table size of ``nine solve --by-size``'s JSON for such a table: certified, its
    bank's edge and seats' values as elements (decimal, float, coefficients), no fraction."""
    closed, t = _closed(summary), summary.table
    edges = closed_edges(summary)
    return {"people": t.players + 1, "players": t.players, "shoe": t.shoe,
            "solved_at": t.solved_at, "values_at": t.values_at, "exact": True,
            "total": element_json(summary, edges["total"]),
            "per_stake": element_json(summary, edges["per_stake"]),
            "seats": [element_json(summary, v) for v in closed.seat_values],
            "certified": closed.certified, "max_regret": "0" if closed.certified else None,
            "algebraic": algebraic_json(summary)}
