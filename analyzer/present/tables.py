"""The published odds tables: ``nine tables --out DIR`` writes them, ``--check`` compares.

The publication is built in memory as a mapping of relative paths to file contents, so the
same code writes ``tables/`` and checks it (``tests/test_tables.py``). Each section calls
the analysis that produces it: the exact engine (:func:`analyzer.engine.odds.odds`) directly, and
the other analyses through their ``nine`` command run in-process, so every table is exactly
what its stated command prints. A section whose analysis is not importable, lacks an option
or fails is listed in ``tables/README.md`` as "not yet available" instead of breaking the
build. Output is deterministic: no timestamps, fixed seeds, sorted profiles.

>>> publication = build_tables(sections=("odds",), profiles=("punto-banco",), decks=(1,))
>>> sorted(publication.files)[:3]
['README.md', 'odds/punto-banco/punto-banco-1-deck.csv', 'odds/punto-banco/punto-banco-1-deck.json']
>>> print(publication.text("odds/punto-banco/punto-banco-1-deck.csv").splitlines()[0])
# nine-analyzer odds table: profile punto-banco, shoe 1 deck, analyzer 0.1.0
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

from analyzer import __version__
from analyzer.errors import AnalyzerError

__all__ = ["ALPHA", "build_tables", "command_text", "compare_tables", "DECKS", "DRIFT_PROFILES",
           "DRIFT_SEED", "DRIFT_SHOES", "Entry", "FORMATS", "FORMULA_PROFILES", "GENERATE_COMMAND",
           "hands_needed", "Job", "OWNED_SUFFIXES", "POWER", "Publication", "REMOVAL_SAMPLES",
           "render_index", "RTP_ERROR", "run_command", "run_formats", "Section", "SECTIONS",
           "shoe_args", "shoe_label", "shoe_slug", "short_convention", "Unavailable",
           "with_header", "without_run_time", "write_tables"]

#: The one command that regenerates the whole publication (stated in every file).
GENERATE_COMMAND = "nine tables --out tables/"
#: Deck counts of the odds tables; ``None`` is the infinite deck.
DECKS: tuple[int | None, ...] = (1, 2, 4, 6, 8, None)
#: Formats of every table, by file extension.
FORMATS = {"md": "markdown", "csv": "csv", "json": "json", "txt": "text"}
#: Verification sample sizes: the RTP error to detect, two-sided alpha and power.
RTP_ERROR = 0.001
ALPHA = 0.05
POWER = 0.8
#: Seeded shoe runs for the drift plots (kept small so ``make tables`` stays fast).
DRIFT_SHOES = 200
DRIFT_SEED = 7
DRIFT_PROFILES = ("lucky-baccarat",)
#: Seeded depleted shoes for the count correlation of the removal tables (the effects
#: themselves are exact; 2000 samples would take 70 s on the card-level side-bet profiles).
REMOVAL_SAMPLES = 200
#: Extensions the generator owns inside the output folder (stale ones are removed).
OWNED_SUFFIXES = (".md", ".csv", ".json", ".png", ".txt")
#: Profiles whose EV formulas in d are published (sympy is slow on large side-bet profiles).
FORMULA_PROFILES = ("punto-banco",)

SECTIONS = ("odds", "sample-sizes", "lucky9", "chemin-de-fer", "removal", "formulas",
            "drift")


@dataclass(frozen=True)
class Entry:
    """One published table in one or more formats, with the command that prints it."""

    title: str
    command: str
    paths: tuple[str, ...]
    profile: str = ""
    shoe: str = ""
    convention: str = ""


@dataclass
class Section:
    """A group of tables of one analysis: what it is, its convention, its files."""

    id: str
    title: str
    description: str
    convention: str
    entries: list[Entry] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


@dataclass
class Publication:
    """Every file of ``tables/`` (relative path -> bytes) and the sections that made them."""

    files: dict[str, bytes] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)

    def text(self, path: str) -> str:
        """A text file's contents."""
        return self.files[path].decode("utf-8")


