"""``nine`` commands over the analyses of :mod:`analyzer.analysis`: ``formula`` (EV as a
function of the number of decks), ``solve-payout`` (a payline's payout for a target edge),
``eor`` (exact effects of removal and linear counts) and ``shoe`` (seeded shoes dealt by the
procedure, EV before every hand, with a progress bar), the last two with an optional PNG plot.
"""

from __future__ import annotations

import click

from analyzer.analysis import payout
from analyzer.analysis.drift import simulate_shoes
from analyzer.analysis.formula import deck_formulas
from analyzer.analysis.removal import removal_effects
from analyzer.cli.common import (
    DEALING_DECKS,
    FORMAT_OPTION,
    SEED,
    build_shoe,
    check_bets,
    friendly,
    profile_option,
    progress_bar,
    shoe_options,
)
from analyzer.errors import AnalyzerError
from analyzer.outputs import refuse_inputs
from analyzer.present.plots import plot_removal, plot_shoe
from analyzer.present.report.analysis import (
    render_formula,
    render_payout,
    render_payout_edges,
    render_removal,
    render_shoe,
)
from analyzer.rules.profile import load_profile

__all__ = ["eor", "formula", "shoe", "solve_payout"]


@click.command()
@profile_option()
@click.option("--bet", "bets", multiple=True, metavar="BET",
              help="Bet id (repeatable) [default: every bet of the profile].")
@FORMAT_OPTION
@friendly
def formula(profile: str, bets: tuple[str, ...], fmt: str) -> None:
    """A bet's EV as an exact rational function of the number of decks d."""
    click.echo(render_formula(deck_formulas(profile, bets), fmt), nl=False)


@click.command("solve-payout")
@profile_option()
@click.option("--bet", "bet_id", required=True, help="Bet id (see nine odds).")
@click.option("--line", "line", required=True,
              help="The payline to solve: its number (1 = first) or its name.")
@click.option("--edge", default=None, help="Target house edge: 0.05, 5% or 1/20.")
@click.option("--payouts", default=None, metavar="LIST",
              help="Instead (or as well), the exact house edge at each of these payouts of "
                   "the line, e.g. 50,55,60 or 8.5.")
@shoe_options
@FORMAT_OPTION
@friendly
def solve_payout(profile: str, bet_id: str, line: str, edge: str | None, payouts: str | None,
                 decks: int | None, infinite: bool, remove: str, shoe_file: str | None,
                 card_order: str, fmt: str) -> None:
    """Exact payout of one line giving a house edge, and the bet's EV in its payouts.

    The neighbouring whole and half payouts follow, each with its exact house edge (the
    nearest below and above marked); --payouts tabulates the payouts you give.
    """
    if edge is None and payouts is None:
        raise AnalyzerError("give --edge (a target house edge) or --payouts (a list)")
    target = payout.parse_edge(edge) if edge is not None else None
    given = payout.parse_payouts(payouts) if payouts is not None else None
    rules = load_profile(profile)
    shoe = build_shoe(rules.default_decks, decks, infinite, remove, shoe_file, card_order)
    if target is not None:
        solution = payout.solve_payout(rules, bet_id, line, target, shoe)
        click.echo(render_payout(solution, fmt), nl=False)
    if given is not None:
        if target is not None and fmt != "json":
            click.echo("")
        click.echo(render_payout_edges(payout.payout_edges(rules, bet_id, line, given, shoe),
                                       fmt), nl=False)


@click.command()
@profile_option()
@click.option("--decks", type=DEALING_DECKS, default=None, help="Decks [default: the profile's].")
@click.option("--samples", type=click.IntRange(0, 100_000), default=2000, show_default=True,
              help="Seeded depleted shoes for the count's correlation with the exact EV "
                   "(0 to 100,000).")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False),
              help="Write a PNG bar chart of the removal effects (needs matplotlib).")
@click.option("--bet", "bets", multiple=True, help="Bets to plot (repeatable) [default: all].")
@FORMAT_OPTION
@friendly
def eor(profile: str, decks: int | None, samples: int, seed: int, plot_file: str | None,
        bets: tuple[str, ...], fmt: str) -> None:
    """Exact effects of removal per card and the best balanced linear count of each bet."""
    refuse_inputs([("--plot", plot_file)], [profile])
    check_bets(profile, bets)
    result = removal_effects(profile, decks, samples, seed)
    click.echo(render_removal(result, fmt), nl=False)
    if plot_file:
        click.echo(f"wrote {plot_removal(result, plot_file, bets)}", err=True)


@click.command()
@profile_option()
@click.option("--decks", type=DEALING_DECKS, default=None, help="Decks [default: the profile's].")
@click.option("--shoes", type=click.IntRange(1, 10_000), default=100, show_default=True,
              help="Shoes to deal (1 to 10,000).")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--every", type=click.IntRange(1, 1_000), default=10, show_default=True,
              help="Show every N-th hand number in the by-hand table.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False),
              help="Write a PNG of EV by hand number with the windows (needs matplotlib).")
@click.option("--bet", "bets", multiple=True, help="Bets to plot (repeatable) [default: all].")
@FORMAT_OPTION
@friendly
def shoe(profile: str, decks: int | None, shoes: int, seed: int, quiet: bool, every: int,
         plot_file: str | None, bets: tuple[str, ...], fmt: str) -> None:
    """Deal shoes by the profile's procedure; exact EV of every bet before every hand."""
    refuse_inputs([("--plot", plot_file)], [profile])
    check_bets(profile, bets)
    with progress_bar("nine shoe", quiet) as on_progress:
        result = simulate_shoes(profile, decks, shoes, seed, on_progress=on_progress)
    click.echo(render_shoe(result, fmt, every), nl=False)
    if plot_file:
        click.echo(f"wrote {plot_shoe(result, plot_file, bets)}", err=True)
