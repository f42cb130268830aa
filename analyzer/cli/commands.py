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

__all__ = ["build_shoe", "eor", "evaluate", "F", "FORMAT_OPTION", "formula", "friendly", "main",
           "odds", "profiles", "session", "shoe", "shoe_options", "simulate", "solve",
           "solve_payout", "tables", "verify"]

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
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"nine: error: {where}{exc.strerror or exc}", err=True)
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
    from analyzer.rules.shoe import make_shoe

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
    from analyzer.engine.odds import odds as compute
    from analyzer.present.report import render_odds
    from analyzer.rules.profile import load_profile

    rules = load_profile(profile)
    shoe = build_shoe(rules.default_decks, decks, infinite, remove, shoe_file, card_order)
    click.echo(render_odds(compute(rules, shoe), fmt, not no_distributions), nl=False)


@main.command()
@FORMAT_OPTION
@friendly
def profiles(fmt: str) -> None:
    """List the shipped rule profiles and their aliases."""
    from analyzer.present.report import render_profiles
    from analyzer.rules.profile import shipped_profiles

    click.echo(render_profiles(shipped_profiles(), fmt), nl=False)


@main.command()
@click.option("--profile", default="punto-banco", show_default=True,
              help="Profile name, alias or TOML file.")
@click.option("--bet", "bets", multiple=True, metavar="BET",
              help="Bet id (repeatable) [default: every bet of the profile].")
@FORMAT_OPTION
@friendly
def formula(profile: str, bets: tuple[str, ...], fmt: str) -> None:
    """A bet's EV as an exact rational function of the number of decks d."""
    from analyzer.analysis.formula import deck_formulas
    from analyzer.present.report import render_formula

    click.echo(render_formula(deck_formulas(profile, bets), fmt), nl=False)


# -- choice games: nine solve, nine evaluate ---------------------------------------
def _choice_setup(profile: str, players: int, by: str | None, decks: int | None,
                  infinite: bool, remove: str, shoe_file: str | None,
                  card_order: str) -> tuple[Any, Any, Any, str]:
    """Profile, rules, shoe and information model for the choice-game commands."""
    from analyzer.rules.profile import load_profile

    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    if players != 1:
        raise AnalyzerError(f"--players {players}: only the heads-up game (--players 1) is "
                            "solved so far")
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, remove, shoe_file,
                      card_order)
    return rules_profile, rules, shoe, by or rules.default_information


@main.command()
@click.option("--profile", default="lucky9-home", show_default=True,
              help="A choice-game profile (lucky9-home, chemin-de-fer) or TOML file.")
@click.option("--players", type=int, default=1, show_default=True,
              help="People facing the banker (the solver is heads-up: 1).")
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
@click.option("--rounds", type=int, default=4, show_default=True,
              help="--players 2 or more: rounds of best-response dynamics.")
@click.option("--player", "player_start", default="house", show_default=True,
              help="--players 2 or more: every player's starting strategy: a file, 'house' "
                   "or 'equilibrium' (heads-up).")
@click.option("--banker", "banker_start", default="house", show_default=True,
              help="--players 2 or more: the banker's starting strategy: a file, 'house', "
                   "'equilibrium' (heads-up) or 'best-response'.")
