"""``nine certify``: solve a home Lucky 9 table at one deck with exact card removal and write
its certificate file, or check certificate files again
(:mod:`analyzer.choice.table.stored.certificate`). Tables of :data:`WIDE_PEOPLE` or more people
get the best play found and its exact epsilon (:mod:`analyzer.choice.table.dealt.wide`), their
subgames spread over processes (``--jobs``) or a Dask cluster (``--dask``); from
:data:`FLOAT_PEOPLE` people the largest subgames are evaluated in floats with a rigorous
rounding bound (``--float-from``, :mod:`analyzer.choice.table.dealt.rounding`): the file then
says "epsilon at most X", never exact or certified."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import click

from analyzer.choice.table.dealt.rounding import upward
from analyzer.choice.table.dealt.wide import (
    FLOAT_FROM,
    FLOAT_METHOD,
    FLOAT_PEOPLE,
    TOLERANCE,
    WIDE_PEOPLE,
    wide_table,
)
from analyzer.choice.table.solve import TableEquilibrium, check_players, solve_table
from analyzer.choice.table.stored.algebraic import close_profile
from analyzer.choice.table.stored.certificate import (
    KIND,
    certificate_path,
    certificate_text,
    check_certificate,
    read_certificate,
    shipped_certificates,
    warm_starts,
)
from analyzer.choice.table.stored.progress import WorkFolder
from analyzer.cli.common import friendly, profile_option
from analyzer.errors import AnalyzerError
from analyzer.inputs import peek_text
from analyzer.outputs import make_folder, write_file
from analyzer.present.certificates import irrational_status, render_certificates
from analyzer.processes import Apply, task_mapper
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["certify", "INFINITE_PLAY"]

#: How a table closed with one irrational subgame says so in its ``method``.
CLOSED_METHOD = ("; the one subgame not certified in fractions ({subgame}) closed exactly: its "
                 "support's indifference equations solved by a lex Groebner basis over QQ, "
                 "every side's regret there exactly 0 in QQ(alpha) (the algebraic block; the "
                 "subgames hold its unknowns as rational approximations)")
#: The same, evaluated in floats with a rounding bound (8 people).
INFINITE_PLAY_FLOAT = ("the infinite deck's certified equilibrium by total, each holding played "
                       "as its total, evaluated at one deck (an epsilon-certificate: not an "
                       "equilibrium there)")
#: How an epsilon-certificate's strategies were found.
INFINITE_PLAY = ("the infinite deck's certified equilibrium by total, each holding played as "
                 "its total, evaluated exactly at one deck (an epsilon-certificate: not an "
                 "equilibrium there)")


def _refuse_foreign(path: Path) -> None:
    """A command never overwrites a file it did not write: an existing file must be a
    certificate."""
    if path.exists() and f'"kind": "{KIND}"' not in peek_text(path):
        raise AnalyzerError(f"{path}: exists and is not a certificate; not overwritten")


def _better_kept(path: Path, rules: ChoiceRules, shoe: Shoe, people: int, by: str,
                 regret: Fraction, exact: bool) -> str:
    """Why the certificate already at ``path`` stays (certified, or an epsilon -- plus its
    rounding bound when evaluated in floats -- not larger than ``regret``, this run's
    epsilon or bound on it), or "" when the new one replaces it."""
    if (regret == 0 and exact) or not path.is_file():
        return ""
    old = read_certificate(path, rules, shoe, people, by)
    if old.certified:
        return "it is certified; this solve is not"
    if old.epsilon_at_most <= regret:
        return f"its epsilon (at most {float(old.epsilon_at_most):.3e}) is not larger"
    return ""


def _step(text: str | None, iterations_given: bool, infinite_play: bool) -> Fraction | None:
    """``--bank-reply``'s step as a fraction in (0, 1], refused beside the options it
    replaces."""
    if text is None:
        return None
    try:
        step = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise AnalyzerError(f"--bank-reply {text}: not a fraction (e.g. 3/4)") from None
    if not 0 < step <= 1:
        raise AnalyzerError(f"--bank-reply {text}: a step above 0 and at most 1")
    if iterations_given or infinite_play:
        raise AnalyzerError("--bank-reply replaces CFR+: give it without "
                            f"{'--infinite-play' if infinite_play else '--iterations'}")
    return step


def _float_from(asked: int | None, people: int, wide: bool) -> int | None:
    """The live seats from which a run evaluates subgames in floats (None: all exactly)."""
    if asked is None:
        return FLOAT_FROM if wide and people >= FLOAT_PEOPLE else None
    if asked and not wide:
        raise AnalyzerError(f"--float-from: {people} people are solved exactly (floats only "
                            f"for {WIDE_PEOPLE}+ people or --infinite-play)")
    return asked or None


@click.command()
@profile_option("lucky9-home", "A choice-game profile with tables (lucky9-home) or TOML file.")
@click.option("--people", "sizes", type=click.IntRange(3, 9), multiple=True,
              help="Table size, the bank included (repeatable).")
@click.option("--by", "models", type=click.Choice(["cards", "total"]), multiple=True,
              help="Information model (repeatable) [default: cards and total].")
@click.option("--out", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Folder of the certificates [default: the shipped ones, in the package].")
@click.option("--check", "checks", multiple=True, type=click.Path(dir_okay=False),
              help="Instead, check this certificate file again exactly (repeatable).")
@click.option("--infinite-play", is_flag=True,
              help="Instead of solving, write the epsilon-certificate of the infinite deck's "
                   "equilibrium played at one deck (its exact values and largest exact regret "
                   "there; seconds at 5 people).")
@click.option("--iterations", default=40, show_default=True, type=click.IntRange(0, 100000),
              help=f"{WIDE_PEOPLE}+ people: most warm-started CFR+ iterations per subgame "
                   "(0: the infinite deck's play evaluated as it is).")
@click.option("--tolerance", default=TOLERANCE, show_default=True, type=click.FloatRange(0, 1),
              help=f"{WIDE_PEOPLE}+ people: a subgame's improvement stops at this float regret.")
@click.option("--float-from", "float_from", default=None, type=click.IntRange(0, 8),
              help=f"Evaluate the subgames of this many live seats or more in floats with a "
                   f"rounding bound, the others exactly (0: all exactly) [default: "
                   f"{FLOAT_FROM} from {FLOAT_PEOPLE} people, else 0]; with --check, check "
                   "an exact file that way (its figures within the bound).")
@click.option("--improve-live", "improve_live", default=None, type=click.IntRange(1, 8),
              help="Improve only the subgames of at most this many live seats; the others "
                   "are evaluated as the infinite deck's play [default: all].")
@click.option("--bank-reply", "bank_reply", default=None, metavar="STEP",
              help=f"{WIDE_PEOPLE}+ people: instead of CFR+, move the bank's play this "
                   "fraction of the way (e.g. 3/4) to its best reply in each subgame, the "
                   "seats' play kept: one pass, for tables too large for CFR+ (its epsilon "
                   "is computed as ever; the bank's regret shrinks by 1 - STEP, the seats' "
                   "may grow).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Subgames evaluated in this many processes at once.")
@click.option("--dask", default=None, metavar="local|ADDRESS",
              help="Subgames evaluated on a Dask cluster: 'local' (--jobs single-threaded "
                   "workers) or a scheduler's address (needs the dask extra).")
@click.option("--list", "listing", is_flag=True,
              help="Instead, list the shipped certificates (as their files state them).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]),
              default="text", show_default=True, help="Format of --list.")
@friendly
def certify(profile: str, sizes: tuple[int, ...], models: tuple[str, ...],
            out_dir: str | None, checks: tuple[str, ...], infinite_play: bool,
            iterations: int, tolerance: float, float_from: int | None,
            improve_live: int | None, bank_reply: str | None, jobs: int, dask: str | None,
            listing: bool, fmt: str) -> None:
    """Solve a home Lucky 9 table at one deck exactly; write (or check) its certificate file.

    Up to 5 people each table is solved subgame by subgame (CFR+ over the removed-card
    compositions, closed by the indifference equations); from 6 people the infinite deck's
    play is improved subgame by subgame (warm-started CFR+ in floats, rounded) and not
    claimed an equilibrium. Either way every side's exact regret is computed at one deck:
    the file gives the strategies, the values, the largest regret (0: certified, else the
    epsilon) and the SHA-256 of the profile. From 8 people the largest subgames are
    evaluated in floats with a rigorous rounding bound instead (the file says "epsilon at
    most", never certified). Minutes per table; --check re-derives a file's figures (with
    --jobs/--dask: subgame by subgame in parallel).
    """
    rules = load_profile(profile).choice_rules()
    shoe = Shoe.decks(1)
    if listing:
        click.echo(render_certificates(shipped_certificates(rules, shoe), fmt), nl=False)
        return
    if checks:
        for name in checks:
            found = read_certificate(name, rules, shoe, None, None)
            begin = time.perf_counter()
            with _apply(dask, jobs) as apply:
                table = check_certificate(found, rules, apply, float_from or 0)
            status = _status(table, found.algebraic.describe() if found.algebraic else "")
            if table.rounding is not None and found.rounding is None:
                status += " (the file's exact figures lie within that bound; checked in floats)"
            click.echo(f"{name}: PASS, {found.people} people, 1 deck, by {found.by}: {status}, "
                       f"checked again in {time.perf_counter() - begin:.1f} s")
        return
    if not sizes:
        raise AnalyzerError("--people: which table sizes to certify (3 to 9)")
    iterations_given = click.get_current_context().get_parameter_source(
        "iterations") is not click.core.ParameterSource.DEFAULT
    step = _step(bank_reply, iterations_given, infinite_play)
    if step is not None and min(sizes) < WIDE_PEOPLE:
        raise AnalyzerError(f"--bank-reply: {min(sizes)} people are solved exactly (a "
                            f"best-reply pass only for {WIDE_PEOPLE}+ people)")
    folder = Path(out_dir) if out_dir else None
    if folder is not None:
        make_folder(folder)
    for people in sizes:
        check_players(rules, people - 1)
        for by in models or ("cards", "total"):
            path = (certificate_path(rules.name, people, shoe, by, folder) if folder
                    else certificate_path(rules.name, people, shoe, by))
            _refuse_foreign(path)
            begin = time.perf_counter()
            # 6+ people with no iterations: the infinite deck's play as it is
            given = infinite_play or (people >= WIDE_PEOPLE and iterations == 0
                                      and step is None)
            wide = people >= WIDE_PEOPLE and not given
            floats = _float_from(float_from, people, wide or given)
            work = WorkFolder(path.with_name(f"{path.stem}.work")).open() if wide else None
            if given or wide:
                with _apply(dask, jobs) as apply:
                    table = wide_table(rules, shoe, people - 1, by,
                                       iterations=iterations if wide else 0, apply=apply,
                                       tolerance=tolerance, progress=work, float_from=floats,
                                       improve_live=improve_live if wide else None,
                                       bank_step=step)
            else:
                table = solve_table(rules, shoe, people - 1, by, dealt=True,
                                    starts=warm_starts(rules, shoe, people, by, folder))
            # one subgame not certified in fractions: its equilibrium may be irrational,
            # closed exactly in a number field (the file then carries the algebraic block)
            closing = None if (given or wide) else close_profile(rules, shoe, table)
            block = None
            irrational = ""
            solved_method = table.method
            if closing is not None:
                table, block, irrational = closing
            seconds = time.perf_counter() - begin
            resumed = ""
            if work is not None and work.reused:
                earlier = sum(o.seconds for o in work.reused)
                seconds += earlier
                resumed = (f" ({len(work.reused)} of {len(table.subgames)} subgames finished "
                           f"by an earlier run, {earlier:.0f} s of theirs counted)")
            cfr = f" --iterations {iterations} --tolerance {tolerance:g}"
            command = (f"nine certify --people {people} --by {by}"
                       f"{' --infinite-play' if given else ''}"
                       f"{f' --bank-reply {step}' if wide and step else ''}"
                       f"{cfr if wide and not step else ''}"
                       f"{f' --improve-live {improve_live}' if wide and improve_live else ''}"
                       f"{f' --float-from {floats}' if floats else ''}")
            status = _status(table, irrational)
            how = ("solved" if not (wide or given) else
                   ("improved and " if wide else "")
                   + ("evaluated exactly" if floats is None else
                      f"evaluated in floats from {floats} live seats (exactly below)"))
            done = (f"{people} people, 1 deck, by {by}: {status}, {how} in {seconds:.0f} s"
                    f"{resumed}")
            bound = table.rounding.max_regret if table.rounding else Fraction(0)
            regret = Fraction(0) if block is not None else table.values.max_regret
            kept = _better_kept(path, rules, shoe, people, by, regret + bound,
                                table.rounding is None)
            if kept:
                click.echo(f"{path}: kept ({kept}); {done}")
            else:
                method = ("" if not given else INFINITE_PLAY if floats is None else
                          INFINITE_PLAY_FLOAT + FLOAT_METHOD.format(live=floats))
                if block is not None:
                    method = solved_method + CLOSED_METHOD.format(subgame=irrational)
                write_file(path, certificate_text(table, rules, seconds, command, method,
                                                  floats or 0, block))
                click.echo(f"{path}: {done}")
            if work is not None and not work.clear():
                click.echo(f"{work.path}: left in place (it holds files this command did not "
                           "write)")


def _status(table: TableEquilibrium, irrational: str = "") -> str:
    """A table's certificate status in words: certified (``irrational``: through its
    algebraic block, already checked), an exact epsilon, or a float epsilon with its
    rounding bound."""
    if irrational:
        return irrational_status(irrational)
    regret = table.values.max_regret
    if table.rounding is not None:
        bound = table.rounding.max_regret
        return (f"NOT certified, evaluated in floats: largest regret {float(regret):.3e}, "
                f"rounding bound {float(bound):.1e}: no side gains more than "
                f"{upward(regret + bound):.4e} of a stake by deviating alone")
    return ("certified (every exact regret 0)" if table.certified else
            "NOT certified, an epsilon-certificate: no side gains more than "
            f"{float(regret):.3e} of a stake by deviating alone (largest exact regret)")


@contextmanager
def _apply(dask: str | None, jobs: int) -> Iterator[Apply | None]:
    """How subgames are spread: None (in this process, the exact solver's own path), a
    process pool of ``jobs`` or a Dask cluster."""
    if dask is None and jobs < 2:
        yield None
        return
    with task_mapper(dask, jobs) as apply:
        yield apply

