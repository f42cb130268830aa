"""``nine`` commands over the choice games (home Lucky 9, chemin de fer): ``solve``,
``evaluate`` and ``session``.
"""

from __future__ import annotations

from pathlib import Path

import click

from analyzer.choice import solver
from analyzer.choice.game import build_game
from analyzer.choice.session import people_from_options, play_session
from analyzer.choice.strategy import strategy_text
from analyzer.choice.table_report import table_report
from analyzer.cli.common import (
    DEALING_DECKS,
    FORMAT_OPTION,
    SEED,
    build_shoe,
    friendly,
    profile_option,
    shoe_options,
)
from analyzer.errors import AnalyzerError
from analyzer.present.report.choice import (
    render_equilibrium,
    render_evaluation,
    render_session,
    render_strategy_card,
    render_table_report,
)
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["evaluate", "session", "solve"]

#: Most rotations of one session: the ledger of every hand is kept and printed.
MAX_ROTATIONS = 5_000

_CHOICE_PROFILE = "A choice-game profile (lucky9-home, chemin-de-fer) or TOML file."


def _choice_setup(profile: str, players: int, by: str | None, decks: int | None,
                  infinite: bool, remove: str, shoe_file: str | None,
                  card_order: str) -> tuple[Profile, ChoiceRules, Shoe, str]:
    """Profile, rules, shoe and information model for the heads-up commands."""
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    if players != 1:
        raise AnalyzerError(f"--players {players}: only the heads-up game (--players 1) is "
                            "solved so far")
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, remove, shoe_file,
                      card_order)
    return rules_profile, rules, shoe, by or rules.default_information


@click.command()
@profile_option("lucky9-home", _CHOICE_PROFILE)
@click.option("--players", type=click.IntRange(1, 8), default=1, show_default=True,
              help="People facing the banker, 1 to 8 (the solver is heads-up: 1).")
@click.option("--by", type=click.Choice(["total", "cards"]), default=None,
              help="What each side sees of its own hand [default: the profile's].")
@shoe_options
@FORMAT_OPTION
@click.option("--card", "as_card", is_flag=True,
              help="Print table strategy cards (text, markdown or csv) instead.")
@click.option("--save-player", type=click.Path(dir_okay=False), default=None,
              help="Write the player's equilibrium strategy file here.")
@click.option("--save-banker", type=click.Path(dir_okay=False), default=None,
              help="Write the banker's equilibrium strategy file here.")
@click.option("--rounds", type=click.IntRange(1, 1_000), default=4, show_default=True,
              help="--players 2 or more: rounds of best-response dynamics.")
@click.option("--player", "player_start", default="house", show_default=True,
              help="--players 2 or more: every player's starting strategy: a file, 'house' "
                   "or 'equilibrium' (heads-up).")
