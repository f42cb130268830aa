"""PAR sheets of the choice games: the certified equilibrium's figures, and the pages."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from statistics import NormalDist

import pytest

from analyzer.choice.headsup.outcomes import equilibrium_outcomes
from analyzer.choice.headsup.solver import solve
from analyzer.choice.table.summary import by_size
from analyzer.errors import AnalyzerError
from analyzer.present.par_choice import (
    TABLE_PLAYERS,
    ChoiceParSheet,
    choice_par_sheet,
    profile_par_sheet,
)
from analyzer.present.report.blocks import card_markdown
from analyzer.present.report.choice import render_strategy_card
from analyzer.present.report.common import fraction_text
from analyzer.present.report.lucky9 import render_edges
from analyzer.present.report.par import par_files, render_par
from analyzer.present.sheet import HANDS, LEVELS
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.statistics import rtp_hands_needed


@pytest.fixture(scope="module")
def lucky9() -> ChoiceParSheet:
    return choice_par_sheet("lucky9-home")


@pytest.fixture(scope="module")
def chemin() -> ChoiceParSheet:
    return choice_par_sheet("chemin-de-fer")


def test_each_game_on_its_own_shoe_and_information(lucky9: ChoiceParSheet,
                                                   chemin: ChoiceParSheet) -> None:
    assert (lucky9.decks, lucky9.shoe, lucky9.equilibrium.by) == (1, "1 deck", "cards")
    assert (chemin.decks, chemin.shoe, chemin.equilibrium.by) == (6, "6 decks", "total")
    assert (lucky9.stem, chemin.stem) == ("lucky9-home-1-deck", "chemin-de-fer-6-decks")


@pytest.mark.parametrize("name, decks, by", [("lucky9-home", 1, "cards"),
                                             ("chemin-de-fer", 6, "total")])
def test_the_edge_is_the_solver_s_certified_value(name: str, decks: int, by: str) -> None:
    sheet = choice_par_sheet(name)
    result = solve(name, Shoe.decks(decks), by)
    assert sheet.equilibrium == result
    assert sheet.banker_edge == -result.value > 0
    assert sheet.equilibrium.certificate.certified and sheet.max_regret == 0
    assert sheet.outcomes == equilibrium_outcomes(load_profile(name).choice_rules(),
                                                  Shoe.decks(decks), result)


def test_the_published_values(lucky9: ChoiceParSheet, chemin: ChoiceParSheet) -> None:
    assert lucky9.banker_edge == Fraction(1163927, 134725500)
    assert lucky9.outcomes.win == Fraction(1753048907, 3926286000)
    assert chemin.banker_edge == Fraction(23174205422119131, 1794292354051081885)
    assert chemin.equilibrium.player[0].draw == Fraction(7631761, 9407656)  # on 5


def test_sd_ranges_and_hands_to_verify(chemin: ChoiceParSheet) -> None:
    outcomes = chemin.outcomes
    assert chemin.sd == pytest.approx(math.sqrt(float(
        outcomes.win + outcomes.lose - (outcomes.win - outcomes.lose) ** 2)))
    assert chemin.hands_needed == rtp_hands_needed(chemin.sd, 0.001, 0.01, 0.8)
    edge = float(chemin.banker_edge)
    assert [r.hands for r in chemin.win_ranges] == list(HANDS)
    for window in chemin.win_ranges:
        assert window.expected == pytest.approx(edge * window.hands) and not window.rough
        for level, (low, high) in zip(LEVELS, window.ranges, strict=True):
            half = NormalDist().inv_cdf(0.5 + level / 2) * chemin.sd / math.sqrt(window.hands)
            assert (low, high) == pytest.approx((edge - half, edge + half))
    assert chemin.volatility_index == pytest.approx(1.6448536 * chemin.sd)


def test_a_table_game_gives_the_bank_s_edge_by_table_size(lucky9: ChoiceParSheet,
                                                         chemin: ChoiceParSheet) -> None:
    rules = load_profile("lucky9-home").choice_rules()
    expected = by_size(rules, Shoe.infinite(), TABLE_PLAYERS, "total")
    assert [s.edge.total for s in lucky9.table_sizes] == [s.edge.total for s in expected]
    assert lucky9.command("tables") == ("nine solve --profile lucky9-home --players 4 "
                                        "--infinite --by total --by-size")
    assert chemin.table_sizes == () and "tables" not in dict(chemin.commands)
    assert chemin.command("card") == ("nine solve --profile chemin-de-fer --decks 6 --by total "
                                      "--card")
    # the commands in the order the choice kind states them
    assert [what for what, _ in lucky9.commands] == list(lucky9.kind.figures)
    assert [what for what, _ in chemin.commands] == list(chemin.kind.figures[:3])


def test_a_profile_s_sheet_by_its_kind(chemin: ChoiceParSheet) -> None:
    assert profile_par_sheet("chemin-de-fer") == chemin
    with pytest.raises(AnalyzerError, match="not a choice game"):
        choice_par_sheet("punto-banco")
    with pytest.raises(AnalyzerError, match="1 to 64 decks"):
        profile_par_sheet("chemin", 0)


def test_the_markdown_holds_the_strategy_cards_and_the_exact_outcomes(
        lucky9: ChoiceParSheet) -> None:
    text = render_par(lucky9, "markdown")
    assert text.startswith("# PAR sheet: Home Lucky 9 (players and banker choose), 1 deck\n")
    assert card_markdown(render_strategy_card(lucky9.equilibrium, "markdown")) in text
    assert "| T+5           | 5       | draw 863/1200 (71.9%) |" in text
    assert render_edges(lucky9.table_sizes, "markdown").split("\n\n")[0] in text
    for value in (lucky9.outcomes.win, lucky9.outcomes.push, lucky9.outcomes.lose,
                  lucky9.banker_edge):
        assert fraction_text(value) in text
    for section in ("§4", "§5", "§6", "§7", "§10"):
        assert f"(docs/rules/lucky9-home.md {section})" in text
    for command in ("nine solve --profile lucky9-home --decks 1 --by cards --card",
                    "nine par --profile lucky9-home --decks 1 --out DIR"):
        assert f"`{command}`" in text


def test_the_html_page_is_self_contained(lucky9: ChoiceParSheet,
                                        chemin: ChoiceParSheet) -> None:
    for sheet, pages in ((lucky9, 5), (chemin, 4)):
        page = render_par(sheet, "html")
        assert page.startswith("<!DOCTYPE html>") and "default-src 'none'" in page
        assert not re.search(r"<(?:script|link|iframe|object|embed|img)\b", page)
        links = re.findall(r'\b(?:src|href)="([^"]*)"', page)
        anchors = set(re.findall(r'\bid="([^"]*)"', page))
        assert links and all(link[0] == "#" and link[1:] in anchors for link in links)
        assert page.count('<section class="page"') == pages  # equilibrium, result, cards, ...
        exact = fraction_text(sheet.banker_edge).replace("/", "/<wbr>")
        assert f'<td class="x">{exact}</td>' in page
    page = render_par(chemin, "html")
    assert "<td>draw 7631761/9407656 (81.1%)</td>" in page and "Chemin de fer" in page
    assert "(docs/rules/chemin-de-fer.md §3)" in page
    assert sorted(par_files(chemin)) == ["chemin-de-fer-6-decks.html",
                                         "chemin-de-fer-6-decks.md"]
    with pytest.raises(AnalyzerError, match="html or markdown"):
        render_par(chemin, "csv")
