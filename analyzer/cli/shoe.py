"""``nine`` commands over depleted shoes: ``eor`` (exact effects of removal and linear
counts) and ``shoe`` (seeded shoes dealt by the procedure, EV before every hand, with a
progress bar), each with an optional PNG plot.
"""

from __future__ import annotations

import click

from analyzer.analysis.drift import simulate_shoes
from analyzer.analysis.removal import removal_effects
from analyzer.cli.common import FORMAT_OPTION, friendly, profile_option, progress_bar
from analyzer.present.plots import plot_removal, plot_shoe
from analyzer.present.report import render_removal, render_shoe

__all__ = ["eor", "shoe"]


@click.command()
@profile_option()
@click.option("--decks", type=int, default=None, help="Decks [default: the profile's].")
@click.option("--samples", type=int, default=2000, show_default=True,
              help="Seeded depleted shoes for the count's correlation with the exact EV.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False),
              help="Write a PNG bar chart of the removal effects (needs matplotlib).")
@click.option("--bet", "bets", multiple=True, help="Bets to plot (repeatable) [default: all].")
@FORMAT_OPTION
@friendly
def eor(profile: str, decks: int | None, samples: int, seed: int, plot_file: str | None,
        bets: tuple[str, ...], fmt: str) -> None:
    """Exact effects of removal per card and the best balanced linear count of each bet."""
    result = removal_effects(profile, decks, samples, seed)
    click.echo(render_removal(result, fmt), nl=False)
    if plot_file:
        click.echo(f"wrote {plot_removal(result, plot_file, bets)}", err=True)


@click.command()
@profile_option()
@click.option("--decks", type=int, default=None, help="Decks [default: the profile's].")
@click.option("--shoes", type=int, default=100, show_default=True, help="Shoes to deal.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--every", type=int, default=10, show_default=True,
              help="Show every N-th hand number in the by-hand table.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False),
              help="Write a PNG of EV by hand number with the windows (needs matplotlib).")
@click.option("--bet", "bets", multiple=True, help="Bets to plot (repeatable) [default: all].")
@FORMAT_OPTION
@friendly
def shoe(profile: str, decks: int | None, shoes: int, seed: int, quiet: bool, every: int,
         plot_file: str | None, bets: tuple[str, ...], fmt: str) -> None:
    """Deal shoes by the profile's procedure; exact EV of every bet before every hand."""
    with progress_bar("nine shoe", quiet) as on_progress:
        result = simulate_shoes(profile, decks, shoes, seed, on_progress=on_progress)
    click.echo(render_shoe(result, fmt, max(every, 1)), nl=False)
    if plot_file:
        click.echo(f"wrote {plot_shoe(result, plot_file, bets)}", err=True)
