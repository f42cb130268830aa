"""``nine`` commands over the choice games (home Lucky 9, chemin de fer): ``solve``,
``evaluate``, ``session`` and ``game`` (``advise``, ``chart`` and ``advisor`` are in
:mod:`~analyzer.cli.lucky9`).
"""

from __future__ import annotations

import click

from analyzer.choice.headsup import solver
from analyzer.choice.headsup.game import build_game
from analyzer.choice.play.session import play_session
from analyzer.choice.play.table_log import table_people
from analyzer.choice.strategy import load_strategy, strategy_text
from analyzer.choice.table.strategy import evaluate_strategies, table_strategy_text
from analyzer.choice.table.summary import by_size, summarize_table
from analyzer.choice.table.tree import table_tree, to_efg
from analyzer.cli.common import (
    DEALING_DECKS,
    FORMAT_OPTION,
    SEED,
    build_shoe,
    friendly,
    players_of,
    profile_option,
    shoe_options,
    table_by,
    table_size_options,
)
from analyzer.errors import AnalyzerError
from analyzer.outputs import refuse_inputs, write_file
from analyzer.present.report.choice import (
    render_equilibrium,
    render_evaluation,
    render_session,
    render_strategy_card,
)
from analyzer.present.report.lucky9 import (
    render_edges,
    render_table_cards,
    render_table_evaluation,
    render_table_summary,
)
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["evaluate", "game", "session", "solve"]

#: Most rotations of one session: the ledger of every hand is kept and printed.
MAX_ROTATIONS = 5_000

_CHOICE_PROFILE = "A choice-game profile (lucky9-home, chemin-de-fer) or TOML file."


def _choice_setup(profile: str, by: str | None, decks: int | None,
                  infinite: bool, remove: str, shoe_file: str | None,
                  card_order: str) -> tuple[Profile, ChoiceRules, Shoe, str]:
    """Profile, rules, shoe and information model for the choice-game commands."""
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, remove, shoe_file,
                      card_order)
    return rules_profile, rules, shoe, by or rules.default_information


def _write(path: str | None, text: str) -> None:
    if path:
        write_file(path, text)


@click.command()
@profile_option("lucky9-home", _CHOICE_PROFILE)
@table_size_options
@click.option("--by", type=click.Choice(["total", "cards"]), default=None,
              help="What each side sees of its own hand [default: the profile's; by total at "
                   "the infinite deck with 2 or more players].")
@shoe_options
@FORMAT_OPTION
@click.option("--card", "as_card", is_flag=True,
              help="Print strategy cards (text, markdown or csv): one per seat and the bank's.")
@click.option("--save-player", type=click.Path(dir_okay=False), default=None,
              help="Write the players' equilibrium strategy file here (every seat).")
@click.option("--save-banker", type=click.Path(dir_okay=False), default=None,
              help="Write the banker's equilibrium strategy file here.")
@click.option("--no-costs", is_flag=True,
              help="--players 2 or more: skip the exact costs of the simple rules.")
@click.option("--starts", type=click.IntRange(0, 8), default=0, show_default=True,
              help="--players 2 or more: also solve from this many seeded random CFR+ starts "
                   "and report how the seats' values differ between equilibria.")
@click.option("--by-size", "table_sizes", is_flag=True,
              help="Instead, the bank's edge at every table size from 2 people to "
                   "--players + 1.")
@friendly
def solve(profile: str, people: int | None, players: int | None, by: str | None,
          decks: int | None, infinite: bool, remove: str, shoe_file: str | None,
          card_order: str, fmt: str, as_card: bool,
          save_player: str | None, save_banker: str | None, no_costs: bool, starts: int,
          table_sizes: bool) -> None:
    """Exact certified equilibrium of a choice game, heads-up or a whole table.

    With --people 3 or more (--players 2 or more; home Lucky 9, 3 to 9 people): every seat's
    and the bank's exact value, the certificate, the bank's edge, the exact cost of simple
    rules and strategy cards (--card) for each seat and the bank. Default: 2 people.
    """
    players = players_of(people, players, 1) or 1
    refuse_inputs([("--save-player", save_player), ("--save-banker", save_banker)],
                  [profile, shoe_file])
    rules_profile, rules, shoe, information = _choice_setup(
        profile, by, decks, infinite, remove, shoe_file, card_order)
    if table_sizes:
        click.echo(render_edges(by_size(rules, shoe, players, table_by(rules, shoe, by),
                                        rules_profile.title), fmt), nl=False)
        return
    if players >= 2:
        summary = summarize_table(rules, shoe, players, table_by(rules, shoe, by),
                                  rules_profile.title, costs=not no_costs and not as_card,
                                  starts=starts)
        _write(save_player, table_strategy_text(summary.table, "player"))
        _write(save_banker, table_strategy_text(summary.table, "banker"))
        render = render_table_cards if as_card else render_table_summary
        click.echo(render(summary, fmt), nl=False)
        return
    result = solver.solve(rules_profile, shoe, information)
    status = ("certified equilibrium" if result.certificate.certified else
              f"NOT certified (best-response gap {result.certificate.gap})")
    note = f"{result.title}, {result.shoe}, by {result.by}: {status}"
    for path, side, choices in ((save_player, "player", result.player),
                                (save_banker, "banker", result.banker)):
        _write(path, strategy_text(side, choices, result.by, note))  # type: ignore[arg-type]
    render_heads_up = render_strategy_card if as_card else render_equilibrium
    click.echo(render_heads_up(result, fmt), nl=False)


