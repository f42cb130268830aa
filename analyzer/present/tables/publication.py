"""The files of the publication: what a table is, its provenance header and the index
``tables/README.md`` (:mod:`~analyzer.present.tables.folder` writes and checks the folder).

The publication is built in memory as a mapping of relative paths to file contents, so the
same code writes ``tables/`` and checks it. Every file states the ``nine`` command that
prints it (the command line is text: the tables are built by library calls, not by running
the command).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from analyzer import __version__
from analyzer.present.tables.results import Results

__all__ = ["command_text", "Entry", "FORMATS", "GENERATE_COMMAND", "INDEX_SECTION",
           "Publication", "render_index", "Section", "shoe_args", "shoe_label", "shoe_slug",
           "with_header"]

#: The one command that regenerates the whole publication (stated in every file).
GENERATE_COMMAND = "nine tables --out tables/"
#: Formats of every table, by file extension.
FORMATS = {"md": "markdown", "csv": "csv", "json": "json", "txt": "text", "html": "html",
           "svg": "svg"}
#: The section owning the index files (every other file belongs to the section that made it).
INDEX_SECTION = "index"


@dataclass(frozen=True)
class Entry:
    """One published table in one or more formats, with the command that prints it."""

    title: str
    command: str
    paths: tuple[str, ...]
    profile: str = ""
    shoe: str = ""
    convention: str = ""


@dataclass
class Section:
    """A group of tables of one analysis: what it is, its convention, its files."""

    id: str
    title: str
    description: str
    convention: str
    entries: list[Entry] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    #: Paytable warnings of a profile on its own shoe (``nine tables --strict`` fails on
    #: them); warnings on the other shoes are in the published files only.
    warnings: list[str] = field(default_factory=list)


@dataclass
class Publication:
    """Every file of ``tables/`` (relative path -> bytes) and the sections that made them.

    ``owner`` maps each file to the id of the section that made it (the index files are
    :data:`INDEX_SECTION`'s); ``complete`` says every section was built. ``results`` keeps
    the analyses a later section (the PAR sheets) reuses, under typed keys
    (:mod:`~analyzer.present.tables.results`); it is never written.
    """

    files: dict[str, bytes] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)
    owner: dict[str, str] = field(default_factory=dict)
    complete: bool = False
    results: Results = field(default_factory=Results)
    #: PDF path -> the path of the HTML page it is that page printed: added to ``files`` by
    #: :func:`analyzer.present.tables.printing.settle`, not by the build (printing is slow).
    printed: dict[str, str] = field(default_factory=dict)

    def text(self, path: str) -> str:
        """A text file's contents."""
        return self.files[path].decode("utf-8")


# -- headers ----------------------------------------------------------------------------------
def shoe_slug(decks: int | None) -> str:
    """File-name part for a shoe: ``1-deck``, ``8-decks``, ``infinite``.

    >>> shoe_slug(1), shoe_slug(6), shoe_slug(None)
    ('1-deck', '6-decks', 'infinite')
    """
    if decks is None:
        return "infinite"
    return f"{decks}-deck{'s' if decks != 1 else ''}"


def shoe_label(decks: int | None) -> str:
    """The shoe as the engine describes it: ``8 decks``, ``infinite deck``."""
    if decks is None:
        return "infinite deck"
    return f"{decks} deck{'s' if decks != 1 else ''}"


def shoe_args(decks: int | None) -> list[str]:
    """The ``nine`` options selecting a shoe."""
    return ["--infinite"] if decks is None else ["--decks", str(decks)]


def _meta(kind: str, profile: str, shoe: str, command: str) -> dict[str, str]:
    return {"table": kind, "profile": profile, "shoe": shoe, "analyzer_version": __version__,
            "command": command, "generated_by": GENERATE_COMMAND}


def with_header(content: str, ext: str, kind: str, profile: str, shoe: str,
                command: str, notes: Sequence[str] = ()) -> bytes:
    """A table's text with its provenance: a header for md/csv, a comment after an HTML
    page's doctype, fields for JSON.

    >>> print(with_header("a,b\\n", "csv", "demo", "p", "1 deck", "nine x").decode(), end="")
    # nine-analyzer demo table: profile p, shoe 1 deck, analyzer 0.1.0
    # command: nine x
    # regenerate every table: nine tables --out tables/
    a,b
    """
    if ext == "json":
        document = json.loads(content)
        meta: dict[str, Any] = _meta(kind, profile, shoe, command)
        if notes:
            meta["notes"] = list(notes)
        if isinstance(document, dict):
            merged = {**meta, **{k: v for k, v in document.items() if k not in meta}}
        else:
            merged = {**meta, "data": document}
        return (json.dumps(merged, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    first = f"nine-analyzer {kind} table: profile {profile}, shoe {shoe}, analyzer {__version__}"
    if ext == "html":  # a comment on the line after the doctype
        doctype, _, rest = content.partition("\n")
        comment = " | ".join([first, f"command: {command}",
                              f"regenerate every table: {GENERATE_COMMAND}", *notes])
        comment = comment.replace("-->", "--&gt;").replace("--!>", "--!&gt;")
        return f"{doctype}\n<!-- {comment} -->\n{rest}".encode()
    if ext == "svg":  # a <desc> element after the root element's opening line
        root, _, rest = content.partition("\n")
        desc = " | ".join([first, f"command: {command}",
                           f"regenerate every table: {GENERATE_COMMAND}", *notes])
        return f"{root}\n<desc>{html.escape(desc)}</desc>\n{rest}".encode()
    if ext in ("csv", "txt"):
        lines = [f"# {first}", f"# command: {command}", f"# regenerate every table: "
                 f"{GENERATE_COMMAND}", *(f"# {note}" for note in notes)]
        return ("\n".join(lines) + "\n" + content).encode("utf-8")
    lines = [f"<!-- {first} -->", "",
             f"*Profile* `{profile}` · *shoe* {shoe} · *analyzer* {__version__} · "
             f"*command* `{command}` · *regenerate every table* `{GENERATE_COMMAND}`", "",
             *(f"> {note}\n" for note in notes)]
    return ("\n".join(lines) + "\n" + content.rstrip("\n") + "\n").encode("utf-8")


def command_text(args: Sequence[str], ext: str | None = None) -> str:
    """The command as a reader types it."""
    extra = ["--format", FORMATS[ext]] if ext else []
    return " ".join(["nine", *args, *extra])


# -- the index --------------------------------------------------------------------------------
def render_index(publication: Publication) -> str:
    """``tables/README.md``: what every table is, its convention and command."""
    out = ["# Published odds tables", "",
           "Every file in this folder is generated by `nine tables --out tables/` (`make "
           "tables`) from the shipped profiles, with nine-analyzer "
           f"{__version__}, and checked in CI: `tests/present/test_tables.py` regenerates them and "
           "fails when anything here is stale or missing (`nine tables --out tables/ "
           "--check` does the same from the command line). Nothing is edited by hand. "
           "`.nine-tables-manifest` lists every generated file with its SHA-256: `nine "
           "tables` replaces or removes only the files listed there. [index.html](index.html) is "
           "this index as one web page, with every bet's house edge; `par/` holds a PAR sheet "
           "per profile (HTML to print, Markdown to read here).", "",
           "Each table states its profile, shoe, analyzer version and the single command that "
           "prints it (a header line in Markdown and CSV, the fields `profile`, `shoe`, "
           "`analyzer_version` and `command` in JSON). CSV files start with `#` comment "
           "lines (`pandas.read_csv(path, comment='#')`). Exact values are fractions "
           "(`\"p/q\"` strings in JSON); ways are integers.", "",
           "## Conventions", "",
           "- **Ordered 6-card counts.** Finite-shoe counts are ordered sequences of 6 cards "
           "from the full shoe (the convention of the published \"combinations\" tables, "
           "Wizard of Odds): a coup that ends after 4 or 5 cards is weighted by the ways to "
           "fill the unused positions. For 8 decks the denominator is "
           "416x415x414x413x412x411 = 4,998,398,275,503,360.",
           "- **Two-card counts.** A bet settled on one hand's first two cards has the same "
           "probabilities as the ordered two-card count N(N-1) (any two positions of a "
           "shuffled shoe are exchangeable); where a table states a two-card convention its "
           "ways are over that denominator.",
           "- **Infinite deck.** 13**6 equally likely rank-class sequences (each card "
           "replaced): the limit of many decks, and the model of the classical game-theory "
           "solutions.",
           "- **Illustrative tables** (NINE & NINES) say so in every file: the official "
           "tables are unpublished.", "",
           "## Contents", ""]
    for section in publication.sections:
        anchor = section.id
        state = "" if section.entries else " (not yet available)"
        out.append(f"- [{section.title}](#{anchor}){state}")
    out.append("")
    for section in publication.sections:
        out += [f'<a id="{section.id}"></a>', f"## {section.title}", "", section.description,
                "", f"Convention: {section.convention.rstrip('.')}" + (
                    "" if section.convention.endswith("\n") else "."), ""]
        if section.entries:
            with_convention = any(entry.convention for entry in section.entries)
            extra = " convention |" if with_convention else ""
            out += [f"| table | profile | shoe |{extra} files | command |",
                    "|---|---|---|" + ("---|" if with_convention else "") + "---|---|"]
            for entry in section.entries:
                links = " ".join(f"[{p.rsplit('.', 1)[1]}]({p})" for p in entry.paths)
                cell = f" {entry.convention or '-'} |" if with_convention else ""
                out.append(f"| {entry.title} | `{entry.profile}` | {entry.shoe} |{cell} "
                           f"{links} | `{entry.command}` |")
            out.append("")
        if section.missing:
            out += ["Not yet available:", ""]
            out += [f"- {reason}" for reason in section.missing]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
