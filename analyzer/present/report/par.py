"""Rendering a PAR sheet (:mod:`analyzer.present.par`) as one HTML page or Markdown; a
choice game's sheet is laid out by :mod:`analyzer.present.report.par_choice`.

The sheet is laid out once, as a list of blocks (headings, paragraphs, tables, the drift
figure), and written in either format: the HTML is a single self-contained, printable page
(:mod:`analyzer.present.report.html`; every bet starts a printed page), the Markdown reads
on a forge and links its figure as a PNG file beside it (:func:`par_images`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from analyzer.errors import AnalyzerError
from analyzer.present.par import ParSheet
from analyzer.present.par_choice import ChoiceParSheet
from analyzer.present.pdf import html_pdf
from analyzer.present.report.blocks import Block
from analyzer.present.report.common import (
    decimal_text,
    fraction_text,
    payout_text,
    percent,
    totals_text,
)
from analyzer.present.report.par_choice import render_choice_par
from analyzer.present.report.sheet import (
    ROUGH,
    one_in,
    ranges_blocks,
    rules_citation,
    sheet_page,
)
from analyzer.present.sheet import ALPHA, POWER, RARE, RTP_ERROR

if TYPE_CHECKING:
    from analyzer.engine.odds import BetOdds
    from analyzer.present.par import BetPar
    from analyzer.rules.profile import Tableau

__all__ = ["par_files", "par_images", "par_pdf", "render_par", "SOURCE_KEY"]

#: The PDF document-information key holding the SHA-256 of the HTML page it was printed
#: from (``/NineSourceSHA256``): ``nine tables`` reprints a published PDF only when it
#: changed.
SOURCE_KEY = "NineSourceSHA256"

_CSS = """.figure { text-align: center; }
"""


def par_images(sheet: ParSheet) -> dict[str, bytes]:
    """The PNG files the Markdown sheet links (file name -> bytes); the HTML inlines them."""
    return {_figure(sheet): sheet.drift_png} if sheet.drift_png else {}


def _figure(sheet: ParSheet) -> str:
    return f"{sheet.stem}-drift.png"


def _signed_percent(value: float, digits: int = 4) -> str:
    return f"{value * 100:+.{digits}f}"


def _pays(bet: BetOdds) -> str:
    paying = sorted({line.pays for line in bet.lines if line.pays > 0})
    if not paying:
        return "push only"
    low, high = payout_text(paying[0]), payout_text(paying[-1])
    return low if low == high else f"{low} to {high}"


# -- the sheet as blocks ----------------------------------------------------------------------
def _intro(sheet: ParSheet) -> list[Block]:
    table_ = sheet.odds
    blocks: list[Block] = []
    if table_.illustrative:
        blocks.append(("warn", f"**ILLUSTRATIVE.** {table_.illustrative} Every figure below "
                               "follows from those tables, not from the real game's."))
    blocks.append(("p", "A probability accounting report: the rules and paytable, then per "
                        "bet every outcome's combinations and exact probability (also as "
                        "1 in N), the return to player (RTP), the house edge, element of "
                        "risk, hit frequency, standard deviation, the range "
                        "of the house's win after 100 to 1,000,000 hands, the hands needed "
                        "to verify the return, and the effects of removal. Exact values are "
                        "fractions and integer counts; decimals are rounded from them."))
    return blocks


def _summary(sheet: ParSheet) -> list[Block]:
    returns = [[f"{bet.odds.name} (`{bet.odds.id}`)", _pays(bet.odds), percent(bet.rtp),
                percent(bet.odds.house_edge), fraction_text(bet.odds.house_edge),
                percent(bet.element_of_risk)] for bet in sheet.bets]
    risks = [[f"{bet.odds.name} (`{bet.odds.id}`)", percent(bet.odds.hit_frequency, 3),
              one_in(bet.odds.hit_frequency), f"{bet.odds.sd:.4f}",
              f"{bet.volatility_index:.3f}", f"{bet.hands_needed:,}"] for bet in sheet.bets]
    return [("h2", "Summary", "summary"),
            *(("note", f"WARNING: {w.message}.") for w in sheet.warnings),
            ("table", ["bet", "pays", "RTP", "house edge", "house edge (exact)",
                       "element of risk"], returns, (2, 3, 5), (4,)),
            ("table", ["bet", "hit frequency", "pays 1 in", "SD", "volatility index",
                       "hands to verify"], risks, (1, 2, 3, 4, 5), ()),
            ("p", f"Per unit staked; RTP (return to player) = 1 - house edge. Hands to "
                  f"verify: to detect a {RTP_ERROR:.1%} RTP error at alpha {ALPHA} (two-sided, "
                  f"the default of `nine verify --alpha`) with power {POWER}. Reproduce: "
                  f"`{sheet.command('odds')}` (edges, SD, hit frequencies); "
                  f"`{sheet.command('par')}` (element of risk, volatility index and hands to "
                  "verify, defined under Method).")]


def _tableau_rows(tableau: Tableau) -> list[list[str]]:
    rows = []
    for total in range(8):
        cells = ["D" if tableau.banker_draws_on(total, third) else "S" for third in range(10)]
        cells.append("D" if tableau.banker_draws_on(total, None) else "S")
        rows.append([str(total), *cells])
    return rows


def _rules(sheet: ParSheet) -> list[Block]:
    profile, table_ = sheet.profile, sheet.odds
    tableau = profile.tableau
    assert tableau is not None  # par_sheet refuses a profile without one
    cite = rules_citation(profile)
    naturals = totals_text(tableau.naturals, "or")
    draws = totals_text(tableau.player_draws, "and")
    stood = totals_text(tableau.banker_draws_player_stood, "and")
    blocks: list[Block] = [
        ("h2", "Rules", "rules"),
        ("p", f"{profile.description} {cite}"),
        ("list", [f"Shoe: {table_.shoe}, dealt Player, Banker, Player, Banker.",
                  f"Naturals: a two-card total of {naturals} on either hand ends the coup.",
                  f"Player draws a third card on {draws} and stands otherwise.",
                  f"If Player stood, Banker draws on {stood}. If Player drew, Banker draws "
                  "by its total and Player's third card (D draw, S stand):"]),
        ("table", ["Banker", *(str(v) for v in range(10)), "stood"], _tableau_rows(tableau),
         (), ()),
        ("p", f"Counting convention: {table_.convention}. Denominator "
              f"{table_.denominator:,}."),
    ]
    if sheet.has_procedure:
        blocks.append(("p", f"Shoe procedure: {profile.procedure.describe()}."))
        if profile.procedure.windows:
            names = {bet.id: bet.name for bet in profile.bets}
            blocks.append(("table", ["bet", "may be placed on hands"],
                           [[f"{names.get(bet, bet)} (`{bet}`)", f"1-{hands}"]
                            for bet, hands in profile.procedure.windows], (1,), ()))
    return blocks


def _paytable(sheet: ParSheet) -> list[Block]:
    rows = []
    codes: list[tuple[str, str]] = []
    for bet in sheet.profile.bets:
        rule = "highest line only" if bet.pay_rule == "highest" else "every line"
        for line in bet.lines:
            anchor = f"code-{len(codes) + 1}"
            codes.append((anchor, f"`{line.when.text}`"))
            words = line.when.words[:1].upper() + line.when.words[1:]
            rows.append([f"{bet.name} (`{bet.id}`)", line.name, payout_text(line.pays),
                         f"{words} [({len(codes)})](#{anchor})", rule])
    return [("h2", "Paytable", "paytable"),
            ("table", ["bet", "line", "pays (to 1)", "wins when", "rule"], rows, (2,), ()),
            ("p", "A bet none of whose lines holds loses its stake; a push returns it. Each "
                  "condition is said in words generated from the profile's condition; the "
                  "condition itself, as the profile states it, is its numbered note:"),
            ("notes", codes)]


def _bet(sheet: ParSheet, number: int, bet: BetPar) -> list[Block]:
    odds = bet.odds
    total_ways = sum(line.ways for line in odds.lines) + odds.lose_ways
    outcomes = [[line.name, payout_text(line.pays), f"{line.ways:,}",
                 fraction_text(line.probability), decimal_text(line.probability),
                 one_in(line.probability), f"{float(line.contribution):+.6f}"]
                for line in odds.lines]
    outcomes.append(["Loses", "-1", f"{odds.lose_ways:,}", fraction_text(odds.lose_probability),
                     decimal_text(odds.lose_probability), one_in(odds.lose_probability),
                     f"{-float(odds.lose_probability):+.6f}"])
    if odds.pay_rule == "highest":
        outcomes.append(["**total**", "", f"{total_ways:,}", "1", "1", "",
                         f"{float(odds.ev):+.6f}"])
    figures = [
        ["return to player (RTP) per unit staked", fraction_text(bet.rtp), percent(bet.rtp)],
        ["expected value per unit staked", fraction_text(odds.ev), f"{float(odds.ev):+.8f}"],
        ["house edge", fraction_text(odds.house_edge), percent(odds.house_edge)],
        ["element of risk (per total money wagered, pushes counted)",
         fraction_text(bet.element_of_risk), percent(bet.element_of_risk)],
        ["house edge per resolved bet (pushes not counted)",
         fraction_text(odds.edge_per_resolved), percent(odds.edge_per_resolved)],
        ["hit frequency (the bet pays)", fraction_text(odds.hit_frequency),
         percent(odds.hit_frequency)],
        ["push frequency", fraction_text(odds.push_probability),
         percent(odds.push_probability)],
        ["variance per unit staked", fraction_text(odds.variance), decimal_text(odds.variance)],
        ["standard deviation", "", f"{odds.sd:.6f}"],
        ["volatility index (90%)", "", f"{bet.volatility_index:.6f}"],
        [f"hands to verify: to detect a {RTP_ERROR:.1%} RTP error at alpha {ALPHA}",
         f"{bet.hands_needed:,}", ""],
    ]
    blocks: list[Block] = [
        ("page", f"bet-{odds.id}"),
        ("h2", f"{number}. {odds.name} (`{odds.id}`)", f"bet-{odds.id}"),
    ]
    if odds.note:
        blocks.append(("p", odds.note))
    blocks += [
        ("h3", "Outcomes"),
        ("table", ["outcome", "pays", "combinations", "probability (exact)", "probability",
                   "1 in", "return"], outcomes, (1, 2, 4, 5, 6), (3,)),
        ("p", f"Combinations over {sheet.odds.denominator:,} ({_short(sheet.odds.convention)})"
              + ("." if odds.pay_rule == "highest" else "; every holding line pays, so "
                 "lines overlap and their combinations do not add up.")),
        ("h3", "Figures"),
        ("table", ["figure", "exact", "decimal"], figures, (2,), (1,)),
        *ranges_blocks(sheet, bet.win_ranges),
        ("p", "Ranges are of the house's win per unit wagered after that many one-unit bets "
              "(normal approximation)." + (
                  f" {ROUGH} fewer than {RARE} hits of the rarest paying line (probability "
                  f"{decimal_text(bet.rarest, 4)}) are expected in that many hands: the range "
                  "is rough." if any(r.rough for r in bet.win_ranges) else "")),
    ]
    blocks += _bet_removal(sheet, bet)
    return blocks


def _short(convention: str) -> str:
    return convention.split(";")[0]


def _bet_removal(sheet: ParSheet, bet: BetPar) -> list[Block]:
    if not bet.removal:
        return []
    ranks = bet.removal[:13]
    blocks: list[Block] = [
        ("h3", "Effects of removal"),
        ("table", ["card removed", *(label for label, _ in ranks)],
         [["EV change, %", *(_signed_percent(float(e)) for _, e in ranks)]],
         tuple(range(1, 14)), ())]
    if len(bet.removal) > 13:
        rest = bet.removal[13:]
        blocks.append(("table", ["card removed", *(label for label, _ in rest)],
                       [["EV change, %", *(_signed_percent(float(e)) for _, e in rest)]],
                       tuple(range(1, len(rest) + 1)), ()))
    count = bet.count
    text = ("The exact change in the bet's EV when one card of that rank (suit, colour) "
            f"leaves a full shoe of {sheet.odds.shoe}, in percent.")
    if count is not None and count.level:
        text += (f" Best balanced count: {count.describe()} (betting correlation "
                 f"{count.effect_correlation:.3f}")
        if count.samples:
            text += (f"; its true count's correlation with the exact EV over {count.samples} "
                     f"seeded depleted shoes {count.ev_correlation:.3f}")
        text += ")."
    text += f" Reproduce: `{sheet.command('removal')}` (exact fractions with `--format json`)."
    blocks.append(("p", text))
    return blocks


def _drift(sheet: ParSheet) -> list[Block]:
    run = sheet.drift
    if run is None:
        return []
    rows = [[f"{b.name} (`{b.bet}`)", str(b.window) if b.window else "every hand",
             _signed_percent(float(b.full_shoe_ev)), _signed_percent(b.mean_ev_in_window),
             _signed_percent(b.mean_ev_after_window) if b.mean_ev_after_window is not None
             else "", _signed_percent(b.counter_yield), _signed_percent(b.counter_yield_window)]
            for b in run.bets]
    blocks: list[Block] = [
        ("page", "drift"),
        ("h2", "Across the shoe", "drift"),
        ("p", f"{run.shoes:,} seeded {run.decks}-deck shoes (seed {run.seed}) dealt by the "
              f"profile's procedure; before every hand the exact EV of every bet from the "
              f"remaining cards. A counter bets when the EV from the cards it has seen is "
              "positive; the betting windows limit when it may."),
        ("table", ["bet", "window (hands)", "full-shoe EV %", "mean EV in window %",
                   "after window %", "counter yield %", "in window %"], rows,
         (1, 2, 3, 4, 5, 6), ()),
    ]
    if sheet.drift_png:
        blocks.append(("img", f"{run.title}: EV by hand number, betting windows marked",
                       _figure(sheet), sheet.drift_png))
    blocks.append(("p", f"Reproduce: `{sheet.command('drift')}`."))
    return blocks


def _method(sheet: ParSheet) -> tuple[list[str], list[str]]:
    """The Method section's definitions of this kind, before and after the shared ones."""
    return [
        "**House edge**: minus the expected value of one unit staked, pushes counted as "
        "bets (a push returns the stake and adds nothing).",
        "**Element of risk**: the expected loss per total money wagered, pushes counted. "
        "No bet here adds money after the deal (no raise, double or insurance), so it "
        "equals the house edge; the edge per resolved bet leaves pushes out.",
        "**Hit frequency**: the probability that the bet pays something.",
    ], [
        "**RTP** (return to player): 1 - house edge, the expected return of one unit staked; "
        "**1 in N**: N = 1 / probability.",
        f"**Counts**: {_short(sheet.odds.convention)}; denominator "
        f"{sheet.odds.denominator:,}.",
    ]


