"""Compiled tally plans kept on disk between runs, so a cold ``nine odds`` skips the
enumeration (listing 103,411 coups, grouping terms, settling every bet: about 0.4 s), and
the shoe-aware evaluator's arrays (:func:`cached_arrays`: ``nine verify`` skips about 0.2 s
of building them).

A plan is stored under a name that fingerprints everything it is built from: the format
version, the analyzer's version and the source of the modules that compile it, the tableau,
and each bet's pay rule and lines. A changed profile or analyzer therefore looks up a new
file; stale files are simply never read again.

The files live in the user's cache folder, never inside the package: ``$NINE_CACHE_DIR``,
else ``$XDG_CACHE_HOME/nine-analyzer``, else ``~/.cache/nine-analyzer`` (``NINE_CACHE_DIR``
set to ``off`` or to an empty string turns the cache off). Each file is a numpy ``.npz``
read without pickle, carrying a SHA-256 digest of its arrays; a file that fails the digest,
does not parse, or holds an index out of range is rebuilt and replaced, never trusted. A
folder that cannot be written just means no cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Hashable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer import __version__
from analyzer.engine.tally import TallyPlan, check_plan
from analyzer.errors import AnalyzerError
from analyzer.outputs import output_stream
from analyzer.rules.profile import Bet, Tableau

__all__ = ["FORMAT", "cache_folder", "cached_arrays", "cached_plan", "plan_fingerprint",
           "read_arrays", "read_plan",
           "source_digest", "write_arrays", "write_plan"]

#: Bumped whenever the file layout changes.
FORMAT = 1
_ARRAYS = ("cards", "half_index", "patterns_low", "patterns_high", "entry_term",
           "entry_count", "cell_starts", "key_cells", "key_starts", "key_offsets")
#: The modules whose source decides a plan's content.
_SOURCES = ("engine/enumeration.py", "engine/tally.py", "engine/odds.py",
            "engine/plan_cache.py", "rules/bets.py", "rules/conditions.py",
            "rules/profile.py")


def cache_folder() -> Path | None:
    """Where plans are kept, or None when the cache is turned off."""
    chosen = os.environ.get("NINE_CACHE_DIR")
    if chosen is not None:
        return None if chosen in ("", "off") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nine-analyzer"


@lru_cache(maxsize=8)
def source_digest(sources: tuple[str, ...]) -> str:
    """SHA-256 of the analyzer's version and the source of ``sources`` (paths inside the
    package): part of the name of anything cached that those modules decide."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent.parent
    for name in sources:
        try:
            digest.update((package / name).read_bytes())
        except OSError:
            digest.update(b"missing " + name.encode())
    return digest.hexdigest()


