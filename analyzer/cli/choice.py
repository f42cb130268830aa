"""``nine`` commands over the choice games (home Lucky 9, chemin de fer): ``solve``,
``evaluate``, ``session``, ``advise`` and ``game``.
"""

from __future__ import annotations

import click

from analyzer.choice.headsup import solver
from analyzer.choice.headsup.game import build_game
from analyzer.choice.play.session import play_session
from analyzer.choice.play.table_log import table_people
from analyzer.choice.strategy import load_strategy, strategy_text
from analyzer.choice.table.advice import advise_bank, advise_seat
from analyzer.choice.table.chart import table_charts
from analyzer.choice.table.solve import check_players, solve_table
from analyzer.choice.table.strategy import evaluate_strategies, table_strategy_text
from analyzer.choice.table.summary import by_size, summarize_table
from analyzer.choice.table.tree import table_tree, to_efg
from analyzer.cli.common import (
    DEALING_DECKS,
    FORMAT_OPTION,
    SEED,
    F,
    build_shoe,
    friendly,
    profile_option,
    shoe_options,
)
from analyzer.errors import AnalyzerError
from analyzer.outputs import refuse_inputs, write_file
from analyzer.present.advisor import advisor_data, render_advisor, strategies_json
from analyzer.present.report.chart import CHART_FORMATS, chart_pdf, render_charts
from analyzer.present.report.choice import (
    render_equilibrium,
    render_evaluation,
    render_session,
    render_strategy_card,
)
from analyzer.present.report.common import json_text
from analyzer.present.report.lucky9 import (
    render_advice,
    render_edges,
    render_table_cards,
    render_table_evaluation,
    render_table_summary,
)
from analyzer.present.tables.published import published_strategies
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["advise", "advisor", "chart", "evaluate", "game", "players_of", "session", "solve",
           "table_size_options"]

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


