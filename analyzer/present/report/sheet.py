"""What every PAR sheet carries: its provenance, a linked table of contents, printed page
numbers and footers (:mod:`analyzer.present.report.par`, :mod:`~.par_choice`).

>>> contents([("h1", "Sheet"), ("h2", "Summary", "summary"), ("h3", "x"), ("h2", "Rules", "rules")])
('toc', [('Summary', 'summary'), ('Rules', 'rules')])
>>> one_in(Fraction(1, 3)), one_in(Fraction(2, 1_000_001)), one_in(Fraction(0))
('1 in 3.00', '1 in 500,000', 'never')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from analyzer.present.report.blocks import Block

__all__ = ["contents", "one_in", "print_css", "provenance", "with_contents"]


def one_in(probability: Fraction) -> str:
    """A probability as "1 in N" (N = 1/p: two decimals below 1,000, whole above)."""
    if probability <= 0:
        return "never"
    n = 1 / probability
    return f"1 in {float(n):,.2f}" if n < 1000 else f"1 in {round(n):,}"


def provenance(name: str, generated: str, sha256: str, version: str) -> str:
    """The sheet's provenance line: when, by which version, from exactly which profile."""
    digest = (f"SHA-256 of the merged profile `{sha256}` (the TOML `nine profiles --show "
              f"{name}` prints under its comment line)" if sha256 else
              "profile not read from a file (no SHA-256)")
    return f"Generated {generated} by nine-analyzer {version} · {digest}"


def contents(blocks: Sequence[Block]) -> Block:
    """A linked table of contents of the blocks' ``h2`` headings."""
    return ("toc", [(block[1], block[2]) for block in blocks if block[0] == "h2"])


def with_contents(head: Sequence[Block], rest: Sequence[Block]) -> list[Block]:
    """The head, then a table of contents of ``rest``, then ``rest``."""
    return [*head, ("h2", "Contents", "contents"), contents(rest), *rest]


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def print_css(title: str, generated: str) -> str:
    """Printed pages: a footer with the title and date, "Page n of N", and the contents'
    page numbers (CSS Paged Media: WeasyPrint prints them; a browser on screen ignores
    them). Numbers break only after a fraction bar, never inside."""
    footer = _css_string(f"{title} · generated {generated}")
    return f"""
@page {{
  @bottom-left {{ content: {footer}; font-size: 7.5pt; color: #555; }}
  @bottom-right {{ content: "Page " counter(page) " of " counter(pages); font-size: 7.5pt;
                   color: #555; }}
}}
nav.toc ul {{ list-style: none; padding-left: 0; columns: 2; }}
ol.footnotes {{ font-size: .85rem; }}
@media print {{
  table {{ font-size: 7.5pt; }}
  th, td {{ padding: .12rem .3rem; }}
  nav.toc a::after {{ content: " \\2026  p. " target-counter(attr(href), page); }}
}}
"""
