"""A report laid out once as blocks, written as Markdown or as the body of an HTML page.

A block is a tuple whose first item names its kind:

- ``("h1", text)``, ``("h2", text, anchor)``, ``("h3", text)``: headings;
- ``("p", text)``, ``("meta", text)``, ``("warn", text)``, ``("note", text)``: paragraphs
  (light inline markup, see :func:`analyzer.present.report.html.inline`);
- ``("list", items)``;
- ``("table", headers, rows, numeric columns, exact columns)``;
- ``("img", alt, markdown link, png bytes)``: a figure, inlined as a ``data:`` URI in HTML;
- ``("card", markdown)``: a report as a ``nine`` command prints it with ``--format
  markdown`` (headings, paragraphs and pipe tables), its headings one level down: verbatim
  in Markdown, as HTML headings, paragraphs and tables in HTML;
- ``("page", anchor)``: a printed page starts here (HTML only);
- ``("toc", [(title, anchor), ...])``: a linked table of contents (printed, each entry
  with its page number);
- ``("notes", [(anchor, text), ...])``: numbered footnotes, each a link target.

The PAR sheets (:mod:`analyzer.present.report.par`, :mod:`analyzer.present.report.par_choice`)
are written this way.

>>> print(blocks_markdown([("h3", "Odds"), ("list", ["a", "b"])]), end="")
### Odds
<BLANKLINE>
- a
- b
>>> print(blocks_html([("page", "x"), ("card", "## Card\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |")]))
<section class="page" id="page-x">
<h3>Card</h3>
<table>
<thead><tr><th>a</th><th>b</th></tr></thead>
<tbody>
<tr><td>1</td><td>2</td></tr>
</tbody>
</table>
</section>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from analyzer.present.report.common import table
from analyzer.present.report.html import data_uri, html_table, inline

__all__ = ["Block", "blocks_html", "blocks_markdown", "card_html", "card_markdown"]

Block = tuple[Any, ...]


def _paragraphs(text: str) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    for line in text.strip("\n").splitlines():
        if line.strip():
            groups[-1].append(line)
        elif groups[-1]:
            groups.append([])
    return [group for group in groups if group]


def card_markdown(text: str) -> str:
    """A command's Markdown report with every heading one level down (``##`` -> ``###``)."""
    return "\n".join(f"#{line}" if line.startswith("#") else line
                     for line in text.strip("\n").splitlines())


def _cells(line: str) -> list[str]:
    """The cells of a pipe-table row (the reports' cells hold no pipe)."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def card_html(text: str) -> str:
    """A command's Markdown report (headings, paragraphs, pipe tables) as HTML, every
    heading one level down."""
    out: list[str] = []
    for group in _paragraphs(text):
        first = group[0]
        if first.startswith("#"):
            level = min(len(first) - len(first.lstrip("#")) + 1, 6)
            out.append(f"<h{level}>{inline(first.lstrip('#').strip())}</h{level}>")
            rest = group[1:]
        else:
            rest = group
        if rest and all(line.startswith("|") for line in rest):
            rows = [_cells(line) for line in rest if not set(line) <= set("|-: ")]
            out.append(html_table(rows[1:], rows[0]))
        elif rest:
            out.append(f"<p>{inline(' '.join(rest))}</p>")
    return "\n".join(out)


def blocks_markdown(blocks: Sequence[Block]) -> str:
    """The blocks as Markdown, separated by blank lines."""
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            out.append(f"# {block[1]}")
        elif kind == "h2":
            out.append(f'<a id="{block[2]}"></a>\n\n## {block[1]}')
        elif kind == "h3":
            out.append(f"### {block[1]}")
        elif kind in ("p", "meta"):
            out.append(block[1])
        elif kind in ("warn", "note"):
            out.append(f"> {block[1]}")
        elif kind == "list":
            out.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "table":
            rows = [[cell.replace("|", "\\|") for cell in row] for row in block[2]]
            out.append(table(rows, [h.replace("|", "\\|") for h in block[1]], "markdown"))
        elif kind == "img":
            out.append(f"![{block[1]}]({block[2]})")
        elif kind == "card":
            out.append(card_markdown(block[1]))
        elif kind == "toc":
            out.append("\n".join(f"- [{title}](#{anchor})" for title, anchor in block[1]))
        elif kind == "notes":
            out.append("\n".join(f'{n}. <a id="{anchor}"></a>{text}'
                                 for n, (anchor, text) in enumerate(block[1], 1)))
    return "\n\n".join(out) + "\n"


def blocks_html(blocks: Sequence[Block]) -> str:
    """The blocks as the body of an HTML page; each ``page`` opens a printed page."""
    out: list[str] = []
    open_page = False
    for block in blocks:
        kind = block[0]
        if kind == "page":
            if open_page:
                out.append("</section>")
            out.append(f'<section class="page" id="page-{block[1]}">')
            open_page = True
        elif kind == "h1":
            out.append(f"<h1>{inline(block[1])}</h1>")
        elif kind == "h2":
            out.append(f'<h2 id="{block[2]}">{inline(block[1])}</h2>')
        elif kind == "h3":
            out.append(f"<h3>{inline(block[1])}</h3>")
        elif kind == "p":
            out.append(f"<p>{inline(block[1])}</p>")
        elif kind in ("meta", "warn", "note"):
            out.append(f'<p class="{kind}">{inline(block[1])}</p>')
        elif kind == "list":
            out.append("<ul>\n" + "\n".join(f"<li>{inline(item)}</li>" for item in block[1])
                       + "\n</ul>")
        elif kind == "table":
            out.append(html_table(block[2], block[1], block[3], block[4]))
        elif kind == "img":
            out.append(f'<p class="figure"><img alt="{inline(block[1])}" '
                       f'src="{data_uri(block[3])}"></p>')
        elif kind == "card":
            out.append(card_html(block[1]))
        elif kind == "toc":
            out.append('<nav class="toc"><ul>\n' + "\n".join(
                f'<li><a href="#{anchor}">{inline(title)}</a></li>' for title, anchor in block[1])
                + "\n</ul></nav>")
        elif kind == "notes":
            out.append('<ol class="footnotes">\n' + "\n".join(
                f'<li id="{anchor}">{inline(text)}</li>' for anchor, text in block[1])
                + "\n</ol>")
    if open_page:
        out.append("</section>")
    return "\n".join(out)