def _table_by(rules: ChoiceRules, shoe: Shoe, by: str | None) -> str:
    """A table's information model: as asked, else by total at the infinite deck (where a
    holding tells nothing more) and the profile's default at a finite shoe."""
    return by or ("total" if shoe.is_infinite else rules.default_information)


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
        click.echo(render_edges(by_size(rules, shoe, players, _table_by(rules, shoe, by),
                                        rules_profile.title), fmt), nl=False)
        return
    if players >= 2:
        summary = summarize_table(rules, shoe, players, _table_by(rules, shoe, by),
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
        values = evaluate_strategies(rules, shoe, players, _table_by(rules, shoe, by),
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


_ADVICE_FORMAT = click.option("--format", "fmt", default="text", show_default=True,
                              type=click.Choice(["text", "json"]), help="Output format.")


@click.command()
@profile_option("lucky9-home", "A choice-game profile with tables (lucky9-home) or TOML file.")
@table_size_options
@click.option("--seat", type=int, default=None,
              help="Your seat, 1 = the banker's right [default: the next to choose after "
                   "--earlier].")
@click.option("--cards", required=True, metavar="CARDS",
              help='Your two cards, suits optional: "8 7", "87", "T5", "10 5" or "8H 7S".')
@click.option("--naturals", default="", metavar="SEATS",
              help="Seats showing a natural: 2,4 or, at a finite shoe, with their cards: "
                   "2=9K,4=54.")
@click.option("--earlier", default="", metavar="CHOICES",
              help="What the seats before yours did: drew,stood,... (naturals as 'natural', "
                   "or only the live seats).")
@click.option("--banker", "as_banker", is_flag=True,
              help="Advice for the bank: give --choices, every seat's natural or choice.")
@click.option("--choices", default="", metavar="CHOICES",
              help="--banker: every seat's natural, drew or stood, seat 1 first.")
@click.option("--by", type=click.Choice(["total", "cards"]), default=None,
              help="What each side sees of its own hand [default: by total at the infinite "
                   "deck, by cards at a finite shoe].")
@click.option("--decks", type=click.IntRange(1, 8), default=None,
              help="Decks in the shoe [default: the profile's].")
@click.option("--infinite", is_flag=True, help="The infinite deck.")
@click.option("--exact", "show_exact", is_flag=True,
              help="Also print the exact fractions (JSON always has them).")
@_ADVICE_FORMAT
@friendly
def advise(profile: str, people: int | None, players: int | None, seat: int | None,
           cards: str, naturals: str, earlier: str, as_banker: bool, choices: str,
           by: str | None, decks: int | None, infinite: bool, show_exact: bool,
           fmt: str) -> None:
    """The equilibrium's play in one situation and the exact value of each choice.

    For a seat: its cards, the naturals showing and the earlier seats' choices; for the
    bank (--banker): its cards and every seat's natural or choice. Also the best choice
    against opponents playing the house rule (draw on 4 or less).
    """
    seats = players_of(people, players, None)
    people = None if seats is None else seats + 1
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, "", None, "rank-first")
    # the published equilibria (infinite deck, by total), certified again, not solved again
    known = (published_strategies(rules) if shoe.is_infinite and by in (None, "total")
             else None)
    if as_banker:
        if earlier:
            raise AnalyzerError("--banker takes --choices (every seat), not --earlier")
        advice = advise_bank(rules, shoe, cards, choices, people, naturals, by, known)
    else:
        if choices:
            raise AnalyzerError("--choices is for --banker; a seat gives --earlier")
        if people is None:
            raise AnalyzerError("--people: how many people sit at the table, the bank "
                                "included (2 to 9)")
        advice = advise_seat(rules, shoe, people, cards, seat, naturals, earlier, by, known)
    click.echo(render_advice(advice, fmt, show_exact), nl=False)


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


@click.command()
@profile_option("lucky9-home", "A choice-game profile with tables (lucky9-home) or TOML file.")
@table_size_options
@click.option("--seat", type=int, default=None, help="Only this seat's chart (1 = the "
              "bank's right).")
@click.option("--bank", "bank_only", is_flag=True, help="Only the bank's chart.")
@click.option("--decks", type=click.IntRange(1, 8), default=None,
              help="Decks in the shoe [default: the profile's].")
@click.option("--infinite", is_flag=True, help="The infinite deck.")
@click.option("--by", type=click.Choice(["total", "cards"]), default=None,
              help="What each side sees of its own hand [default: by total at the infinite "
                   "deck, the profile's at a finite shoe].")
@click.option("--format", "fmt", type=click.Choice(CHART_FORMATS), default="text",
              show_default=True, help="Output format (pdf needs --out).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the charts here instead of printing them.")
@friendly
def chart(profile: str, people: int | None, players: int | None, seat: int | None,
          bank_only: bool, decks: int | None, infinite: bool, by: str | None, fmt: str,
          out: str | None) -> None:
    """Printable strategy charts of home Lucky 9: a grid per seat and for the bank.

    Rows are your two-card total, columns the situations that change the play (listed under
    the grid); a cell is D (draw), S (stand) or a mixed play "D 55%" with its clock rule in
    the legend. Default: every seat's chart and the bank's, one page each.
    """
    seats = players_of(people, players, None)
    if seats is None:
        raise click.UsageError("Missing option '--people' (everyone at the table, the bank "
                               "included; or --players, the people facing the bank).")
    if seat is not None and bank_only:
        raise click.UsageError("--seat and --bank: give one (or neither, for every chart)")
    if seat is not None and not 1 <= seat <= seats:
        raise AnalyzerError(f"--seat {seat}: a table of {seats + 1} people has seats 1 to "
                            f"{seats}")
    if fmt == "pdf" and out is None:
        raise AnalyzerError("--format pdf writes a file: give --out FILE.pdf")
    refuse_inputs([("--out", out)], [profile])
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    check_players(rules, seats)
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, "", None, "rank-first")
    table = solve_table(rules, shoe, seats, _table_by(rules, shoe, by), rules_profile.title)
    charts = table_charts(table, seat, bank_only)
    if fmt == "pdf":
        data = chart_pdf(charts)
        write_file(str(out), data)
        click.echo(f"wrote {out}: {len(charts)} chart{'s' if len(charts) != 1 else ''}, "
                   f"{len(data):,} bytes")
        return
    text = render_charts(charts, fmt)
    if out is None:
        click.echo(text, nl=False)
        return
    _write(out, text)
    click.echo(f"wrote {out}: {len(charts)} chart{'s' if len(charts) != 1 else ''}")


@click.command()
@profile_option("lucky9-home", "A choice-game profile with tables (lucky9-home) or TOML file.")
@click.option("--people", type=click.IntRange(2, 9), default=None,
              help="The largest table the page answers for (default: the profile's most).")
@click.option("--format", "fmt", type=click.Choice(["html", "json"]), default="html",
              show_default=True, help="The page, or the equilibrium strategies it embeds as "
              "JSON (exact; what nine advise reads instead of solving again).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the page to this file (default: print it).")
def advisor(profile: str, people: int | None, fmt: str, out: str | None) -> None:
    """The offline advisor page of home Lucky 9: pick the table, your seat and cards, read
    the play.

    One self-contained HTML page (no network) embedding the certified equilibria of every
    table of 2 to --people (default: the most the profile seats, 9) at the infinite deck, by
    total: what `nine advise --infinite` answers, for every situation.
    """
    refuse_inputs([("--out", out)], [profile])
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    players = (people or rules.people[1]) - 1
    check_players(rules, players)
    table = solve_table(rules, Shoe.infinite(), players, "total", rules_profile.title)
    data = advisor_data(table)
    text = render_advisor(data) if fmt == "html" else json_text(strategies_json(data))
    if out is None:
        click.echo(text, nl=False)
        return
    _write(out, text)
    click.echo(f"wrote {out}: the advisor for 2 to {players + 1} people")
