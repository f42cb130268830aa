"""The published odds tables: ``nine tables --out DIR`` writes them, ``--check`` compares.

Built from library calls and the renderers of :mod:`analyzer.present.report` (never by
running the command line): :mod:`~analyzer.present.tables.sections` makes each section,
:mod:`~analyzer.present.tables.build` the whole publication (optionally in worker
processes), :mod:`~analyzer.present.tables.publication` holds the files, their provenance
headers and the index ``tables/README.md``, :mod:`~analyzer.present.tables.sheets` the PAR
sheets (built last, from the other sections' results) and ``tables/index.html``, and
:mod:`~analyzer.present.tables.folder` writes or checks the folder through its manifest.

>>> publication = build_tables(sections=("odds",), profiles=("punto-banco",), decks=(1,))
>>> sorted(publication.files)[:3]
['README.md', 'index.html', 'odds/punto-banco/punto-banco-1-deck.csv']
>>> print(publication.text("odds/punto-banco/punto-banco-1-deck.csv").splitlines()[0])
# nine-analyzer odds table: profile punto-banco, shoe 1 deck, analyzer 0.1.0
"""

from analyzer.present.tables.build import SECTIONS, build_tables
from analyzer.present.tables.folder import MANIFEST, compare_tables, write_tables
from analyzer.present.tables.publication import (
    FORMATS,
    GENERATE_COMMAND,
    INDEX_SECTION,
    Entry,
    Publication,
    Section,
    command_text,
    render_index,
    shoe_args,
    shoe_label,
    shoe_slug,
    with_header,
)
from analyzer.present.tables.sections import (
    ALPHA,
    DECKS,
    DRIFT_PROFILES,
    DRIFT_SEED,
    DRIFT_SHOES,
    FORMULA_PROFILES,
    POWER,
    REMOVAL_SAMPLES,
    RTP_ERROR,
    Job,
    publish,
    short_convention,
    without_run_time,
)
from analyzer.present.tables.sheets import PAR_FOLDER, par_section, render_index_html

__all__ = ["ALPHA", "build_tables", "command_text", "compare_tables", "DECKS", "DRIFT_PROFILES",
           "DRIFT_SEED", "DRIFT_SHOES", "Entry", "FORMATS", "FORMULA_PROFILES", "GENERATE_COMMAND",
           "INDEX_SECTION", "Job", "MANIFEST", "PAR_FOLDER", "par_section", "POWER", "Publication",
           "publish", "REMOVAL_SAMPLES", "render_index", "render_index_html", "RTP_ERROR",
           "Section", "SECTIONS", "shoe_args", "shoe_label", "shoe_slug", "short_convention",
           "with_header", "without_run_time", "write_tables"]
