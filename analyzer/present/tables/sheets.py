"""The PAR sheets of the publication and its HTML index, ``tables/index.html``.

The PAR section is built last, from the results the other sections already computed (the
exact odds, the effects of removal, the seeded shoes and their plot, a choice game's
certified equilibrium and its bank's edge by table size, kept in
:attr:`Publication.results` under typed keys), so publishing
the sheets costs little more than rendering them; alone (``--section par``) it computes
them. The index is one self-contained HTML page linking every file of the publication,
with every bet's house edge, exact, at each profile's own shoe.
"""

from __future__ import annotations

from collections.abc import Sequence

from analyzer import __version__
from analyzer.errors import AnalyzerError
from analyzer.present.par import (
    DRIFT_SEED,
    DRIFT_SHOES,
    REMOVAL_SAMPLES,
    REMOVAL_SEED,
    ParSheet,
    par_sheet,
)
from analyzer.present.par_choice import TABLE_BY, TABLE_PLAYERS, ChoiceParSheet, choice_par_sheet
from analyzer.present.report.common import fraction_text, percent
from analyzer.present.report.html import escape, html_page, html_table, inline
from analyzer.present.report.par import par_files
from analyzer.present.tables.publication import (
    GENERATE_COMMAND,
    Entry,
    Publication,
    Section,
    shoe_label,
    with_header,
)
from analyzer.present.tables.results import (
    drift_key,
    drift_plot_key,
    heads_up_key,
    odds_key,
    par_key,
    removal_key,
    table_sizes_key,
)
from analyzer.present.tables.sections import DRIFT_PROFILES
from analyzer.rules.profile import Profile, load_profile, shipped_profiles

__all__ = ["PAR_FOLDER", "par_profiles", "par_section", "render_index_html"]

#: Where the PAR sheets go in the publication.
PAR_FOLDER = "par"


def par_profiles(names: Sequence[str] | None) -> list[Profile]:
    """The named profiles, or every shipped profile (fixed tableau or choice game)."""
    if names is not None:
        return [load_profile(name) for name in names]
    return list(shipped_profiles())


def _choice_sheet(publication: Publication, profile: Profile, decks: int) -> ChoiceParSheet:
    """A choice game's sheet from the lucky9 section's equilibrium and table sizes when it
    computed them (the same calls)."""
    by = profile.choice_rules().default_information
    results = publication.results
    sizes = results.get(table_sizes_key(profile.name, TABLE_BY, 8))
    return choice_par_sheet(profile, decks,
                            equilibrium=results.get(heads_up_key(profile.name, decks, by)),
                            table_sizes=(tuple(sizes[:TABLE_PLAYERS]) if sizes is not None
                                         else None))


def _tableau_sheet(publication: Publication, profile: Profile, decks: int) -> ParSheet:
    results, name = publication.results, profile.name
    drift = (DRIFT_SHOES, DRIFT_SEED)
    return par_sheet(profile, decks, odds_result=results.get(odds_key(name, decks)),
                     removal=results.get(removal_key(name, decks, REMOVAL_SAMPLES,
                                                     REMOVAL_SEED)),
                     drift=results.get(drift_key(name, decks, *drift)),
                     drift_png=results.get(drift_plot_key(name, decks, *drift)))


def par_section(publication: Publication, profiles: Sequence[Profile]) -> Section:
    """A PAR sheet (HTML and Markdown) of every profile on its own shoe: by its tableau, or
    for a game of choices by its certified equilibrium."""
    section = Section(
        "par", "PAR sheets",
        "One PAR sheet (probability accounting report) per profile on its own shoe: rules "
        "summary and paytable; per bet every outcome's combinations and exact probability, "
        "house edge, element of risk, hit frequency, SD, volatility index, the range of the "
        "house's win after 100 to 1,000,000 hands, hands to verify a 0.1% RTP error and the "
        "effects of removal; the odds across the shoe where the profile has a shoe "
        "procedure. A game of choices (home Lucky 9, chemin de fer) has no tableau: its "
        "sheet gives the certified heads-up equilibrium, each side's game value and the "
        "banker's edge, the player's exact win, push and loss probabilities under it with "
        "the same SD, ranges and hands to verify, both strategy cards and, for home Lucky "
        "9, the bank's edge by table size. The HTML page is self-contained and prints a "
        "page per bet (or part); the PDF is that page printed (numbered A4 pages, linked "
        "contents).",
        "exact fractions and integer counts over the ordered 6-card counts; win ranges by "
        "the normal approximation")
    for profile in profiles:
        decks = profile.default_decks
        shoe = ["--profile", profile.name, "--decks", str(decks)]
        try:
            sheet: ParSheet | ChoiceParSheet = (
                _tableau_sheet(publication, profile, decks) if profile.tableau is not None
                else _choice_sheet(publication, profile, decks))
        except AnalyzerError as exc:
            section.missing.append(f"`{profile.name}`: {exc}")
            continue
        publication.results.put(par_key(profile.name, decks), sheet)
        # The Markdown links the drift plot the drift section publishes (the same call and
        # plot), not a copy of it.
        link = (f"../drift/{profile.name}-8-decks.png" if isinstance(sheet, ParSheet)
                and sheet.drift_png is not None and profile.name in DRIFT_PROFILES
                and decks == 8 else "")
        files = par_files(sheet, ("html", "markdown"), link)
        paths = []
        for name, content in files.items():
            path = f"{PAR_FOLDER}/{name}"
            ext = name.rsplit(".", 1)[1]
            command = " ".join(["nine par", *shoe, "--out", f"tables/{PAR_FOLDER}", "--format",
                                "md" if ext in ("md", "png") else "html"])
            publication.files[path] = content if ext == "png" else with_header(
                content.decode("utf-8"), ext, "PAR", profile.name, shoe_label(decks),
                command)
            paths.append(path)
            if ext == "html":  # and its PDF: that page printed (when the folder is settled)
                publication.printed[f"{path[:-5]}.pdf"] = path
                paths.append(f"{path[:-5]}.pdf")
        section.entries.append(Entry(f"PAR sheet: {profile.title}, {shoe_label(decks)}",
                                     " ".join(["nine par", *shoe, "--out",
                                               f"tables/{PAR_FOLDER}"]),
                                     tuple(paths), profile.name, shoe_label(decks)))
    return section