@click.option("--seed", type=int, default=1, show_default=True,
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
    from pathlib import Path

    from analyzer.choice.solver import solve as compute
    from analyzer.choice.strategy import strategy_text
    from analyzer.present.report import render_equilibrium, render_strategy_card

    if players >= 2:
        from analyzer.choice.table import table_report
        from analyzer.present.report import render_table_report
        from analyzer.rules.profile import load_profile

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
    result = compute(rules_profile, shoe, information)
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


@main.command()
@click.option("--profile", default="lucky9-home", show_default=True,
              help="A choice-game profile (lucky9-home, chemin-de-fer) or TOML file.")
@click.option("--player", "player_strategy", default="house", show_default=True,
              help="Player strategy file, 'house' (draw 0-4) or 'equilibrium'.")
@click.option("--banker", "banker_strategy", default="house", show_default=True,
              help="Banker strategy file, 'house' (draw 0-4) or 'equilibrium'.")
@click.option("--players", type=int, default=1, show_default=True,
              help="People facing the banker (heads-up: 1).")
@click.option("--by", type=click.Choice(["total", "cards"]), default=None,
              help="What best responses may see of their own hand [default: the profile's].")
@shoe_options
@FORMAT_OPTION
@friendly
def evaluate(profile: str, player_strategy: str, banker_strategy: str, players: int,
             by: str | None, decks: int | None, infinite: bool, remove: str,
             shoe_file: str | None, card_order: str, fmt: str) -> None:
    """Exact value of a strategy pair, each side's best response and exploitability."""
    from analyzer.choice.game import build_game
    from analyzer.choice.solver import evaluate_game, solve_game
    from analyzer.choice.strategy import banker_vector, load_strategy, player_vector
    from analyzer.present.report import render_evaluation

    _, rules, shoe, information = _choice_setup(
        profile, players, by, decks, infinite, remove, shoe_file, card_order)
    game = build_game(rules, shoe, information)
    equilibrium = None
    if "equilibrium" in (player_strategy, banker_strategy):
        equilibrium = solve_game(game)
    x = ([c.draw for c in equilibrium.player] if player_strategy == "equilibrium"
         and equilibrium else player_vector(load_strategy(player_strategy, "player"), game))
    y = ([c.draw for c in equilibrium.banker] if banker_strategy == "equilibrium"
         and equilibrium else banker_vector(load_strategy(banker_strategy, "banker"), game))
    click.echo(render_evaluation(evaluate_game(game, x, y), fmt), nl=False)


@main.command()
@click.option("--out", "out_dir", default="tables/", show_default=True,
              type=click.Path(file_okay=False), help="Folder of the published tables.")
@click.option("--check", is_flag=True,
              help="Compare with the folder instead of writing; exit 1 if stale or missing.")
@click.option("--section", "sections", multiple=True, metavar="NAME",
              help="Only these sections (repeatable): odds, sample-sizes, lucky9, "
                   "chemin-de-fer, removal, formulas, drift.")
@click.option("--jobs", type=int, default=2, show_default=True,
              help="Worker processes building sections in parallel (1: none).")
@friendly
def tables(out_dir: str, check: bool, sections: tuple[str, ...], jobs: int) -> None:
    """Write (or check) the published odds tables and their index tables/README.md."""
    from analyzer.present.tables import SECTIONS, build_tables, compare_tables, write_tables

    publication = build_tables(sections or SECTIONS, jobs=jobs)
    missing = [s.title for s in publication.sections if not s.entries]
    if check:
        problems = compare_tables(publication, out_dir)
        for problem in problems:
            click.echo(problem)
        if problems:
            click.echo(f"nine: {len(problems)} table file(s) differ from {out_dir}; run "
                       f"nine tables --out {out_dir}", err=True)
            sys.exit(1)
        click.echo(f"{out_dir}: {len(publication.files)} files up to date")
        return
    changed, removed = write_tables(publication, out_dir)
    click.echo(f"{out_dir}: {len(publication.files)} files ({changed} written, {removed} "
               f"removed); not yet available: {', '.join(missing) or 'none'}")


@main.command("solve-payout")
@click.option("--profile", default="punto-banco", show_default=True,
              help="Profile name, alias or TOML file.")
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
    from analyzer.analysis.payout import parse_edge
    from analyzer.analysis.payout import solve_payout as solve
    from analyzer.present.report import render_payout
    from analyzer.rules.profile import load_profile

    rules = load_profile(profile)
    shoe = build_shoe(rules.default_decks, decks, infinite, remove, shoe_file, card_order)
    click.echo(render_payout(solve(rules, bet_id, line, parse_edge(edge), shoe), fmt),
               nl=False)


@main.command()
@click.option("--profile", default="punto-banco", show_default=True,
              help="Profile name, alias or TOML file.")
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
    from analyzer.analysis.removal import removal_effects
    from analyzer.present.report import render_removal

    result = removal_effects(profile, decks, samples, seed)
    click.echo(render_removal(result, fmt), nl=False)
    if plot_file:
        from analyzer.present.plots import plot_removal

        click.echo(f"wrote {plot_removal(result, plot_file, bets)}", err=True)


@main.command()
@click.option("--profile", default="punto-banco", show_default=True,
              help="Profile name, alias or TOML file.")
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
    from analyzer.analysis.drift import simulate_shoes
    from analyzer.present.report import render_shoe

    result = simulate_shoes(profile, decks, shoes, seed, quiet)
    click.echo(render_shoe(result, fmt, max(every, 1)), nl=False)
    if plot_file:
        from analyzer.present.plots import plot_shoe

        click.echo(f"wrote {plot_shoe(result, plot_file, bets)}", err=True)


@main.command()
@click.option("--profile", default="lucky9-home", show_default=True,
              help="A choice-game profile with a rotating bank (lucky9-home) or TOML file.")
@click.option("--people", type=int, required=True, help="People at the table, banker included.")
@click.option("--rotations", type=int, required=True,
              help="Rotations of the bank (each is one hand banked by every person).")
@click.option("--seed", type=int, required=True, help="Seed of the shuffles and mixed choices.")
@click.option("--stake", type=int, default=1, show_default=True, help="Counters staked per hand.")
@click.option("--player", "players", multiple=True, metavar="FILE",
              help="Player strategy ('house' or a file): once for everyone or once per person.")
@click.option("--banker", "bankers", multiple=True, metavar="FILE",
              help="Banker strategy ('house' or a file): once for everyone or once per person.")
@click.option("--decks", type=int, default=None, help="Decks [default: the profile's].")
@click.option("--infinite", is_flag=True, help="Deal with replacement (the infinite deck).")
@FORMAT_OPTION
@friendly
def session(profile: str, people: int, rotations: int, seed: int, stake: int,
            players: tuple[str, ...], bankers: tuple[str, ...], decks: int | None,
            infinite: bool, fmt: str) -> None:
    """Play a seeded session with a rotating bank; print the ledger and expected nets."""
    from analyzer.choice.session import people_from_options, play_session
    from analyzer.present.report import render_session
    from analyzer.rules.profile import load_profile

    rules_profile = load_profile(profile)
    rules = rules_profile.choice_rules()
    if rotations < 0:
        raise AnalyzerError("--rotations: must be 0 or more")
    shoe = build_shoe(rules_profile.default_decks, decks, infinite, "", None, "rank-first")
    found = people_from_options(people, players, bankers)
    result = play_session(found, rotations, seed, shoe, rules, stake)
    click.echo(render_session(result, fmt), nl=False)


# -- nine verify / nine simulate -----------------------------------------------------------
def _expand_logs(patterns: tuple[str, ...]) -> list[str]:
    """Files named on the command line, with shell-style globs expanded (sorted)."""
    import glob
    from pathlib import Path

    from analyzer.errors import AnalyzerError

    found: list[str] = []
    for pattern in patterns:
        if Path(pattern).is_file():
            found.append(pattern)
        elif any(ch in pattern for ch in "*?["):
            matches = sorted(p for p in glob.glob(pattern, recursive=True) if Path(p).is_file())
            if not matches:
                raise AnalyzerError(f"{pattern}: no file matches")
            found.extend(matches)
        else:
            raise AnalyzerError(f"{pattern}: no such file")
    return found


@main.command()
@click.argument("logs", nargs=-1, required=True)
@click.option("--profile", default="punto-banco", show_default=True,
              help="Profile name, alias or TOML file.")
@click.option("--decks", type=int, default=None,
              help="Decks per shoe [default: the profile's].")
@click.option("--alpha", type=float, default=0.01, show_default=True,
              help="Family-wise significance level (Holm across all tests).")
@click.option("--detect", type=float, default=0.001, show_default=True,
              help="RTP error the sample must be able to detect (0.001 = 0.1%).")
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "json", "markdown"]), help="Report format.")
@click.option("--junit", type=click.Path(dir_okay=False), default=None,
              help="Also write a JUnit XML report here.")
