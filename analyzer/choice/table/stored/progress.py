"""A long ``nine certify`` run's finished subgames, kept in its work folder so a cut run resumes.

From 6 people a certify run improves and evaluates exactly subgame by subgame
(:mod:`analyzer.choice.table.dealt.wide`), minutes to hours each. A :class:`WorkFolder`
beside the certificate (``<certificate name>.work/``, which the command creates and owns:
it holds a :data:`MARKER` file) keeps every finished subgame as one JSON file, written
atomically by whichever process finished it (:class:`SavingRun`, picklable, so a pool's or
a local Dask cluster's worker saves its own subgame the moment it is done; the parent saves
again whatever comes back, for workers that do not share the folder). A restarted run
reuses a file only when it names the same run -- the same rules (their fingerprint), shoe,
table size, information model, iterations, tolerance, evaluation (exact or float), the
SHA-256 of the subgame's starting strategies and the source of the modules that compute it
(:func:`work_fingerprint`) -- and
its strategies match the SHA-256 it states; a file of the folder's naming that fails is a
one-line error, never overwritten. The saved values and regrets are the exact fractions the
evaluation gave -- the floats exactly, with their rounding bounds, for a float evaluation
(``nine certify --check`` derives the finished certificate again). After
the certificate is written, :meth:`WorkFolder.clear` removes the files the run wrote, and the
folder when nothing else is in it.

Within a subgame, the improvement's CFR+ state is kept at every check (every few
iterations: :class:`SubgameCheckpoint`, one ``.cfr.npz`` file beside the subgame's, with the
same fingerprint and a SHA-256 digest of its arrays), so a subgame that takes longer than
the run is allowed to live (hours at 8-9 people) resumes from its last check, with the same
floats as an uncut run; the file is removed once the subgame's outcome is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.choice.table.dealt.wide import SubgameOutcome, SubgameWork, improve_subgame
from analyzer.choice.table.exact.ring import Array
from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import SubgameKey
from analyzer.choice.table.stored.certificate import fraction_field, profile_sha256
from analyzer.engine.plan_cache import read_arrays, source_digest, write_arrays
from analyzer.errors import AnalyzerError
from analyzer.inputs import parse_json, read_text
from analyzer.outputs import make_folder, write_file

__all__ = ["CHECKPOINT_SUFFIX", "FORMAT", "MARKER", "SavingRun", "SubgameCheckpoint",
           "WORK_KIND", "WorkFolder", "work_fingerprint"]

#: The ``kind`` every subgame file of a work folder states.
WORK_KIND = "nine certify work: one finished subgame"
#: Bumped whenever the file layout changes.
FORMAT = 1
#: The ending of a subgame's kept CFR+ state (its outcome's file name before ``.json``).
CHECKPOINT_SUFFIX = ".cfr.npz"
#: The file that makes a folder a certify run's own.
MARKER = "nine-certify-work.txt"
#: The modules whose source decides a subgame's improved strategies and exact figures.
_SOURCES = ("choice/table/dealt/wide.py", "choice/table/cfr.py", "choice/table/subgame.py",
            "choice/table/dealt/game.py", "choice/table/dealt/kernels.py",
            "choice/table/dealt/compositions.py", "choice/table/dealt/residues.py",
            "choice/table/dealt/dense.py", "choice/table/dealt/rounding.py",
            "choice/table/exact/evaluation.py",
            "choice/table/exact/ring.py", "choice/table/solve.py", "rules/choice_rules.py")


def _strings(rows: Sequence[Any]) -> list[Any]:
    return [_strings(r) if isinstance(r, (list, tuple)) else str(r) for r in rows]


def _strategies_record(key: SubgameKey, strategies: Strategies) -> dict[str, Any]:
    return {"live": key[0], "removed": [list(h) for h in key[1]],
            "seats": _strings(list(strategies[0])), "bank": _strings(list(strategies[1]))}


def work_fingerprint(work: SubgameWork) -> str:
    """A digest of everything a subgame's outcome is computed from (see the module)."""
    text = json.dumps({
        "format": FORMAT, "code": source_digest(_SOURCES), "rules": work.rules.fingerprint,
        "shoe": list(work.shoe.counts), "by": work.by, "iterations": work.iterations,
        "tolerance": work.tolerance, "key": [work.key[0], [list(h) for h in work.key[1]]],
        "start_sha256": profile_sha256([_strategies_record(work.key, work.strategies)]),
        **({"evaluation": work.evaluation} if work.evaluation != "exact" else {}),
        **({"bank_step": str(work.bank_step)} if work.bank_step else {})})
    return hashlib.sha256(text.encode()).hexdigest()