def _body(sheet: ParSheet) -> list[Block]:
    blocks = _summary(sheet) + _rules(sheet) + _paytable(sheet)
    for number, bet in enumerate(sheet.bets, 1):
        blocks += _bet(sheet, number, bet)
    return blocks + _drift(sheet)


def render_par(sheet: ParSheet | ChoiceParSheet, fmt: str = "html",
               figure_link: str = "") -> str:
    """The PAR sheet as one self-contained HTML page (``html``) or Markdown (``markdown``);
    a choice game's by :func:`~analyzer.present.report.par_choice.render_choice_par`.

    The Markdown links its figure as the file of :func:`par_images`, or ``figure_link``.
    """
    if fmt not in ("html", "markdown"):
        raise AnalyzerError(f"a PAR sheet is rendered as html or markdown (its PDF is the "
                            f"HTML printed: par_files), not {fmt!r}")
    if isinstance(sheet, ChoiceParSheet):
        return render_choice_par(sheet, fmt)
    return sheet_page(sheet, fmt, _intro(sheet), _body(sheet), _method(sheet), css=_CSS,
                      figure_link=figure_link)


def par_pdf(page: bytes) -> bytes:
    """A sheet's HTML page (as written) printed to PDF, stating the page's SHA-256."""
    return html_pdf(page.decode("utf-8"), {SOURCE_KEY: hashlib.sha256(page).hexdigest()})


def par_files(sheet: ParSheet | ChoiceParSheet, formats: Sequence[str] = ("html", "markdown"),
              figure_link: str = "") -> dict[str, bytes]:
    """The files of a sheet by name: ``<stem>.html``, ``<stem>.md`` and the PNG it links
    (none when ``figure_link`` names a copy of the figure published elsewhere), and
    ``<stem>.pdf`` (the HTML page printed, :func:`par_pdf`) when ``pdf`` is asked for."""
    files: dict[str, bytes] = {}
    page = render_par(sheet, "html").encode("utf-8") if {"html", "pdf"} & set(formats) else b""
    if "html" in formats:
        files[f"{sheet.stem}.html"] = page
    if "markdown" in formats:
        files[f"{sheet.stem}.md"] = render_par(sheet, "markdown", figure_link).encode("utf-8")
        if not figure_link and isinstance(sheet, ParSheet):
            files.update(par_images(sheet))
    if "pdf" in formats:
        files[f"{sheet.stem}.pdf"] = par_pdf(page)
    return files
