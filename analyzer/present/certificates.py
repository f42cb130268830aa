"""The shipped certificates of the one-deck tables, listed: ``nine certify --list``.

Each row is what a certificate file states (its SHA-256 checked against its strategies on
reading): the table size, the information model, certified (every exact regret 0) or the
epsilon -- the largest exact regret, what no side can beat by deviating alone -- the bank's
edge per hand, and the command that wrote it. The figures were computed exactly when the file
was written -- or, for a file evaluated in floats (8 people), with a rounding bound it states:
its epsilon is then "at most" the largest float regret plus that bound, never exact or
certified; ``nine certify --check FILE`` derives them again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.present.report.common import (
    JSON,
    fraction_text,
    json_text,
    percent,
    stable_floats,
    table,
)
from analyzer.present.report.lucky9 import rounding_json

if TYPE_CHECKING:
    from analyzer.choice.table.stored.certificate import Certificate

__all__ = ["irrational_status", "render_certificates"]


def irrational_status(subgame: str) -> str:
    """The status of a table certified with one irrational subgame (``subgame`` in words)."""
    return (f"certified (every exact regret 0; one subgame's equilibrium irrational: "
            f"{subgame}, exact in QQ(alpha))")


def _status(certificate: Certificate) -> str:
    if certificate.algebraic is not None:
        return irrational_status(certificate.algebraic.describe())
    if certificate.rounding is not None:
        bound, most = certificate.upper_floats()
        return f"epsilon <= {most:.3g} (float evaluation, rounding bound {bound:.1g})"
    return ("certified (every exact regret 0)" if certificate.certified
            else f"epsilon {float(certificate.max_regret):.3g}")


#: The list's note when a certificate has an irrational subgame.
_IRRATIONAL = (" A table certified with an irrational subgame is an exact equilibrium whose "
               "mixing there and values are algebraic numbers (its file's algebraic block, "
               "checked exactly by --check): its bank figure is their decimal, not a "
               "fraction.")


def _bank(certificate: Certificate) -> dict[str, JSON]:
    """The bank's value as JSON: the exact fraction, or (one irrational subgame) the exact
    element of QQ(alpha) with its decimal -- never a rounded value called exact."""
    block = certificate.algebraic
    if block is None:
        return {"bank": fraction_text(certificate.bank_value),
                "bank_float": float(certificate.bank_value)}
    return {"bank": None, "bank_decimal": block.bank_decimal,
            "bank_float": float(certificate.bank_value),
            "bank_in_qq_alpha": [str(c) for c in block.bank_value],
            "alpha_minimal_polynomial": [str(c) for c in block.field.minimal]}


def render_certificates(certificates: tuple[Certificate, ...], fmt: str = "text") -> str:
    """The list of shipped certificates: one row per file."""
    if fmt == "json":
        return json_text(stable_floats({"certificates": [
            {"file": Path(c.path).name, "people": c.people, "shoe": c.shoe, "by": c.by,
             "certified": c.certified, "max_regret": fraction_text(c.max_regret),
             "epsilon": float(c.max_regret), **rounding_json(c),
             **_bank(c), "written_by": c.command,
             "written_seconds": c.solve_seconds, "profile_sha256": c.sha256}
            for c in certificates]}))
    rows = [[c.people, c.by, _status(c), percent(c.bank_value, 4), c.command,
             f"{c.solve_seconds:.0f} s", Path(c.path).name] for c in certificates]
    body = str(table(rows, ["people", "by", "certified or epsilon (largest regret)",
                            "bank per hand", "written by", "took", "file"], fmt))
    if fmt == "csv":
        return body
    return (body.rstrip("\n") + "\n\nThe figures are the files' (computed exactly at the shoe "
            "when written, or in floats where a rounding bound is stated: that epsilon is at "
            "most the largest float regret plus the bound, not exact); `nine certify --check "
            "FILE` derives them again. An epsilon is the largest gain any side has by "
            "deviating alone from the file's play: not an equilibrium unless it is 0."
            + (_IRRATIONAL if any(c.algebraic for c in certificates) else "") + "\n")