# -- the HTML index ---------------------------------------------------------------------------
def _edges(publication: Publication, profiles: Sequence[Profile]) -> list[list[str]]:
    rows = []
    for profile in profiles:
        decks = profile.default_decks
        found = publication.results.get(odds_key(profile.name, decks))
        sheet = publication.results.get(par_key(profile.name, decks))
        page = f"{PAR_FOLDER}/{sheet.stem}.html" if sheet is not None else ""
        name = f"[{profile.name}]({page})" if page in publication.files else profile.name
        if found is not None:
            rows += [[name, found.shoe, bet.name, percent(bet.house_edge),
                      fraction_text(bet.house_edge)] for bet in found.bets]
        elif isinstance(sheet, ChoiceParSheet):
            rows.append([name, sheet.shoe, "Banker's edge per player stake (heads-up "
                         f"equilibrium, by {sheet.equilibrium.by})", percent(sheet.banker_edge),
                         fraction_text(sheet.banker_edge)])
    return rows


def _link(path: str) -> str:
    return f"[{path.rsplit('.', 1)[1] if '.' in path else path}]({path})"


def render_index_html(publication: Publication, profiles: Sequence[Profile] = ()) -> str:
    """``tables/index.html``: every section and file of the publication, linked, the PAR
    sheets first, and the house edge of every bet of ``profiles`` (from the odds tables; a
    choice game's banker's edge from its PAR sheet)."""
    body = ["<h1>nine-analyzer: published odds tables</h1>",
            '<p class="meta">' + inline(
                f"Generated by `{GENERATE_COMMAND}` with nine-analyzer {__version__}; every "
                "file states the command that prints it. [README.md](README.md) describes "
                "each table and its counting convention.") + "</p>"]
    sections = sorted(publication.sections, key=lambda s: s.id != "par")
    edges = _edges(publication, profiles)
    contents = [f"[{s.title}](#{s.id})" for s in sections]
    if edges:
        contents.insert(1, "[House edge of every bet](#edges)")
    body.append("<ul>" + "".join(f"<li>{inline(item)}</li>" for item in contents) + "</ul>")
    for section in sections:
        body += [f'<h2 id="{escape(section.id)}">{inline(section.title)}</h2>',
                 f"<p>{inline(section.description)}</p>"]
        if section.entries:
            rows = [[e.title, f"`{e.profile}`", e.shoe, " ".join(map(_link, e.paths)),
                     f"`{e.command}`"] for e in section.entries]
            body.append(html_table(rows, ["table", "profile", "shoe", "files", "command"]))
        if section.missing:
            body.append("<p>Not yet available:</p><ul>" + "".join(
                f"<li>{inline(reason)}</li>" for reason in section.missing) + "</ul>")
        if edges and section is sections[0]:  # after the PAR sheets
            body += ['<h2 id="edges">House edge of every bet</h2>',
                     "<p>Per unit staked, on each profile's own shoe (exact fractions from "
                     "the ordered 6-card counts); a game of choices by its certified "
                     "equilibrium; a profile links its PAR sheet.</p>",
                     html_table(edges, ["profile", "shoe", "bet", "house edge", "exact"],
                                (3,), (4,))]
    page = html_page("nine-analyzer: published odds tables", "\n".join(body))
    return with_header(page, "html", "index", "every profile", "every shoe",
                       GENERATE_COMMAND).decode("utf-8")