@click.option("--require-power", is_flag=True,
              help="Exit 4 when a bet's detectable RTP error exceeds --detect.")
@click.option("--jobs", type=int, default=2, show_default=True,
              help="Check files in this many parallel processes.")
@click.option("--model", "model_name", default="auto", show_default=True,
              type=click.Choice(["auto", "independent", "shoe"]),
              help="Null model: each hand from the full shoe, or given its shoe's dealt "
                   "cards (auto: shoe-aware when the log holds whole shoes).")
@click.option("--column", "columns", multiple=True, metavar="FIELD=HEADER",
              help="CSV column holding a field (shoe, hand, player_cards, banker_cards, "
                   "outcome, burn, <bet>_stake, <bet>_returned). Repeatable.")
@click.option("--card-order", type=click.Choice(["rank-first", "suit-first"]),
              default="rank-first", show_default=True, help="Card notation: 9d or d9.")
@click.option("--log-format", default="auto", show_default=True,
              type=click.Choice(["auto", "jsonl", "csv", "tsv", "counts"]),
              help="Log format (auto: from the file name).")
@click.option("--partial-out", type=click.Path(dir_okay=False), default=None,
              help="Also save the merged sums here (JSON); give such files to a later "
                   "nine verify to combine runs made on different machines.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Check the files on a Dask cluster (scheduler address, or 'local' for "
                   "--jobs local workers); needs the optional dask extra.")
