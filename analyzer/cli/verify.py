"""``nine`` commands for testing a simulator: ``verify`` replays hand logs and tests their
frequencies, ``simulate`` deals reference logs (with faults on demand).
"""

from __future__ import annotations

import glob
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, NoReturn

import click

from analyzer.cli.common import friendly, profile_option
from analyzer.dealing import simulate as dealer
from analyzer.dealing.dialects import parse_delimiter, parse_outcome_words
from analyzer.dealing.handlog import LogOptions, parse_column_options
from analyzer.errors import AnalyzerError
from analyzer.inputs import MAX_EXPANSION, MAX_LINES, open_regular
from analyzer.outputs import is_temporary, output_stream, refuse_inputs, write_file
from analyzer.present.report.verify import render_junit, render_verdict
from analyzer.rules.profile import load_profile
from analyzer.verify.inference.statistics import ALPHA
from analyzer.verify.partial import save_partial
from analyzer.verify.run import collect
from analyzer.verify.verdict import Verdict, check_levels, finish, parse_require

__all__ = ["expand_logs", "simulate", "verify"]


def expand_logs(patterns: tuple[str, ...]) -> list[str]:
    """Files named on the command line, with shell-style globs expanded (sorted).

    Whatever a glob matches is read or refused by name: a FIFO, device, socket, dangling
    link or link loop among the matches stops the run (only folders are passed over), and
    so does a temporary file of an interrupted run of nine (``.*.nine-tmp``: cut short).
    """
    found: list[str] = []
    for pattern in patterns:
        if Path(pattern).is_file():
            found.append(pattern)
        elif os.path.lexists(pattern) and not any(ch in pattern for ch in "*?["):
            open_regular(pattern).close()  # a FIFO, a device, a folder, a link loop: named
            found.append(pattern)
        elif any(ch in pattern for ch in "*?["):
            matches = sorted(p for p in glob.glob(pattern, recursive=True)
                             if not Path(p).is_dir())
            if not matches:
                raise AnalyzerError(f"{pattern}: no file matches")
            for match in matches:
                if not Path(match).is_file():
                    open_regular(match).close()  # named: FIFO, device, dangling link...
            found.extend(matches)
        else:
            raise AnalyzerError(f"{pattern}: no such file")
    for path in found:
        if is_temporary(Path(path).name):
            raise AnalyzerError(f"{path}: a temporary file of an interrupted nine run (it "
                                "may be cut short): not read; remove it")
    return found


@click.command()
@click.argument("logs", nargs=-1, required=True)
@profile_option()
@click.option("--decks", type=int, default=None,
              help="Decks per shoe [default: the profile's].")
@click.option("--alpha", type=float, default=ALPHA, show_default=True,
              help="Family-wise significance level (Holm across all tests).")
@click.option("--detect", type=float, default=0.001, show_default=True,
              help="RTP error the sample must be able to detect (0.001 = 0.1%).")
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "json", "markdown"]), help="Report format.")
@click.option("--junit", type=click.Path(dir_okay=False), default=None,
              help="Also write a JUnit XML report here.")
@click.option("--require", "require", multiple=True, metavar="CHECKS",
              help="Exit 4 when one of these checks could not run (comma-separated, "
                   "repeatable): payouts, outcomes, cards, shoes, shuffle, burn, decks, "
                   "power (every bet's detectable RTP error within --detect).")
@click.option("--require-power", is_flag=True, help="The same as --require power.")
@click.option("--jobs", type=int, default=2, show_default=True,
              help="Check files in this many parallel processes.")
@click.option("--model", "model_name", default="auto", show_default=True,
              type=click.Choice(["auto", "independent", "shoe"]),
              help="Null model: each hand from the full shoe, or given its shoe's dealt "
                   "cards (auto: shoe-aware when the log holds whole shoes).")
@click.option("--column", "columns", multiple=True, metavar="FIELD=HEADER",
              help="CSV column holding a field (shoe, hand, player_cards, banker_cards, "
                   "outcome, burn, <bet>_stake, <bet>_returned, <bet>_profit; one bet a "
                   "row: bet_on, stake, returned, profit); a card field may name several "
                   "columns, one card each (player_cards=pcard1,pcard2,pcard3). "
                   "Repeatable.")
