"""``nine tables``: write or check the published tables (:mod:`analyzer.present.tables`).

The folder is written through its manifest (:mod:`analyzer.present.tables.folder`): only
files a previous run wrote there are replaced or removed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from analyzer.cli.common import friendly
from analyzer.present.tables.build import SECTIONS, build_tables
from analyzer.present.tables.folder import check_writable, compare_tables, write_tables

__all__ = ["tables"]


@click.command()
@click.option("--out", "out_dir", default="tables/", show_default=True,
              type=click.Path(file_okay=False), help="Folder of the published tables.")
@click.option("--check", is_flag=True,
              help="Compare with the folder (PNG bytes too) instead of writing; exit 1 if "
                   "stale or missing. With --section, only those sections.")
@click.option("--section", "sections", multiple=True, metavar="NAME",
              help="Only these sections (repeatable): odds, sample-sizes, lucky9, "
                   "chemin-de-fer, removal, formulas, drift, par. Other sections' files are kept.")
@click.option("--jobs", type=int, default=2, show_default=True,
              help="Worker processes building sections in parallel (1: none).")
@click.option("--force", is_flag=True,
              help="Replace files of the folder edited by hand since nine tables wrote them "
                   "(refused otherwise).")
@friendly
def tables(out_dir: str, check: bool, sections: tuple[str, ...], jobs: int,
           force: bool) -> None:
    """Write (or check) the published odds tables, PAR sheets and their indexes.

    Only files listed in DIR/.nine-tables-manifest (the files an earlier run wrote) are ever
    replaced or removed; a non-empty folder without one is refused, and so is a listed file
    edited by hand (unless --force). A run interrupted at any point is repaired by the next.
    """
    if not check:
        # a folder nine tables did not write, or a file edited by hand, fails at once
        check_writable(out_dir, sections or None, force)
        Path(out_dir).mkdir(parents=True, exist_ok=True)  # so does an unwritable one
    publication = build_tables(sections or SECTIONS, jobs=jobs)
    missing = [s.title for s in publication.sections if not s.entries]
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