def _name(work: SubgameWork) -> str:
    naturals = "_".join(f"{a}{b}" for a, b in work.key[1]) or "none"
    return f"{work.key[0]}-live-{naturals}-{work_fingerprint(work)[:16]}.json"


def _number(value: float) -> float | None:
    return None if value != value else value  # NaN (nothing improved) as null


def _read_number(value: Any) -> float:
    return float("nan") if value is None else float(value)


@dataclass(frozen=True)
class WorkFolder:
    """The folder where a certify run keeps its finished subgames (see the module);
    ``reused`` collects the outcomes :meth:`load` found."""

    path: Path
    reused: list[SubgameOutcome] = field(default_factory=list, compare=False, repr=False)

    def open(self) -> WorkFolder:
        """Create the folder (with its :data:`MARKER`), or check it is this command's."""
        marker = self.path / MARKER
        if self.path.exists() and not marker.is_file():
            raise AnalyzerError(f"{self.path}: exists and is not a nine certify work folder "
                                f"(no {MARKER}); not used")
        make_folder(self.path)
        if not marker.is_file():
            write_file(marker, "nine certify keeps the finished subgames of a run here, so a "
                               "cut run resumes; removed when the certificate is written.\n")
        return self

    def file(self, work: SubgameWork) -> Path:
        """Where ``work``'s outcome is kept."""
        return self.path / _name(work)

    def save(self, work: SubgameWork, outcome: SubgameOutcome) -> None:
        """Keep ``outcome`` (atomically; an identical file is left as it is)."""
        path = self.file(work)
        if path.is_file():
            return
        record = _strategies_record(work.key, (outcome.seats, outcome.bank))
        body = {"kind": WORK_KIND, "format": FORMAT, "fingerprint": work_fingerprint(work),
                "strategies_sha256": profile_sha256([record]), **record,
                "values": [str(v) for v in outcome.values],
                "regrets": [str(v) for v in outcome.regrets],
                **({"value_bounds": [str(v) for v in outcome.value_bounds],
                    "regret_bounds": [str(v) for v in outcome.regret_bounds]}
                   if outcome.regret_bounds else {}),
                "start_regret": _number(outcome.start_regret),
                "float_regret": _number(outcome.float_regret),
                "iterations": outcome.iterations, "seconds": round(outcome.seconds, 1)}
        write_file(path, json.dumps(body, indent=1) + "\n")

    def load(self, work: SubgameWork) -> SubgameOutcome | None:
        """``work``'s kept outcome, or None when none is kept; a kept file that fails its
        checks is a one-line error."""
        path = self.file(work)
        if not path.is_file():
            return None
        where = str(path)
        document = parse_json(read_text(path), where)
        if not isinstance(document, dict) or document.get("kind") != WORK_KIND:
            raise AnalyzerError(f"{where}: not a nine certify work file; not used")
        if document.get("fingerprint") != work_fingerprint(work):
            raise AnalyzerError(f"{where}: written for another run (fingerprint); not used")
        try:
            record = {k: document[k] for k in ("live", "removed", "seats", "bank")}
            sha = document["strategies_sha256"]
            seats = tuple(tuple(tuple(fraction_field(v, where) for v in row) for row in rows)
                          for rows in record["seats"])
            bank = tuple(tuple(fraction_field(v, where) for v in row) for row in record["bank"])
            values = tuple(fraction_field(v, where) for v in document["values"])
            regrets = tuple(fraction_field(v, where) for v in document["regrets"])
            bounds = tuple(tuple(fraction_field(v, where) for v in document.get(name, ()))
                           for name in ("value_bounds", "regret_bounds"))
            numbers = (_read_number(document["start_regret"]),
                       _read_number(document["float_regret"]),
                       int(document["iterations"]), float(document["seconds"]))
        except (KeyError, TypeError, ValueError):
            raise AnalyzerError(f"{where}: a field is missing or malformed; not used") from None
        if profile_sha256([record]) != sha:
            raise AnalyzerError(f"{where}: strategies_sha256 does not match its strategies; "
                                "not used")
        if (work.evaluation == "float") != bool(bounds[1]):
            raise AnalyzerError(f"{where}: rounding bounds missing or unexpected; not used")
        outcome = SubgameOutcome(work.key, seats, bank, values, regrets, *numbers, *bounds)
        self.reused.append(outcome)
        return outcome

    def runner(self) -> SavingRun:
        """:func:`~analyzer.choice.table.dealt.wide.improve_subgame` keeping each outcome
        here the moment it is done."""
        return SavingRun(self)

    def clear(self) -> bool:
        """Remove the subgame files of this command (those stating :data:`WORK_KIND`), then
        the marker and the folder when nothing else is in it; True when it is gone."""
        for path in self.path.glob("*.json"):
            with contextlib.suppress(OSError, AnalyzerError):
                if f'"kind": "{WORK_KIND}"' in read_text(path):
                    path.unlink()
        for path in self.path.glob(f"*{CHECKPOINT_SUFFIX}"):
            with contextlib.suppress(OSError, AnalyzerError):
                if "fingerprint" in read_arrays(path):  # a state this command kept
                    path.unlink()
        if any(p.name != MARKER for p in self.path.iterdir()):
            return False  # the marker stays: the folder is still this command's
        with contextlib.suppress(FileNotFoundError):
            (self.path / MARKER).unlink()
        try:
            self.path.rmdir()
        except OSError:
            return False
        return True