@click.option("--card-order", type=click.Choice(["rank-first", "suit-first"]),
              default="rank-first", show_default=True, help="Card notation: 9d or d9.")
@click.option("--cards", "cards", type=click.Choice(["auto", "cards", "values", "ranks"]),
              default="auto", show_default=True,
              help="What the card fields hold: cards (9d, d9, K♠, 'Ace of Spades'), point "
                   "values only (9, 0), ranks only (1-13; 0 or empty: no card), or auto "
                   "(told from each log's first hands: 10-13 are ranks).")
@click.option("--delimiter", default=None, metavar="SEP",
              help="CSV separator: , ; tab or | [default: told from the header line].")
@click.option("--outcome-words", default=None, metavar="banker=X,player=Y,tie=Z",
              help="Outcome words of your own, besides the English, Chinese, Spanish, "
                   "French, Portuguese and Filipino ones read already.")
@click.option("--log-format", default="auto", show_default=True,
              type=click.Choice(["auto", "jsonl", "csv", "tsv", "counts", "beads",
                                 "bead-csv"]),
              help="Log format (auto: from the file name and first lines; beads: outcomes "
                   "only, one or one string per line).")
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
@click.option("--player", "player_strategy", default=None, metavar="FILE",
              help="A game of choices: the players' strategy file (or house) to test their "
                   "choices against.")
@click.option("--banker", "banker_strategy", default=None, metavar="FILE",
              help="A game of choices: the bank's strategy file (or house).")
@click.option("--max-lines", type=click.IntRange(1), default=None, metavar="N",
              help=f"Most lines of one log [default: {MAX_LINES:,}].")
@click.option("--max-expansion", type=click.IntRange(1), default=None, metavar="R",
              help=f"Most a gzip log may expand, as a multiple of its size "
                   f"[default: {MAX_EXPANSION}].")
@friendly
def verify(logs: tuple[str, ...], profile: str, decks: int | None, alpha: float,
           detect: float, fmt: str, junit: str | None, require: tuple[str, ...],
           require_power: bool, jobs: int,
           model_name: str, columns: tuple[str, ...], card_order: str, cards: str,
           delimiter: str | None, outcome_words: str | None, log_format: str,
           partial_out: str | None, dask_address: str | None,
           rounding: str, player_strategy: str | None, banker_strategy: str | None,
           max_lines: int | None, max_expansion: int | None) -> None:
    """Replay a simulator's hand log(s) by the profile's rules and test its frequencies.

    LOGS are JSON Lines, CSV/TSV, aggregated-counts JSON or partial results saved with
    --partial-out; globs are expanded. Exit codes: 0 pass, 1 statistical failure, 2 unusable
    input or usage, 3 rule or payout violations, 4 not enough to conclude (only with
    --require: a required check could not run, or a bet is underpowered). The report lists
    every check that could not run, and every column used or ignored.
    """
    started = time.time()
    required = parse_require(require + (("power",) if require_power else ()))
    if jobs < 1:
        raise AnalyzerError(f"--jobs must be at least 1, got {jobs}")
    # the input layer's bounds, for this process and the workers it starts
    for variable, value in (("NINE_MAX_LINES", max_lines), ("NINE_MAX_EXPANSION",
                                                            max_expansion)):
        if value is not None:
            os.environ[variable] = str(value)
    check_levels(alpha, detect)
    files = expand_logs(logs)
    refuse_inputs([("--junit", junit), ("--partial-out", partial_out)],
                  [*files, profile, player_strategy, banker_strategy])
    rules = load_profile(profile)
    if rules.tableau is None:  # a game of choices: its own replay and tests
        if partial_out or dask_address:
            raise AnalyzerError("--partial-out/--dask: a game of choices is verified in one "
                                "process, without partial results")
        # imported here: the solver's modules (networkx, scipy.optimize) cost ~0.4 s
        from analyzer.verify.table import verify_table_logs

        verdict = verify_table_logs(files, rules, decks, player_strategy,
                                    banker_strategy, alpha)
        _report(verdict, fmt, junit, started)
    if player_strategy is not None or banker_strategy is not None:
        raise AnalyzerError(f"--player/--banker: profile {rules.name!r} has a fixed tableau "
                            "(no choices to test)")
    options = LogOptions(log_format, parse_column_options(columns),
                         card_order, rounding, cards,  # type: ignore[arg-type]
                         delimiter=parse_delimiter(delimiter),
                         outcome_words=parse_outcome_words(outcome_words))
    partial, model = collect(files, profile, decks, options, model_name, jobs,
                             dask_address)
    if partial_out:
        save_partial(partial, partial_out)
    _report(finish(partial, model, alpha, detect, "power" in required, required), fmt, junit,
            started)


