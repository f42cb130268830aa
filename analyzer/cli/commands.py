"""The ``nine`` command group: which module defines each subcommand, imported on first use.

Each command module (:mod:`~analyzer.cli.odds`, :mod:`~analyzer.cli.analysis`,
:mod:`~analyzer.cli.choice`, :mod:`~analyzer.cli.lucky9`, :mod:`~analyzer.cli.verify`,
:mod:`~analyzer.cli.par`, :mod:`~analyzer.cli.tables`) parses its options, calls one library
function and renders the result; it imports the library at its top, so loading only the
module of the command being run keeps ``nine odds`` from importing the solver, the verifier
or scipy, and ``nine --help`` lists the commands from their one-line summaries here without
importing any. Errors in the input print one line on stderr and exit with status 2 (never a
traceback): see :func:`analyzer.cli.common.friendly`.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import click

from analyzer import __version__
from analyzer.errors import OUT_OF_MEMORY, is_out_of_memory
from analyzer.interrupts import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, stop_on_terminate

__all__ = ["COMMANDS", "EXAMPLES", "examples_epilog", "LazyGroup", "main", "run"]

#: Every subcommand of ``nine``: name -> ("module:attribute" of its click command, the first
#: paragraph of its help, for ``nine --help``).
COMMANDS = {
    "odds": ("analyzer.cli.odds:odds",
             "Exact odds, house edge and paytable of every bet of a profile on one shoe."),
    "profiles": ("analyzer.cli.odds:profiles", "List the shipped rule profiles and their aliases."),
    "features": ("analyzer.cli.odds:features",
                 "Every feature a payline condition can read: type, values and meaning."),
    "formula": ("analyzer.cli.analysis:formula",
                "A bet's EV as an exact rational function of the number of decks d."),
    "solve-payout": ("analyzer.cli.analysis:solve_payout",
                     "Exact payout of one line giving a house edge, and the bet's EV in its "
                     "payouts."),
    "eor": ("analyzer.cli.analysis:eor",
            "Exact effects of removal per card and the best balanced linear count of each bet."),
    "shoe": ("analyzer.cli.analysis:shoe",
             "Deal shoes by the profile's procedure; exact EV of every bet before every hand."),
    "solve": ("analyzer.cli.choice:solve",
              "Exact certified equilibrium of a choice game, heads-up or a whole table."),
    "advise": ("analyzer.cli.lucky9:advise",
               "The equilibrium's play in one situation and the exact value of each choice."),
    "advisor": ("analyzer.cli.lucky9:advisor",
                "The offline advisor page of home Lucky 9: pick the table, your seat and "
                "cards, read the play."),
    "chart": ("analyzer.cli.lucky9:chart",
              "Printable strategy charts of home Lucky 9: a grid per seat and for the bank."),
    "game": ("analyzer.cli.choice:game",
             "Write the extensive form (chance, decisions, information sets) for Gambit."),
    "evaluate": ("analyzer.cli.choice:evaluate",
                 "Exact value of a strategy pair, each side's best response and "
                 "exploitability."),
    "session": ("analyzer.cli.choice:session",
                "Play a seeded session with a rotating bank; print the ledger and expected "
                "nets."),
    "verify": ("analyzer.cli.verify:verify",
               "Replay a simulator's hand log(s) by the profile's rules and test its "
               "frequencies."),
    "simulate": ("analyzer.cli.verify:simulate",
                 "Deal real shoes (shuffle, burn, cut card) and write a hand log with bets and "
                 "payouts."),
    "par": ("analyzer.cli.par:par",
            "PAR sheets: rules, paytable, every outcome, edge, element of risk, SD, win "
            "ranges."),
    "certify": ("analyzer.cli.certify:certify",
                "Solve a home Lucky 9 table at one deck exactly; write (or check) its "
                "certificate file."),
    "tables": ("analyzer.cli.tables:tables",
               "Write (or check) the published odds tables, PAR sheets and their indexes."),
}


#: Two examples per command (and for ``nine`` itself), the end of its ``--help``.
EXAMPLES = {
    "nine": ("nine odds --profile punto-banco --decks 8",
             "nine par --profile side-bets --out sheets/ --format pdf"),
    "odds": ("nine odds --profile punto-banco --decks 8",
             "nine odds --profile side-bets --format json"),
    "profiles": ("nine profiles", "nine profiles --show my-side-bet.toml"),
    "features": ("nine features", "nine features --format markdown"),
    "formula": ("nine formula --profile punto-banco --bet banker",
                "nine formula --profile side-bets --bet tie --format latex"),
    "solve-payout": ("nine solve-payout --profile side-bets --bet tie --line 1 --edge 5%",
                     "nine solve-payout --profile side-bets --bet tie --line 1 --payouts 8,9,10"),
    "eor": ("nine eor --profile punto-banco --decks 8",
            "nine eor --profile side-bets --bet perfect-pair --plot eor.png"),
    "shoe": ("nine shoe --profile lucky-baccarat --shoes 200 --seed 7",
             "nine shoe --profile lucky-baccarat --plot shoe.png"),
    "solve": ("nine solve --profile lucky9-home --decks 1",
              "nine solve --profile lucky9-home --players 3 --infinite --by total"),
    "advise": ('nine advise --people 4 --seat 2 --cards "8H 7S"',
               'nine advise --people 2 --cards "5D QC" --format json'),
    "chart": ("nine chart --people 5 --infinite --format html --out lucky9-5.html",
              "nine chart --profile lucky9-bank-ties --people 3 --seat 1 --infinite"),
    "advisor": ("nine advisor --out advisor.html",
                "nine advisor --people 5 --format json"),
    "game": ("nine game --profile lucky9-home --export lucky9.efg",
             "nine game --profile chemin-de-fer --decks 1 --export cdf.efg"),
    "evaluate": ("nine evaluate --profile lucky9-home --player house --banker house",
                 "nine evaluate --profile chemin-de-fer --player house --banker house "
                 "--decks 6"),
    "session": ("nine session --profile lucky9-home --people 4 --rotations 10 --seed 1",
                "nine session --profile lucky9-home --people 3 --rotations 5 --seed 2 "
                "--format json"),
    "verify": ("nine verify hands.jsonl --profile punto-banco",
               "nine verify 'logs/*.csv' --profile punto-banco --junit verify.xml"),
    "simulate": ("nine simulate --profile punto-banco --shoes 10 --seed 1 --out hands.jsonl",
                 "nine simulate --profile punto-banco --shoes 2 --inject wrong-payout "
                 "--out bad.csv"),
    "par": ("nine par --profile punto-banco --out sheets/ --format pdf",
            "nine par --profile my-side-bet.toml --out sheets/"),
    "certify": ("nine certify --people 4 --by cards",
                "nine certify --check lucky9-home-4-people-1-deck-by-cards.json"),
    "tables": ("nine tables --out tables/", "nine tables --out tables/ --check --section par"),
}


def examples_epilog(name: str) -> str:
    """The end of a command's ``--help``: its two examples, one a line."""
    return "Examples:\n\n\b\n" + "\n".join(EXAMPLES[name])


