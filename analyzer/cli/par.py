"""``nine par``: write the PAR sheet of each profile (:mod:`analyzer.present.par`; a game of
choices: :mod:`analyzer.present.par_choice`) as a self-contained HTML page and/or Markdown
with its figure, or its PDF."""

from __future__ import annotations

from pathlib import Path

import click

from analyzer.cli.common import STRICT_OPTION, fail_if_strict, friendly
from analyzer.errors import AnalyzerError
from analyzer.outputs import inside, make_folder, refuse_inputs, write_file
from analyzer.present.par_choice import profile_par_sheet
from analyzer.present.pdf import PDF_NEEDS, pdf_engine
from analyzer.present.report.par import par_files

__all__ = ["par"]

#: --format values and the renderer format each names.
PAR_FORMATS = {"html": "html", "md": "markdown", "pdf": "pdf"}


@click.command()
@click.option("--profile", "profiles", multiple=True, required=True, metavar="P",
              help="Profile name, alias or TOML file (repeatable).")
@click.option("--decks", type=int, default=None,
              help="Decks, 1 to 64 [default: each profile's].")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Folder the sheets are written to (created if missing).")
@click.option("--format", "formats", multiple=True, type=click.Choice(list(PAR_FORMATS)),
              help="html (one self-contained, printable page), md (Markdown and its PNG "
                   "figure) or pdf (the page printed: numbered A4 pages, linked contents; "
                   "needs the pdf extra or Chromium); repeatable [default: html and md].")
@STRICT_OPTION
@friendly
def par(profiles: tuple[str, ...], decks: int | None, out_dir: str,
        formats: tuple[str, ...], strict: bool) -> None:
    """PAR sheets: rules, paytable, every outcome, edge, element of risk, SD, win ranges.

    A game of choices (lucky9-home, chemin-de-fer): the certified heads-up equilibrium, its
    value for each side, the player's outcomes under it and both strategy cards.

    A paytable's warnings (the player's edge, a line that never pays on this shoe,
    overlapping lines) are printed and stated in the sheet; --strict makes any warning
    exit 2 before a file is written.
    """
    chosen = [PAR_FORMATS[name] for name in (formats or ("html", "md"))]
    if "pdf" in chosen and pdf_engine() is None:
        raise AnalyzerError(f"--format pdf: {PDF_NEEDS}")
    # every error before writing
    sheets = [profile_par_sheet(profile, decks) for profile in profiles]
    warnings = [w for sheet in sheets for w in getattr(sheet, "warnings", ())]
    for warning in warnings:
        click.echo(f"nine: warning: {warning.message}", err=True)
    fail_if_strict(strict, warnings)
    folder = Path(out_dir)
    # every file named and checked before the first is written
    files = {inside(folder, name): content for sheet in sheets
             for name, content in par_files(sheet, chosen).items()}
    refuse_inputs([("--out", path) for path in files], profiles)
    make_folder(folder)
    for path, content in files.items():
        write_file(path, content)
        click.echo(f"wrote {path}")
