"""Building the whole publication: every section, in this process or in worker processes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from analyzer.errors import AnalyzerError
from analyzer.present.tables.publication import Publication, Section, render_index
from analyzer.present.tables.sections import (
    DECKS,
    chemin_section,
    drift_section,
    formula_section,
    house_rules_section,
    lucky9_section,
    odds_section,
    removal_section,
    sample_size_section,
    tableau_profiles,
)
from analyzer.present.tables.sheets import par_profiles, par_section, render_index_html
from analyzer.processes import worker_pool

__all__ = ["build_tables", "SECTIONS"]

SECTIONS = ("odds", "sample-sizes", "lucky9", "lucky9-house-rules", "chemin-de-fer", "removal",
            "formulas", "drift", "par")
#: Built last, in this process, from the other sections' results.
_LAST = ("par",)
#: Slowest sections first, so that parallel workers finish together (the removal section
#: goes as one task per profile, each a few seconds).
_COST_ORDER = ("lucky9", "lucky9-house-rules", "removal", "drift", "odds", "chemin-de-fer",
               "formulas", "sample-sizes")
#: Sections built one profile per worker task (each profile's tables are independent):
#: the removal charts alone outlast every other section on one worker.
_PER_PROFILE = ("removal",)


def build_tables(sections: Sequence[str] = SECTIONS, profiles: Sequence[str] | None = None,
                 decks: Sequence[int | None] = DECKS,
                 progress: Callable[[str], None] | None = None, jobs: int = 1) -> Publication:
    """Build the publication in memory (every section unless ``sections`` narrows it).

    ``jobs`` > 1 builds sections in that many worker processes (the output is the same).
    """
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        raise AnalyzerError(f"unknown table section {sorted(unknown)[0]!r}")
    if jobs < 1:
        raise AnalyzerError(f"--jobs must be at least 1, got {jobs}")
    chosen = [name for name in SECTIONS if name in sections]
    first = [name for name in chosen if name not in _LAST]
    if jobs > 1 and len(first) > 1:
        publication = _build_parallel(first, profiles, decks, progress, jobs)
    else:
        publication = Publication()
        for name in first:
            if progress:
                progress(name)
            _build_section(publication, name, profiles, decks)
    for name in chosen:
        if name in _LAST:
            if progress:
                progress(name)
            _build_section(publication, name, profiles, decks)
    publication.files["README.md"] = render_index(publication).encode("utf-8")
    publication.files["index.html"] = render_index_html(
        publication, par_profiles(profiles)).encode("utf-8")
    publication.complete = len(chosen) == len(SECTIONS) and profiles is None
    return publication


def _build_section(publication: Publication, name: str, profiles: Sequence[str] | None,
                   decks: Sequence[int | None]) -> None:
    before = set(publication.files)
    _add_section(publication, name, profiles, decks)
    publication.owner.update({path: name for path in set(publication.files) - before})


def _add_section(publication: Publication, name: str, profiles: Sequence[str] | None,
                 decks: Sequence[int | None]) -> None:
    chosen = tableau_profiles(profiles)
    builders: dict[str, Callable[[], Section]] = {
        "odds": lambda: odds_section(publication, chosen, decks),
        "sample-sizes": lambda: sample_size_section(publication, chosen),
        "lucky9": lambda: lucky9_section(publication),
        "lucky9-house-rules": lambda: house_rules_section(publication),
        "chemin-de-fer": lambda: chemin_section(publication),
        "removal": lambda: removal_section(publication, chosen),
        "formulas": lambda: formula_section(publication, chosen),
        "drift": lambda: drift_section(publication, chosen),
        "par": lambda: par_section(publication, par_profiles(profiles)),
    }
    publication.sections.append(builders[name]())


def _section_worker(name: str, profiles: Sequence[str] | None,
                    decks: Sequence[int | None]) -> Publication:
    publication = Publication()
    _build_section(publication, name, profiles, decks)
    return publication


def _build_parallel(chosen: Sequence[str], profiles: Sequence[str] | None,
                    decks: Sequence[int | None], progress: Callable[[str], None] | None,
                    jobs: int) -> Publication:
    """Sections in worker processes, merged in ``chosen`` order.

    The workers die with this process (:func:`analyzer.processes.worker_pool`): when a
    section fails or the build is interrupted (Ctrl-C, SIGTERM), they are ended at once.
    """
    order = sorted(chosen, key=_COST_ORDER.index)
    tasks: list[tuple[str, Sequence[str] | None]] = []
    for name in order:
        if name in _PER_PROFILE:
            tasks += [(name, (p.name,)) for p in tableau_profiles(profiles)]
        else:
            tasks.append((name, profiles))
    with worker_pool(min(jobs, len(tasks)), "spawn") as pool:
        futures = [pool.submit(_section_worker, name, subset, decks) for name, subset in tasks]
        parts: dict[str, list[Publication]] = {}
        for (name, _), future in zip(tasks, futures, strict=True):
            parts.setdefault(name, []).append(future.result())
            if progress and len(parts[name]) == sum(t == name for t, _ in tasks):
                progress(name)
    publication = Publication()
    for name in chosen:
        merged: Section | None = None
        for part in parts[name]:  # a per-profile section's parts in profile order
            publication.files.update(part.files)
            publication.owner.update(part.owner)
            publication.results.update(part.results)
            for section in part.sections:
                if merged is None:
                    merged = section
                    publication.sections.append(section)
                else:
                    merged.entries += section.entries
                    merged.missing += section.missing
                    merged.warnings += section.warnings
    return publication
