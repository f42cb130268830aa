"""The sections of the publication, each built from the library call that produces it.

A section calls its analysis (the exact engine, the choice-game solver, effects of removal,
EV formulas, odds across the shoe) and renders the result with :mod:`analyzer.present.report`
in every published format: exactly what the ``nine`` command stated in each file's header
prints, since that command makes the same call and the same rendering. An analysis that
fails on a profile is listed in ``tables/README.md`` as "not yet available" instead of
breaking the build. Output is deterministic: no timestamps, fixed seeds, sorted profiles.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from analyzer.analysis.checks import paytable_warnings
from analyzer.analysis.drift import ShoeRun, simulate_shoes
from analyzer.analysis.formula import DeckFormula, deck_formulas
from analyzer.analysis.removal import RemovalTable, removal_effects
from analyzer.choice.headsup.solver import Equilibrium, solve
from analyzer.choice.table.chart import table_charts
from analyzer.choice.table.stored.certificate import shipped_certificates
from analyzer.choice.table.summary import TableSummary, summarize_table
from analyzer.engine.odds import odds
from analyzer.errors import AnalyzerError
from analyzer.present.advisor import AdvisorData, advisor_data, render_advisor, strategies_json
from analyzer.present.certificates import render_certificates
from analyzer.present.par import DRIFT_SEED, DRIFT_SHOES, REMOVAL_SAMPLES, REMOVAL_SEED
from analyzer.present.plots import plot_removal, plot_shoe
from analyzer.present.report.analysis import render_formula, render_removal, render_shoe
from analyzer.present.report.chart import render_charts
from analyzer.present.report.choice import render_equilibrium, render_strategy_card
from analyzer.present.report.common import json_text, table
from analyzer.present.report.lucky9 import render_edges, render_table_cards, render_table_summary
from analyzer.present.report.odds import render_odds, summary_rows
from analyzer.present.sheet import ALPHA, POWER, RTP_ERROR
from analyzer.present.tables.publication import (
    FORMATS,
    GENERATE_COMMAND,
    Entry,
    Publication,
    Section,
    command_text,
    shoe_args,
    shoe_label,
    shoe_slug,
    with_header,
)
from analyzer.present.tables.results import (
    ResultKey,
    drift_key,
    drift_plot_key,
    heads_up_key,
    odds_key,
    removal_key,
    table_sizes_key,
)
from analyzer.rules.profile import Profile, load_profile, shipped_profiles
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.statistics import rtp_hands_needed

__all__ = ["ALPHA", "chemin_section", "DECKS", "drift_section", "DRIFT_PROFILES", "DRIFT_SEED",
           "DRIFT_SHOES", "formula_section", "FORMULA_PROFILES", "HOUSE_RULES",
           "house_rules_section", "Job", "lucky9_section",
           "odds_section", "POWER", "publish", "removal_section", "REMOVAL_SAMPLES", "RTP_ERROR",
           "rules_note", "sample_size_section", "short_convention", "tableau_profiles",
           "without_run_time"]

#: Deck counts of the odds tables; ``None`` is the infinite deck.
DECKS: tuple[int | None, ...] = (1, 2, 4, 6, 8, None)
# The verification sample sizes (RTP_ERROR, ALPHA, POWER), the seeded shoe runs of the drift
# plots (DRIFT_SHOES, DRIFT_SEED: kept small so ``make tables`` stays fast) and the seeded
# depleted shoes of the removal tables' count correlation (REMOVAL_SAMPLES; the effects are
# exact, and 2000 samples would take 70 s on the side-bet profiles) are the PAR sheets'
# (analyzer.present.par), so a PAR sheet reuses these tables' results.
#: Profiles dealt shoe by shoe for the drift plots.
DRIFT_PROFILES = ("lucky-baccarat",)
#: Profiles whose EV formulas in d are published (sympy is slow on large side-bet profiles).
FORMULA_PROFILES = ("punto-banco",)


def _shoe(decks: int | None) -> Shoe:
    return Shoe.infinite() if decks is None else Shoe.decks(decks)


def tableau_profiles(names: Sequence[str] | None) -> list[Profile]:
    """The named profiles, or every shipped profile with a fixed tableau."""
    if names is not None:
        return [load_profile(name) for name in names]
    return [p for p in shipped_profiles() if p.tableau is not None]


# -- one published analysis -------------------------------------------------------------------
R = TypeVar("R")


@dataclass(frozen=True)
class Job(Generic[R]):
    """One published analysis: the library call, its renderer, and the ``nine`` command
    (``args``, stated in every file's header) that makes the same call and rendering."""

    title: str
    args: tuple[str, ...]
    stem: str
    profile: str
    shoe: str
    compute: Callable[[], R]
    render: Callable[[R, str], str]
    exts: tuple[str, ...] = ("md", "csv", "json")
    #: Edits every rendering (``text``, ``ext``) before publishing, e.g. drops the run time.
    clean: Callable[[str, str], str] | None = None
    #: (title, plot function) for the PNG the command's ``--plot FILE.png`` writes.
    plot: tuple[str, Callable[[R, str], object]] | None = None
    #: Where a later section finds the result (and the plot's PNG), if one needs it.
    key: ResultKey[R] | None = None
    plot_key: ResultKey[bytes] | None = None


def publish(publication: Publication, section: Section, job: Job[R]) -> None:
    """Compute ``job`` once, render it in every format and add its files and entries.

    A failing analysis goes to the section's ``missing`` list.
    """
    try:
        result = job.compute()
        texts = {ext: job.render(result, FORMATS[ext]) for ext in job.exts}
    except AnalyzerError as exc:
        section.missing.append(f"{job.title}: `{command_text(job.args)}` failed: {exc}")
        return
    if job.key is not None:
        publication.results.put(job.key, result)
    if job.clean is not None:
        texts = {ext: job.clean(text, ext) for ext, text in texts.items()}
    notes = rules_note(job.profile)
    for ext, text in texts.items():
        publication.files[f"{job.stem}.{ext}"] = with_header(
            text, ext, section.id, job.profile, job.shoe, command_text(job.args, ext), notes)
    section.entries.append(Entry(job.title, command_text(job.args, job.exts[0]),
                                 tuple(f"{job.stem}.{ext}" for ext in texts), job.profile,
                                 job.shoe))
    if job.plot is not None:
        _publish_plot(publication, section, job, result, *job.plot)


def rules_note(profile: str) -> list[str]:
    """The header note citing a shipped profile's rules (``docs/rules/``), if it has one.

    >>> rules_note("punto-banco")
    ['rules: docs/rules/punto-banco.md §1-§6; Wizard of Odds, Baccarat']
    """
    found = [p.source for p in shipped_profiles() if p.name == profile and p.source]
    return [f"rules: {found[0]}"] if found else []


def _publish_plot(publication: Publication, section: Section, job: Job[R], result: R,
                  plot_title: str, plot_function: Callable[[R, str], object]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "plot.png")
        try:
            plot_function(result, target)
        except AnalyzerError as exc:  # also: matplotlib (the ``plot`` extra) not installed
            section.missing.append(f"{plot_title}: {exc}")
            return
        publication.files[f"{job.stem}.png"] = Path(target).read_bytes()
    command = command_text([*job.args, "--plot", "FILE.png"])
    if job.plot_key is not None:
        publication.results.put(job.plot_key, publication.files[f"{job.stem}.png"])
    section.entries.append(Entry(plot_title, command,
                                 (f"{job.stem}.png",), job.profile, job.shoe))


# -- odds of every bet ------------------------------------------------------------------------
def odds_section(publication: Publication, profiles: Sequence[Profile],
                 decks: Sequence[int | None]) -> Section:
    """Every bet of every profile on every shoe of ``decks``, and a summary per profile."""
    section = Section(
        "odds", "Odds of every bet",
        "Per profile and shoe: each bet's EV, house edge, SD and hit frequency; each payline's "
        "ways over the denominator, exact probability and share of return; the distributions "
        "of naturals, cards dealt and final Player x Banker totals. `summary` compares the "
        "shoes.", "")
    conventions: set[str] = set()
    for profile in profiles:
        summary: list[list[str]] = []
        summary_json: list[dict[str, Any]] = []
        try:
            results = [(n, odds(profile, _shoe(n))) for n in decks]
        except AnalyzerError as exc:
            section.missing.append(f"`{profile.name}`: {exc}")
            continue
        for n, result in results:
            conventions.add(result.convention)
            args = ["odds", "--profile", profile.name, *shoe_args(n)]
            publication.results.put(odds_key(profile.name, n), result)
            stem = f"odds/{profile.name}/{profile.name}-{shoe_slug(n)}"
            notes = [f"ILLUSTRATIVE: {result.illustrative}"] if result.illustrative else []
            notes += rules_note(profile.name)
            notes.append(f"convention: {result.convention}; denominator {result.denominator}")
            warnings = paytable_warnings(profile, _shoe(n), result)
            if n == profile.default_decks:
                section.warnings += [f"{w.message} ({profile.name})" for w in warnings]
            texts = {ext: render_odds(result, FORMATS[ext], warnings=warnings)
                     for ext in ("md", "csv", "json")}
            for ext, text in texts.items():
                publication.files[f"{stem}.{ext}"] = with_header(
                    text, ext, "odds", profile.name, result.shoe, command_text(args, ext),
                    notes if ext == "csv" else notes[-2:] if ext == "md" else ())
            section.entries.append(Entry(f"{profile.title}, {result.shoe}",
                                         command_text(args, "md"),
                                         tuple(f"{stem}.{ext}" for ext in texts),
                                         profile.name, result.shoe,
                                         short_convention(result.convention)))
            summary += [[result.shoe, *row] for row in summary_rows(result)]
            summary_json += [{"shoe": result.shoe, "bet": bet.id, "ev": str(bet.ev),
                              "ev_float": float(bet.ev), "variance": str(bet.variance),
                              "sd": bet.sd, "hit_frequency": str(bet.hit_frequency)}
                             for bet in result.bets]
        headers = ["shoe", "bet", "EV", "house edge", "SD", "hit frequency", "EV (exact)"]
        stem = f"odds/{profile.name}/{profile.name}-summary"
        what = f"summary of {', '.join(shoe_label(n) for n in decks)}"
        texts = {"md": f"## {profile.title}: every bet by shoe\n\n"
                       + table(summary, headers, "markdown") + "\n",
                 "csv": table(summary, headers, "csv"),
                 "json": json.dumps({"bets": summary_json}, indent=2) + "\n"}
        for ext, text in texts.items():
            publication.files[f"{stem}.{ext}"] = with_header(
                text, ext, "odds summary", profile.name, what, GENERATE_COMMAND)
        section.entries.insert(
            len(section.entries) - len(results),
            Entry(f"{profile.title}: every bet by shoe", GENERATE_COMMAND,
                  tuple(f"{stem}.{ext}" for ext in texts), profile.name, what))
    section.convention = "the *convention* column names each table's; in full:\n\n" + "\n".join(
        f"- {text}" for text in sorted(conventions)) + "\n"
    return section


def short_convention(text: str) -> str:
    """The name of a counting convention, before its details.

    >>> short_convention("infinite deck: 13**6 equally likely rank-class sequences")
    'infinite deck'
    """
    return text.split(";")[0].split(":")[0].strip()


# -- verification sample sizes ----------------------------------------------------------------
def sample_size_section(publication: Publication, profiles: Sequence[Profile]) -> Section:
    """Hands to detect a 0.1% RTP error in every bet (:func:`rtp_hands_needed`)."""
    section = Section(
        "sample-sizes", "Verification sample sizes",
        f"Hands a simulator must deal to detect a {RTP_ERROR:.1%} error in a bet's return to "
        f"player with a two-sided test at alpha {ALPHA} and power {POWER}: "
        "n = ((z_{1-alpha/2} + z_{power}) x SD / 0.001)^2 from each bet's exact SD on the "
        "profile's own shoe. Rare high-paying lines need far more hands than the main bets.",
        "exact SD per unit staked from the ordered 6-card counts")
    rows: list[list[str]] = []
    records: list[dict[str, Any]] = []
    for profile in profiles:
        try:
            result = odds(profile, Shoe.decks(profile.default_decks))
        except AnalyzerError as exc:
            section.missing.append(f"`{profile.name}`: {exc}")
            continue
        for bet in result.bets:
            n = rtp_hands_needed(bet.sd, RTP_ERROR, ALPHA, POWER)
            rows.append([profile.name, result.shoe, bet.name, f"{float(bet.ev):+.6f}",
                         f"{bet.sd:.4f}", f"{n:,}"])
            records.append({"profile": profile.name, "shoe": result.shoe, "bet": bet.id,
                            "ev": str(bet.ev), "variance": str(bet.variance), "sd": bet.sd,
                            "hands_needed": n})
    headers = ["profile", "shoe", "bet", "EV", "SD", "hands to detect a 0.1% RTP error"]
    parameters = {"rtp_error": RTP_ERROR, "alpha": ALPHA, "power": POWER,
                  "formula": "ceil(((z(1-alpha/2) + z(power)) * sd / rtp_error)**2)"}
    texts = {"md": "## Hands needed to detect a 0.1% RTP error\n\n"
                   f"{section.description}\n\n" + table(rows, headers, "markdown") + "\n",
             "csv": table([[*r[:-1], r[-1].replace(",", "")] for r in rows], headers, "csv"),
             "json": json.dumps({**parameters, "bets": records}, indent=2) + "\n"}
    stem = "verification/sample-sizes"
    for ext, text in texts.items():
        publication.files[f"{stem}.{ext}"] = with_header(
            text, ext, "verification sample-size", "every profile with a tableau",
            "each profile's own shoe", GENERATE_COMMAND)
    section.entries.append(Entry("Hands to detect a 0.1% RTP error, every bet",
                                 GENERATE_COMMAND, tuple(f"{stem}.{ext}" for ext in texts),
                                 "every profile", "each profile's own shoe"))
    return section


# -- choice games -----------------------------------------------------------------------------
def _heads_up(profile: str, decks: int | None,
              by: str) -> tuple[tuple[str, ...], Callable[[], Equilibrium]]:
    """``nine solve --players 1`` arguments and the call they make (computed at most once:
    a table and its strategy card share it)."""
    args = ("solve", "--profile", profile, "--players", "1", *shoe_args(decks), "--by", by)
    return args, cache(lambda: solve(load_profile(profile), _shoe(decks), by))


@cache
def _table(players: int, decks: int | None, name: str = "lucky9-home",
           ) -> tuple[tuple[str, ...], Callable[[], TableSummary]]:
    """``nine solve --players N`` (by total) arguments and the call they make, once."""
    # the simple rules' costs where solved directly (each another exact evaluation)
    costs = players > 1 and name == "lucky9-home" and (decks is None or players <= 2)
    args = ("solve", "--profile", name, "--players", str(players), *shoe_args(decks),
            "--by", "total", *(() if costs or players == 1 else ("--no-costs",)))

    def compute() -> TableSummary:
        profile = load_profile(name)
        return summarize_table(profile.choice_rules(), _shoe(decks), players, "total",
                               profile.title, costs=costs)

    return args, cache(compute)


def _heads_up_job(title: str, stem: str, profile: str, decks: int | None,
                  by: str) -> Job[Equilibrium]:
    """A heads-up equilibrium published as ``nine solve --players 1`` prints it."""
    args, compute = _heads_up(profile, decks, by)
    return Job(title, args, stem, profile, shoe_label(decks), compute, render_equilibrium,
               key=heads_up_key(profile, decks, by))


def _edges_job(title: str, stem: str, profile: str) -> Job[list[TableSummary]]:
    """The bank's edge at every table size, 2 to 9 people at the infinite deck, by total."""

    def edges() -> list[TableSummary]:
        return [_table(players, None, profile)[1]() for players in range(1, 9)]

    return Job(title, ("solve", "--profile", profile, "--players", "8", "--infinite", "--by",
                       "total", "--by-size"), stem, profile, "infinite deck", edges,
               render_edges, ("md", "csv", "json"), key=table_sizes_key(profile, "total", 8))


def lucky9_section(publication: Publication) -> Section:
    """Heads-up home Lucky 9 by total and by cards, its strategy cards; certified equilibria,
    strategy cards and the bank's edge for every table size."""
    section = Section(
        "lucky9", "Home Lucky 9: strategy cards and game values",
        "The exact certified equilibrium of heads-up home Lucky 9 (one player against the "
        "bank): the player's draw probability for every two-card total or holding, the "
        "banker's for every holding x the player's choice (drew / stood), and the game value "
        "for the player per unit staked, with both sides' best-response values (equal values "
        "prove zero regret). Tables of 3 to 9 people: a certified equilibrium with each "
        "seat's value, the bank's edge, the exact cost of simple rules and a strategy card per "
        "seat and for the bank. `charts/`: a printable strategy chart per seat and for the "
        "bank for 2 to 9 people at the infinite deck and 2 and 3 people at one deck. At one "
        "deck with exact card removal: 2 to 4 people (4: the certificate `make certify` "
        "wrote, checked again exactly), the bank's edge by table size, and the list of "
        "shipped certificates (5+ people: the epsilon, largest exact regret, of their play).",
        "exact fractions over every deal of the shoe (card removal exact); `by total`: each "
        "side sees its own total; `by cards`: its own two cards")
    jobs: list[Job[Any]] = []
    cards: list[Job[Any]] = []
    for decks in (1, 8):
        for by in ("total", "cards"):
            job = _heads_up_job(f"Heads-up, {shoe_label(decks)}, by {by}",
                                f"lucky9/heads-up-{shoe_slug(decks)}-by-{by}", "lucky9-home",
                                decks, by)
            jobs.append(job)
            cards.append(Job(f"Strategy cards: heads-up, {shoe_label(decks)}, by {by}",
                             (*job.args, "--card"), f"{job.stem}-card", "lucky9-home",
                             shoe_label(decks), job.compute, render_strategy_card,
                             ("md", "txt", "csv")))
    jobs.append(_heads_up_job("Heads-up, infinite deck, by total",
                              "lucky9/heads-up-infinite-by-total", "lucky9-home", None, "total"))

    sizes: list[tuple[int, int | None]] = [*((n, None) for n in range(2, 9)),
                                           *((n, 1) for n in ONE_DECK_PLAYERS if n > 1)]
    for players, table_decks in sizes:
        args, summary = _table(players, table_decks)
        people = players + 1
        label = shoe_label(table_decks)
        stem = f"lucky9/{people}-people-{shoe_slug(table_decks)}-by-total"
        jobs.append(Job(f"{people} people, {label}, by total: certified equilibrium, the "
                        "bank's edge, simple rules", args, stem, "lucky9-home", label,
                        summary, render_table_summary, ("md", "json")))
        cards.append(Job(f"Strategy cards: {people} people, {label}, by total",
                         (*args, "--card"), f"{stem}-card", "lucky9-home", label, summary,
                         render_table_cards, ("md", "txt", "csv")))

    charts: list[Job[TableSummary]] = []
    for players, table_decks in [*((n, None) for n in range(1, 9)), *CHART_DECKS]:
        _, summary = _table(players, table_decks)
        people, label = players + 1, shoe_label(table_decks)
        args = ("chart", "--profile", "lucky9-home", "--people", str(people),
                *shoe_args(table_decks), "--by", "total")
        charts.append(Job(f"Strategy charts: {people} people, {label}", args,
                          f"lucky9/charts/{people}-people-{shoe_slug(table_decks)}",
                          "lucky9-home", label, summary, _render_charts,
                          ("md", "html", "svg", "txt")))

    def advisor() -> AdvisorData:
        return advisor_data(_table(8, None)[1]().table)

    jobs.append(Job("The offline advisor page: every situation of 2 to 9 people, infinite "
                    "deck, by total", ("advisor", "--profile", "lucky9-home"), "lucky9/advisor",
                    "lucky9-home", "infinite deck", advisor,
                    _render_advisor, ("html", "json")))

    jobs.append(_edges_job("The bank's edge by table size, infinite deck, by total",
                           "lucky9/bank-edge-by-table-size", "lucky9-home"))

    def edges_one_deck() -> list[TableSummary]:
        return [_table(players, 1)[1]() for players in ONE_DECK_PLAYERS]

    jobs.append(Job(f"The bank's edge by table size, 1 deck, by total: 2 to "
                    f"{ONE_DECK_PLAYERS[-1] + 1} people, certified with exact card removal",
                    ("solve", "--profile", "lucky9-home", "--players",
                     str(ONE_DECK_PLAYERS[-1]), "--decks", "1", "--by", "total", "--by-size"),
                    "lucky9/bank-edge-by-table-size-1-deck", "lucky9-home", "1 deck",
                    edges_one_deck, render_edges, ("md", "csv", "json")))
    rules = load_profile("lucky9-home").choice_rules()
    jobs.append(Job("The one-deck certificates by table size: certified, or the epsilon of the "
                    "play shipped", ("certify", "--profile", "lucky9-home", "--list"),
                    "lucky9/one-deck-certificates", "lucky9-home", "1 deck",
                    lambda: shipped_certificates(rules, Shoe.decks(1)), render_certificates,
                    ("md", "json")))
    for job in [*charts, *cards, *jobs]:
        publish(publication, section, job)
    return section


#: Players published at one deck: solved exactly (1-2) or from ``make certify``'s files (3-4).
ONE_DECK_PLAYERS = (1, 2, 3, 4)


#: The finite shoes charted beside the infinite deck: (players, decks) solved exactly there.
CHART_DECKS: tuple[tuple[int, int | None], ...] = ((1, 1), (2, 1))


#: The house-rule variants of home Lucky 9 published beside it (issue 20 section 4).
HOUSE_RULES = ("lucky9-bank-ties", "lucky9-natural-pays-2")


def house_rules_section(publication: Publication) -> Section:
    """Each house-rule variant of home Lucky 9: its certified heads-up equilibrium (one
    deck, by cards, what its PAR sheet reads), the bank's edge by table size and a chart
    per seat and for the bank for 2 to 9 people at the infinite deck; every table solved
    once."""
    section = Section(
        "lucky9-house-rules", "Home Lucky 9 house rules: values, the bank's edge, charts",
        "Home Lucky 9 as people play it at home, one house rule changed: "
        + "; ".join(f"`{name}` ({load_profile(name).description})" for name in HOUSE_RULES)
        + ". Per variant: the certified heads-up equilibrium at one deck, the certified "
        "equilibrium of every table of 2 to 9 people at the infinite deck with the bank's "
        "edge by table size, and a printable strategy chart per seat and for the bank. Its "
        "PAR sheet is under `par/`.",
        "exact fractions over every deal (card removal exact at one deck); the tables by "
        "total at the infinite deck")
    for name in HOUSE_RULES:
        folder = f"lucky9/house-rules/{name}"
        jobs: list[Job[Any]] = [_heads_up_job(f"{name}: heads-up, 1 deck, by cards",
                                              f"{folder}/heads-up-1-deck-by-cards", name, 1,
                                              "cards")]
        for players in range(1, 9):
            _, summary = _table(players, None, name)
            jobs.append(Job(f"{name}: strategy charts, {players + 1} people, infinite deck",
                            ("chart", "--profile", name, "--people", str(players + 1),
                             "--infinite", "--by", "total"),
                            f"{folder}/charts/{players + 1}-people-infinite", name,
                            "infinite deck", summary, _render_charts,
                            ("md", "html", "svg", "txt")))

        jobs.append(_edges_job(f"{name}: the bank's edge by table size, infinite deck, by "
                               "total", f"{folder}/bank-edge-by-table-size", name))
        for job in jobs:
            publish(publication, section, job)
    return section


def _render_advisor(data: AdvisorData, fmt: str) -> str:
    """The advisor page, or the strategies it embeds (what ``nine advise`` reads)."""
    return render_advisor(data) if fmt == "html" else json_text(strategies_json(data))


def _render_charts(summary: TableSummary, fmt: str) -> str:
    """Every seat's chart and the bank's, from the table already solved for its tables."""
    return render_charts(table_charts(summary.table), fmt)


def chemin_section(publication: Publication) -> Section:
    """Chemin de fer: Kemeny and Snell's infinite deck, Ethier and Gamez's 1..8 decks."""
    section = Section(
        "chemin-de-fer", "Chemin de fer solutions",
        "Exact certified equilibria of chemin de fer (the Player chooses on 5, the Banker "
        "where the rules leave a choice). With replacement and totals only it reproduces "
        "Kemeny and Snell (1957): Player draws on 5 with probability 9/11. The d-deck, "
        "two-card-composition model of Ethier and Gamez (2013) for d = 1..8.",
        "exact fractions; infinite deck = sampling with replacement")
    jobs = [_heads_up_job("Infinite deck, by total (Kemeny and Snell 1957)",
                          "chemin-de-fer/infinite-by-total", "chemin-de-fer", None, "total")]
    for decks in range(1, 9):
        jobs.append(_heads_up_job(f"{shoe_label(decks)}, by cards (Ethier and Gamez 2013)",
                                  f"chemin-de-fer/{shoe_slug(decks)}-by-cards", "chemin-de-fer",
                                  decks, "cards"))
    for job in jobs:
        publish(publication, section, job)
    return section


# -- effects of removal, formulas in d, odds across the shoe -----------------------------------
def removal_section(publication: Publication, profiles: Sequence[Profile]) -> Section:
    """Effects of removal and the best linear count of every profile, with bar charts."""
    section = Section(
        "removal", "Effects of removal",
        "The exact change in every bet's EV when one card of each rank (and suit or colour "
        "where a bet reads them) leaves a full shoe, per card in percent, with the best "
        "balanced linear count and its correlation with the exact EV over "
        f"{REMOVAL_SAMPLES} seeded depleted shoes; PNG bar charts.",
        "exact EV differences from the ordered 6-card counts")
    for p in profiles:
        shoe = shoe_label(p.default_decks)

        def compute(name: str = p.name, decks: int = p.default_decks) -> RemovalTable:
            return removal_effects(name, decks, REMOVAL_SAMPLES, REMOVAL_SEED)

        publish(publication, section, Job(
            f"{p.title}, {shoe}",
            ("eor", "--profile", p.name, *shoe_args(p.default_decks), "--samples",
             str(REMOVAL_SAMPLES), "--seed", str(REMOVAL_SEED)),
            f"removal/{p.name}-{shoe_slug(p.default_decks)}", p.name, shoe, compute,
            render_removal,
            plot=(f"{p.title}, {shoe}: bar chart of the effects of removal", plot_removal),
            key=removal_key(p.name, p.default_decks, REMOVAL_SAMPLES, REMOVAL_SEED)))
    return section


def formula_section(publication: Publication, profiles: Sequence[Profile]) -> Section:
    """Every bet's EV as a rational function of the number of decks (FORMULA_PROFILES)."""
    section = Section(
        "formulas", "EV as a formula in the number of decks",
        "Each bet's EV as an exact rational function of the number of decks d, its values at "
        "d = 1..8 and its limit as d grows (the infinite deck).",
        "exact rational functions of d (sympy syntax in JSON)")
    # Only the main game: sympy takes about 9 s per side-bet profile, which would double
    # the time of `make tables` and of tests/present/test_tables.py.
    for p in profiles:
        if p.name not in FORMULA_PROFILES:
            continue

        def compute(name: str = p.name) -> tuple[DeckFormula, ...]:
            return deck_formulas(name, ())

        publish(publication, section, Job(
            f"{p.title}: every bet", ("formula", "--profile", p.name), f"formulas/{p.name}",
            p.name, "d decks", compute, render_formula))
    return section


def drift_section(publication: Publication, profiles: Sequence[Profile]) -> Section:
    """Seeded shoes of the profiles with betting windows: EV by hand number, with plots."""
    section = Section(
        "drift", "Across the shoe",
        f"{DRIFT_SHOES} seeded 8-deck shoes (seed {DRIFT_SEED}) dealt by the profile's own "
        "procedure; before every hand the exact EV of every bet from the exact remaining "
        "cards: per hand number the mean and 5th/50th/95th percentiles, the share of hands "
        "with positive EV, and the yield of betting only then, with and without the betting "
        "windows; a PNG plot of EV by hand number with the windows marked. The command's "
        "run time is left out of the published files (it differs on every machine).",
        "exact EV per hand from the remaining cards; percentiles over the seeded shoes")
    for profile in profiles:
        if profile.name not in DRIFT_PROFILES:
            continue

        def compute(name: str = profile.name) -> ShoeRun:
            return simulate_shoes(name, 8, DRIFT_SHOES, DRIFT_SEED)

        publish(publication, section, Job(
            f"{profile.title}, 8 decks",
            ("shoe", "--profile", profile.name, "--decks", "8", "--shoes", str(DRIFT_SHOES),
             "--seed", str(DRIFT_SEED)),
            f"drift/{profile.name}-8-decks", profile.name, "8 decks", compute, render_shoe,
            clean=without_run_time,
            plot=(f"{profile.title}, 8 decks: EV by hand number, betting windows marked",
                  plot_shoe), key=drift_key(profile.name, 8, DRIFT_SHOES, DRIFT_SEED),
            plot_key=drift_plot_key(profile.name, 8, DRIFT_SHOES, DRIFT_SEED)))
    if not section.entries and not section.missing:
        section.missing.append("no shipped profile with betting windows (`lucky-baccarat`)")
    return section


def without_run_time(text: str, ext: str) -> str:
    """A report without its run time (it differs on every machine; tables are reproducible).

    >>> without_run_time("200 shoes evaluated exactly before dealing, in 1.8 s.\\n", "md")
    '200 shoes evaluated exactly before dealing.\\n'
    """
    if ext == "json":
        document = json.loads(text)
        if isinstance(document, dict):
            document.pop("seconds", None)
        return json.dumps(document, indent=2) + "\n"
    return re.sub(r",? in \d+(?:\.\d+)? s\b", "", text)
