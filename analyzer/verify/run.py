"""A whole ``nine verify`` run: every file checked (in parallel if asked), merged, judged.

:func:`collect` tells each file's format once (:func:`~analyzer.dealing.handlog.detect_format`:
a hand log, an aggregated-counts file or a saved partial result), chooses the null model,
and maps the files to :class:`~analyzer.verify.partial.Partial` sums, in this process, a
process pool or on a Dask cluster; partials merge by addition. :func:`verify_logs` adds
the verdict (:func:`~analyzer.verify.verdict.finish`).

**Shoe-aware model.** ``auto`` is shoe-aware when the first log opens with a whole shoe
(or was saved shoe-aware). Shoe-aware checks of card-level profiles test every bet against
its exact distribution given the cards already dealt; bets that need exact odds per hand
get them when the logs are small enough (:data:`~analyzer.engine.shoe_aware.EXACT_HANDS`)
and are tested against the full shoe otherwise.
"""

from __future__ import annotations

import csv
import importlib
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from analyzer.dealing.counts import read_counts
from analyzer.dealing.handlog import (
    Hand,
    LogOptions,
    ShoeStart,
    count_lines,
    detect_format,
    find_columns,
    open_text,
    read_log,
)
from analyzer.dealing.segments import Segment, find_segments
from analyzer.engine import backend
from analyzer.engine.lookup import Model, build_model
from analyzer.engine.shoe_aware import EXACT_HANDS, card_evaluator, shoe_aware_evaluator
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import Profile, load_profile
from analyzer.verify.check import check_file
from analyzer.verify.partial import Partial, counts_partial, load_partial, merge
from analyzer.verify.verdict import Verdict, finish

__all__ = ["collect", "verify_logs", "Work"]


class Work(NamedTuple):
    """One file to check, with everything a worker process needs to check it."""

    path: str
    #: its format as told by the parent (None: it could not be read there; told by the
    #: worker then)
    format: str | None
    profile: str
    decks: int
    options: LogOptions
    shoe_aware: bool
    exact_card_bets: bool
    #: only this run of whole shoes of the file (None: all of it)
    segment: Segment | None = None


def _check_one(work: Work) -> Partial:
    fmt = work.format or detect_format(work.path, work.options.format)
    if fmt == "partial":
        saved = load_partial(work.path)
        return replace(saved, sources=(work.path,)) if len(saved.sources) == 1 else saved
    model = build_model(work.profile, work.decks)
    if fmt == "counts":
        return counts_partial(read_counts(work.path), model)
    return check_file(work.path, model, replace(work.options, format=fmt), work.shoe_aware,
                      work.exact_card_bets, work.segment)


def _split(work: list[Work], jobs: int) -> list[Work]:
    """With fewer hand logs than processes, each large uncompressed log in runs of whole
    shoes (one per process), so one file uses every process."""
    logs = [w for w in work if w.format in ("csv", "tsv", "jsonl")]
    if jobs < 2 or not logs or len(logs) >= jobs:
        return work
    out: list[Work] = []
    for w in work:
        if w in logs:
            segments = find_segments(w.path, w.format or "", jobs, _hand_column(w))
            out.extend(w._replace(segment=s) for s in segments) if len(segments) > 1 \
                else out.append(w)
        else:
            out.append(w)
    return out


def _hand_column(work: Work) -> int | None:
    """A CSV/TSV log's hand column (None for JSON Lines, or when the header is unreadable)."""
    if work.format not in ("csv", "tsv"):
        return None
    try:
        with open_text(work.path) as stream:
            header = next(csv.reader(stream, delimiter="\t" if work.format == "tsv" else ","))
        return find_columns(header, work.options, work.path)[0]["hand"]
    except (AnalyzerError, StopIteration, OSError, UnicodeDecodeError):
        return None


def _merge_segments(work: list[Work], partials: list[Partial]) -> list[Partial]:
    """The partials of one file's segments merged back into one, named by the file."""
    merged: list[Partial] = []
    for w, partial in zip(work, partials, strict=True):
        if w.segment is not None and w.segment.start > 0 and merged \
                and merged[-1].sources == (w.path,):
            merged[-1] = replace(merge([merged[-1], partial]), sources=(w.path,))
        else:
            merged.append(partial)
    return merged


def _format(path: str, options: LogOptions) -> str | None:
    """A file's format, or None when this process cannot read it (the worker will say)."""
    try:
        return detect_format(path, options.format)
    except AnalyzerError:
        return None


