"""``nine`` commands that put home Lucky 9 in the players' hands: ``advise`` (the play in one
situation), ``chart`` (printable strategy charts) and ``advisor`` (the offline advisor page).

Kept apart from :mod:`~analyzer.cli.choice` so that ``nine advise`` imports only what one
answer needs (a warm answer in well under a second).
"""

from __future__ import annotations

import click

from analyzer.choice.table.advice import advise_bank, advise_seat
from analyzer.choice.table.chart import table_charts
from analyzer.choice.table.solve import check_players, solve_table
from analyzer.cli.common import (
    build_shoe,
    friendly,
    players_of,
    profile_option,
    table_by,
    table_size_options,
)
from analyzer.errors import AnalyzerError
from analyzer.outputs import refuse_inputs, write_file
from analyzer.present.advisor import advisor_data, render_advisor, strategies_json
from analyzer.present.pdf import PDF_NEEDS, pdf_engine
from analyzer.present.report.chart import CHART_FORMATS, chart_pdf, render_charts
from analyzer.present.report.common import json_text
from analyzer.present.report.lucky9 import render_advice
from analyzer.present.tables.published import published_strategies
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["advise", "advisor", "chart"]


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
    if fmt == "pdf" and pdf_engine() is None:
        raise AnalyzerError(f"--format pdf: {PDF_NEEDS}")
    refuse_inputs([("--out", out)], [profile])
    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    check_players(rules, seats)
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, "", None, "rank-first")
    table = solve_table(rules, shoe, seats, table_by(rules, shoe, by), rules_profile.title)
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
    write_file(out, text)
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
    write_file(out, text)
    click.echo(f"wrote {out}: the advisor for 2 to {players + 1} people")
