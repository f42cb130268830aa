"""What every PAR sheet's page carries, whichever its kind (:class:`~analyzer.present.sheet.Sheet`):
its title and provenance, a linked table of contents, the range of the house's or bank's
win, the Method section's shared definitions and its commands, printed page numbers and
footers (:mod:`analyzer.present.report.par`, :mod:`~.par_choice` lay out the rest).

>>> contents([("h1", "Sheet"), ("h2", "Summary", "summary"), ("h3", "x"), ("h2", "Rules", "rules")])
('toc', [('Summary', 'summary'), ('Rules', 'rules')])
>>> one_in(Fraction(1, 3)), one_in(Fraction(2, 1_000_001)), one_in(Fraction(0))
('1 in 3.00', '1 in 500,000', 'never')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from analyzer.present.report.blocks import Block, blocks_html, blocks_markdown
from analyzer.present.report.common import decimal_text
from analyzer.present.report.html import html_page
from analyzer.present.sheet import ALPHA, LEVELS, POWER, RTP_ERROR, VOLATILITY_LEVEL, z_value

if TYPE_CHECKING:
    from analyzer.present.sheet import Sheet, WinRange
    from analyzer.rules.profile import Profile

__all__ = ["contents", "method_blocks", "one_in", "print_css", "provenance", "ranges_blocks",
           "ROUGH", "rules_citation", "sheet_head", "sheet_page", "SHEET_CSS", "sheet_title",
           "with_contents"]

#: The style every sheet's page adds to the common page style.
SHEET_CSS = """
.summary td:first-child { white-space: nowrap; }
"""
#: Marks a range the normal approximation says little about (:attr:`WinRange.rough`).
ROUGH = "†"


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


def sheet_title(sheet: Sheet) -> str:
    """The sheet's title: ``PAR sheet: Punto banco, 8 decks``."""
    return f"PAR sheet: {sheet.profile.title}, {sheet.shoe}"


def sheet_head(sheet: Sheet, seen: str = "") -> list[Block]:
    """The title, the line saying what made the sheet (``seen``: what each side sees, for a
    game of choices) and its provenance."""
    profile = sheet.profile
    return [
        ("h1", sheet_title(sheet)),
        ("meta", f"nine-analyzer {sheet.version} · profile `{profile.name}` · shoe "
                 f"{sheet.shoe}{seen} · made by `{sheet.command('par')}`"),
        ("meta", provenance(profile.name, sheet.generated, sheet.profile_sha256,
                            sheet.version)),
    ]


def rules_citation(profile: Profile) -> str:
    """Where the sheet's rules are stated: the profile's source, or the profile file."""
    return (f"Rules: {profile.source}." if profile.source else
            f"Rules: as the profile file `{profile.path or profile.name}` states them.")


def ranges_blocks(sheet: Sheet, ranges: Sequence[WinRange]) -> list[Block]:
    """The range of the house's (bank's) win after each number of rounds, a table."""
    rows = [[f"{r.hands:,}", f"{r.expected:+,.2f}", f"{r.sd:,.2f}",
             *(f"{low:+.2%} to {high:+.2%}" + (f" {ROUGH}" if r.rough else "")
               for low, high in r.ranges)] for r in ranges]
    return [("h3", f"The {sheet.kind.winner}'s win"),
            ("table", ["hands", "expected win (units)", "SD of the win (units)",
                       *(f"{level:.0%} range" for level in LEVELS)], rows,
             (0, 1, 2, 3, 4, 5), ())]


def method_blocks(sheet: Sheet, first: Sequence[str], last: Sequence[str] = ()) -> list[Block]:
    """The Method section: the kind's own definitions (``first``), the volatility index,
    the ranges and the rounds to verify as both kinds compute them, ``last``; then every
    figure's command and the sheet's notes."""
    kind = sheet.kind
    shared = [
        f"**Volatility index**: z x SD with z = {decimal_text(z_value(VOLATILITY_LEVEL), 5)}, "
        f"the two-sided {VOLATILITY_LEVEL:.0%} normal quantile (the slot-PAR convention).",
        f"**Ranges of the {kind.winner}'s win** after n {kind.rounds}: {kind.edge} -/+ z x SD "
        f"/ sqrt(n) per {kind.per} (central limit theorem), z for 90%, 95% and 99%.",
        f"**Hands to verify**: the {kind.rounds} a simulator must deal to detect a "
        f"{RTP_ERROR:.1%} error in the return with a two-sided test at alpha {ALPHA} and "
        f"power {POWER}: ((z(1-alpha/2) + z(power)) x SD / {RTP_ERROR})^2, rounded up. The "
        f"same alpha {ALPHA} as `nine verify`'s default `--alpha` and the published sample "
        "sizes: one stated level everywhere.",
    ]
    commands = [f"`{command}`" for _, command in sheet.commands]
    blocks: list[Block] = [("page", "method"), ("h2", "Method", "method"),
                           ("list", [*first, *shared, *last]),
                           ("h3", "Reproduce every figure"), ("list", commands)]
    return blocks + [("note", note) for note in sheet.notes]


def sheet_page(sheet: Sheet, fmt: str, intro: Sequence[Block], body: Sequence[Block],
               method: tuple[Sequence[str], Sequence[str]], *, seen: str = "", css: str = "",
               figure_link: str = "") -> str:
    """The sheet as Markdown (``markdown``) or one self-contained, printable HTML page
    (``html``, with the sheet's style and ``css``): its head (``seen``: what each side sees,
    for a game of choices) and ``intro``, a table of contents, the ``body``, and the Method
    section with the kind's own definitions (``method``: before and after the shared ones).
    In Markdown a figure links ``figure_link`` when given."""
    blocks = with_contents([*sheet_head(sheet, seen), *intro],
                           [*body, *method_blocks(sheet, *method)])
    if fmt == "markdown":
        if figure_link:
            blocks = [(*b[:2], figure_link, *b[3:]) if b[0] == "img" else b for b in blocks]
        return blocks_markdown(blocks)
    title = sheet_title(sheet)
    return html_page(title, blocks_html(blocks), SHEET_CSS + css + print_css(title,
                                                                           sheet.generated))