@click.option("--banker", "banker_start", default="house", show_default=True,
              help="--players 2 or more: the banker's starting strategy: a file, 'house', "
                   "'equilibrium' (heads-up) or 'best-response'.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="--players 3 or more with a finite shoe: simulation seed (estimates).")
@click.option("--own-hand", "own_hand", is_flag=True,
              help="--players 2 or more: dynamics over players' strategies that see their "
                   "own hand only (default: also the earlier seats' choices).")
@friendly
def solve(profile: str, players: int, by: str | None, decks: int | None, infinite: bool,
          remove: str, shoe_file: str | None, card_order: str, fmt: str, as_card: bool,
          save_player: str | None, save_banker: str | None, rounds: int, player_start: str,
          banker_start: str, seed: int, own_hand: bool) -> None:
    """Exact certified equilibrium of a choice game, one player against the bank.

    With --players 2 or more: per-seat values of the starting strategies, the banker's
    best response, and best-response dynamics with each side's exact regret.
    """
    if players >= 2:
        table_profile = load_profile(profile)
        table_rules = table_profile.choice_rules()
        table_shoe = build_shoe(table_profile.default_decks, decks, infinite, remove, shoe_file,
                                card_order)
        report = table_report(table_rules, table_shoe, players,
                              by or table_rules.default_information, rounds,
                              table_profile.title, player_start, banker_start, seed=seed,
                              informed=not own_hand)
        click.echo(render_table_report(report, fmt), nl=False)
        return
    rules_profile, rules, shoe, information = _choice_setup(
        profile, players, by, decks, infinite, remove, shoe_file, card_order)
    result = solver.solve(rules_profile, shoe, information)
    status = ("certified equilibrium" if result.certificate.certified else
              f"NOT certified (best-response gap {result.certificate.gap})")
    note = f"{result.title}, {result.shoe}, by {result.by}: {status}"
    for path, side, choices in ((save_player, "player", result.player),
                                (save_banker, "banker", result.banker)):
        if path:
            Path(path).write_text(strategy_text(side, choices, result.by, note),  # type: ignore[arg-type]
                                  encoding="utf-8")
    render = render_strategy_card if as_card else render_equilibrium
    click.echo(render(result, fmt), nl=False)


@click.command()
@profile_option("lucky9-home", _CHOICE_PROFILE)
@click.option("--player", "player_strategy", default="house", show_default=True,
              help="Player strategy file, 'house' (draw 0-4) or 'equilibrium'.")
@click.option("--banker", "banker_strategy", default="house", show_default=True,
              help="Banker strategy file, 'house' (draw 0-4) or 'equilibrium'.")
@click.option("--players", type=click.IntRange(1, 8), default=1, show_default=True,
              help="People facing the banker, 1 to 8 (heads-up: 1).")
@click.option("--by", type=click.Choice(["total", "cards"]), default=None,
              help="What best responses may see of their own hand [default: the profile's].")
@shoe_options
@FORMAT_OPTION
@friendly
def evaluate(profile: str, player_strategy: str, banker_strategy: str, players: int,
             by: str | None, decks: int | None, infinite: bool, remove: str,
             shoe_file: str | None, card_order: str, fmt: str) -> None:
    """Exact value of a strategy pair, each side's best response and exploitability."""
    _, rules, shoe, information = _choice_setup(
        profile, players, by, decks, infinite, remove, shoe_file, card_order)
    result = solver.evaluate_strategies(build_game(rules, shoe, information), player_strategy,
                                        banker_strategy)
    click.echo(render_evaluation(result, fmt), nl=False)


@click.command()
@profile_option("lucky9-home",
                "A choice-game profile with a rotating bank (lucky9-home) or TOML file.")
@click.option("--people", type=click.IntRange(2, 9), required=True,
              help="People at the table, banker included (2 to 9).")
@click.option("--rotations", type=click.IntRange(0, MAX_ROTATIONS), required=True,
              help="Rotations of the bank (each is one hand banked by every person; at most "
                   "5,000: the whole ledger is kept, about 40 KB per rotation).")
@click.option("--seed", type=SEED, required=True, help="Seed of the shuffles and mixed choices.")
@click.option("--stake", type=click.IntRange(1, 10**9), default=1, show_default=True,
              help="Counters staked per hand.")
@click.option("--player", "players", multiple=True, metavar="FILE",
              help="Player strategy ('house' or a file): once for everyone or once per person.")
@click.option("--banker", "bankers", multiple=True, metavar="FILE",
              help="Banker strategy ('house' or a file): once for everyone or once per person.")
@click.option("--decks", type=DEALING_DECKS, default=None, help="Decks [default: the profile's].")
@click.option("--infinite", is_flag=True, help="Deal with replacement (the infinite deck).")
@FORMAT_OPTION
@friendly
def session(profile: str, people: int, rotations: int, seed: int, stake: int,
            players: tuple[str, ...], bankers: tuple[str, ...], decks: int | None,
            infinite: bool, fmt: str) -> None:
    """Play a seeded session with a rotating bank; print the ledger and expected nets."""
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, "", None, "rank-first")
    found = people_from_options(people, players, bankers)
    result = play_session(found, rotations, seed, shoe, rules, stake)
    click.echo(render_session(result, fmt), nl=False)
