"""A whole ``nine verify`` run: every file checked (in parallel if asked), merged, judged.

:func:`collect` tells each file's format once (:func:`~analyzer.dealing.handlog.detect_format`:
a hand log, an aggregated-counts file or a saved partial result), chooses the null model,
and maps the files to :class:`~analyzer.verify.partial.Partial` sums, in this process, a
process pool or on a Dask cluster; partials merge by addition. With fewer hand logs than
processes, a large uncompressed log is checked in runs of whole shoes
(:func:`~analyzer.dealing.segments.find_segments`, read through the input layer with the
whole file's line numbers) merged back into its one partial; a log whose shoes interleave
across a cut is checked whole. :func:`verify_logs` adds the verdict
(:func:`~analyzer.verify.verdict.finish`).

**Shoe-aware model.** ``auto`` is shoe-aware when the first log opens with a whole shoe
(or was saved shoe-aware). Shoe-aware checks of card-level profiles test every bet against
its exact distribution given the cards already dealt; bets that need exact odds per hand
get them when the logs are small enough (:data:`~analyzer.engine.shoe_aware.EXACT_HANDS`)
and are tested against the full shoe otherwise.
"""

from __future__ import annotations

import contextlib
import csv
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from analyzer.dealing.beads import bead_format
from analyzer.dealing.columns import find_columns
from analyzer.dealing.counts import read_counts
from analyzer.dealing.dialects import sniff_delimiter
from analyzer.dealing.handlog import (
    LogOptions,
    LogSniff,
    detect_format,
    number_notation,
    sniff_log,
)
from analyzer.dealing.segments import BrokenSegment, Segment, find_segments
from analyzer.engine import backend
from analyzer.engine.lookup import Model, build_model
from analyzer.engine.odds import odds
from analyzer.engine.shoe_aware import EXACT_HANDS, full_shoe_value_moments, shoe_evaluator
from analyzer.errors import AnalyzerError
from analyzer.inputs import count_lines, is_gzip, peek_text, read_lines
from analyzer.processes import task_starter
from analyzer.rules.profile import Profile, load_profile
from analyzer.verify.check import check_file, check_header, prepare, value_profile
from analyzer.verify.digests import FileDigests
from analyzer.verify.inference.decks import shown_decks
from analyzer.verify.inference.statistics import ALPHA
from analyzer.verify.outcomes import check_outcomes
from analyzer.verify.overlap import WINDOW, WINDOW_VALUES
from analyzer.verify.partial import Partial, check_against, counts_partial, load_partial, merge
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


def _as_given(saved: Partial, path: str) -> Partial:
    """A saved partial result named by the path it was given as (when it holds one file)."""
    return replace(saved, sources=(path,)) if len(saved.sources) == 1 else saved


def _lines(path: str, at_most: int) -> int:
    """A file's lines, for the size estimate, counted up to ``at_most`` (a number above
    it: more); 0 when this process cannot read it (the check of the file says why)."""
    try:
        return count_lines(path, at_most)
    except AnalyzerError:
        return 0


def _hands_estimate(path: str) -> int:
    """About how many lines a plain file holds, from its size and its first lines' length,
    without reading it (a gzipped or unreadable file: 0, so nothing is loaded for it)."""
    try:
        if is_gzip(path):
            return 0
        head = peek_text(path, 1 << 16).encode()
        size = os.stat(path).st_size
    except (OSError, AnalyzerError):
        return 0
    return size * max(head.count(b"\n"), 1) // len(head) if head else 0


def _model(work: Work) -> Model:
    """The model a worker checks a file against (its profile read again by reference)."""
    rules = load_profile(work.profile)
    return build_model(value_profile(rules) if work.options.values_level else rules,
                       work.decks)


def _check_one(work: Work) -> Partial:
    fmt = work.format or detect_format(work.path, work.options.format)
    if fmt == "partial":
        return _as_given(load_partial(work.path), work.path)
    model = _model(work)
    if fmt == "counts":
        return counts_partial(read_counts(work.path), model)
    if fmt in ("beads", "bead-csv"):
        return check_outcomes(work.path, model, work.options, fmt)
    return check_file(work.path, model, replace(work.options, format=fmt), work.shoe_aware,
                      work.exact_card_bets, work.segment)