@click.option("--rounding", default="down", show_default=True,
              type=click.Choice(["down", "nearest", "either"]),
              help="How a fractional payout (e.g. 5% commission) may be paid in whole minor "
                   "units: down (the house keeps the fraction), nearest (halves up), or "
                   "either neighbouring unit.")
@friendly
def verify(logs: tuple[str, ...], profile: str, decks: int | None, alpha: float,
           detect: float, fmt: str, junit: str | None, require_power: bool, jobs: int,
           model_name: str, columns: tuple[str, ...], card_order: str,
           log_format: str, partial_out: str | None, dask_address: str | None,
           rounding: str) -> None:
    """Replay a simulator's hand log(s) by the profile's rules and test its frequencies.

    LOGS are JSON Lines, CSV/TSV, aggregated-counts JSON or partial results saved with
    --partial-out; globs are expanded. Exit codes: 0 pass, 1 statistical failure, 2 unusable
    input or usage, 3 rule or payout violations, 4 underpowered (only with --require-power).
    """
    from analyzer.dealing.handlog import LogOptions, parse_column_options
    from analyzer.errors import AnalyzerError
    from analyzer.present.report import render_junit, render_verdict
    from analyzer.verify import collect, finish, save_partial

    if jobs < 1:
        raise AnalyzerError(f"--jobs must be at least 1, got {jobs}")
    options = LogOptions(log_format, parse_column_options(columns),
                         card_order, rounding)  # type: ignore[arg-type]
    partial, model = collect(_expand_logs(logs), profile, decks, options, model_name, jobs,
                             dask_address)
    if partial_out:
        save_partial(partial, partial_out)
    verdict = finish(partial, model, alpha, detect, require_power)
    click.echo(render_verdict(verdict, fmt), nl=False)
    if junit:
        try:
            with open(junit, "w", encoding="utf-8") as stream:
                stream.write(render_junit(verdict))
        except OSError as exc:
            raise AnalyzerError(f"{junit}: cannot write JUnit report ({exc.strerror})") from None
    sys.exit(verdict.exit_code)


@main.command()
@click.option("--profile", default="punto-banco", show_default=True,
              help="Profile name, alias or TOML file.")
@click.option("--decks", type=int, default=None, help="Decks per shoe [default: the profile's].")
@click.option("--shoes", type=int, default=1, show_default=True, help="Shoes to deal.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the log here [default: standard output].")
@click.option("--log-format", default=None, type=click.Choice(["jsonl", "csv"]),
              help="Log format [default: from --out's name, else jsonl].")
@click.option("--inject", "faults", multiple=True,
              type=click.Choice(["banker-stands", "natural-draw", "wrong-payout", "commission",
                                 "missing-rank"]),
              help="Break the dealer on purpose (to test a verifier). Repeatable.")
@friendly
def simulate(profile: str, decks: int | None, shoes: int, seed: int, out: str | None,
             log_format: str | None, faults: tuple[str, ...]) -> None:
    """Deal real shoes (shuffle, burn, cut card) and write a hand log with bets and payouts."""
    from analyzer.dealing.simulate import simulate as run
    from analyzer.errors import AnalyzerError

    fmt = log_format or ("csv" if out and out.lower().endswith(".csv") else "jsonl")
    if out is None:
        summary = run(profile, decks, shoes, seed, sys.stdout, fmt, faults)
    else:
        try:
            with open(out, "w", encoding="utf-8", newline="") as stream:
                summary = run(profile, decks, shoes, seed, stream, fmt, faults)
        except OSError as exc:
            raise AnalyzerError(f"{out}: cannot write log ({exc.strerror})") from None
        click.echo(f"{summary.hands:,} hands in {summary.shoes:,} shoes written to {out} "
                   f"(seed {seed})", err=True)