def collect(paths: Sequence[str], profile: Profile | str = "punto-banco",
            decks: int | None = None, options: LogOptions | None = None,
            model_name: str = "auto", jobs: int = 1,
            dask: str | None = None,
            exact_hands: int = EXACT_HANDS) -> tuple[Partial, Model]:
    """Check every log (in parallel processes when ``jobs`` > 1); the merged sums.

    ``paths`` may mix hand logs, aggregated-counts files and saved partial results
    (:func:`~analyzer.verify.partial.save_partial`). ``model_name`` is ``independent``
    (each hand from the full shoe), ``shoe`` (each hand given the cards already dealt from
    its shoe) or ``auto``: shoe-aware when the first log opens with a whole shoe (or was
    saved shoe-aware). ``dask`` runs the files on a Dask cluster instead: a scheduler
    address, or ``local`` for a local cluster of ``jobs`` worker processes (the optional
    ``dask`` extra).

    Shoe-aware checks of card-level profiles test every bet against its exact
    distribution given the cards already dealt
    (:class:`~analyzer.engine.shoe_aware.CardShoeAwareEvaluator`); bets that need exact
    odds per hand get them when the logs hold at most ``exact_hands`` hands (estimated
    from their lines) and are tested against the full shoe otherwise. The verdict names
    each bet's null model.
    """
    if not paths:
        raise AnalyzerError("no log files given")
    options = options or LogOptions()
    rules = load_profile(profile) if isinstance(profile, str) else profile
    model = build_model(rules, decks)
    if model_name not in ("auto", "independent", "shoe"):
        raise AnalyzerError(f"unknown model {model_name!r} (auto, independent or shoe)")
    formats = [_format(str(p), options) for p in paths]
    if model_name == "auto" and formats[0] == "partial":
        model_name = load_partial(paths[0]).model
    shoe_aware = model_name == "shoe" or (model_name == "auto" and _starts_whole(
        str(paths[0]), formats[0], options))
    exact_card_bets = True
    if shoe_aware and model.card_level and card_evaluator(model).others:
        # bets that need exact odds per hand (milliseconds each): only for logs that
        # are small enough; larger ones test those bets against the full shoe (reported)
        exact_card_bets = sum(count_lines(p) for p in paths) <= exact_hands
    if shoe_aware and backend.preload("shoe-aware", sum(count_lines(p) for p in paths)):
        # built here, before the workers fork: they inherit the kernels and the evaluator
        if model.card_level:
            card_evaluator(model, exact_card_bets)
        else:
            shoe_aware_evaluator(model)
    profile_ref = rules.path if rules.path and Path(rules.path).exists() else rules.name
    work = [Work(str(p), fmt, profile_ref, model.decks, options, shoe_aware, exact_card_bets)
            for p, fmt in zip(paths, formats, strict=True)]
    if dask:
        partials = _map_dask(work, dask, jobs)
    else:
        pieces = _split(work, jobs)
        if jobs > 1 and len(pieces) > 1:
            with ProcessPoolExecutor(max_workers=min(jobs, len(pieces))) as pool:
                partials = _merge_segments(pieces, list(pool.map(_check_one, pieces)))
        else:
            partials = [_check_one(w) for w in work]
    models = {p.model for p in partials}
    if len(models) > 1:  # counts files are independent-only; re-read logs to match them
        if any(w.format == "partial" for w in work):
            raise AnalyzerError("saved partial results and logs use different models: "
                                "give --model to match them")
        partials = [_check_one(w._replace(shoe_aware=False, exact_card_bets=True))
                    for w in work]
    for item in partials:
        if (item.profile, item.decks) != (rules.name, model.decks):
            raise AnalyzerError(f"{item.sources[0]}: saved for {item.profile} with "
                                f"{item.decks} decks, not {rules.name} with {model.decks}")
    return merge(partials), model


def _map_dask(work: list[Work], address: str, jobs: int) -> list[Partial]:
    """Check files as Dask tasks (one per file; each worker rebuilds the model once).

    Files must be readable at the same path on every worker, and a profile given as a
    file too. Partials are small, so they are merged on the client.
    """
    try:  # imported by name: an optional extra, untyped
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise AnalyzerError("--dask needs the optional extra: pip install "
                            "'nine-analyzer[dask]'") from None
    if address == "local":
        with distributed.LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            return list(client.gather(client.map(_check_one, work, pure=False)))
    try:
        client = distributed.Client(address, timeout=30)
    except OSError as exc:
        raise AnalyzerError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
    with client:
        return list(client.gather(client.map(_check_one, work, pure=False)))


def verify_logs(paths: Sequence[str], profile: Profile | str = "punto-banco",
                decks: int | None = None, options: LogOptions | None = None,
                model_name: str = "auto", alpha: float = 0.01, detect: float = 0.001,
                require_power: bool = False, jobs: int = 1,
                dask: str | None = None, exact_hands: int = EXACT_HANDS) -> Verdict:
    """Check every log and return the verdict (see :func:`collect` and
    :func:`~analyzer.verify.verdict.finish`)."""
    partial, model = collect(paths, profile, decks, options, model_name, jobs, dask,
                             exact_hands)
    return finish(partial, model, alpha, detect, require_power)


def _starts_whole(path: str, fmt: str | None, options: LogOptions) -> bool:
    """Does the log (of format ``fmt``) open with a whole shoe (a shoe record, or hand 1)?"""
    if fmt is None or fmt in ("counts", "partial"):
        return False
    try:
        for record in read_log(path, replace(options, format=fmt)):
            if type(record) is ShoeStart:
                return True
            if type(record) is Hand:
                return record.hand == 1
    except AnalyzerError:
        return False
    return False