def _check_piece(work: Work) -> Partial | None:
    """One file, or one run of whole shoes of it; None when the run turns out not to hold
    whole shoes (interleaved rows across the cut: the file is then checked whole)."""
    try:
        return _check_one(work)
    except BrokenSegment:
        return None


def _split(work: list[Work], jobs: int) -> list[tuple[int, Work]]:
    """With fewer hand logs than processes, each large uncompressed log in runs of whole
    shoes (one per process), so one file uses every process; each piece with the index
    of its file in ``work``."""
    logs = [w for w in work if w.format in ("csv", "tsv", "jsonl")]
    if jobs < 2 or not logs or len(logs) >= jobs:
        return list(enumerate(work))
    out: list[tuple[int, Work]] = []
    for index, w in enumerate(work):
        segments = find_segments(w.path, w.format or "", jobs, *_columns(w),
                                 w.options.delimiter) \
            if w.format in ("csv", "tsv", "jsonl") else []
        if len(segments) > 1:
            out.extend((index, w._replace(segment=s)) for s in segments)
        else:
            out.append((index, w))
    return out


def _columns(work: Work) -> tuple[int | None, int | None]:
    """A CSV/TSV log's hand and shoe columns, read through the input layer and told as
    the reader tells them (dialects, ``--column``); (None, None) for JSON Lines, or when
    the header is unreadable."""
    if work.format not in ("csv", "tsv"):
        return None, None
    lines = read_lines(work.path)
    try:
        first = next(lines)
        header = next(csv.reader([first], delimiter=sniff_delimiter(
            first, work.format, work.options.delimiter)))
        single = find_columns(header, work.options, work.path)[0]
        return single.get("hand"), single.get("shoe")
    except (AnalyzerError, StopIteration, csv.Error, KeyError):
        return None, None
    finally:
        lines.close()


def _run_pieces(work: list[Work], jobs: int, dask: str | None = None,
                ahead: Callable[[bool], object] = lambda own: None,
                meanwhile: Callable[[bool], object] = lambda own: None,
                settled: Callable[[], object] = lambda: None,
                own_run: bool = True) -> list[Partial]:
    """Every file's partial, its runs checked across ``jobs`` processes (or Dask workers)
    and merged back in order (named by the file); a file whose runs do not hold whole
    shoes is checked whole. The sums merge exactly (:attr:`Partial.fixed`, the shoes on
    either side of each cut paired), so any ``jobs`` gives the same partials.
    With ``own_run`` and no more pieces (runs of cut files, or whole files) than
    processes, this process checks the first piece itself and a worker each of the
    others; else the workers check every piece. ``ahead(own)`` runs in this process right
    before the check starts (and any workers are forked), ``meanwhile(own)`` while the
    workers check, then this process's own piece if any, then ``settled()`` before the
    workers' results are taken (without workers: the three first, ``own`` true).

    What every worker would build again (:func:`~analyzer.verify.check.prepare`: numba's
    kernels loaded, the coup lookup...) is built here first, so the workers forked next
    (a pool's, or ``--dask local``'s) inherit it."""
    pieces = _split(work, jobs)
    if not work or (dask is None and (jobs < 2 or len(pieces) < 2)):
        ahead(True)
        meanwhile(True)
        settled()
        return [_check_one(w) for w in work]
    if dask in (None, "local"):
        _prepare(work)
    own = own_run and dask is None and len(pieces) <= jobs
    ahead(own)
    with task_starter(dask, min(jobs, len(pieces)) - own) as start:
        started = start(_check_piece, [w for _, w in pieces[own:]])
        meanwhile(own)
        results = [_check_piece(pieces[0][1])] if own else []
        settled()
        parts: dict[int, list[Partial | None]] = {}
        for (index, _), result in zip(pieces, results + started(), strict=True):
            parts.setdefault(index, []).append(result)
        redo = [i for i, found in parts.items() if any(p is None for p in found)]
        again = dict(zip(redo, start(_check_one, [work[i] for i in redo])(), strict=True)) \
            if redo else {}
    partials: list[Partial] = []
    for index, w in enumerate(work):
        found = parts[index]
        if index in again:
            partials.append(again[index])
        elif len(found) == 1 and found[0] is not None:
            partials.append(found[0])
        else:
            partials.append(replace(merge(p for p in found if p is not None),
                                    sources=(w.path,)))
    return partials


