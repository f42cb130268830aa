"""Certificate files: a table's equilibrium at a finite shoe, solved once, re-verified cheaply.

Solving a table of 4 or more people at one deck with exact card removal takes minutes (CFR+
on every subgame of three or more live seats, closed by the indifference equations); checking
an answer takes seconds (one exact evaluation per subgame:
:func:`~analyzer.choice.table.solve.solve_table` with ``known``). So ``make certify`` (``nine
certify``) solves and writes a certificate -- the profile's every subgame strategy as exact
fractions, the values, the largest exact regret (0 when certified, else the epsilon no side
can beat by deviating alone), the SHA-256 of the strategy profile and the measured solve
time -- and :func:`check_certificate` re-derives every value and regret exactly from the
strategies and refuses, in one line, a file whose figures differ.

A certificate for another profile, table size, shoe or information model is refused in one
line naming the mismatch (:func:`read_certificate`).

A table whose one subgame's equilibrium is irrational (5 people by total) is certified
through an ``algebraic`` block (:mod:`analyzer.choice.table.stored.algebraic`): the file's
values are then elements of QQ(alpha) with decimals, its subgames hold that subgame's mixing
rounded (``fraction_profile``: that profile's own exact regret), and the check verifies the
block exactly against the rounded profile's exact evaluation.

>>> document = {"subgames": [{"live": 1, "removed": [], "seats": [[["1/2"]]],
...                           "bank": [["0", "1"]]}]}
>>> len(profile_sha256(document["subgames"]))
64
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from analyzer import __version__
from analyzer.choice.table.dealt.rounding import upward
from analyzer.choice.table.dealt.wide import WIDE_PEOPLE, wide_table
from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import SubgameKey, TableEquilibrium, TableValues, solve_table
from analyzer.choice.table.stored.algebraic import (
    AlgebraicBlock,
    AlgebraicTable,
    check_algebraic_document,
    read_algebraic_document,
)
from analyzer.choice.table.subgame import MAX_JOINT_SEATS
from analyzer.errors import AnalyzerError
from analyzer.inputs import parse_json, read_text
from analyzer.processes import Apply
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["Certificate", "certificate_text", "CERTIFICATES", "certificate_path",
           "check_certificate", "closed_certificate", "FLOAT_EVALUATION", "fraction_field",
           "KIND", "profile_sha256", "read_certificate", "shipped_certificate",
           "shipped_certificates", "shipped_strategies", "warm_starts",
           "algebraic_certificate", "certified_strategies", "epsilon_of"]

#: The ``kind`` every certificate file states (a file without it is not one).
KIND = "nine table certificate"
#: The ``evaluation`` a certificate evaluated in floats states (an exact one states none).
FLOAT_EVALUATION = "float evaluation with rounding bound"
#: Where the shipped certificates live (package data).
CERTIFICATES = Path(__file__).resolve().parent / "certificates"


def certificate_path(profile: str, people: int, shoe: Shoe, by: str,
                     folder: Path = CERTIFICATES) -> Path:
    """The shipped certificate's file name for a table: ``lucky9-home-4-people-1-deck-by-cards``."""
    slug = shoe.describe().replace(" ", "-")
    return folder / f"{profile}-{people}-people-{slug}-by-{by}.json"


def _text(value: Fraction) -> str:
    return str(value)


def _subgames(table: TableEquilibrium) -> list[dict[str, Any]]:
    return [{"live": r.key[0], "removed": [list(h) for h in r.key[1]],
             "seats": [[[_text(v) for v in row] for row in rows] for rows in r.solution.seats],
             "bank": [[_text(v) for v in row] for row in r.solution.bank]}
            for r in table.subgames]