@click.command()
@profile_option("lucky9-home", _CHOICE_PROFILE)
@click.option("--player", "player_strategy", default="house", show_default=True,
              help="Player strategy file, 'house' (draw 0-4) or 'equilibrium'.")
@click.option("--banker", "banker_strategy", default="house", show_default=True,
              help="Banker strategy file, 'house' (draw 0-4) or 'equilibrium'.")
@table_size_options
@click.option("--by", type=click.Choice(["total", "cards"]), default=None,
              help="What best responses may see of their own hand [default: the profile's].")
@shoe_options
@FORMAT_OPTION
@friendly
def evaluate(profile: str, player_strategy: str, banker_strategy: str, people: int | None,
             players: int | None, by: str | None, decks: int | None, infinite: bool, remove: str,
             shoe_file: str | None, card_order: str, fmt: str) -> None:
    """Exact value of a strategy pair, each side's best response and exploitability.

    With --players 2 or more: the strategy files (every seat plays the player file) at a
    whole table, each side's exact value and what it would gain by deviating alone.
    Default: 2 people.
    """
    players = players_of(people, players, 1) or 1
    _, rules, shoe, information = _choice_setup(
        profile, by, decks, infinite, remove, shoe_file, card_order)
    if players >= 2:
        if "equilibrium" in (player_strategy, banker_strategy):
            raise AnalyzerError("--players 2 or more: give strategy files or 'house'; "
                                "nine solve --save-player/--save-banker writes the "
                                "equilibrium's")
        values = evaluate_strategies(rules, shoe, players, table_by(rules, shoe, by),
                                     load_strategy(player_strategy, "player"),
                                     load_strategy(banker_strategy, "banker"))
        click.echo(render_table_evaluation(values, fmt), nl=False)
        return
    result = solver.evaluate_strategies(build_game(rules, shoe, information), player_strategy,
                                        banker_strategy)
    click.echo(render_evaluation(result, fmt), nl=False)


@click.command()
@profile_option("lucky9-home",
                "A choice-game profile with a rotating bank (lucky9-home) or TOML file.")
@table_size_options
@click.option("--rotations", type=click.IntRange(0, MAX_ROTATIONS), required=True,
              help="Rotations of the bank (each is one hand banked by every person; at most "
                   "5,000: the whole ledger is kept, about 40 KB per rotation).")
@click.option("--seed", type=SEED, required=True, help="Seed of the shuffles and mixed choices.")
@click.option("--stake", type=click.IntRange(1, 10**9), default=1, show_default=True,
              help="Counters staked per hand.")
@click.option("--player", "player_files", multiple=True, metavar="FILE",
              help="Player strategy ('house', 'equilibrium' or a file): once for everyone or "
                   "once per person.")
@click.option("--banker", "banker_files", multiple=True, metavar="FILE",
              help="Banker strategy ('house', 'equilibrium' or a file): once for everyone or "
                   "once per person.")
@click.option("--decks", type=DEALING_DECKS, default=None, help="Decks [default: the profile's].")
@click.option("--infinite", is_flag=True, help="Deal with replacement (the infinite deck).")
@click.option("--exact", "show_exact", is_flag=True,
              help="Also print the exact expected nets as fractions (JSON always has them).")
@FORMAT_OPTION
@friendly
def session(profile: str, people: int | None, players: int | None, rotations: int, seed: int,
            stake: int, player_files: tuple[str, ...], banker_files: tuple[str, ...],
            decks: int | None, infinite: bool, show_exact: bool, fmt: str) -> None:
    """Play a seeded session with a rotating bank; print the ledger and expected nets."""
    seats = players_of(people, players, None)
    if seats is None:
        raise click.UsageError("Missing option '--people' (everyone at the table, the bank "
                               "included; or --players, the people facing the bank).")
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, "", None, "rank-first")
    found = table_people(rules, seats + 1, player_files, banker_files)
    result = play_session(found, rotations, seed, shoe, rules, stake)
    click.echo(render_session(result, fmt, show_exact), nl=False)


@click.command()
@profile_option("lucky9-home", "A choice-game profile with tables (lucky9-home) or TOML file.")
@table_size_options
@click.option("--by", type=click.Choice(["total", "cards"]), default="total",
              show_default=True, help="What each side sees of its own hand.")
@click.option("--decks", type=click.IntRange(1, 8), default=None,
              help="Decks (exact card removal) [default: the infinite deck].")
@click.option("--export", "export", required=True, type=click.Path(dir_okay=False),
              metavar="FILE.efg", help="Write the game tree here in Gambit's .efg format.")
@friendly
def game(profile: str, people: int | None, players: int | None, by: str, decks: int | None,
         export: str) -> None:
    """Write the extensive form (chance, decisions, information sets) for Gambit.

    Exact rational probabilities and payoffs; third cards, which nobody sees before the
    showdown, are folded into the payoffs as exact expectations. Whole-table trees grow as
    10**(people): up to 4 people by total at the infinite deck. Default: 2 people.
    """
    players = players_of(people, players, 1) or 1
    refuse_inputs([("--export", export)], [profile])
    rules = load_profile(profile).choice_rules()
    shoe = Shoe.infinite() if decks is None else Shoe.decks(decks)
    tree = table_tree(rules, shoe, players, by)
    _write(export, to_efg(tree))
    click.echo(f"wrote {export}: {tree.title}, {tree.graph.number_of_nodes():,} nodes, "
               f"players {', '.join(tree.players)}")