def _prepare(work: list[Work]) -> None:
    """What checking each kind of hand log in ``work`` builds in every process, built in
    this one (:func:`~analyzer.verify.check.prepare`); a file this process cannot
    prepare for is left to its worker, which says why."""
    kinds = {w._replace(path="", format="log", segment=None) for w in work
             if w.format in ("csv", "tsv", "jsonl")}
    for kind in kinds:
        with contextlib.suppress(AnalyzerError):
            prepare(_model(kind), kind.options, kind.shoe_aware, kind.exact_card_bets)


def _format(path: str, options: LogOptions) -> str | None:
    """A file's format (a CSV/TSV log with outcomes and no cards: ``bead-csv``, or
    ``beads`` when its lines are outcomes), or None when this process cannot read it (the
    worker will say)."""
    try:
        fmt = detect_format(path, options.format)
        if fmt in ("csv", "tsv"):
            return bead_format(path, fmt, options) or fmt
        return fmt
    except AnalyzerError:
        return None


def collect(paths: Sequence[str], profile: Profile | str = "punto-banco",
            decks: int | None = None, options: LogOptions | None = None,
            model_name: str = "auto", jobs: int = 1,
            dask: str | None = None,
            exact_hands: int = EXACT_HANDS, decks_from: str | None = None
            ) -> tuple[Partial, Model]:
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
    (:class:`~analyzer.engine.shoe_aware.ShoeEvaluator`); bets that need exact
    odds per hand get them when the logs hold at most ``exact_hands`` hands (estimated
    from their lines) and are tested against the full shoe otherwise. The verdict names
    each bet's null model.

    **Decks.** Without ``decks``, a log header's deck count is taken, else the profile's
    default; when the whole shoes then show another count
    (:func:`~analyzer.verify.inference.decks.shown_decks`) the logs are checked again with it, and
    the partial says so (``decks_from``: ``option``, ``log`` or ``profile``, and a note).
    With ``decks`` given, shoes that show another count are noted.
    """
    if not paths:
        raise AnalyzerError("no log files given")
    given = options
    decks_from = decks_from or ("option" if decks is not None else "profile")
    rules = load_profile(profile) if isinstance(profile, str) else profile
    # "draw" is a tie in the logs of a game without a bet called draw; bet columns and
    # bet names are the profile's bets, by id, name or synonym
    options = replace(options or LogOptions(), draw_is_tie=not any(
        "draw" in (b.id.lower(), b.name.lower()) for b in rules.bets),
        bets=tuple((b.id, b.name) for b in rules.bets))
    model = build_model(rules, decks)
    if model_name not in ("auto", "independent", "shoe"):
        raise AnalyzerError(f"unknown model {model_name!r} (auto, independent or shoe)")
    _given_once(paths)
    formats = [_format(str(p), options) for p in paths]
    # each saved partial result read once, here; its files are not checked again
    saved = {str(p): load_partial(p) for p, fmt in zip(paths, formats, strict=True)
             if fmt == "partial"}
    hashing = FileDigests([str(p) for p, fmt in zip(paths, formats, strict=True)
                           if fmt not in (None, "partial")])
    parallel = jobs > 1 or dask is not None
    if parallel:
        # the logs' content hashes on a thread while this process reads their first lines
        # and builds what the workers inherit, on a core of the N it may use that is idle
        # until they start (paused before they do: no thread runs across a fork)
        hashing.start()
    try:
        sniffs = [_sniff(str(p), fmt, options) for p, fmt in zip(paths, formats, strict=True)]
        headed = {s.header.decks for s in sniffs if s is not None and s.header is not None
                  and s.header.decks is not None}
        if decks is None and len(headed) == 1:
            model = build_model(rules, headed.pop())
            decks_from = "header"
        for path, sniff in zip(paths, sniffs, strict=True):
            if sniff is not None and sniff.header is not None:
                check_header(sniff.header, model, str(path))
        notations = _notations(paths, formats, sniffs, options, saved)
        if options.values_level or "values" in notations or "ranks" in notations:
            options = replace(options, cards="values",
                              skip_bets=tuple(b.id for b in rules.bets if b.card_level))
            model = build_model(value_profile(rules), model.decks)
        elif options.cards == "auto":
            options = replace(options, cards="cards")
        if model_name == "auto" and formats[0] == "partial":
            model_name = saved[str(paths[0])].model
        shoe_aware = model_name == "shoe" or (model_name == "auto" and sniffs[0] is not None
                                              and sniffs[0].starts_whole)
        exact_card_bets = True
        # the size decides two things only: exact odds per hand up to exact_hands hands, and
        # numba's kernels past preload_work hands (counting stops past both)
        at_most = max(exact_hands, backend.preload_work("shoe-aware"))
        lines = sum(_lines(p, at_most) for p in paths) if shoe_aware else 0
        if shoe_aware and model.card_level and shoe_evaluator(model).others:
            # bets that need exact odds per hand (milliseconds each): only for logs that
            # are small enough; larger ones test those bets against the full shoe (reported)
            exact_card_bets = lines <= exact_hands
        if shoe_aware and backend.preload("shoe-aware", lines):
            # built here, before the workers fork: they inherit the kernels and the evaluator
            shoe_evaluator(model, exact_card_bets)
        elif not shoe_aware:
            # the shuffle tally's fused loop, for logs large enough to pay for loading it
            backend.preload("shuffle", sum(_hands_estimate(p) for p in paths))
        profile_ref = rules.path if rules.path and Path(rules.path).exists() else rules.name
        work = [Work(str(p), fmt, profile_ref, model.decks,
                     replace(options, cards=n) if n == "ranks" else options, shoe_aware,
                     exact_card_bets)
                for p, fmt, n in zip(paths, formats, notations, strict=True)]
        logs = [w for w in work if w.path not in saved]
        digests: list[str] = []

        # the verdict's tables from the model alone (the exact odds' plan; the independent
        # model's full-shoe moments), built once and remembered: before the check when
        # this process checks a piece itself (light tables: the thread hashes meanwhile),
        # else beside the workers; with card-level bets (their exact odds, about 0.03 s a
        # bet) this process leaves every piece to the workers
        def tables() -> None:
            odds(model.profile, model.shoe, "numpy")
            if not shoe_aware:
                full_shoe_value_moments(model)

        def ahead(own: bool) -> None:
            """Before the check starts (and this process forks any workers)."""
            if own:
                tables()
            hashing.pause()

        def meanwhile(own: bool) -> None:
            """While the workers check: the hashing thread again, beside this process's
            own piece or its tables."""
            if parallel:
                hashing.start()
            if not own:
                tables()

        def settled() -> None:
            """Every input's content hash (the rest hashed here), refusing content counted
            twice before any worker's result is taken (one process: before the check)."""
            digests.extend(_counted_once(paths, formats, saved, hashing))

        checked = iter(_run_pieces(logs, jobs, dask, ahead, meanwhile, settled,
                                   not model.card_level))
    finally:
        hashing.close()
    partials = [_as_given(saved[w.path], w.path) if w.path in saved else next(checked)
                for w in work]
    models = {p.model for p in partials}
    if len(models) > 1:  # counts files are independent-only; re-read logs to match them
        if any(w.format == "partial" for w in work):
            raise AnalyzerError("saved partial results and logs use different models: "
                                "give --model to match them")
        partials = [_check_one(w._replace(shoe_aware=False, exact_card_bets=True))
                    for w in work]
    for item in partials:
        check_against(item, model)
        _holds_hands(item)
    _shoes_once(partials)
    _hands_once(partials)
    merged = replace(merge(partials), digests=tuple(dict.fromkeys(digests)),
                     decks_from=decks_from)
    shown = shown_decks(merged.deck_fit, merged.deck_floor, model.decks)
    if decks_from == "profile" and shown is not None and shown < model.decks:
        # fewer decks than the profile's: the shoes tell (more would be cards dealt past
        # the shoe, violations the run reports)
        return collect(paths, rules, shown, given, model_name, jobs, dask, exact_hands,
                       "shoes")
    if decks_from == "profile" and shown == model.decks:
        decks_from = "shoes"
    merged = replace(merged, decks_from="log" if decks_from in ("shoes", "header") else
                     decks_from, not_checked=tuple(
                         n for n in merged.not_checked if n[0] != "decks" or shown is None
                         or shown != model.decks))  # the shoes showed the deck count
    return replace(merged, notes=merged.notes + _deck_notes(merged, model, shown,
                                                            decks_from)), model


