"""Shipped one-deck epsilon-certificates, as ``nine solve`` and ``nine advise`` state them:
the play a file gives at a table too large to solve there, its epsilon (the largest gain of
a side deviating alone, exact or with a rounding bound) and the command that re-derives it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.present.report.common import fraction_text, percent

if TYPE_CHECKING:
    from analyzer.choice.table.stored.certificate import Certificate

__all__ = ["epsilon_json", "epsilon_sentence", "rounding_json"]


def epsilon_sentence(certificate: Certificate) -> str:
    """A shipped epsilon-certificate in one sentence: what it is, its epsilon, who checks it."""
    name = Path(certificate.path).name
    play = ("the infinite deck's equilibrium played there" if "--infinite-play" in
            certificate.command else "the best play found there")
    return (f"At {certificate.shoe}, {certificate.people} people, by {certificate.by}: the "
            f"shipped certificate {name} (`{certificate.command}`) gives {play}: the "
            f"bank {percent(certificate.bank_value, 4)} per hand; not an equilibrium "
            f"there: no side gains more than {_epsilon_words(certificate)}; figures as the "
            f"file states them, re-derived by `nine certify --check {name}`, not by this "
            "command")


def _epsilon_words(certificate: Certificate) -> str:
    """A certificate's epsilon and how it was computed, in words."""
    if certificate.rounding is not None:
        bound, most = certificate.upper_floats()
        return (f"{most:.3g} of a stake by deviating alone (its largest regret evaluated in "
                f"floats, {float(certificate.max_regret):.4g}, plus the rounding bound "
                f"{bound:.1g}; not exact)")
    return (f"{float(certificate.max_regret):.3g} of a stake by deviating alone (its largest "
            f"exact regret, {fraction_text(certificate.max_regret)})")


def epsilon_json(certificate: Certificate | None) -> dict[str, Any] | None:
    """A shipped epsilon-certificate's figures (as its file states them) in JSON."""
    if certificate is None:
        return None
    name = Path(certificate.path).name
    return {"file": name, "people": certificate.people, "shoe": certificate.shoe,
            "by": certificate.by, "solved_at": certificate.shoe,
            "values_at": certificate.shoe, "certified": certificate.certified,
            "max_regret": fraction_text(certificate.max_regret),
            "epsilon": float(certificate.max_regret), **rounding_json(certificate),
            "bank": _value(certificate.bank_value),
            "seats": [_value(v) for v in certificate.seat_values],
            "written_by": certificate.command,
            "checked_by": f"nine certify --check {name} (not by this command)"}


def rounding_json(certificate: Certificate) -> dict[str, Any]:
    """How a certificate's figures were evaluated, in JSON: exactly, or in floats with the
    rounding bound of its epsilon."""
    if certificate.rounding is None:
        return {"evaluation": certificate.evaluation}
    bound, most = certificate.upper_floats()
    return {"evaluation": certificate.evaluation,
            "rounding_bound": fraction_text(certificate.rounding.max_regret),
            "rounding_bound_float": bound, "epsilon_at_most": most}


def _value(value: Fraction) -> dict[str, Any]:
    """A value the reporting command did not compute (the file's): no ``exact`` key."""
    return {"value": fraction_text(value), "float": float(value)}

