"""Chart renderings: Markdown read back by a CommonMark parser (real tables, real lists),
self-contained HTML and SVG, PDF through a kept library, and ``nine chart`` printing what
``tables/lucky9/charts/`` publishes."""

from __future__ import annotations

import importlib.util
import re
import shutil
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from analyzer.choice.table.chart import Chart, table_charts
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.cli.commands import main
from analyzer.present.report.chart import cell_text, chart_pdf, render_charts
from analyzer.rules.shoe import Shoe

TABLES = Path(__file__).resolve().parents[2] / "tables"


@cache
def _charts(players: int, decks: int | None, by: str) -> tuple[Chart, ...]:
    shoe = Shoe.infinite() if decks is None else Shoe.decks(decks)
    return table_charts(solve_table(LUCKY9, shoe, players, by))


def _tables(markdown: str) -> list[list[list[str]]]:
    """Every table of a CommonMark (+ tables) document as rows of cell texts."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    tables: list[list[list[str]]] = []
    row: list[str] | None = None
    for token in tokens:
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(token.content)
        elif token.type == "tr_close" and row is not None:
            tables[-1].append(row)
            row = None
    return tables


def test_markdown_charts_are_real_tables_with_every_cell() -> None:
    charts = _charts(1, 1, "cards")
    text = render_charts(charts, "markdown")
    tables = _tables(text)
    assert len(tables) == len(charts) == 2
    for chart, rows in zip(charts, tables, strict=True):
        assert rows[0] == ["total", *(c.letter for c in chart.columns)]
        assert [r[0] for r in rows[1:]] == [str(t) for t in chart.totals]
        for i, row in enumerate(rows[1:]):
            assert row[1:] == [cell_text(c.cells[i]) for c in chart.columns]
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    items = sum(t.type == "list_item_open" for t in tokens)
    columns = sum(len(c.columns) for c in charts)
    exceptions = sum(len(c.exceptions) for c in charts)
    assert exceptions and items >= columns + exceptions  # lists, not a run-on paragraph


def test_html_and_svg_are_self_contained_and_coloured() -> None:
    charts = _charts(3, None, "total")
    page = render_charts(charts, "html")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert page.count('<section class="chart">') == 4 and "size: A4" in page
    assert 'class="M">D 49%</td>' in page and 'class="D">D</td>' in page
    svg = render_charts(charts, "svg")
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag.endswith("svg") and "http" not in svg.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("D 49%") == 1 and "Legend" in texts


def test_the_legend_defines_every_word_and_each_mixed_play() -> None:
    text = render_charts(_charts(3, None, "total")[1:2], "text")
    for word in ("D: draw", "S: stand", "live: a seat without a natural, still to choose",
                 "natural: a two-card 9", "before you / after you", "4 people: 3 players",
                 "D 49%: draw 49.2% of the time: draw if the clock's seconds are below 30",
                 "Certified equilibrium"):
        assert word in text, word


@pytest.mark.skipif(
    not (shutil.which("chromium") or shutil.which("chromium-browser")
         or importlib.util.find_spec("weasyprint")),
    reason="neither WeasyPrint (the pdf extra) nor Chromium is installed")
def test_pdf_has_one_a4_page_per_chart() -> None:
    charts = _charts(1, None, "total")
    data = chart_pdf(charts)
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    if importlib.util.find_spec("weasyprint"):  # the library chart_pdf prints with
        import weasyprint

        pages = weasyprint.HTML(string=render_charts(charts, "html")).render().pages
        assert len(pages) == len(charts) == 2
        assert all(round(p.width * 25.4 / 96) == 210 and round(p.height * 25.4 / 96) == 297
                   for p in pages)


@pytest.mark.parametrize(("people", "shoe", "slug"), [("3", ("--decks", "1"), "3-people-1-deck"),
                                                      ("4", ("--infinite",), "4-people-infinite")])
def test_nine_chart_prints_the_published_chart(people: str, shoe: tuple[str, ...],
                                               slug: str) -> None:
    result = CliRunner().invoke(main, ["chart", "--people", people, *shoe, "--by", "total",
                                       "--format", "markdown"])
    published = (TABLES / "lucky9" / "charts" / f"{slug}.md").read_text(encoding="utf-8")
    assert result.exit_code == 0 and published.endswith(result.stdout)


def test_nine_chart_one_seat_to_a_file_and_bad_input(tmp_path: Path) -> None:
    target = tmp_path / "seat2.svg"
    result = CliRunner().invoke(main, ["chart", "--players", "2", "--infinite", "--seat", "2",
                                       "--format", "svg", "--out", str(target)])
    assert result.exit_code == 0 and "wrote" in result.stdout
    assert ET.fromstring(target.read_text()).tag.endswith("svg")
    for args, message in [(("--people", "3", "--seat", "3"), "--seat 3: a table of 3 people"),
                          (("--people", "3", "--format", "pdf"), "give --out FILE.pdf"),
                          (("--people", "3", "--seat", "1", "--bank"), "give one"),
                          (("--people", "4", "--players", "2"), "disagree")]:
        result = CliRunner().invoke(main, ["chart", *args, "--infinite"])
        assert result.exit_code == 2 and message in result.stderr, args


def test_pdf_without_a_printer_is_one_line_before_any_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before refusing")

    monkeypatch.setattr("analyzer.cli.lucky9.pdf_engine", lambda: None)
    monkeypatch.setattr("analyzer.cli.lucky9.solve_table", no_work)
    target = tmp_path / "charts.pdf"
    result = CliRunner().invoke(main, ["chart", "--people", "3", "--infinite", "--format",
                                       "pdf", "--out", str(target)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("nine: error: --format pdf: PDF output needs WeasyPrint (pip "
                             "install 'nine-analyzer[pdf]') or Chromium; neither is installed\n")
    assert list(tmp_path.iterdir()) == []


def test_the_chart_pdf_is_printed_by_the_one_pdf_route(monkeypatch: pytest.MonkeyPatch) -> None:
    printed: list[str] = []

    def html_pdf(page: str) -> bytes:
        printed.append(page)
        return b"%PDF-1.7 the one route"

    monkeypatch.setattr("analyzer.present.report.chart.html_pdf", html_pdf)
    charts = _charts(1, None, "total")
    assert chart_pdf(charts) == b"%PDF-1.7 the one route"
    assert printed == [render_charts(charts, "html")]