def _holds_hands(item: Partial) -> None:
    """A log none of whose records could be read is not a hand log: refused in one line
    naming its first record (a report of nothing but malformed records would say less)."""
    if item.hands or not item.malformed_count or not item.malformed:
        return
    first = item.malformed[0]
    raise AnalyzerError(f"{first.source}: line {first.line}: not a hand log nine verify "
                        f"reads: none of its {item.malformed_count:,} record(s) could be "
                        f"read (the first: {first.message})")


def _deck_notes(merged: Partial, model: Model, shown: int | None,
                decks_from: str) -> tuple[str, ...]:
    """What the whole shoes say of the deck count, beside where the run's count came from
    (``decks_from``: option, shoes, header or profile)."""
    how = (f"maximum likelihood of the card counts of {merged.deck_shoes:,} shoe(s) logged "
           "from their first card, by a margin of at least e**10")
    source = {"option": "given with --decks", "header": "of the log header",
              "profile": "of the profile's default"}.get(decks_from, "")
    if decks_from == "shoes":
        return (f"decks: {model.decks}, as the whole shoes show ({how}); give --decks to "
                "choose",)
    if shown is not None and shown != model.decks:
        return (f"decks: the whole shoes look like {shown} decks, NOT the {model.decks} "
                f"{source} ({how})",)
    if shown is None and merged.deck_shoes and decks_from != "option":
        return (f"decks: {model.decks}, {source}; the {merged.deck_shoes:,} shoe(s) logged from "
                "their first card do not tell the deck count clearly",)
    return ()


