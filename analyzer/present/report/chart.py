"""Rendering strategy charts (``nine chart``): one page per seat and for the bank, as text,
Markdown (real tables), a self-contained HTML page or SVG picture, and PDF.

A cell is ``D`` (draw), ``S`` (stand) or ``D 55%`` (draw 55% of the time, by the clock rule
in the legend); in HTML and SVG each play also has its colour, so a chart printed in black
and white still reads by its letters. Under the grid: the situations each column covers,
the holdings whose exact two cards change the play, and a legend defining every word.

>>> cell_text(Fraction(1)), cell_text(Fraction(0)), cell_text(Fraction(32, 65))
('D', 'S', 'D 49%')
>>> cell_text(Fraction(1, 300)), cell_text(None)
('D 0.3%', '-')
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction

from analyzer.choice.table.chart import Chart
from analyzer.errors import AnalyzerError
from analyzer.present.pdf import html_pdf
from analyzer.present.report.lucky9 import clock_rule
from analyzer.rules.choice_rules import Payoffs

__all__ = ["CHART_FORMATS", "cell_text", "chart_legend", "chart_pdf", "render_charts"]

#: What ``nine chart --format`` writes (``txt`` and ``md`` are ``text`` and ``markdown``).
CHART_FORMATS = ("text", "txt", "markdown", "md", "html", "svg", "pdf")

_COLOURS = {"D": "#b9e4b9", "S": "#f6c1c1", "M": "#ffe1a8", "-": "#ffffff"}
_WORDS_SEAT = ("a seat sees its own two cards, every natural at the table (at a finite shoe "
               "their cards too) and what the live seats before it did; third cards stay face "
               "down")
_WORDS_BANK = ("the bank sees its own two cards, every natural and what every live seat did "
               "(drew or stood); third cards stay face down")


def cell_text(draw: Fraction | None) -> str:
    """A cell: ``D``, ``S``, ``D 55%`` (a mixed play) or ``-`` (no such holding)."""
    if draw is None:
        return "-"
    if draw == 1:
        return "D"
    if draw == 0:
        return "S"
    whole = round(100 * draw)
    return f"D {whole}%" if 1 <= whole <= 99 else f"D {float(100 * draw):.1f}%"


def _kind(draw: Fraction | None) -> str:
    return "-" if draw is None else "D" if draw == 1 else "S" if draw == 0 else "M"


def _title(chart: Chart) -> str:
    who = f"Seat {chart.seat}" if chart.seat is not None else "The bank"
    return f"{chart.game} strategy chart: {who}, {chart.people} people, {chart.shoe}"


def _status(chart: Chart) -> str:
    stake = "of your stake" if chart.seat is not None else "of one stake (the bank's net)"
    value = f"{float(chart.value) * 100:+.2f}% {stake} per hand"
    if chart.certified:
        return (f"Certified equilibrium: no side gains by changing its play alone. Playing this "
                f"chart while the others play theirs, you expect {value}.")
    if not chart.exact:
        return (f"{chart.scope}. The play shown is the {chart.solved_at}'s equilibrium; "
                f"there, you expect {value}.")
    return f"Not certified: {chart.model}. You expect {value}."


def _mixed(chart: Chart) -> list[Fraction]:
    found = {c for column in chart.columns for c in column.cells if c is not None and 0 < c < 1}
    found |= {e.draw for e in chart.exceptions if 0 < e.draw < 1}
    return sorted(found)


def _naturals_settle(payoffs: Payoffs) -> str:
    """How naturals are paid, in the legend's words."""
    pays = payoffs.natural_pays
    paid = (f"a seat's natural is paid {pays.numerator}:{pays.denominator}, "
            if pays != 1 else "")
    return paid + ("and two naturals push" if payoffs.ties == "push"
                   else "and two naturals go to the bank")


def chart_legend(chart: Chart) -> list[tuple[str, str]]:
    """Every word and sign of a chart, defined in plain language (term, meaning)."""
    players = chart.people - 1
    by = ("your total" if chart.by == "total" else
          "your two cards (the exceptions under the grid)")
    out = [("D", "draw: take a third card, face down"),
           ("S", "stand: take no card")]
    out += [(cell_text(d), f"draw {float(100 * d):.1f}% of the time: {clock_rule(d)}")
            for d in _mixed(chart)]
    out += [("total", "the points of your two cards added, last digit only (A = 1, 2 to 9 as "
                      "marked, 10, J, Q and K = 0); T is a 10, J, Q or K"),
            ("natural", "a two-card 9: shown at once and settled; it beats any other total, "
                        + _naturals_settle(chart.payoffs)),
            ("live", "a seat without a natural, still to choose (a natural seat is settled "
                     "and out of the choosing)")]
    if chart.seat is not None:
        out.append(("before you / after you", "the live seats that chose before you (you "
                    "saw whether each drew or stood) and the live seats still to choose after "
                    "you"))
    else:
        out.append(("live seats: 1 drew, 2 stood", "what the live seats did, in any order "
                    "(a column that needs the order says 'in seat order', seat 1 first)"))
    out += [("column", "find the column of your situation in the list under the grid, then "
                       "read the row of your total"),
            ("table", f"{chart.people} people: {players} player{'s' if players != 1 else ''} "
                      f"facing the bank, and the bank; {chart.shoe}; the chart plays by {by}"),
            ("what you see", _WORDS_SEAT if chart.seat is not None else _WORDS_BANK),
            ("value", _status(chart))]
    if not chart.payoffs.even_money:
        out.insert(-1, ("house rules", chart.payoffs.describe()))
    return out


