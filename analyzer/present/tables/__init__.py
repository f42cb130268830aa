"""The published odds tables: ``nine tables --out DIR`` writes them, ``--check`` compares.

Built from library calls and the renderers of :mod:`analyzer.present.report` (never by
running the command line): :mod:`~analyzer.present.tables.sections` makes each section,
:mod:`~analyzer.present.tables.build` the whole publication (optionally in worker
processes), :mod:`~analyzer.present.tables.publication` holds the files, their provenance
headers and the index ``tables/README.md``, :mod:`~analyzer.present.tables.sheets` the PAR
sheets (built last, from the other sections' results) and ``tables/index.html``, and
:mod:`~analyzer.present.tables.folder` writes or checks the folder through its manifest.

>>> from analyzer.present.tables import build_tables
>>> publication = build_tables(sections=("odds",), profiles=("punto-banco",), decks=(1,))
>>> sorted(publication.files)[:3]
['README.md', 'index.html', 'odds/punto-banco/punto-banco-1-deck.csv']
>>> print(publication.text("odds/punto-banco/punto-banco-1-deck.csv").splitlines()[0])
# nine-analyzer odds table: profile punto-banco, shoe 1 deck, analyzer 0.1.0
"""

import importlib
from typing import Any

#: Each public name -> the module that owns it, imported on first use (a command that
#: reads one file of the folder, e.g. ``nine advise``, does not import the builders).
_OWNERS = {
    "build": ("SECTIONS", "build_tables"),
    "folder": ("MANIFEST", "compare_tables", "write_tables"),
    "publication": ("FORMATS", "GENERATE_COMMAND", "INDEX_SECTION", "Entry", "Publication",
                    "Section", "command_text", "render_index", "shoe_args", "shoe_label",
                    "shoe_slug", "with_header"),
    "sections": ("ALPHA", "DECKS", "DRIFT_PROFILES", "DRIFT_SEED", "DRIFT_SHOES",
                 "FORMULA_PROFILES", "POWER", "REMOVAL_SAMPLES", "RTP_ERROR", "Job", "publish",
                 "short_convention", "without_run_time"),
    "sheets": ("PAR_FOLDER", "par_section", "render_index_html"),
}
_LAZY = {name: f"{__name__}.{module}" for module, names in _OWNERS.items() for name in names}

__all__ = ["ALPHA", "build_tables", "command_text", "compare_tables", "DECKS", "DRIFT_PROFILES",
           "DRIFT_SEED", "DRIFT_SHOES", "Entry", "FORMATS", "FORMULA_PROFILES", "GENERATE_COMMAND",
           "INDEX_SECTION", "Job", "MANIFEST", "PAR_FOLDER", "par_section", "POWER", "Publication",
           "publish", "REMOVAL_SAMPLES", "render_index", "render_index_html", "RTP_ERROR",
           "Section", "SECTIONS", "shoe_args", "shoe_label", "shoe_slug", "short_convention",
           "with_header", "without_run_time", "write_tables"]


def __getattr__(name: str) -> Any:
    """A public name, imported from its owner on first use (then kept here)."""
    owner = _LAZY.get(name)
    if owner is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(owner), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