def _import_quietly(module_name: str, freeze: bool) -> Any:
    """Import a command's module with the cyclic garbage collector paused, and with
    ``freeze`` (the ``nine`` program, :func:`run`) the process's objects then frozen.

    An import builds thousands of objects (classes, functions, dataclasses) that live as
    long as the process, none of them garbage: the collector's passes over them during the
    import find nothing (about 10 ms of the 0.16 s ``nine verify`` spends importing), and
    neither do the full collections after it, which :func:`gc.freeze` spares them (30-50 ms
    more of a ``nine verify`` run, measured). A freeze keeps every object then alive for
    good, garbage cycles included: only a process that is the program itself freezes, not
    one that calls :data:`main` among its own work (the tests, a caller's program).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(module_name)
    finally:
        if freeze:
            gc.freeze()
        if collecting:
            gc.enable()


class LazyGroup(click.Group):
    """A click group whose subcommands are imported when first looked up.

    ``lazy`` maps a command name to (``"module:attribute"``, its one-line summary); a
    loaded command is kept in :attr:`commands` like an eagerly added one.
    """

    def __init__(self, *args: Any, lazy: Mapping[str, tuple[str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        #: freeze the objects of the imports (:func:`_import_quietly`): set by :func:`run`
        self.freeze_imports = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, loaded or not."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, importing its module the first time."""
        if cmd_name in self.lazy and cmd_name not in self.commands:
            target = self.lazy[cmd_name][0]
            module_name, attribute = target.split(":")
            command = getattr(_import_quietly(module_name, self.freeze_imports), attribute)
            if not isinstance(command, click.Command):
                raise TypeError(f"{target} is not a click command")
            if cmd_name in EXAMPLES and not command.epilog:
                command.epilog = examples_epilog(cmd_name)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command; every failure is one line on stderr, never a traceback.

        Usage errors (a bad option value, an unknown option) exit 2 like bad input; running
        out of memory or nesting too deep exits 2 naming the limit; any other failure is an
        internal error, exit 70 (``NINE_DEBUG=1`` shows its traceback).
        """
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            with stop_on_terminate():
                code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Abort:
            click.echo("nine: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Terminated:
            click.echo("nine: terminated", err=True)
            sys.exit(EXIT_TERMINATED)
        except click.ClickException as exc:
            where = f"{exc.ctx.command_path}: " if isinstance(exc, click.UsageError) and exc.ctx \
                else "nine: "
            message = " ".join(exc.format_message().split())
            click.echo(f"{where}error: {message}", err=True)
            sys.exit(exc.exit_code)
        except RecursionError:
            click.echo("nine: error: input nested too deeply (see the limits in the README)",
                       err=True)
            sys.exit(2)
        except Exception as exc:
            if is_out_of_memory(exc):  # a MemoryError, or a library not loaded under a limit
                click.echo(f"nine: error: {OUT_OF_MEMORY}", err=True)
                sys.exit(2)
            if os.environ.get("NINE_DEBUG"):
                raise
            click.echo(f"nine: internal error: {type(exc).__name__}: {exc} (NINE_DEBUG=1 shows "
                       "the traceback; please report it)", err=True)
            sys.exit(70)
        sys.exit(code if isinstance(code, int) else 0)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their summaries, as click lists them, importing none."""
        commands = [(name, self.commands.get(name) or click.Command(name, help=self.lazy[name][1]))
                    for name in self.list_commands(ctx)]
        commands = [(name, command) for name, command in commands if not command.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit))
                                    for name, command in commands])


@click.group(cls=LazyGroup, lazy=COMMANDS, epilog=examples_epilog("nine"),
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="nine")
def main() -> None:
    """nine-analyzer: exact odds for the baccarat family of card games."""


def run() -> None:
    """The ``nine`` program (its console script and ``python -m analyzer``): :data:`main`,
    the imported command's objects frozen (see :func:`_import_quietly`)."""
    main.freeze_imports = True
    main()