def verify_logs(paths: Sequence[str], profile: Profile | str = "punto-banco",
                decks: int | None = None, options: LogOptions | None = None,
                model_name: str = "auto", alpha: float = ALPHA, detect: float = 0.001,
                require_power: bool = False, jobs: int = 1,
                dask: str | None = None, exact_hands: int = EXACT_HANDS) -> Verdict:
    """Check every log and return the verdict (see :func:`collect` and
    :func:`~analyzer.verify.verdict.finish`)."""
    partial, model = collect(paths, profile, decks, options, model_name, jobs, dask,
                             exact_hands)
    return finish(partial, model, alpha, detect, require_power)


def _sniff(path: str, fmt: str | None, options: LogOptions) -> LogSniff | None:
    """A hand log's first records (header, whole first shoe, values only); None for other
    inputs, or a log this process cannot read (the check of the file will say why)."""
    if fmt is None or fmt in ("counts", "partial", "beads", "bead-csv"):
        return None
    try:
        return sniff_log(path, options, fmt)
    except AnalyzerError:
        return None


def _notations(paths: Sequence[str], formats: Sequence[str | None],
               sniffs: Sequence[LogSniff | None], options: LogOptions,
               saved: dict[str, Partial]) -> list[str | None]:
    """How each log writes its cards (``cards``, ``values`` or ``ranks``: ``--cards``, else
    told from its first hands; a saved partial's as saved; None for counts or a file not
    readable here). Without ``--cards``, logs of cards and logs of values or ranks are not
    mixed."""
    found: list[str | None] = []
    kinds: dict[bool, str] = {}
    for path, fmt, sniff in zip(paths, formats, sniffs, strict=True):
        notation: str | None = None
        if fmt == "partial":
            notation = "values" if saved[str(path)].values_only else "cards"
        elif sniff is None or fmt is None:
            notation = None
        elif options.cards in ("cards", "ranks"):
            notation = options.cards
        elif options.cards == "values" or sniff.values:
            notation = number_notation(path, options, fmt)
        else:
            notation = "cards"
        if notation is not None and options.cards == "auto":
            kinds.setdefault(notation != "cards", str(path))
        found.append(notation)
    if len(kinds) > 1:
        raise AnalyzerError(f"{kinds[True]} writes point values only (or ranks) and "
                            f"{kinds[False]} writes cards: verify them separately (a "
                            "values-only log is checked at the level of values)")
    return found


