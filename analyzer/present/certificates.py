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

from analyzer.present.report.common import fraction_text, json_text, percent, stable_floats, table
from analyzer.present.report.lucky9 import rounding_json

if TYPE_CHECKING:
    from analyzer.choice.table.stored.certificate import Certificate

__all__ = ["render_certificates"]


def _status(certificate: Certificate) -> str:
    if certificate.rounding is not None:
        bound, most = certificate.upper_floats()
        return f"epsilon <= {most:.3g} (float evaluation, rounding bound {bound:.1g})"
    return ("certified (every exact regret 0)" if certificate.certified
            else f"epsilon {float(certificate.max_regret):.3g}")


def render_certificates(certificates: tuple[Certificate, ...], fmt: str = "text") -> str:
    """The list of shipped certificates: one row per file."""
    if fmt == "json":
        return json_text(stable_floats({"certificates": [
            {"file": Path(c.path).name, "people": c.people, "shoe": c.shoe, "by": c.by,
             "certified": c.certified, "max_regret": fraction_text(c.max_regret),
             "epsilon": float(c.max_regret), **rounding_json(c),
             "bank": fraction_text(c.bank_value),
             "bank_float": float(c.bank_value), "written_by": c.command,
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
            "deviating alone from the file's play: not an equilibrium unless it is 0.\n")
