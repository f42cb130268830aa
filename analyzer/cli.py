"""The ``nine`` command: parses options, calls one library function, renders the result.

Errors in the input print one line on stderr and exit with status 2 (never a traceback).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from analyzer import __version__
from analyzer.errors import AnalyzerError

F = TypeVar("F", bound=Callable[..., Any])


def friendly(func: F) -> F:
    """Turn AnalyzerError (and unreadable files) into one line on stderr and exit 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AnalyzerError as exc:
            click.echo(f"nine: error: {exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def shoe_options(func: F) -> F:
    """The shoe options shared by every command that reads a shoe."""
    func = click.option("--card-order", type=click.Choice(["rank-first", "suit-first"]),
                        default="rank-first", show_default=True,
                        help="How cards are written: 4S (rank-first) or S4.")(func)
    func = click.option("--shoe", "shoe_file", type=click.Path(dir_okay=False),
                        help="Composition file: lines 'decks N', 'CARD COUNT', 'remove CARDS'.")(
        func)
    func = click.option("--remove", default="", metavar="CARDS",
                        help='Cards taken out of the shoe, e.g. "4S 4H TD".')(func)
    func = click.option("--infinite", is_flag=True, help="The infinite-deck limit.")(func)
    func = click.option("--decks", type=int, default=None,
                        help="Number of 52-card decks [default: the profile's].")(func)
    return func


FORMAT_OPTION = click.option(
    "--format", "fmt", default="text", show_default=True,
    type=click.Choice(["text", "markdown", "csv", "json", "latex", "html"]),
    help="Output format.")


def build_shoe(profile_decks: int, decks: int | None, infinite: bool, remove: str,
               shoe_file: str | None, card_order: str) -> Any:
    """The shoe the options describe; the profile's deck count when none is given."""
    from analyzer.shoe import make_shoe

    if decks is None and not infinite and shoe_file is None:
        decks = profile_decks
    return make_shoe(decks=decks, infinite=infinite, remove=remove, file=shoe_file,
                     order=card_order)  # type: ignore[arg-type]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="nine")
def main() -> None:
    """nine-analyzer: exact odds for the baccarat family of card games."""


@main.command()
@click.option("--profile", default="punto-banco", show_default=True,
              help="Profile name, alias or TOML file.")
@shoe_options
@FORMAT_OPTION
@click.option("--no-distributions", is_flag=True, help="Omit the coup distributions.")
@friendly
def odds(profile: str, decks: int | None, infinite: bool, remove: str, shoe_file: str | None,
         card_order: str, fmt: str, no_distributions: bool) -> None:
    """Exact odds, house edge and paytable of every bet of a profile on one shoe."""
    from analyzer.odds import odds as compute
    from analyzer.profile import load_profile
    from analyzer.report import render_odds

    rules = load_profile(profile)
    shoe = build_shoe(rules.default_decks, decks, infinite, remove, shoe_file, card_order)
    click.echo(render_odds(compute(rules, shoe), fmt, not no_distributions), nl=False)


@main.command()
@FORMAT_OPTION
@friendly
def profiles(fmt: str) -> None:
    """List the shipped rule profiles and their aliases."""
    from analyzer.profile import shipped_profiles
    from analyzer.report import render_profiles

    click.echo(render_profiles(shipped_profiles(), fmt), nl=False)
