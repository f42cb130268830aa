"""Self-contained HTML pages: the page skeleton, escaped text, tables and inline images.

Every page is one file: its CSS is inline, its images are ``data:`` URIs, and a
Content-Security-Policy forbids the browser any other load (no network, no script), so a
page opens the same offline, from a file, a forge or an e-mail. Text is escaped here and
nowhere else; a light inline markup (`` `code` ``, ``**strong**`` and ``[text](link)``)
becomes HTML.

>>> inline("pays **30** on `4D 5D` & [more](odds/a.md)")
'pays <strong>30</strong> on <code>4D 5D</code> &amp; <a href="odds/a.md">more</a>'
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence

from analyzer import __version__

__all__ = ["BASE_CSS", "CSP", "data_uri", "escape", "html_page", "html_table", "inline"]

#: The page may load nothing but its own inline styles and data: images.
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

#: Screen and print styles shared by every page (a page adds its own after these).
BASE_CSS = """
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans",
       "DejaVu Sans", sans-serif; color: #1b1b1b; background: #fff; margin: 0; }
main { max-width: 62rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
h1 { font-size: 1.7rem; margin: 0 0 .4rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .5rem; border-bottom: 2px solid #d8d8d8; }
h3 { font-size: 1.05rem; margin: 1.3rem 0 .4rem; }
p, ul { margin: .45rem 0; }
code { font: .9em/1.3 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
       background: #f3f3f3; padding: 0 .2em; border-radius: 3px; overflow-wrap: break-word; }
table { border-collapse: collapse; margin: .5rem 0 .8rem; font-size: .88rem;
        font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #cfcfcf; padding: .22rem .45rem; vertical-align: top; }
th { background: #eef1f4; text-align: left; }
td.n { text-align: right; white-space: nowrap; }
td.x { text-align: right; max-width: 18rem; font-size: .92em; }
.meta { color: #4a4a4a; font-size: .9rem; }
.warn { border-left: 4px solid #c0392b; background: #fdf1f0; padding: .5rem .8rem; }
.note { border-left: 4px solid #7f8c8d; background: #f6f7f7; padding: .4rem .8rem; }
img { max-width: 100%; height: auto; }
a { color: #0b5cad; }
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  .page { break-before: page; page-break-before: always; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  tr, img { break-inside: avoid; page-break-inside: avoid; }
  img { max-height: 235mm; width: auto; }
  a { color: inherit; text-decoration: none; }
}
"""


def escape(text: str) -> str:
    """Text as HTML (``&``, ``<``, ``>`` and quotes escaped)."""
    return html.escape(text, quote=True)


def inline(text: str) -> str:
    """Escaped text with `` `code` ``, ``**strong**`` and ``[text](link)`` made HTML."""
    out = escape(text)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)


def data_uri(png: bytes) -> str:
    """A PNG as a ``data:`` URI, to inline it in a page."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def html_table(rows: Sequence[Sequence[str]], headers: Sequence[str],
               numeric: Sequence[int] = (), exact: Sequence[int] = ()) -> str:
    """A table of escaped cells (inline markup allowed); columns in ``numeric`` right-aligned
    and never wrapped, those in ``exact`` (long fractions) right-aligned and wrapped only
    after a fraction bar: a number is never broken across lines."""
    def cell(j: int, value: str) -> str:
        if j in exact:
            return f'<td class="x">{inline(value).replace("/", "/<wbr>")}</td>'
        kind = ' class="n"' if j in numeric else ""
        return f"<td{kind}>{inline(value)}</td>"

    head = "".join(f"<th>{inline(h)}</th>" for h in headers)
    body = "\n".join("<tr>" + "".join(cell(j, v) for j, v in enumerate(row)) + "</tr>"
                     for row in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def html_page(title: str, body: str, css: str = "") -> str:
    """A whole page: doctype, charset, the CSP, title, inline styles and ``body`` (HTML)."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="nine-analyzer {__version__}">\n'
            f"<title>{escape(title)}</title>\n<style>{BASE_CSS}{css}</style>\n</head>\n"
            f"<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n")