def profile_sha256(subgames: Sequence[dict[str, Any]]) -> str:
    """SHA-256 of the strategy profile: its subgames as canonical JSON (sorted keys, no
    spaces)."""
    text = json.dumps(list(subgames), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _rounding(bounds: TableValues, float_from: int) -> dict[str, Any]:
    """A float-evaluated table's bounds, as its certificate states them."""
    return {
        "evaluation": FLOAT_EVALUATION, "float_from_live_seats": float_from,
        "rounding_bound": _text(bounds.max_regret),
        "epsilon_at_most": None,  # filled by the caller: the epsilon plus its bound
        "rounding": {"seat_values": [_text(v) for v in bounds.seats],
                     "bank_value": _text(bounds.bank),
                     "seat_regrets": [_text(v) for v in bounds.seat_regrets],
                     "bank_regret": _text(bounds.bank_regret)}}


def certificate_text(table: TableEquilibrium, rules: ChoiceRules, seconds: float,
                     command: str, method: str = "", float_from: int = 0,
                     algebraic: dict[str, Any] | None = None) -> str:
    """The certificate of a table evaluated at its shoe -- exactly, or in floats with a
    rounding bound (``table.rounding``, its subgames of ``float_from`` live seats or more)
    -- as JSON text (``method``: how its strategies were found, else the table's).

    ``algebraic``: the block of the table's one irrational subgame
    (:func:`~analyzer.choice.table.stored.algebraic.algebraic_document`), ``table`` being
    the fraction profile with that subgame's unknowns rationally approximated: the file is
    then certified with the block's exact values (elements of its field with decimals), and
    that profile's own exact figures go under ``fraction_profile``."""
    if not table.exact and table.rounding is None:
        raise AnalyzerError(f"{table.players + 1} people at {table.shoe}: not evaluated at its "
                            "shoe, nothing to certify")
    subgames = _subgames(table)
    document = {
        "kind": KIND, "analyzer_version": __version__, "profile": rules.name,
        "fingerprint": rules.fingerprint, "people": table.players + 1,
        "players": table.players, "shoe": table.shoe, "by": table.by,
        "certified": table.certified, "max_regret": _text(table.values.max_regret),
        "epsilon": float(table.values.max_regret),
        "seat_values": [_text(v) for v in table.seat_values],
        "bank_value": _text(table.bank_value),
        "seat_regrets": [_text(v) for v in table.values.seat_regrets],
        "bank_regret": _text(table.values.bank_regret),
        "method": method or table.method, "note": table.note,
        "solve_seconds": round(seconds, 1), "command": command,
        "profile_sha256": profile_sha256(subgames), "subgames": subgames,
    }
    if algebraic is not None:
        document = _algebraic(document, table, algebraic)
    if table.rounding is not None:
        extra = _rounding(table.rounding, float_from)
        extra["epsilon_at_most"] = upward(table.values.max_regret + table.rounding.max_regret)
        at = list(document).index("epsilon") + 1
        items = list(document.items())
        document = dict(items[:at] + list(extra.items()) + items[at:])
    return json.dumps(document, indent=1) + "\n"


def _algebraic(document: dict[str, Any], table: TableEquilibrium,
               block: dict[str, Any]) -> dict[str, Any]:
    """A certificate's figures made the exact equilibrium's of ``block`` (the fraction
    profile's kept under ``fraction_profile``)."""
    if table.rounding is not None or block.get("max_regret") != "0":
        raise AnalyzerError("an algebraic block certifies an exact evaluation only")
    zero = ["0"] * len(table.seat_values)
    return document | {
        "certified": True, "max_regret": "0", "epsilon": 0.0,
        "seat_values": block["seat_values"], "bank_value": block["bank_value"],
        "seat_regrets": zero, "bank_regret": "0",
        "fraction_profile": {
            "note": ("the subgames' strategies as written (the irrational subgame's unknowns "
                     "rationally approximated), evaluated exactly: not an equilibrium, its "
                     "largest regret is max_regret"),
            "max_regret": _text(table.values.max_regret),
            "seat_values": [_text(v) for v in table.seat_values],
            "bank_value": _text(table.bank_value)},
        "algebraic": block}


@dataclass(frozen=True)
class Certificate:
    """A certificate file read back: what it claims and the strategies it gives."""

    path: str
    people: int
    shoe: str
    by: str
    certified: bool
    max_regret: Fraction
    seat_values: tuple[Fraction, ...]
    bank_value: Fraction
    solve_seconds: float
    sha256: str
    strategies: dict[SubgameKey, Strategies]
    #: The command that wrote it (``nine certify ...``, ``--infinite-play`` for an
    #: epsilon-certificate of the infinite deck's play).
    command: str = ""
    #: Evaluated in floats (its subgames of ``float_from`` live seats or more): bounds on
    #: the distance of its figures from the exact ones; None when they are exact.
    rounding: TableValues | None = None
    float_from: int = 0
    #: Certified with one irrational subgame: its block as read (field verified, decimals
    #: checked), ``seat_values``/``bank_value`` then being the block's decimals (rounded:
    #: the exact values are its field elements); the file's ``algebraic`` entry, and the
    #: largest regret of the fraction profile the subgames hold.
    algebraic: AlgebraicBlock | None = None
    algebraic_document: dict[str, Any] | None = None
    fraction_max_regret: Fraction | None = None

    @property
    def approximation_digits(self) -> int:
        """The decimals of the irrational subgame's approximations in ``strategies``."""
        document = self.algebraic_document or {}
        return int(document.get("approximation_digits", 0))

    @property
    def values_exact(self) -> bool:
        """``seat_values``/``bank_value`` are the exact fractions (not decimals of
        irrational values)."""
        return self.algebraic is None

    @property
    def evaluation(self) -> str:
        """How its figures were computed: ``exact``, or :data:`FLOAT_EVALUATION`."""
        return "exact" if self.rounding is None else FLOAT_EVALUATION

    def upper_floats(self) -> tuple[float, float]:
        """Its epsilon's bound and the epsilon at most, as floats rounded upward (0 and the
        epsilon when exact)."""
        bound = self.rounding.max_regret if self.rounding else Fraction(0)
        return upward(bound), upward(self.epsilon_at_most)

    @property
    def epsilon_at_most(self) -> Fraction:
        """What no side gains more than by deviating alone: the largest regret, plus its
        rounding bound when evaluated in floats."""
        return self.max_regret + (self.rounding.max_regret if self.rounding else 0)


def fraction_field(text: Any, where: str) -> Fraction:
    """A fraction written as a string in a stored file, or a one-line error naming ``where``."""
    if not isinstance(text, str):
        raise AnalyzerError(f"{where}: a fraction as a string expected, got {text!r}")
    try:
        return _parsed(text)
    except (ValueError, ZeroDivisionError):
        raise AnalyzerError(f"{where}: {text!r} is not a fraction") from None


@lru_cache(maxsize=1 << 16)
def _parsed(text: str) -> Fraction:
    """``Fraction(text)``, each text parsed once: a file's draw probabilities are mostly 0
    and 1 and a few mixes repeated (an 8-person file: 270,000 fields), and a fraction is
    immutable, so one object serves every equal field."""
    return Fraction(text)


def read_certificate(path: str | Path, rules: ChoiceRules, shoe: Shoe, people: int | None,
                     by: str | None) -> Certificate:
    """The certificate at ``path`` for this table (``people`` and ``by`` None: the file's),
    or a one-line error naming the mismatch (profile, table size, shoe, information model,
    a field, or the profile's SHA-256)."""
    where = str(path)
    document = parse_json(read_text(path), where)
    if not isinstance(document, dict) or document.get("kind") != KIND:
        raise AnalyzerError(f"{where}: not a certificate (kind must be {KIND!r})")
    people = document.get("people") if people is None else people
    by = document.get("by") if by is None else by
    if not isinstance(people, int) or by not in ("cards", "total"):
        raise AnalyzerError(f"{where}: people (an integer) and by (cards or total) expected")
    checks = (("fingerprint", rules.fingerprint, f"profile {document.get('profile')!r}",
               f"the rules of {rules.name!r}"),
              ("people", people, f"{document.get('people')} people",
               f"the table has {people}"),
              ("shoe", shoe.describe(), f"shoe {document.get('shoe')!r}",
               f"the table is dealt from {shoe.describe()!r}"),
              ("by", by, f"by {document.get('by')}", f"the table is played by {by}"))
    for field, expected, written, asked in checks:
        if document.get(field) != expected:
            raise AnalyzerError(f"{where}: written for {written}, {asked}")
    rounding = _read_rounding(document, where)
    block, fraction_regret = _read_algebraic(document, where)
    try:
        subgames = document["subgames"]
        strategies: dict[SubgameKey, Strategies] = {}
        for i, entry in enumerate(subgames):
            at = f"{where}: subgames[{i}]"
            key = (int(entry["live"]), tuple(sorted((int(a), int(b))
                                                    for a, b in entry["removed"])))
            seats = [[[fraction_field(v, at) for v in row] for row in rows]
                     for rows in entry["seats"]]
            bank = [[fraction_field(v, at) for v in row] for row in entry["bank"]]
            strategies[key] = (seats, bank)
        if block is None:
            seat_values = tuple(fraction_field(v, f"{where}: seat_values")
                                for v in document["seat_values"])
            bank_value = fraction_field(document["bank_value"], f"{where}: bank_value")
        else:
            seat_values = tuple(Fraction(d) for d in block.seat_decimals)
            bank_value = Fraction(block.bank_decimal)
        found = Certificate(
            where, people, shoe.describe(), by, bool(document["certified"]),
            fraction_field(document["max_regret"], f"{where}: max_regret"), seat_values,
            bank_value, float(document["solve_seconds"]), str(document["profile_sha256"]),
            strategies, str(document["command"]), *rounding, block,
            document.get("algebraic"), fraction_regret)
    except KeyError as missing:
        raise AnalyzerError(f"{where}: field {missing} missing") from None
    except (TypeError, ValueError, AttributeError):
        raise AnalyzerError(f"{where}: malformed subgames (live, removed, seats, bank)") from None
    if profile_sha256(subgames) != found.sha256:
        raise AnalyzerError(f"{where}: profile_sha256 does not match its subgames' strategies")
    if block is not None:
        _approximates(block, found.strategies, document["algebraic"], where)
    return found


def _read_algebraic(document: dict[str, Any], where: str,
                    ) -> tuple[AlgebraicBlock | None, Fraction | None]:
    """A certificate's algebraic block read (None when it has none) and its fraction
    profile's largest regret: the file must then say certified with max_regret "0", and its
    values must be the block's."""
    if "algebraic" not in document:
        return None, None
    block = read_algebraic_document(document["algebraic"], f"{where}: algebraic")
    for field in ("seat_values", "bank_value"):
        if document.get(field) != document["algebraic"].get(field):
            raise AnalyzerError(f"{where}: {field} is not the algebraic block's")
    if document.get("certified") is not True or document.get("max_regret") != "0":
        raise AnalyzerError(f"{where}: certified must be true and max_regret \"0\" with an "
                            "algebraic block")
    if "evaluation" in document:
        raise AnalyzerError(f"{where}: an algebraic block certifies an exact evaluation only")
    try:
        regret = fraction_field(document["fraction_profile"]["max_regret"],
                                f"{where}: fraction_profile: max_regret")
    except (KeyError, TypeError):
        raise AnalyzerError(f"{where}: fraction_profile (max_regret) missing") from None
    return block, regret


def _approximates(block: AlgebraicBlock, strategies: dict[SubgameKey, Strategies],
                  document: dict[str, Any], where: str) -> None:
    """The irrational subgame's strategies in the file: each unknown within half a unit of
    its stated decimal place of the exact value, or a one-line error naming the cell."""
    try:
        digits = int(document["approximation_digits"])
        seats, bank = strategies[block.key]
    except (KeyError, TypeError, ValueError):
        raise AnalyzerError(f"{where}: algebraic: approximation_digits and the subgame "
                            f"{block.key} expected") from None
    live = block.key[0]
    for (k, e, c), value in zip(block.unknowns, block.values, strict=True):
        try:
            written = bank[c][e] if k == live else seats[k][e][c]
        except IndexError:
            raise AnalyzerError(f"{where}: algebraic: unknowns: cell {[k, e, c]} is not in "
                                "the subgame") from None
        low, high = block.field.approximate(value, Fraction(1, 10 ** (digits + 2)))
        if not low - Fraction(1, 2 * 10**digits) <= written <= high + Fraction(
                1, 2 * 10**digits):
            raise AnalyzerError(f"{where}: subgames: cell {[k, e, c]} of the irrational "
                                f"subgame is not its exact value to {digits} decimals")


def _read_rounding(document: dict[str, Any], where: str) -> tuple[TableValues | None, int]:
    """A certificate's rounding bounds and ``float_from`` (None, 0 when exact)."""
    if "evaluation" not in document:
        return None, 0
    if document["evaluation"] != FLOAT_EVALUATION:
        raise AnalyzerError(f"{where}: evaluation must be {FLOAT_EVALUATION!r}")
    at = f"{where}: rounding"
    try:
        found = document["rounding"]
        bounds = TableValues(tuple(fraction_field(v, at) for v in found["seat_values"]),
                             fraction_field(found["bank_value"], at),
                             tuple(fraction_field(v, at) for v in found["seat_regrets"]),
                             fraction_field(found["bank_regret"], at))
        stated = fraction_field(document["rounding_bound"], f"{where}: rounding_bound")
        float_from = int(document["float_from_live_seats"])
    except (KeyError, TypeError):
        raise AnalyzerError(f"{where}: a float evaluation needs rounding (seat_values, "
                            "bank_value, seat_regrets, bank_regret), rounding_bound and "
                            "float_from_live_seats") from None
    if stated != bounds.max_regret:
        raise AnalyzerError(f"{where}: rounding_bound is not the largest regret's bound")
    if float_from < 1:
        raise AnalyzerError(f"{where}: float_from_live_seats must be a positive integer")
    return bounds, float_from


def _figures(table: TableEquilibrium | Certificate) -> list[tuple[str, Fraction, Fraction]]:
    """Every figure a check compares: (name, value, bound on its distance from the exact)."""
    bounds = table.rounding or TableValues((Fraction(0),) * len(table.seat_values),
                                           Fraction(0), (Fraction(0),) * len(table.seat_values),
                                           Fraction(0))
    values = table.values.seats if isinstance(table, TableEquilibrium) else table.seat_values
    bank = table.values.bank if isinstance(table, TableEquilibrium) else table.bank_value
    regret = (table.values.max_regret if isinstance(table, TableEquilibrium)
              else table.max_regret)
    return ([(f"seat {j + 1}'s value", v, b) for j, (v, b) in enumerate(
        zip(values, bounds.seats, strict=True))]
        + [("bank value", bank, bounds.bank), ("max_regret", regret, bounds.max_regret)])


def check_certificate(certificate: Certificate, rules: ChoiceRules,
                      apply: Apply | None = None, float_from: int = 0) -> TableEquilibrium:
    """Every value and regret of the certificate re-derived from its strategies (an exact
    evaluation of every subgame at the shoe; ``apply``: spread over processes or a Dask
    cluster, :func:`analyzer.processes.task_mapper`): the table, or a one-line error naming
    the first figure that differs. A certificate evaluated in floats is evaluated in floats
    again the same way, and so is any with ``float_from`` (its subgames of that many live
    seats or more): each figure must then lie within the two rounding bounds (the file's and
    the new one's) of the file's, both being that close to the exact figure (an exact file's
    "certified" is not checked that way: floats certify nothing)."""
    shoe = Shoe.decks(1) if certificate.shoe == "1 deck" else None
    if shoe is None:
        raise AnalyzerError(f"{certificate.path}: only one-deck certificates are checked")
    float_from = float_from or certificate.float_from
    if float_from and certificate.algebraic is not None:
        raise AnalyzerError(f"{certificate.path}: certified through its algebraic block, "
                            "checked exactly only (floats certify nothing)")
    if float_from:
        table = wide_table(rules, shoe, certificate.people - 1, certificate.by,
                           certificate.strategies, iterations=0, apply=apply,
                           float_from=float_from)
        if certificate.certified and certificate.rounding is not None:
            raise AnalyzerError(f"{certificate.path}: a float evaluation certifies nothing")
        for (figure, value, bound), (_, stated, stated_bound) in zip(
                _figures(table), _figures(certificate), strict=True):
            if abs(value - stated) > bound + stated_bound:
                raise AnalyzerError(f"{certificate.path}: {figure} evaluated again in floats "
                                    f"({float(value)!r}) is not within the rounding bounds "
                                    f"of the file's ({float(stated)!r})")
        return table
    if apply is None:
        table = solve_table(rules, shoe, certificate.people - 1, certificate.by,
                            known=certificate.strategies, given_only=True)
    else:
        table = wide_table(rules, shoe, certificate.people - 1, certificate.by,
                           certificate.strategies, iterations=0, apply=apply)
    if certificate.algebraic_document is not None:
        closed_certificate(certificate, table)
        return table
    found = (("seat values", table.seat_values, certificate.seat_values),
             ("bank value", table.bank_value, certificate.bank_value),
             ("max_regret", table.values.max_regret, certificate.max_regret),
             ("certified", table.certified, certificate.certified))
    for name, computed, claimed in found:
        if computed != claimed:
            raise AnalyzerError(f"{certificate.path}: {name} recomputed exactly is not the "
                                f"file's ({claimed} claimed)")
    return table


def closed_certificate(certificate: Certificate, table: TableEquilibrium) -> AlgebraicTable:
    """A certificate certified through its algebraic block, verified against ``table`` (its
    fraction profile evaluated exactly at the shoe): that profile's own largest regret as the
    file says, then the irrational subgame's equilibrium interpolated again and every side's
    regret exactly 0 in its field, every value equal to the block's; the verified table in
    QQ(alpha), or a one-line error naming the first figure that differs."""
    if certificate.algebraic_document is None:
        raise AnalyzerError(f"{certificate.path}: no algebraic block")
    if table.values.max_regret != certificate.fraction_max_regret:
        raise AnalyzerError(f"{certificate.path}: fraction_profile: max_regret recomputed "
                            f"exactly is not the file's ({certificate.fraction_max_regret}"
                            " claimed)")
    return check_algebraic_document(certificate.algebraic_document, table,
                                    f"{certificate.path}: algebraic")


def shipped_certificate(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
                        ) -> Certificate | None:
    """The shipped certificate file of this one-deck table, read and checked (its SHA-256
    against its strategies); None if there is none. Read it once and take the views below
    (:func:`certified_strategies`, :func:`algebraic_certificate`, :func:`epsilon_of`): an
    8-person file takes about 1.6 s to read."""
    if shoe.is_infinite or players < 3:
        return None
    path = certificate_path(rules.name, players + 1, shoe, by)
    return read_certificate(path, rules, shoe, players + 1, by) if path.is_file() else None


def certified_strategies(found: Certificate | None) -> dict[SubgameKey, Strategies] | None:
    """A shipped certificate's strategies when it is certified in fractions; None otherwise
    (none, only an epsilon-certificate, or certified with an irrational subgame, whose
    subgames hold rational approximations: their exact evaluation is not the certified
    equilibrium). Whoever takes them evaluates them again exactly (``solve_table`` with
    ``given_only``)."""
    return (found.strategies if found is not None and found.certified
            and found.algebraic is None else None)


def algebraic_certificate(found: Certificate | None) -> Certificate | None:
    """A shipped certificate certified through an algebraic block (one subgame's equilibrium
    irrational: 5 people at one deck by total); None otherwise. Its strategies are the
    fraction profile (that subgame's mixing rounded): whoever evaluates them takes the
    certified figures from :func:`closed_certificate`, never from that evaluation."""
    return found if found is not None and found.certified and found.algebraic is not None \
        else None


def epsilon_of(found: Certificate | None) -> Certificate | None:
    """A shipped epsilon-certificate (``WIDE_PEOPLE`` or more people: the best play found,
    not an equilibrium), as its file states it: its figures are not evaluated again (that
    takes minutes: ``nine certify --check``). None otherwise."""
    return (found if found is not None and found.people >= WIDE_PEOPLE and not found.certified
            else None)


def shipped_strategies(rules: ChoiceRules, shoe: Shoe, players: int, by: str,
                       ) -> dict[SubgameKey, Strategies] | None:
    """:func:`certified_strategies` of this table's shipped certificate (``make certify``)."""
    return certified_strategies(shipped_certificate(rules, shoe, players, by))


def shipped_certificates(rules: ChoiceRules, shoe: Shoe) -> tuple[Certificate, ...]:
    """Every shipped certificate of the profile at ``shoe``, by table size then information
    model, as the files state them (each file's SHA-256 checked against its strategies)."""
    found = []
    for people in range(2, 10):
        for by in ("cards", "total"):
            path = certificate_path(rules.name, people, shoe, by)
            if path.is_file():
                found.append(read_certificate(path, rules, shoe, people, by))
    return tuple(found)


def warm_starts(rules: ChoiceRules, shoe: Shoe, people: int, by: str,
                folder: Path | None = None) -> dict[int, Strategies]:
    """Warm starts of a one-deck solve (``nine certify``): the subgames without naturals of
    the certified certificate of the table one person smaller (in ``folder``, else the
    shipped one), by live seats."""
    path = certificate_path(rules.name, people - 1, shoe, by, folder or CERTIFICATES)
    if people - 1 < 4 or not path.is_file():
        return {}
    found = read_certificate(path, rules, shoe, people - 1, by)
    return {key[0]: strategies for key, strategies in found.strategies.items()
            if found.certified and not key[1] and key[0] > MAX_JOINT_SEATS}