def _report(verdict: Verdict, fmt: str, junit: str | None, started: float) -> NoReturn:
    """Print the verdict (and the JUnit report, timed from ``started``) and exit with its
    code."""
    click.echo(render_verdict(verdict, fmt), nl=False)
    if junit:
        stamp = datetime.fromtimestamp(started, UTC).isoformat(timespec="seconds")
        write_file(junit, render_junit(verdict, time.time() - started, stamp))
    sys.exit(verdict.exit_code)


@click.command()
@profile_option()
@click.option("--decks", type=int, default=None, help="Decks per shoe [default: the profile's].")
@click.option("--shoes", type=int, default=1, show_default=True, help="Shoes to deal.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the log here [default: standard output].")
@click.option("--log-format", default=None, type=click.Choice(["jsonl", "csv"]),
              help="Log format [default: from --out's name, else jsonl].")
@click.option("--inject", "faults", multiple=True,
              type=click.Choice(list(dealer.FAULTS)),
              help="Break the dealer on purpose (to test a verifier). Repeatable.")
@click.option("--people", type=click.IntRange(2, 9), default=None,
              help="A game of choices: people at the table, the bank rotating (each shoe "
                   "deals one hand).")
@click.option("--player", "players", multiple=True, metavar="FILE",
              help="A game of choices: a player strategy file (house, or equilibrium: home "
                   "Lucky 9's), once for everyone or once per person.")
@click.option("--banker", "bankers", multiple=True, metavar="FILE",
              help="A game of choices: a bank strategy file (house, or equilibrium), once "
                   "for everyone or once per person.")
@friendly
def simulate(profile: str, decks: int | None, shoes: int, seed: int, out: str | None,
             log_format: str | None, faults: tuple[str, ...], people: int | None,
             players: tuple[str, ...], bankers: tuple[str, ...]) -> None:
    """Deal real shoes (shuffle, burn, cut card) and write a hand log with bets and payouts."""
    fmt = log_format or ("csv" if out and out.lower().endswith(".csv") else "jsonl")
    refuse_inputs([("--out", out)], [profile, *players, *bankers])
    rules = load_profile(profile)
    if rules.tableau is None:
        if faults:
            raise AnalyzerError("--inject: the faults break a fixed tableau's dealer")
        from analyzer.choice.play.table_log import deal_table, table_people

        table = table_people(rules.choice_rules(), people or rules.choice_rules().people[0],
                             players, bankers)
        if fmt != "jsonl":
            raise AnalyzerError("a game of choices is logged as JSON Lines (--log-format jsonl)")

        def deal(stream: IO[str]) -> str:
            result = deal_table(rules, table, shoes, seed, stream, decks)
            return f"{result.hands:,} hands at a table of {len(result.people)}"
    else:
        if people is not None or players or bankers:
            raise AnalyzerError(f"--people/--player/--banker: profile {rules.name!r} has a "
                                "fixed tableau (no choices)")

        def deal(stream: IO[str]) -> str:
            summary = dealer.simulate(rules, decks, shoes, seed, stream, fmt, faults)
            return f"{summary.hands:,} hands in {summary.shoes:,} shoes"
    if out is None:
        deal(sys.stdout)
    else:
        with output_stream(out, newline="") as stream:  # the log appears whole, or not
            dealt = deal(stream)
        click.echo(f"{dealt} written to {out} (seed {seed})", err=True)
