"""``nine certify``: solve a home Lucky 9 table at one deck with exact card removal and write
its certificate file, or check certificate files again
(:mod:`analyzer.choice.table.stored.certificate`)."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import click

from analyzer.choice.table.dealt.played import infinite_strategies
from analyzer.choice.table.indifference import Strategies
from analyzer.choice.table.solve import check_players, solve_table
from analyzer.choice.table.stored.certificate import (
    CERTIFICATES,
    KIND,
    certificate_path,
    certificate_text,
    check_certificate,
    read_certificate,
)
from analyzer.choice.table.subgame import MAX_JOINT_SEATS
from analyzer.cli.common import friendly, profile_option
from analyzer.errors import AnalyzerError
from analyzer.inputs import peek_text
from analyzer.outputs import make_folder, write_file
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["certify", "INFINITE_PLAY"]

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
                 regret: Fraction) -> str:
    """Why the certificate already at ``path`` stays (certified, or a smaller epsilon than
    ``regret``), or "" when the new one replaces it."""
    if regret == 0 or not path.is_file():
        return ""
    old = read_certificate(path, rules, shoe, people, by)
    if old.certified:
        return "it is certified; this solve is not"
    if old.max_regret <= regret:
        return f"its largest exact regret {float(old.max_regret):.3e} is not larger"
    return ""


def _smaller(rules: ChoiceRules, shoe: Shoe, people: int, by: str,
             folder: Path | None) -> dict[int, Strategies]:
    """Warm starts: the subgames without naturals of the certified certificate of the table
    one person smaller (in ``folder``, else the shipped one), by live seats."""
    path = certificate_path(rules.name, people - 1, shoe, by, folder or CERTIFICATES)
    if people - 1 < 4 or not path.is_file():
        return {}
    found = read_certificate(path, rules, shoe, people - 1, by)
    return {key[0]: strategies for key, strategies in found.strategies.items()
            if found.certified and not key[1] and key[0] > MAX_JOINT_SEATS}


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
@friendly
def certify(profile: str, sizes: tuple[int, ...], models: tuple[str, ...],
            out_dir: str | None, checks: tuple[str, ...], infinite_play: bool) -> None:
    """Solve a home Lucky 9 table at one deck exactly; write (or check) its certificate file.

    Each table is solved subgame by subgame (CFR+ over the removed-card compositions, closed
    by the indifference equations) and every side's exact regret is computed at one deck: the
    file gives the strategies, the values, the largest regret (0: certified) and the
    SHA-256 of the profile. Minutes per table; --check re-derives a file's figures.
    """
    rules = load_profile(profile).choice_rules()
    shoe = Shoe.decks(1)
    if checks:
        for name in checks:
            found = read_certificate(name, rules, shoe, None, None)
            begin = time.perf_counter()
            table = check_certificate(found, rules)
            status = ("certified (every exact regret 0)" if table.certified else
                      "not an equilibrium: no side gains more than "
                      f"{float(table.values.max_regret):.3e} of a stake by deviating alone "
                      "(largest exact regret)")
            click.echo(f"{name}: PASS, {found.people} people, 1 deck, by {found.by}: {status}, "
                       f"checked again in {time.perf_counter() - begin:.1f} s")
        return
    if not sizes:
        raise AnalyzerError("--people: which table sizes to certify (3 to 9)")
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
            if infinite_play:
                table = solve_table(rules, shoe, people - 1, by, given_only=True,
                                    known=infinite_strategies(rules, shoe, people - 1, by))
            else:
                table = solve_table(rules, shoe, people - 1, by, dealt=True,
                                    starts=_smaller(rules, shoe, people, by, folder))
            seconds = time.perf_counter() - begin
            command = (f"nine certify --people {people} --by {by}"
                       f"{' --infinite-play' if infinite_play else ''}")
            status = ("certified (every exact regret 0)" if table.certified else
                      "NOT certified, an epsilon-certificate: largest exact regret "
                      f"{float(table.values.max_regret):.3e}")
            done = (f"{people} people, 1 deck, by {by}: {status}, "
                    f"{'evaluated' if infinite_play else 'solved'} in {seconds:.0f} s")
            kept = _better_kept(path, rules, shoe, people, by, table.values.max_regret)
            if kept:
                click.echo(f"{path}: kept ({kept}); {done}")
                continue
            write_file(path, certificate_text(table, rules, seconds, command,
                                              INFINITE_PLAY if infinite_play else ""))
            click.echo(f"{path}: {done}")