@dataclass(frozen=True)
class SavingRun:
    """:func:`~analyzer.choice.table.dealt.wide.improve_subgame` that keeps its outcome in
    ``folder`` the moment it is done (picklable: a worker saves its own subgame)."""

    folder: WorkFolder

    def __call__(self, work: SubgameWork) -> SubgameOutcome:
        """The subgame improved (resumed from its kept CFR+ state), evaluated exactly and
        kept."""
        checkpoint = SubgameCheckpoint(self.folder, work)
        outcome = improve_subgame(work, checkpoint)
        with contextlib.suppress(AnalyzerError):  # a worker without the folder: the
            self.folder.save(work, outcome)       # parent saves what comes back
            checkpoint.remove()
        return outcome


@dataclass(frozen=True)
class SubgameCheckpoint:
    """A subgame's CFR+ state kept in the work folder at every check
    (:class:`~analyzer.choice.table.cfr.Checkpoint`): the arrays and the run's fingerprint,
    with a SHA-256 digest, written atomically; a kept file that fails its checks is a
    one-line error, never overwritten. Where the folder cannot be written (a remote
    worker), nothing is kept and the run goes on."""

    folder: WorkFolder
    work: SubgameWork

    @property
    def path(self) -> Path:
        """The file (the subgame's outcome file name, ending :data:`CHECKPOINT_SUFFIX`)."""
        return self.folder.path / (_name(self.work).removesuffix(".json") + CHECKPOINT_SUFFIX)

    def _fingerprint(self) -> Array:
        return np.frombuffer(bytes.fromhex(work_fingerprint(self.work)),
                             dtype=np.uint8).astype(np.int64)

    def load(self) -> dict[str, Array] | None:
        """The kept state, or None when none is kept."""
        path = self.path
        if not path.is_file():
            return None
        try:
            arrays = read_arrays(path)
        except AnalyzerError as error:
            raise AnalyzerError(f"{path}: {error}; not used (delete it to start the subgame "
                                "again)") from None
        kept = arrays.pop("fingerprint", None)
        if kept is None or not np.array_equal(kept, self._fingerprint()):
            raise AnalyzerError(f"{path}: written for another run (fingerprint); not used")
        return arrays

    def save(self, arrays: dict[str, Array]) -> None:
        """Keep ``arrays`` (an unwritable folder keeps nothing)."""
        with contextlib.suppress(OSError, AnalyzerError):
            if self.folder.path.is_dir():
                write_arrays(self.path, {**arrays, "fingerprint": self._fingerprint()})

    def remove(self) -> None:
        """Drop the kept state (the subgame is done)."""
        with contextlib.suppress(OSError):
            self.path.unlink()