# -- headers ----------------------------------------------------------------------------------
def shoe_slug(decks: int | None) -> str:
    """File-name part for a shoe: ``1-deck``, ``8-decks``, ``infinite``.

    >>> shoe_slug(1), shoe_slug(6), shoe_slug(None)
    ('1-deck', '6-decks', 'infinite')
    """
    if decks is None:
        return "infinite"
    return f"{decks}-deck{'s' if decks != 1 else ''}"


def shoe_label(decks: int | None) -> str:
    """The shoe as the engine describes it: ``8 decks``, ``infinite deck``."""
    if decks is None:
        return "infinite deck"
    return f"{decks} deck{'s' if decks != 1 else ''}"


def shoe_args(decks: int | None) -> list[str]:
    """The ``nine`` options selecting a shoe."""
    return ["--infinite"] if decks is None else ["--decks", str(decks)]


def _meta(kind: str, profile: str, shoe: str, command: str) -> dict[str, str]:
    return {"table": kind, "profile": profile, "shoe": shoe, "analyzer_version": __version__,
            "command": command, "generated_by": GENERATE_COMMAND}


def with_header(content: str, ext: str, kind: str, profile: str, shoe: str,
                command: str, notes: Sequence[str] = ()) -> bytes:
    """A table's text with its provenance: a header for md/csv, fields for JSON.

    >>> print(with_header("a,b\\n", "csv", "demo", "p", "1 deck", "nine x").decode(), end="")
    # nine-analyzer demo table: profile p, shoe 1 deck, analyzer 0.1.0
    # command: nine x
    # regenerate every table: nine tables --out tables/
    a,b
    """
    if ext == "json":
        document = json.loads(content)
        meta: dict[str, Any] = _meta(kind, profile, shoe, command)
        if notes:
            meta["notes"] = list(notes)
        if isinstance(document, dict):
            merged = {**meta, **{k: v for k, v in document.items() if k not in meta}}
        else:
            merged = {**meta, "data": document}
        return (json.dumps(merged, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    first = f"nine-analyzer {kind} table: profile {profile}, shoe {shoe}, analyzer {__version__}"
    if ext in ("csv", "txt"):
        lines = [f"# {first}", f"# command: {command}", f"# regenerate every table: "
                 f"{GENERATE_COMMAND}", *(f"# {note}" for note in notes)]
        return ("\n".join(lines) + "\n" + content).encode("utf-8")
    lines = [f"<!-- {first} -->", "",
             f"*Profile* `{profile}` · *shoe* {shoe} · *analyzer* {__version__} · "
             f"*command* `{command}` · *regenerate every table* `{GENERATE_COMMAND}`", "",
             *(f"> {note}\n" for note in notes)]
    return ("\n".join(lines) + "\n" + content.rstrip("\n") + "\n").encode("utf-8")


# -- running the other analyses ---------------------------------------------------------------
class Unavailable(Exception):
    """An analysis a section needs is not (yet) importable, complete or working."""


def _command_params(name: str) -> dict[str, Any]:
    from analyzer.cli.commands import main

    command = main.commands.get(name)
    if command is None:
        raise Unavailable(f"`nine {name}` does not exist yet")
    return {opt: param for param in command.params for opt in param.opts}


def run_command(args: Sequence[str], ext: str | None = None) -> str:
    """Run ``nine ARGS [--format F]`` in-process; Unavailable if it is missing or fails."""
    from click.testing import CliRunner

    from analyzer.cli.commands import main

    params = _command_params(args[0])
    for arg in args[1:]:
        if arg.startswith("--") and arg.split("=")[0] not in params:
            raise Unavailable(f"`nine {args[0]}` has no option {arg}")
    full = list(args)
    if ext is not None:
        fmt = FORMATS[ext]
        option = params.get("--format")
        choices = getattr(getattr(option, "type", None), "choices", None)
        if option is None or (choices is not None and fmt not in choices):
            raise Unavailable(f"`nine {args[0]}` has no --format {fmt}")
        full += ["--format", fmt]
    result = CliRunner().invoke(main, full)
    if result.exit_code != 0:
        message = (result.stderr or result.stdout or repr(result.exception)).strip()
        last = message.splitlines()[-1] if message else f"exit status {result.exit_code}"
        raise Unavailable(f"`nine {' '.join(full)}` failed: {last}")
    if not result.stdout.strip():
        raise Unavailable(f"`nine {' '.join(full)}` printed nothing")
    return result.stdout


def command_text(args: Sequence[str], ext: str | None = None) -> str:
    """The command as a reader types it."""
    extra = ["--format", FORMATS[ext]] if ext else []
    return " ".join(["nine", *args, *extra])


def run_formats(args: Sequence[str], exts: Sequence[str]) -> dict[str, str]:
    """``nine ARGS --format F`` for every extension, computing the analysis once.

    The command runs once (first format) while the ``render_*`` functions of
    :mod:`analyzer.present.report` record what they are called with; the other formats come from
    calling the same renderer on the same result with only the format changed, which is
    exactly what the command would print. A command that renders otherwise runs once per
    format. Formats the command lacks are left out; the first format is required.
    """
    import analyzer.present.report as report

    originals = {name: getattr(report, name) for name in dir(report)
                 if name.startswith("render_") and callable(getattr(report, name))}
    calls: list[tuple[Callable[..., str], tuple[Any, ...], dict[str, Any]]] = []

    def recorder(function: Callable[..., str]) -> Callable[..., str]:
        def record(*call_args: Any, **call_kwargs: Any) -> str:
            calls.append((function, call_args, call_kwargs))
            return function(*call_args, **call_kwargs)
        return record

    for name, function in originals.items():
        setattr(report, name, recorder(function))
    try:
        first = run_command(args, exts[0])
    finally:
        for name, function in originals.items():
            setattr(report, name, function)
    outputs = {exts[0]: first}
    wanted = FORMATS[exts[0]]
    replay = next(((f, a, k) for f, a, k in reversed(calls)
                   if a[1:2] == (wanted,) or k.get("fmt") == wanted), None)
    if replay is not None and replay[0](*replay[1], **replay[2]) != first:
        replay = None  # the command prints more than one rendering: run it per format
    params = _command_params(args[0])
    choices = getattr(getattr(params.get("--format"), "type", None), "choices", None)
    for ext in exts[1:]:
        if choices is not None and FORMATS[ext] not in choices:
            continue
        try:
            if replay is None:
                outputs[ext] = run_command(args, ext)
                continue
            function, call_args, call_kwargs = replay
            if "fmt" in call_kwargs:
                outputs[ext] = function(*call_args, **{**call_kwargs, "fmt": FORMATS[ext]})
            else:
                outputs[ext] = function(call_args[0], FORMATS[ext], *call_args[2:],
                                        **call_kwargs)
        except (Unavailable, AnalyzerError):
            continue
    return outputs


def _command_entry(publication: Publication, section: Section, title: str,
                   args: Sequence[str], stem: str, profile: str, shoe: str,
                   exts: Sequence[str] = ("md", "csv", "json")) -> None:
    """Publish one command's output in every format it offers (the first one required)."""
    outputs = run_formats(args, exts)
    paths = []
    for ext, text in outputs.items():
        path = f"{stem}.{ext}"
        publication.files[path] = with_header(text, ext, section.id, profile, shoe,
                                              command_text(args, ext))
        paths.append(path)
    section.entries.append(Entry(title, command_text(args, exts[0]), tuple(paths), profile,
                                 shoe))


# -- sections ---------------------------------------------------------------------------------
def _tableau_profiles(names: Sequence[str] | None) -> list[Any]:
    from analyzer.rules.profile import load_profile, shipped_profiles

    if names is not None:
        return [load_profile(name) for name in names]
    return [p for p in shipped_profiles() if p.tableau is not None]


def _odds_section(publication: Publication, profiles: Sequence[Any],
                  decks: Sequence[int | None]) -> Section:
    from analyzer.engine.odds import odds
    from analyzer.present.report import odds_json, render_odds, summary_rows, table
    from analyzer.rules.shoe import Shoe

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
            results = [(n, odds(profile, Shoe.infinite() if n is None else Shoe.decks(n)))
                       for n in decks]
        except AnalyzerError as exc:
            section.missing.append(f"`{profile.name}`: {exc}")
            continue
        for n, result in results:
            conventions.add(result.convention)
            args = ["odds", "--profile", profile.name, *shoe_args(n)]
            stem = f"odds/{profile.name}/{profile.name}-{shoe_slug(n)}"
            notes = [f"ILLUSTRATIVE: {result.illustrative}"] if result.illustrative else []
            notes.append(f"convention: {result.convention}; denominator {result.denominator}")
            texts = {"md": render_odds(result, "markdown"), "csv": render_odds(result, "csv"),
                     "json": json.dumps(odds_json(result), indent=2) + "\n"}
            for ext, text in texts.items():
                publication.files[f"{stem}.{ext}"] = with_header(
                    text, ext, "odds", profile.name, result.shoe, command_text(args, ext),
                    notes if ext == "csv" else notes[-1:] if ext == "md" else ())
            section.entries.append(Entry(f"{profile.title}, {result.shoe}",
                                         command_text(args, "md"),
                                         tuple(f"{stem}.{ext}" for ext in texts),
                                         profile.name, result.shoe,
                                         short_convention(result.convention)))
            rows = summary_rows(result)
            summary += [[result.shoe, *row] for row in rows]
            summary_json += [{"shoe": result.shoe, "bet": bet.id, "ev": str(bet.ev),
                              "ev_float": float(bet.ev), "variance": str(bet.variance),
                              "sd": bet.sd, "hit_frequency": str(bet.hit_frequency)}
                             for bet in result.bets]
        headers = ["shoe", "bet", "EV", "house edge", "SD", "hit frequency", "EV (exact)"]
        stem = f"odds/{profile.name}/{profile.name}-summary"
        shoes = ", ".join(shoe_label(n) for n in decks)
        what = f"summary of {shoes}"
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


def hands_needed(sd: float, error: float = RTP_ERROR, alpha: float = ALPHA,
                 power: float = POWER) -> int:
    """Hands to detect an RTP error of ``error`` per unit staked (two-sided z-test).

    n = ((z_{1-alpha/2} + z_{power}) * SD / error)^2, rounded up (Cohen 1988, ch. 12; the
    normal approximation a test lab uses for a mean). For Banker at 8 decks (SD 0.9274):

    >>> hands_needed(0.9273664)
    6750103
    """
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return math.ceil((z * sd / error) ** 2)


def _sample_size_section(publication: Publication, profiles: Sequence[Any]) -> Section:
    from analyzer.engine.odds import odds
    from analyzer.present.report import table
    from analyzer.rules.shoe import Shoe

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
            n = hands_needed(bet.sd)
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


Job = tuple[str, list[str], str, str, str]


def _command_section(publication: Publication, section: Section, jobs: Sequence[Job],
                     exts: Sequence[str] = ("md", "csv", "json")) -> Section:
    """Publish (title, args, stem, profile, shoe) jobs; failures go to ``missing``."""
    for title, args, stem, profile, shoe in jobs:
        try:
            _command_entry(publication, section, title, args, stem, profile, shoe, exts)
        except Unavailable as exc:
            section.missing.append(f"{title}: {exc}")
    return section


def _lucky9_section(publication: Publication) -> Section:
    section = Section(
        "lucky9", "Home Lucky 9: strategy cards and game values",
        "The exact certified equilibrium of heads-up home Lucky 9 (one player against the "
        "bank): the player's draw probability for every two-card total or holding, the "
        "banker's for every holding x the player's choice (drew / stood), and the game value "
        "for the player per unit staked, with both sides' best-response values (equal values "
        "prove zero regret).",
        "exact fractions over every deal of the shoe (card removal exact); `by total`: each "
        "side sees its own total; `by cards`: its own two cards")
    jobs: list[Job] = []
    cards: list[Job] = []
    for decks in (1, 8):
        for by in ("total", "cards"):
            args = ["solve", "--profile", "lucky9-home", "--players", "1", *shoe_args(decks),
                    "--by", by]
            stem = f"lucky9/heads-up-{shoe_slug(decks)}-by-{by}"
            jobs.append((f"Heads-up, {shoe_label(decks)}, by {by}", args, stem, "lucky9-home",
                         shoe_label(decks)))
            cards.append((f"Strategy cards: heads-up, {shoe_label(decks)}, by {by}",
                          [*args, "--card"], f"{stem}-card", "lucky9-home", shoe_label(decks)))
    jobs.append(("Heads-up, infinite deck, by total",
                 ["solve", "--profile", "lucky9-home", "--players", "1", "--infinite",
                  "--by", "total"], "lucky9/heads-up-infinite-by-total", "lucky9-home",
                 "infinite deck"))
    jobs.append(("Three people (two players and the bank), 1 deck, by total",
                 ["solve", "--profile", "lucky9-home", "--players", "2", "--decks", "1",
                  "--by", "total"], "lucky9/three-people-1-deck-by-total", "lucky9-home",
                 "1 deck"))
    _command_section(publication, section, cards, ("md", "txt", "csv"))
    return _command_section(publication, section, jobs)


def _chemin_section(publication: Publication) -> Section:
    section = Section(
        "chemin-de-fer", "Chemin de fer solutions",
        "Exact certified equilibria of chemin de fer (the Player chooses on 5, the Banker "
        "where the rules leave a choice). With replacement and totals only it reproduces "
        "Kemeny and Snell (1957): Player draws on 5 with probability 9/11. The d-deck, "
        "two-card-composition model of Ethier and Gamez (2013) for d = 1..8.",
        "exact fractions; infinite deck = sampling with replacement")
    jobs = [("Infinite deck, by total (Kemeny and Snell 1957)",
             ["solve", "--profile", "chemin-de-fer", "--players", "1", "--infinite", "--by",
              "total"], "chemin-de-fer/infinite-by-total", "chemin-de-fer", "infinite deck")]
    for decks in range(1, 9):
        jobs.append((f"{shoe_label(decks)}, by cards (Ethier and Gamez 2013)",
                     ["solve", "--profile", "chemin-de-fer", "--players", "1",
                      *shoe_args(decks), "--by", "cards"],
                     f"chemin-de-fer/{shoe_slug(decks)}-by-cards", "chemin-de-fer",
                     shoe_label(decks)))
    return _command_section(publication, section, jobs)


def _library_entry(publication: Publication, section: Section, title: str,
                   args: Sequence[str], stem: str, profile: str, shoe: str,
                   compute: Callable[[], Any], render: Callable[[Any, str], str],
                   plot: tuple[str, Callable[[Any, str], Any]] | None = None,
                   clean: Callable[[str, str], str] | None = None) -> None:
    """Publish one analysis computed once and rendered in every format, as ``nine ARGS``.

    ``compute`` and ``render`` are the library calls the command makes, so each file is
    exactly what ``nine ARGS --format F`` prints; ``plot`` = (title, plot function) writes
    the PNG the command's ``--plot`` option writes, when matplotlib is installed.
    """
    params = _command_params(args[0])
    for arg in args[1:]:
        if arg.startswith("--") and arg not in params:
            raise Unavailable(f"`nine {args[0]}` has no option {arg}")
    try:
        result = compute()
        texts = {ext: render(result, FORMATS[ext]) for ext in ("md", "csv", "json")}
        if clean is not None:
            texts = {ext: clean(text, ext) for ext, text in texts.items()}
    except (AnalyzerError, ImportError, AttributeError, TypeError) as exc:
        raise Unavailable(f"`nine {' '.join(args)}` failed: {exc}") from None
    for ext, text in texts.items():
        publication.files[f"{stem}.{ext}"] = with_header(
            text, ext, section.id, profile, shoe, command_text(args, ext))
    section.entries.append(Entry(title, command_text(args, "md"),
                                 tuple(f"{stem}.{ext}" for ext in texts), profile, shoe))
    if plot is None:
        return
    plot_title, plot_function = plot
    if "--plot" not in params:
        section.missing.append(f"{plot_title}: `nine {args[0]}` has no --plot option yet")
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        section.missing.append(f"{plot_title}: matplotlib is not installed (pip install "
                               "'nine-analyzer[plot]')")
        return
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "plot.png")
        try:
            plot_function(result, target)
        except (AnalyzerError, ImportError, AttributeError, TypeError) as exc:
            section.missing.append(f"{plot_title}: {exc}")
            return
        publication.files[f"{stem}.png"] = Path(target).read_bytes()
    section.entries.append(Entry(plot_title, command_text([*args, "--plot", "FILE.png"]),
                                 (f"{stem}.png",), profile, shoe))


def _removal_section(publication: Publication, profiles: Sequence[Any]) -> Section:
    section = Section(
        "removal", "Effects of removal",
        "The exact change in every bet's EV when one card of each rank (and suit or colour "
        "where a bet reads them) leaves a full shoe, per card in percent, with the best "
        "balanced linear count and its correlation with the exact EV over "
        f"{REMOVAL_SAMPLES} seeded depleted shoes; PNG bar charts.",
        "exact EV differences from the ordered 6-card counts")
    try:
        from analyzer.analysis.removal import removal_effects
        from analyzer.present.plots import plot_removal
        from analyzer.present.report import render_removal
    except ImportError as exc:
        section.missing.append(f"every profile: the analysis is not importable yet ({exc})")
        return section
    for p in profiles:
        shoe = shoe_label(p.default_decks)
        args = ["eor", "--profile", p.name, *shoe_args(p.default_decks), "--samples",
                str(REMOVAL_SAMPLES), "--seed", "1"]

        def compute(name: str = p.name, decks: int = p.default_decks) -> Any:
            return removal_effects(name, decks, REMOVAL_SAMPLES, 1)

        try:
            _library_entry(publication, section, f"{p.title}, {shoe}", args,
                           f"removal/{p.name}-{shoe_slug(p.default_decks)}", p.name, shoe,
                           compute, render_removal,
                           (f"{p.title}, {shoe}: bar chart of the effects of removal",
                            plot_removal))
        except Unavailable as exc:
            section.missing.append(f"{p.title}, {shoe}: {exc}")
    return section


def _formula_section(publication: Publication, profiles: Sequence[Any]) -> Section:
    section = Section(
        "formulas", "EV as a formula in the number of decks",
        "Each bet's EV as an exact rational function of the number of decks d, its values at "
        "d = 1..8 and its limit as d grows (the infinite deck).",
        "exact rational functions of d (sympy syntax in JSON)")
    # Only the main game: sympy takes about 9 s per side-bet profile, which would double
    # the time of `make tables` and of tests/test_tables.py.
    jobs = [(f"{p.title}: every bet", ["formula", "--profile", p.name],
             f"formulas/{p.name}", p.name, "d decks") for p in profiles
            if p.name in FORMULA_PROFILES]
    return _command_section(publication, section, jobs)


def _drift_section(publication: Publication, profiles: Sequence[Any]) -> Section:
    section = Section(
        "drift", "Across the shoe",
        f"{DRIFT_SHOES} seeded 8-deck shoes (seed {DRIFT_SEED}) dealt by the profile's own "
        "procedure; before every hand the exact EV of every bet from the exact remaining "
        "cards: per hand number the mean and 5th/50th/95th percentiles, the share of hands "
        "with positive EV, and the yield of betting only then, with and without the betting "
        "windows; a PNG plot of EV by hand number with the windows marked. The command's "
        "run time is left out of the published files (it differs on every machine).",
        "exact EV per hand from the remaining cards; percentiles over the seeded shoes")
    try:
        from analyzer.analysis.drift import simulate_shoes
        from analyzer.present.plots import plot_shoe
        from analyzer.present.report import render_shoe
    except ImportError as exc:
        section.missing.append(f"Lucky Baccarat: the analysis is not importable yet ({exc})")
        return section
    for profile in profiles:
        if profile.name not in DRIFT_PROFILES:
            continue
        args = ["shoe", "--profile", profile.name, "--decks", "8", "--shoes",
                str(DRIFT_SHOES), "--seed", str(DRIFT_SEED)]

        def compute(name: str = profile.name) -> Any:
            return simulate_shoes(name, 8, DRIFT_SHOES, DRIFT_SEED, True)

        try:
            _library_entry(publication, section, f"{profile.title}, 8 decks", args,
                           f"drift/{profile.name}-8-decks", profile.name, "8 decks", compute,
                           render_shoe, (f"{profile.title}, 8 decks: EV by hand number, "
                                         "betting windows marked", plot_shoe), without_run_time)
        except Unavailable as exc:
            section.missing.append(f"{profile.title}: {exc}")
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


# -- the index --------------------------------------------------------------------------------
def render_index(publication: Publication) -> str:
    """``tables/README.md``: what every table is, its convention and command."""
    out = ["# Published odds tables", "",
           "Every file in this folder is generated by `nine tables --out tables/` (`make "
           "tables`) from the shipped profiles, with nine-analyzer "
           f"{__version__}, and checked in CI: `tests/test_tables.py` regenerates them and "
           "fails when anything here is stale or missing (`nine tables --out tables/ "
           "--check` does the same from the command line). Nothing is edited by hand.", "",
           "Each table states its profile, shoe, analyzer version and the single command that "
           "prints it (a header line in Markdown and CSV, the fields `profile`, `shoe`, "
           "`analyzer_version` and `command` in JSON). CSV files start with `#` comment "
           "lines (`pandas.read_csv(path, comment='#')`). Exact values are fractions "
           "(`\"p/q\"` strings in JSON); ways are integers.", "",
           "## Conventions", "",
           "- **Ordered 6-card counts.** Finite-shoe counts are ordered sequences of 6 cards "
           "from the full shoe (the convention of the published \"combinations\" tables, "
           "Wizard of Odds): a coup that ends after 4 or 5 cards is weighted by the ways to "
           "fill the unused positions. For 8 decks the denominator is "
           "416x415x414x413x412x411 = 4,998,398,275,503,360.",
           "- **Two-card counts.** A bet settled on one hand's first two cards has the same "
           "probabilities as the ordered two-card count N(N-1) (any two positions of a "
           "shuffled shoe are exchangeable); where a table states a two-card convention its "
           "ways are over that denominator.",
           "- **Infinite deck.** 13**6 equally likely rank-class sequences (each card "
           "replaced): the limit of many decks, and the model of the classical game-theory "
           "solutions.",
           "- **Illustrative tables** (NINE & NINES) say so in every file: the official "
           "tables are unpublished.", "",
           "## Contents", ""]
    for section in publication.sections:
        anchor = section.id
        state = "" if section.entries else " (not yet available)"
        out.append(f"- [{section.title}](#{anchor}){state}")
    out.append("")
    for section in publication.sections:
        out += [f'<a id="{section.id}"></a>', f"## {section.title}", "", section.description,
                "", f"Convention: {section.convention.rstrip('.')}" + (
                    "" if section.convention.endswith("\n") else "."), ""]
        if section.entries:
            with_convention = any(entry.convention for entry in section.entries)
            extra = " convention |" if with_convention else ""
            out += [f"| table | profile | shoe |{extra} files | command |",
                    "|---|---|---|" + ("---|" if with_convention else "") + "---|---|"]
            for entry in section.entries:
                links = " ".join(f"[{p.rsplit('.', 1)[1]}]({p})" for p in entry.paths)
                cell = f" {entry.convention or '-'} |" if with_convention else ""
                out.append(f"| {entry.title} | `{entry.profile}` | {entry.shoe} |{cell} "
                           f"{links} | `{entry.command}` |")
            out.append("")
        if section.missing:
            out += ["Not yet available:", ""]
            out += [f"- {reason}" for reason in section.missing]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# -- building, writing, checking --------------------------------------------------------------
def build_tables(sections: Sequence[str] = SECTIONS, profiles: Sequence[str] | None = None,
                 decks: Sequence[int | None] = DECKS,
                 progress: Callable[[str], None] | None = None, jobs: int = 1) -> Publication:
    """Build the publication in memory (every section unless ``sections`` narrows it).

    ``jobs`` > 1 builds sections in that many worker processes (the output is the same).
    """
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        raise AnalyzerError(f"unknown table section {sorted(unknown)[0]!r}")
    if jobs < 1:
        raise AnalyzerError(f"--jobs must be at least 1, got {jobs}")
    chosen = [name for name in SECTIONS if name in sections]
    if jobs > 1 and len(chosen) > 1:
        publication = _build_parallel(chosen, profiles, decks, progress, jobs)
    else:
        publication = Publication()
        for name in chosen:
            if progress:
                progress(name)
            _build_section(publication, name, profiles, decks)
    publication.files["README.md"] = render_index(publication).encode("utf-8")
    return publication


def _build_section(publication: Publication, name: str, profiles: Sequence[str] | None,
                   decks: Sequence[int | None]) -> None:
    chosen = _tableau_profiles(profiles)
    builders: dict[str, Callable[[], Section]] = {
        "odds": lambda: _odds_section(publication, chosen, decks),
        "sample-sizes": lambda: _sample_size_section(publication, chosen),
        "lucky9": lambda: _lucky9_section(publication),
        "chemin-de-fer": lambda: _chemin_section(publication),
        "removal": lambda: _removal_section(publication, chosen),
        "formulas": lambda: _formula_section(publication, chosen),
        "drift": lambda: _drift_section(publication, chosen),
    }
    publication.sections.append(builders[name]())


def _section_worker(name: str, profiles: Sequence[str] | None,
                    decks: Sequence[int | None]) -> Publication:
    publication = Publication()
    _build_section(publication, name, profiles, decks)
    return publication


#: Slowest sections first, so that parallel workers finish together.
_COST_ORDER = ("removal", "lucky9", "drift", "odds", "chemin-de-fer", "formulas",
               "sample-sizes")


def _build_parallel(chosen: Sequence[str], profiles: Sequence[str] | None,
                    decks: Sequence[int | None], progress: Callable[[str], None] | None,
                    jobs: int) -> Publication:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    order = sorted(chosen, key=lambda name: _COST_ORDER.index(name))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {name: pool.submit(_section_worker, name, profiles, decks) for name in order}
        parts = {}
        for name in order:
            parts[name] = futures[name].result()
            if progress:
                progress(name)
    publication = Publication()
    for name in chosen:
        publication.files.update(parts[name].files)
        publication.sections += parts[name].sections
    return publication


def _owned(folder: Path) -> dict[str, Path]:
    if not folder.is_dir():
        return {}
    return {path.relative_to(folder).as_posix(): path for path in sorted(folder.rglob("*"))
            if path.is_file() and path.suffix in OWNED_SUFFIXES}


def write_tables(publication: Publication, folder: str | Path) -> tuple[int, int]:
    """Write every file and remove generated-kind files no longer produced.

    Returns (files written or changed, stale files removed).
    """
    folder = Path(folder)
    changed = removed = 0
    for relative, path in _owned(folder).items():
        if relative not in publication.files:
            path.unlink()
            removed += 1
    for relative, content in sorted(publication.files.items()):
        path = folder / relative
        if path.is_file() and path.read_bytes() == content:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        changed += 1
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), reverse=True):
        if not any(sub.iterdir()):
            sub.rmdir()
    return changed, removed


def compare_tables(publication: Publication, folder: str | Path,
                   compare_png: bool = False) -> list[str]:
    """Differences between the publication and ``folder``: missing, stale and extra files.

    PNG files are compared by presence only unless ``compare_png`` (their bytes depend on
    the matplotlib version).
    """
    present = _owned(Path(folder))
    problems = []
    for relative, content in sorted(publication.files.items()):
        path = present.get(relative)
        if path is None:
            problems.append(f"missing: {relative}")
        elif (compare_png or not relative.endswith(".png")) and path.read_bytes() != content:
            problems.append(f"stale: {relative}")
    for relative in present:
        if relative not in publication.files:
            problems.append(f"extra: {relative}")
    return problems