def _counted_once(paths: Sequence[str], formats: Sequence[str | None],
                  saved: dict[str, Partial], hashing: FileDigests) -> list[str]:
    """Every log's content hash (from ``hashing``), refusing content counted twice: a copy
    of a log, a log a given partial already holds, or two partials holding the same log."""
    seen: dict[str, str] = {}
    for path, fmt in zip(paths, formats, strict=True):
        if fmt is None:
            continue  # not readable here: the check of the file says why
        held = saved[str(path)].digests if fmt == "partial" else (hashing.of(str(path)),)
        for digest in held:
            if digest in seen:
                raise AnalyzerError(f"{path}: holds the same log content as {seen[digest]} "
                                    "(its hands would count twice); give each log once")
            seen[digest] = str(path)
    return list(seen)


def _shoes_once(partials: Sequence[Partial]) -> None:
    """No whole shoe (by its content hash) is in two inputs: the same shoes given twice in
    other files (a CSV and a JSON Lines copy of one run, a partial beside a log it holds)
    would count twice. Exact up to :data:`~analyzer.verify.inference.shuffle.SKETCH` whole shoes per
    input; beyond, each input's smallest hashes are compared (a bottom-k sketch), which
    still finds an input held whole in another."""
    owner: dict[int, str] = {}
    for item in partials:
        if item.shuffle is None:
            continue
        name = item.sources[0] if len(item.sources) == 1 else f"the partial of {item.sources[0]}"
        for key in item.shuffle.sketch:
            other = owner.setdefault(key, name)
            if other != name:
                raise AnalyzerError(f"{other} and {name} hold the same shoe (a whole shoe "
                                    "dealt card for card alike): the same run given twice? "
                                    "give each once")


def _hands_once(partials: Sequence[Partial]) -> None:
    """No run of hands (by its cards, however the file lays it out) is in two inputs: a
    reformatted copy, a fragment beside its log, or a partial beside a copy of its log
    would count those hands twice (:mod:`analyzer.verify.overlap`)."""
    owner: dict[int, str] = {}
    for item in partials:
        name = item.sources[0] if len(item.sources) == 1 else f"the partial of {item.sources[0]}"
        for key in item.hand_runs[1]:
            other = owner.setdefault(key, name)
            if other != name:
                window = WINDOW_VALUES if item.values_only else WINDOW
                raise AnalyzerError(f"{other} and {name} hold the same hands (a run of "
                                    f"{window} hands dealt card for card alike, however "
                                    "each file lays them out): the same hands given "
                                    "twice? give each once")


def _given_once(paths: Sequence[str]) -> None:
    """The same file named twice (by any path to it) would count its hands twice."""
    seen: dict[tuple[int, int], str] = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue  # reported when the file is read
        key = (info.st_dev, info.st_ino)
        if key in seen:
            raise AnalyzerError(f"{path}: the same file as {seen[key]}, given twice (its "
                                "hands would count twice); give each file once")
        seen[key] = str(path)