def plan_fingerprint(tableau: Tableau, bets: tuple[Bet, ...], kind: str,
                     sources: tuple[str, ...] = _SOURCES) -> str:
    """The name of a plan's file: a digest of everything the plan is compiled from (the
    source of ``sources`` among it)."""
    text = json.dumps({
        "format": FORMAT, "code": source_digest(sources), "kind": kind,
        "tableau": [sorted(tableau.naturals), sorted(tableau.player_draws),
                    sorted(tableau.banker_draws_player_stood),
                    [sorted(row) for row in tableau.banker_draws]],
        "bets": [[bet.pay_rule, [[line.when.text, str(line.pays)] for line in bet.lines]]
                 for bet in bets]})
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _digest(arrays: dict[str, Any]) -> str:
    digest = hashlib.sha256()
    for name in (*_ARRAYS, "keys"):
        array = np.ascontiguousarray(arrays[name])
        digest.update(name.encode() + str(array.dtype).encode() + str(array.shape).encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def _decode_key(value: Any) -> Hashable:
    if isinstance(value, list):
        return tuple(_decode_key(v) for v in value)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise AnalyzerError("compiled plan key of an unknown kind")
    return value


def write_plan(path: Path, plan: TallyPlan) -> None:
    """Store a plan atomically (through :func:`analyzer.outputs.output_stream`)."""
    arrays: dict[str, Any] = {name: getattr(plan, name) for name in _ARRAYS}
    keys = json.dumps([list(map(_encode_key, keys)) for keys in plan.keys])
    arrays["keys"] = np.frombuffer(keys.encode(), dtype=np.uint8)
    arrays["digest"] = np.frombuffer(_digest(arrays).encode(), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    with output_stream(path, binary=True) as stream:
        np.savez(stream, **arrays)


def _encode_key(key: Hashable) -> Any:
    if isinstance(key, tuple):
        return [_encode_key(k) for k in key]
    if isinstance(key, bool) or not isinstance(key, int | str):
        raise AnalyzerError(f"cannot store a plan key {key!r}")
    return int(key) if isinstance(key, int) else key


def read_plan(path: Path) -> TallyPlan:
    """A stored plan, checked (digest, types, bounds); AnalyzerError if it fails any check."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in (*_ARRAYS, "keys", "digest")}
    except Exception as exc:  # noqa: BLE001 - any failure to read (zip, npy, I/O) means rebuild
        raise AnalyzerError(f"unreadable compiled plan: {exc}") from None
    if arrays["digest"].tobytes().decode("ascii", "replace") != _digest(arrays):
        raise AnalyzerError("compiled plan fails its digest")
    for name in _ARRAYS:
        if arrays[name].dtype != np.int64:
            raise AnalyzerError("compiled plan array of the wrong type")
    try:
        keys = tuple(tuple(_decode_key(k) for k in group)
                     for group in json.loads(arrays["keys"].tobytes().decode()))
    except (ValueError, TypeError, UnicodeDecodeError):
        raise AnalyzerError("compiled plan keys do not parse") from None
    fields: dict[str, Any] = {name: arrays[name] for name in _ARRAYS}
    plan = TallyPlan(**fields, keys=keys)
    check_plan(plan)
    return plan


def cached_plan(tableau: Tableau, bets: tuple[Bet, ...], kind: str,
                build: Callable[[], TallyPlan]) -> TallyPlan:
    """The plan from the cache folder if a sound copy is there, else built (and stored)."""
    folder = cache_folder()
    if folder is None:
        return build()
    path = folder / "plans" / f"{plan_fingerprint(tableau, bets, kind)}.npz"
    if path.exists():
        try:
            return read_plan(path)
        except AnalyzerError:
            pass  # corrupt or foreign: rebuilt below and replaced
    plan = build()
    with contextlib.suppress(OSError, AnalyzerError):  # an unwritable cache: no cache
        write_plan(path, plan)
    return plan


def _arrays_digest(arrays: Mapping[str, npt.NDArray[Any]]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(name.encode() + str(array.dtype).encode() + str(array.shape).encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def read_arrays(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Named int64 or float64 arrays stored by :func:`write_arrays`, their digest checked;
    AnalyzerError if it fails."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
    except Exception as exc:  # noqa: BLE001 - any failure to read (zip, npy, I/O) means rebuild
        raise AnalyzerError(f"unreadable cached arrays: {exc}") from None
    digest = arrays.pop("digest", None)
    if digest is None or digest.tobytes().decode("ascii", "replace") != _arrays_digest(arrays):
        raise AnalyzerError("cached arrays fail their digest")
    if any(a.dtype not in (np.int64, np.float64) for a in arrays.values()):
        raise AnalyzerError("cached array of the wrong type")
    return arrays


def cached_arrays(folder_name: str, fingerprint: str,
                  build: Callable[[], dict[str, npt.NDArray[Any]]],
                  check: Callable[[dict[str, npt.NDArray[Any]]], None]
                  ) -> dict[str, npt.NDArray[Any]]:
    """Named int64/float64 arrays compiled once (an evaluator's): read from
    ``<cache folder>/<folder_name>/<fingerprint>.npz`` when a copy there passes its SHA-256
    digest and ``check`` (which raises AnalyzerError on anything out of range), else built
    by ``build`` and stored (atomically; an unwritable cache just means no cache)."""
    folder = cache_folder()
    if folder is None:
        return build()
    path = folder / folder_name / f"{fingerprint}.npz"
    if path.exists():
        try:
            arrays = read_arrays(path)
            check(arrays)
            return arrays
        except AnalyzerError:
            pass  # corrupt or foreign: rebuilt below and replaced
    arrays = build()
    with contextlib.suppress(OSError, AnalyzerError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_arrays(path, arrays)
    return arrays


def write_arrays(path: Path, arrays: Mapping[str, npt.NDArray[Any]]) -> None:
    """Store named int64/float64 arrays with their SHA-256 digest, atomically (through
    :func:`analyzer.outputs.output_stream`), for :func:`read_arrays`."""
    digest = np.frombuffer(_arrays_digest(arrays).encode(), dtype=np.uint8)
    stored: dict[str, Any] = {**arrays, "digest": digest}
    with output_stream(path, binary=True) as stream:
        np.savez(stream, **stored)