def _exception_lines(chart: Chart) -> list[str]:
    return [f"column {e.column}, total {e.total}: {e.holding} {cell_text(e.draw)}"
            for e in chart.exceptions]


# -- text and Markdown ------------------------------------------------------------------------
def _text(chart: Chart) -> str:
    headers = ["total", *(c.letter for c in chart.columns)]
    rows = [[str(t), *(cell_text(c.cells[i]) for c in chart.columns)]
            for i, t in enumerate(chart.totals)]
    widths = [max(len(r[j]) for r in [headers, *rows]) for j in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        return " | ".join(c.center(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out = [_title(chart), "Find your column in the list under the grid, then read your "
           "total's row.", "", line(headers), "-+-".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    out += ["", "Columns:"]
    out += [f"  {c.letter}: " + "; or ".join(c.situations) for c in chart.columns]
    if chart.exceptions:
        out += ["", "Exceptions (your exact two cards change the play):"]
        out += [f"  {line_}" for line_ in _exception_lines(chart)]
    out += ["", "Legend:"]
    out += [f"  {term}: {meaning}" for term, meaning in chart_legend(chart)]
    return "\n".join(out) + "\n"


def _markdown(chart: Chart) -> str:
    headers = ["total", *(c.letter for c in chart.columns)]
    out = [f"## {_title(chart)}", "",
           "Find your column in the list under the grid, then read your total's row.", "",
           "| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join([str(t), *(cell_text(c.cells[i]) for c in chart.columns)]) + " |"
            for i, t in enumerate(chart.totals)]
    out += ["", "**Columns**", ""]
    out += [f"- **{c.letter}**: " + "; or ".join(c.situations) for c in chart.columns]
    if chart.exceptions:
        out += ["", "**Exceptions** (your exact two cards change the play)", ""]
        out += [f"- {line_}" for line_ in _exception_lines(chart)]
    out += ["", "**Legend**", ""]
    out += [f"- **{term}**: {meaning}" for term, meaning in chart_legend(chart)]
    return "\n".join(out) + "\n"


# -- HTML and SVG -----------------------------------------------------------------------------
_CSS = """@page { size: A4; margin: 12mm; }
body { font-family: sans-serif; font-size: 10pt; color: #000; margin: 0; }
section.chart { page-break-after: always; break-after: page; padding: 4mm; }
section.chart:last-child { page-break-after: auto; break-after: auto; }
h2 { font-size: 14pt; margin: 0 0 2mm 0; }
table.grid { border-collapse: collapse; margin: 2mm 0 3mm 0; }
table.grid th, table.grid td { border: 1px solid #444; padding: 2px 6px; text-align: center;
  min-width: 2.4em; }
td.D { background: #b9e4b9; } td.S { background: #f6c1c1; } td.M { background: #ffe1a8;
  font-weight: bold; }
dl { margin: 0; } dt { font-weight: bold; float: left; clear: left; margin-right: 0.5em; }
dd { margin: 0 0 1mm 0; }
ul { margin: 1mm 0; padding-left: 5mm; }
p { margin: 1mm 0; }
"""


def _html_section(chart: Chart) -> str:
    e = html.escape
    head = "".join(f"<th>{e(c.letter)}</th>" for c in chart.columns)
    rows = []
    for i, total in enumerate(chart.totals):
        cells = "".join(f'<td class="{_kind(c.cells[i])}">{e(cell_text(c.cells[i]))}</td>'
                        for c in chart.columns)
        rows.append(f"<tr><th>{total}</th>{cells}</tr>")
    columns = "".join(f"<li><b>{e(c.letter)}</b>: {e('; or '.join(c.situations))}</li>"
                      for c in chart.columns)
    parts = [f'<section class="chart"><h2>{e(_title(chart))}</h2>',
             "<p>Find your column in the list under the grid, then read your total's row.</p>",
             f'<table class="grid"><thead><tr><th>total</th>{head}</tr></thead><tbody>'
             + "".join(rows) + "</tbody></table>",
             f"<p><b>Columns</b></p><ul>{columns}</ul>"]
    if chart.exceptions:
        items = "".join(f"<li>{e(line_)}</li>" for line_ in _exception_lines(chart))
        parts.append("<p><b>Exceptions</b> (your exact two cards change the play)</p>"
                     f"<ul>{items}</ul>")
    legend = "".join(f"<dt>{e(term)}</dt><dd>{e(meaning)}</dd>"
                     for term, meaning in chart_legend(chart))
    parts.append(f"<p><b>Legend</b></p><dl>{legend}</dl></section>")
    return "\n".join(parts)


def _html(charts: Sequence[Chart]) -> str:
    title = html.escape(_title(charts[0]) if len(charts) == 1 else
                        f"{charts[0].game} strategy charts: {charts[0].people} people, "
                        f"{charts[0].shoe}")
    body = "\n".join(_html_section(c) for c in charts)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title><style>{_CSS}</style></head><body>\n{body}\n"
            "</body></html>\n")


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*lines, current] if current else lines


_PAGE_WIDTH = 794  # A4 at 96 dpi: 794 x 1123


def _svg_chart(chart: Chart, top: int) -> tuple[list[str], int]:
    """One chart's SVG elements from ``top`` down, and the height it took."""
    e = html.escape
    out = [f'<text x="20" y="{top + 24}" font-size="17" font-weight="bold">'
           f"{e(_title(chart))}</text>"]
    y = top + 44
    count = len(chart.columns) + 1
    cell_w = min(64, (_PAGE_WIDTH - 40) // count)
    cell_h = 22
    for j, label in enumerate(["total", *(c.letter for c in chart.columns)]):
        x = 20 + j * cell_w
        out.append(f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" '
                   'fill="#e8e8e8" stroke="#444"/>')
        out.append(f'<text x="{x + cell_w // 2}" y="{y + 15}" text-anchor="middle" '
                   f'font-size="11" font-weight="bold">{e(label)}</text>')
    for i, total in enumerate(chart.totals):
        row_y = y + (i + 1) * cell_h
        out.append(f'<rect x="20" y="{row_y}" width="{cell_w}" height="{cell_h}" '
                   'fill="#e8e8e8" stroke="#444"/>')
        out.append(f'<text x="{20 + cell_w // 2}" y="{row_y + 15}" text-anchor="middle" '
                   f'font-size="11" font-weight="bold">{total}</text>')
        for j, column in enumerate(chart.columns, start=1):
            draw = column.cells[i]
            x = 20 + j * cell_w
            out.append(f'<rect x="{x}" y="{row_y}" width="{cell_w}" height="{cell_h}" '
                       f'fill="{_COLOURS[_kind(draw)]}" stroke="#444"/>')
            out.append(f'<text x="{x + cell_w // 2}" y="{row_y + 15}" text-anchor="middle" '
                       f'font-size="11">{e(cell_text(draw))}</text>')
    y += (len(chart.totals) + 1) * cell_h + 20
    lines: list[tuple[str, bool]] = [("Columns", True)]
    for column in chart.columns:
        lines += [(t, False) for t in _wrap(f"{column.letter}: " + "; or ".join(
            column.situations), 120)]
    if chart.exceptions:
        lines.append(("Exceptions (your exact two cards change the play)", True))
        lines += [(t, False) for line_ in _exception_lines(chart) for t in _wrap(line_, 120)]
    lines.append(("Legend", True))
    for term, meaning in chart_legend(chart):
        lines += [(t, False) for t in _wrap(f"{term}: {meaning}", 120)]
    for text, bold in lines:
        weight = ' font-weight="bold"' if bold else ""
        out.append(f'<text x="20" y="{y}" font-size="10.5"{weight}>{e(text)}</text>')
        y += 15
    return out, y - top + 10


def _svg(charts: Sequence[Chart]) -> str:
    elements: list[str] = []
    top = 0
    for chart in charts:
        found, height = _svg_chart(chart, top)
        elements += found
        top += max(height, 1123 if len(charts) > 1 else 0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_PAGE_WIDTH}" height="{top}" '
            f'viewBox="0 0 {_PAGE_WIDTH} {top}" font-family="sans-serif">\n'
            f'<rect width="{_PAGE_WIDTH}" height="{top}" fill="#ffffff"/>\n'
            + "\n".join(elements) + "\n</svg>\n")


def render_charts(charts: Sequence[Chart], fmt: str) -> str:
    """Charts as one text, Markdown, HTML or SVG document, one page per chart."""
    if not charts:
        raise AnalyzerError("no chart to render")
    if fmt in ("text", "txt"):
        return "\f\n".join(_text(c) for c in charts)
    if fmt in ("markdown", "md"):
        return "\n".join(_markdown(c) for c in charts)
    if fmt == "html":
        return _html(charts)
    if fmt == "svg":
        return _svg(charts)
    raise AnalyzerError(f"--format {fmt}: charts are text, markdown, html, svg or pdf")


def chart_pdf(charts: Sequence[Chart]) -> bytes:
    """The charts' HTML page printed to PDF, one A4 page per chart, by the project's one PDF
    route (:func:`analyzer.present.pdf.html_pdf`: WeasyPrint, else Chromium)."""
    return html_pdf(_html(charts))
