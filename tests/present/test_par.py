"""PAR sheets: the figures follow from the exact engine, and the pages stand alone."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from statistics import NormalDist

import click
import pytest

from analyzer.analysis.drift import simulate_shoes
from analyzer.analysis.removal import removal_effects
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.present.par import ParSheet, par_sheet
from analyzer.present.report.par import par_files, par_images, render_par
from analyzer.present.sheet import ALPHA as PAR_ALPHA
from analyzer.present.sheet import HANDS, LEVELS, RARE
from analyzer.present.tables import ALPHA as TABLES_ALPHA
from analyzer.verify.inference.statistics import ALPHA, rtp_hands_needed


@pytest.fixture(scope="module")
def punto() -> ParSheet:
    return par_sheet("punto-banco", 8, plots=False)


@pytest.fixture(scope="module")
def nines() -> ParSheet:
    return par_sheet("nine-and-nines", 8, plots=False)


@pytest.fixture(scope="module")
def lucky() -> ParSheet:
    # a few shoes stand in for the published 200: the sheet's shape is what is tested
    return par_sheet("lucky-baccarat", 8, drift=simulate_shoes("lucky-baccarat", 8, 3, 7),
                     removal=removal_effects("lucky-baccarat", 8, 0))


def test_punto_banco_figures_are_the_published_exact_ones(punto: ParSheet) -> None:
    banker = punto.bet("banker")
    assert punto.odds.denominator == 4998398275503360
    assert [line.ways for line in banker.odds.lines] == [2292252566437888, 475627426473216]
    assert banker.odds.lose_ways == 2230518282592256
    assert banker.odds.house_edge == Fraction(114753351728, 10847218479825)
    # no bet adds money after the deal: the element of risk is the house edge, pushes counted
    assert banker.average_wager == 1 and banker.element_of_risk == banker.odds.house_edge
    resolved = 1 - Fraction(475627426473216, 4998398275503360)
    assert banker.odds.edge_per_resolved == banker.odds.house_edge / resolved
    assert punto.bet("tie").odds.hit_frequency == Fraction(475627426473216, 4998398275503360)


def test_win_ranges_follow_the_normal_approximation(punto: ParSheet) -> None:
    tie = punto.bet("tie")
    edge, sd = float(tie.odds.house_edge), tie.odds.sd
    assert [r.hands for r in tie.win_ranges] == list(HANDS) == [100, 1000, 10000, 100000,
                                                                1000000]
    for window in tie.win_ranges:
        assert window.expected == pytest.approx(edge * window.hands)
        assert window.sd == pytest.approx(sd * math.sqrt(window.hands))
        for level, (low, high) in zip(LEVELS, window.ranges, strict=True):
            half = NormalDist().inv_cdf(0.5 + level / 2) * sd / math.sqrt(window.hands)
            assert (low, high) == pytest.approx((edge - half, edge + half))
    # 95% after 10,000 hands: 14.36% -/+ 1.96 x 2.6409 / 100
    low, high = tie.win_ranges[2].ranges[1]
    assert round(low, 4) == 0.0918 and round(high, 4) == 0.1954
    assert tie.volatility_index == pytest.approx(1.6448536 * sd)
    assert not any(r.rough for bet in punto.bets for r in bet.win_ranges)


def test_rare_lines_make_the_range_rough(nines: ParSheet) -> None:
    bonus = nines.bet("nines")
    assert bonus.rarest == bonus.odds.lines[0].probability  # both hands 4D 5D
    assert [r.rough for r in bonus.win_ranges] == [
        float(bonus.rarest) * n < RARE for n in HANDS]
    assert bonus.win_ranges[0].rough and not nines.bet("banker").win_ranges[0].rough


def test_hands_to_verify_is_the_verifier_formula(punto: ParSheet) -> None:
    for bet in punto.bets:
        assert bet.hands_needed == rtp_hands_needed(bet.odds.sd, 0.001, 0.01, 0.8)
    assert 10_000_000 < punto.bet("banker").hands_needed < 10_100_000


def test_one_alpha_everywhere_and_stated() -> None:
    """The sheets, the published sample sizes and ``nine verify --alpha`` share one level."""
    alpha = next(p.default for p in main.get_command(click.Context(main), "verify").params
                 if p.name == "alpha")
    assert alpha == ALPHA == PAR_ALPHA == TABLES_ALPHA == 0.01


def test_removal_effects_are_nine_eor_s(punto: ParSheet) -> None:
    table = removal_effects("punto-banco", 8, 0)
    assert dict(punto.bet("banker").removal)["9"] == table.rank("9").effects[0]
    assert [label for label, _ in punto.bet("tie").removal] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    assert punto.bet("banker").count is not None


def test_the_drift_is_for_a_profile_with_a_shoe_procedure(punto: ParSheet,
                                                         lucky: ParSheet) -> None:
    assert punto.drift is None and not punto.has_procedure and "drift" not in dict(
        punto.commands)
    assert lucky.has_procedure and lucky.drift is not None
    assert lucky.command("drift") == ("nine shoe --profile lucky-baccarat --decks 8 --shoes "
                                      "200 --seed 7 --plot FILE.png")
    assert lucky.drift_png is not None and lucky.drift_png.startswith(b"\x89PNG")
    assert par_images(lucky) == {"lucky-baccarat-8-decks-drift.png": lucky.drift_png}
    # the commands in the order the tableau kind states them
    assert [what for what, _ in punto.commands] == list(punto.kind.figures[:3])
    assert [what for what, _ in lucky.commands] == list(lucky.kind.figures)


def test_a_game_of_choices_has_no_par_sheet() -> None:
    with pytest.raises(AnalyzerError, match="no fixed tableau"):
        par_sheet("lucky9-home")
    with pytest.raises(AnalyzerError, match="1 to 64 decks"):
        par_sheet("punto-banco", 0)


def test_the_html_page_is_self_contained_and_printable(nines: ParSheet,
                                                      lucky: ParSheet) -> None:
    for sheet in (nines, lucky):
        page = render_par(sheet, "html")
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        assert "default-src 'none'" in page  # the browser may load nothing else
        assert not re.search(r"<(?:script|link|iframe|object|embed)\b", page)
        sources = re.findall(r'\b(?:src|href)="([^"]*)"', page)
        assert all(s.startswith(("data:image/png;base64,", "#")) for s in sources), sources
        assert "@media print" in page and "break-before: page" in page
        # numbers are never broken inside: no rule lets a line break anywhere in a word, and
        # a long fraction may break only after its bar
        assert "anywhere" not in page and "white-space: nowrap" in page
        fractions = re.findall(r'<td class="x">([^<]*(?:<wbr>[^<]*)*)</td>', page)
        assert fractions and all(re.fullmatch(r"(-?[\d,]+(/<wbr>\d+)?)?", f) for f in fractions)
        # a printed page per bet (and the method, and the drift where there is one)
        pages = page.count('<section class="page"')
        assert pages == len(sheet.bets) + 1 + (sheet.drift is not None)
        for bet in sheet.bets:
            assert f"{bet.odds.name}" in page or bet.odds.name.replace("&", "&amp;") in page
    page = render_par(nines, "html")
    assert "ILLUSTRATIVE." in page and "16.1419%" in page and "1261867/<wbr>7817355" in page
    assert render_par(lucky, "html").count('src="data:image/png;base64,') == 1


def test_the_markdown_sheet_states_its_commands_and_exact_counts(punto: ParSheet,
                                                                 lucky: ParSheet) -> None:
    text = render_par(punto, "markdown")
    assert text.startswith("# PAR sheet: Punto banco, 8 decks\n")
    assert "| Banker wins | 0.95:1 | 2,292,252,566,437,888 |" in re.sub(r" +", " ", text)
    assert "114753351728/10847218479825" in text
    for command in ("nine odds --profile punto-banco --decks 8",
                    "nine eor --profile punto-banco --decks 8 --samples 200 --seed 1",
                    "nine par --profile punto-banco --decks 8 --out DIR"):
        assert f"`{command}`" in text
    assert "docs/rules/punto-banco.md §1-§6" in text
    files = par_files(lucky, ("markdown",))
    assert sorted(files) == ["lucky-baccarat-8-decks-drift.png", "lucky-baccarat-8-decks.md"]
    assert "](lucky-baccarat-8-decks-drift.png)" in files["lucky-baccarat-8-decks.md"].decode()
    with pytest.raises(AnalyzerError, match="html or markdown"):
        render_par(punto, "csv")
