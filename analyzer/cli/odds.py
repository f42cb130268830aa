"""``nine`` commands over the exact odds of a fixed-tableau game on one shoe: ``odds``,
``profiles``, ``formula`` and ``solve-payout``. Each parses its options, calls one library
function and renders the result.
"""

from __future__ import annotations

import click

from analyzer.analysis import payout
from analyzer.analysis.formula import deck_formulas
from analyzer.cli.common import FORMAT_OPTION, build_shoe, friendly, profile_option, shoe_options
from analyzer.engine import odds as engine
from analyzer.present.report import render_formula, render_odds, render_payout, render_profiles
from analyzer.rules.profile import load_profile, shipped_profiles

__all__ = ["formula", "odds", "profiles", "solve_payout"]


@click.command()
@profile_option()
@shoe_options
@FORMAT_OPTION
@click.option("--no-distributions", is_flag=True, help="Omit the coup distributions.")
@friendly
def odds(profile: str, decks: int | None, infinite: bool, remove: str, shoe_file: str | None,
         card_order: str, fmt: str, no_distributions: bool) -> None:
    """Exact odds, house edge and paytable of every bet of a profile on one shoe."""
    rules = load_profile(profile)
    shoe = build_shoe(rules.default_decks, decks, infinite, remove, shoe_file, card_order)
    click.echo(render_odds(engine.odds(rules, shoe), fmt, not no_distributions), nl=False)


@click.command()
@FORMAT_OPTION
@friendly
def profiles(fmt: str) -> None:
    """List the shipped rule profiles and their aliases."""
    click.echo(render_profiles(shipped_profiles(), fmt), nl=False)


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
@click.option("--edge", required=True, help="Target house edge: 0.05, 5% or 1/20.")
@shoe_options
@FORMAT_OPTION
@friendly
def solve_payout(profile: str, bet_id: str, line: str, edge: str, decks: int | None,
                 infinite: bool, remove: str, shoe_file: str | None, card_order: str,
                 fmt: str) -> None:
    """Exact payout of one line giving a house edge, and the bet's EV in its payouts."""
    rules = load_profile(profile)
    shoe = build_shoe(rules.default_decks, decks, infinite, remove, shoe_file, card_order)
    solution = payout.solve_payout(rules, bet_id, line, payout.parse_edge(edge), shoe)
    click.echo(render_payout(solution, fmt), nl=False)
