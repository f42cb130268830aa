"""``nine tables``: write or check the published tables (:mod:`analyzer.present.tables`).

The folder is written through its manifest (:mod:`analyzer.present.tables.folder`): only
files a previous run wrote there are replaced or removed.
"""

from __future__ import annotations

import sys

import click

from analyzer.cli.common import friendly
from analyzer.errors import AnalyzerError
from analyzer.outputs import make_folder
from analyzer.present.tables.build import SECTIONS, build_tables
from analyzer.present.tables.folder import check_writable, compare_tables, write_tables
from analyzer.present.tables.printing import settle

__all__ = ["tables"]


@click.command()
@click.option("--out", "out_dir", default="tables/", show_default=True,
              type=click.Path(file_okay=False), help="Folder of the published tables.")
@click.option("--check", is_flag=True,
              help="Compare with the folder (PNG bytes too; a PAR sheet's date aside; its PDF "
                   "printed again and compared by text and page count) instead of writing; "
                   "exit 1 if stale or missing. With --section, only those sections.")
@click.option("--section", "sections", multiple=True, metavar="NAME",
              help="Only these sections (repeatable): odds, sample-sizes, lucky9, "
                   "chemin-de-fer, removal, formulas, drift, par. Other sections' files are kept.")
@click.option("--jobs", type=int, default=2, show_default=True,
              help="Worker processes building sections in parallel (1: none).")
@click.option("--strict", is_flag=True,
              help="Exit 2, writing nothing, if a profile's paytable has a warning on its own "
                   "shoe (the player's edge, a line that never pays, overlapping lines).")
@click.option("--force", is_flag=True,
              help="Replace files of the folder edited by hand since nine tables wrote them "
                   "(refused otherwise).")
@friendly
def tables(out_dir: str, check: bool, sections: tuple[str, ...], jobs: int,
           strict: bool, force: bool) -> None:
    """Write (or check) the published odds tables, PAR sheets and their indexes.

    Only files listed in DIR/.nine-tables-manifest (the files an earlier run wrote) are ever
    replaced or removed; a non-empty folder without one is refused, and so is a listed file
    edited by hand (unless --force). A run interrupted at any point is repaired by the next.
    Paytable warnings of a profile on its own shoe are printed (on the other shoes they are
    in the published files); --strict makes them exit 2.
    """
    if not check:
        # a folder nine tables did not write, or a file edited by hand, fails at once
        check_writable(out_dir, sections or None, force)
        make_folder(out_dir)  # so does an unwritable one
    publication = build_tables(sections or SECTIONS, jobs=jobs)
    missing = [s.title for s in publication.sections if not s.entries]
    warnings = [w for s in publication.sections for w in s.warnings]
    for warning in warnings:
        click.echo(f"nine: warning: {warning}", err=True)
    if strict and warnings:
        raise AnalyzerError(f"--strict: {len(warnings)} paytable warning"
                            f"{'s' if len(warnings) > 1 else ''}, the first: {warnings[0]}")
    # the sheets' dates and PDFs against the folder (a check prints every PDF again)
    settle(publication, out_dir, "print" if check else None)
    if check:
        problems = compare_tables(publication, out_dir)
        for problem in problems:
            click.echo(problem)
        if problems:
            click.echo(f"nine: {len(problems)} table file(s) differ from {out_dir}; run "
                       f"nine tables --out {out_dir}", err=True)
            sys.exit(1)
        click.echo(f"{out_dir}: {len(publication.files)} files up to date")
        return
    changed, removed = write_tables(publication, out_dir, force)
    click.echo(f"{out_dir}: {len(publication.files)} files ({changed} written, {removed} "
               f"removed); not yet available: {', '.join(missing) or 'none'}")
