"""What every ``nine`` command shares: one-line errors, the shoe, profile and format options,
the shoe they describe, and the progress bar drawn from a library ``on_progress`` callback.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import click

from analyzer.errors import OUT_OF_MEMORY, AnalyzerError, is_out_of_memory
from analyzer.rules.profile import MAX_DECKS, load_profile
from analyzer.rules.shoe import Shoe, make_shoe

if TYPE_CHECKING:
    from analyzer.rules.choice_rules import ChoiceRules

__all__ = ["build_shoe", "check_bets", "DEALING_DECKS", "EXACT_DECKS", "F", "fail_if_strict",
           "FORMAT_OPTION", "friendly", "probability", "profile_option", "progress_bar", "SEED",
           "players_of", "shoe_options", "STRICT_OPTION", "table_by",
           "table_size_options"]

F = TypeVar("F", bound=Callable[..., Any])

#: Decks of a shoe the exact engine prices (``nine odds`` and friends): the engine is exact at
#: any size, and a profile may name at most this many.
EXACT_DECKS = click.IntRange(1, MAX_DECKS)
#: Decks of a shoe that is dealt card by card (``nine shoe``, ``simulate``, ``session``,
#: ``eor`` samples): every card is held in memory per shoe; casinos use 1 to 12.
DEALING_DECKS = click.IntRange(1, 64)
#: Seeds of Python's random generator, as the commands document them.
SEED = click.IntRange(0, 2**63 - 1)


def probability(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """An option callback: a probability strictly between 0 and 1 (``nan`` refused)."""
    if not math.isfinite(value) or not 0 < value < 1:
        raise click.BadParameter(f"{value!r} is not a probability strictly between 0 and 1")
    return value


def friendly(func: F) -> F:
    """Turn AnalyzerError (and unreadable files) into one line on stderr and exit 2."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except AnalyzerError as exc:
            click.echo(f"nine: error: {exc}", err=True)
            sys.exit(2)
        except OSError as exc:
            if is_out_of_memory(exc):
                click.echo(f"nine: error: {OUT_OF_MEMORY}", err=True)
                sys.exit(2)
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"nine: error: {where}{exc.strerror or exc}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


#: ``--strict``: a paytable warning (:mod:`analyzer.analysis.checks`) exits 2.
STRICT_OPTION = click.option("--strict", is_flag=True,
                             help="Exit 2 if there is any warning (the player's edge, a line "
                                  "that never pays on this shoe, overlapping lines).")


def fail_if_strict(strict: bool, warnings: Sequence[Any]) -> None:
    """With ``--strict``, any warning is an error (one line, exit 2)."""
    if strict and warnings:
        raise AnalyzerError(f"--strict: {len(warnings)} warning{'s' if len(warnings) > 1 else ''}"
                            f", the first: {warnings[0].message}")


def profile_option(default: str = "punto-banco",
                   help_text: str = "Profile name, alias or TOML file.") -> Callable[[F], F]:
    """``--profile``: the rules to analyse (a shipped name or alias, or a TOML file)."""
    return click.option("--profile", default=default, show_default=True, help=help_text)


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
    func = click.option("--decks", type=EXACT_DECKS, default=None,
                        help="Number of 52-card decks [default: the profile's].")(func)
    return func


def table_size_options(func: F) -> F:
    """``--people`` (everyone at the table, the bank included) and ``--players`` (the people
    facing the bank): either names the table size; :func:`players_of` reads them."""
    func = click.option("--players", type=click.IntRange(1, 8), default=None,
                        help="People facing the bank, 1 to 8 (--players N is --people "
                             "N+1).")(func)
    func = click.option("--people", type=click.IntRange(2, 9), default=None,
                        help="People at the table, the bank included (2 to 9).")(func)
    return func


def players_of(people: int | None, players: int | None, default: int | None) -> int | None:
    """The people facing the bank, from ``--people`` or ``--players`` (both: they must
    agree, else a usage error), else ``default``.

    >>> players_of(5, None, 1), players_of(None, 4, 1), players_of(None, None, 1)
    (4, 4, 1)
    """
    if people is not None and players is not None and people != players + 1:
        raise click.UsageError(f"--people {people} and --players {players} disagree: --people "
                               f"counts the bank too (--players {players} is --people "
                               f"{players + 1})")
    if people is not None:
        return people - 1
    return default if players is None else players


def table_by(rules: ChoiceRules, shoe: Shoe, by: str | None) -> str:
    """A table's information model: as asked, else by total at the infinite deck (where a
    holding tells nothing more) and the profile's default at a finite shoe."""
    return by or ("total" if shoe.is_infinite else rules.default_information)


FORMAT_OPTION = click.option(
    "--format", "fmt", default="text", show_default=True,
    type=click.Choice(["text", "markdown", "csv", "json", "latex", "html"]),
    help="Output format.")


def check_bets(profile: str, bets: Sequence[str]) -> None:
    """Every bet named by ``--bet`` exists in the profile (checked before any long work)."""
    rules = load_profile(profile)
    for bet_id in bets:
        rules.bet(bet_id)


def build_shoe(profile_decks: int, decks: int | None, infinite: bool, remove: str,
               shoe_file: str | None, card_order: str) -> Shoe:
    """The shoe the options describe; the profile's deck count when none is given."""
    if decks is None and not infinite and shoe_file is None:
        decks = profile_decks
    return make_shoe(decks=decks, infinite=infinite, remove=remove, file=shoe_file,
                     order=card_order)  # type: ignore[arg-type]


@contextmanager
def progress_bar(label: str, quiet: bool) -> Iterator[Callable[[int, int], None]]:
    """An ``on_progress(done, total)`` callback drawing a bar on stderr (tqdm), only when
    stderr is a terminal and not ``quiet``; the line is finished on leaving the block."""
    from tqdm import tqdm  # imported here: only a long-running command draws a bar

    with tqdm(desc=label, disable=quiet or not sys.stderr.isatty(), file=sys.stderr,
              unit=" hands", dynamic_ncols=True) as bar:

        def update(done: int, total: int) -> None:
            if bar.total != total:
                bar.total = total
            bar.update(done - bar.n)

        yield update
