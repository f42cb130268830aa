"""``nine odds`` (the exact odds of every bet of a profile on one shoe) and ``nine profiles``
(the shipped rule profiles). Each parses its options, calls one library function and renders
the result; this module imports only the exact engine, so ``nine odds`` starts fast.
"""

from __future__ import annotations

import click

from analyzer.analysis.checks import paytable_warnings
from analyzer.cli.common import (
    FORMAT_OPTION,
    STRICT_OPTION,
    build_shoe,
    fail_if_strict,
    friendly,
    profile_option,
    shoe_options,
)
from analyzer.engine import odds as engine
from analyzer.present.report.odds import render_features, render_odds, render_profiles
from analyzer.rules.conditions import glossary
from analyzer.rules.profile import load_profile, profile_text, shipped_profiles

__all__ = ["features", "odds", "profiles"]


@click.command()
@profile_option()
@shoe_options
@FORMAT_OPTION
@click.option("--no-distributions", is_flag=True, help="Omit the coup distributions.")
@STRICT_OPTION
@friendly
def odds(profile: str, decks: int | None, infinite: bool, remove: str, shoe_file: str | None,
         card_order: str, fmt: str, no_distributions: bool, strict: bool) -> None:
    """Exact odds, house edge and paytable of every bet of a profile on one shoe.

    Warnings (the player's edge, a line that never pays on this shoe, lines that overlap)
    come first; --strict makes any warning exit 2.
    """
    rules = load_profile(profile)
    shoe = build_shoe(rules.default_decks, decks, infinite, remove, shoe_file, card_order)
    result = engine.odds(rules, shoe)
    warnings = paytable_warnings(rules, shoe, result)
    click.echo(render_odds(result, fmt, not no_distributions, warnings), nl=False)
    fail_if_strict(strict, warnings)


@click.command()
@FORMAT_OPTION
@click.option("--show", "show", default=None, metavar="PROFILE",
              help="Instead, print this profile (a name, alias or TOML file) as TOML with its "
                   "bases merged: what every command reads.")
@friendly
def profiles(fmt: str, show: str | None) -> None:
    """List the shipped rule profiles and their aliases."""
    if show is not None:
        click.echo(f"# {show}, with its bases merged (nine profiles --show)\n"
                   + profile_text(show), nl=False)
        return
    click.echo(render_profiles(shipped_profiles(), fmt), nl=False)


@click.command()
@FORMAT_OPTION
@friendly
def features(fmt: str) -> None:
    """Every feature a payline condition can read: type, values and meaning."""
    click.echo(render_features(glossary(), fmt), nl=False)
