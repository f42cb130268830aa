"""Rendering a choice game's PAR sheet (:mod:`analyzer.present.par_choice`), HTML or Markdown.

Laid out as blocks (:mod:`analyzer.present.report.blocks`) like the fixed-tableau sheets: a
summary, the rules with their sections in ``docs/rules/``, the certified equilibrium, the
player's result when both sides play it (every outcome's exact probability, the SD and the
range of the bank's win), the strategy cards as ``nine solve --card`` prints them, the
bank's edge by table size for a table game, and the method with every command. The HTML is
one self-contained, printable page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.present.par_choice import TABLE_BY
from analyzer.present.report.blocks import Block
from analyzer.present.report.choice import render_strategy_card
from analyzer.present.report.common import decimal_text, fraction_text, percent, totals_text
from analyzer.present.report.lucky9 import render_edges
from analyzer.present.report.sheet import one_in, ranges_blocks, rules_citation, sheet_page
from analyzer.present.sheet import ALPHA, RTP_ERROR

if TYPE_CHECKING:
    from analyzer.present.par_choice import ChoiceParSheet

__all__ = ["render_choice_par", "RULE_SECTIONS"]

#: Where each rule of a shipped choice game is stated in its ``docs/rules/`` file.
RULE_SECTIONS = {
    "lucky9-home": {"table": "§1", "deal": "§3", "naturals": "§4", "player": "§5",
                    "banker": "§5", "sees": "§7", "settle": "§6", "model": "§10"},
    "chemin-de-fer": {"table": "§1", "deal": "§2", "naturals": "§2", "player": "§3",
                      "banker": "§4", "sees": "§4", "settle": "§5", "model": "§7"},
}
_SEES = {"total": "its own total", "cards": "its own two cards"}


def _cite(sheet: ChoiceParSheet, rule: str) -> str:
    section = RULE_SECTIONS.get(sheet.profile.name, {}).get(rule)
    return f" ({sheet.rules} {section})" if sheet.rules and section else ""


def _intro(sheet: ChoiceParSheet) -> list[Block]:
    return [
        ("p", "A probability accounting report of a game of choices. No tableau decides the "
              "third card: the player and the banker each choose whether to take one, so "
              "the figures are those of optimal play, the certified heads-up equilibrium "
              "(one player against the bank): the game value for each side, the banker's "
              "edge, the certificate, then the player's result when both sides play it "
              "(every outcome's exact probability, the SD, the range of the bank's win "
              "after 100 to 1,000,000 hands, the hands needed to verify), and both "
              "strategy cards. Exact values are fractions; decimals are rounded from them."),
    ]


def _summary(sheet: ChoiceParSheet) -> list[Block]:
    equilibrium, outcomes = sheet.equilibrium, sheet.outcomes
    rows = [
        ["game value for the player, per unit staked", fraction_text(equilibrium.value),
         percent(equilibrium.value)],
        ["game value for the banker (the banker's edge), per unit the player stakes",
         fraction_text(sheet.banker_edge), percent(sheet.banker_edge)],
        ["return to player (RTP) under the equilibrium: 1 + the player's game value",
         fraction_text(1 + equilibrium.value), percent(1 + equilibrium.value)],
        ["player wins / pushes / loses", "", " / ".join(
            percent(p, 3) for p in (outcomes.win, outcomes.push, outcomes.lose))],
        ["standard deviation per unit staked", "", f"{sheet.sd:.6f}"],
        ["certified equilibrium (both best responses equal the value)",
         "yes" if equilibrium.certificate.certified else "NO", ""],
        ["largest regret of either side", fraction_text(sheet.max_regret),
         percent(sheet.max_regret)],
        [f"hands to verify: to detect a {RTP_ERROR:.1%} error in the return at alpha {ALPHA}",
         f"{sheet.hands_needed:,}", ""],
    ]
    blocks: list[Block] = [("h2", "Summary", "summary"),
                           ("table", ["figure", "exact", "decimal"], rows, (2,), (1,))]
    if sheet.table_sizes:
        last = sheet.table_sizes[-1]
        blocks.append(("p", f"At a table the bank faces several players with one choice: "
                            f"with {last.table.players + 1} people (infinite deck, by "
                            f"{TABLE_BY}) its edge is {percent(last.edge.total)} per hand "
                            f"({percent(last.edge.per_stake)} per player stake); see The "
                            "bank's edge by table size."))
    blocks.append(("p", f"Reproduce: `{sheet.command('solve')}` (value and certificate); "
                        f"`{sheet.command('par')}` (outcome probabilities, SD, ranges and "
                        "hands to verify, defined under Method)."))
    return blocks


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _rules(sheet: ChoiceParSheet) -> list[Block]:
    profile = sheet.profile
    rules = profile.choice_rules()
    cite = rules_citation(profile)
    live = frozenset(range(10)) - rules.naturals
    chooses = live - rules.player_draws - rules.player_stands
    banker_chooses = live - rules.banker_draws - rules.banker_stands
    people = (f"{rules.people[0]} to {rules.people[1]} people, one of them the banker, who "
              "covers every player's stake; each player plays only against the banker. "
              "This sheet is heads-up: one player against the banker"
              if rules.people[1] > 2 else "Two hands, the banker's and the player's")
    forced = [f"draws on {totals_text(rules.player_draws, 'and')}"] if rules.player_draws else []
    forced += ([f"stands on {totals_text(rules.player_stands, 'and')}"]
               if rules.player_stands else [])
    banker_forced = ([f"draws on {totals_text(rules.banker_draws, 'and')}"]
                     if rules.banker_draws else [])
    banker_forced += ([f"stands on {totals_text(rules.banker_stands, 'and')}"]
                      if rules.banker_stands else [])
    sees = ("the player's third card is dealt face down: the banker sees only whether the "
            "player drew" if rules.banker_sees == "choice" else
            "the player's third card is dealt face up: the banker sees its value, or that "
            "the player stood")
    items = [
        f"{people}{_cite(sheet, 'table')}.",
        f"Shoe: {sheet.shoe}; two cards each, dealt alternately, the player first"
        f"{_cite(sheet, 'deal')}.",
        f"Naturals: a two-card total of {totals_text(rules.naturals, 'or')} is shown and "
        "settles at once: a natural beats a hand that is not, two naturals compare totals "
        + ("(equal totals push)" if rules.payoffs.ties == "push"
           else "(equal totals go to the bank)") + f"{_cite(sheet, 'naturals')}.",
        "Otherwise the player " + (f"{' and '.join(forced)} by rule and " if forced else "")
        + f"chooses to stand or take one card on {totals_text(chooses, 'and')}"
        f"{_cite(sheet, 'player')}; {sees}{_cite(sheet, 'sees')}.",
        "Then the banker " + (f"{' and '.join(banker_forced)} by rule and "
                              if banker_forced else "")
        + f"chooses to stand or take one card on {totals_text(banker_chooses, 'and')}"
        f"{_cite(sheet, 'banker')}.",
        ("The higher final total wins 1 to 1; equal totals push; no commission"
         if rules.payoffs.even_money else _sentence(rules.payoffs.describe()))
        + f"{_cite(sheet, 'settle')}.",
        f"In this sheet each side sees {_SEES[sheet.equilibrium.by]} when it chooses "
        f"(`--by {sheet.equilibrium.by}`){_cite(sheet, 'model')}.",
    ]
    return [("h2", "Rules", "rules"), ("p", f"{profile.description} {cite}"),
            ("list", items)]


def _equilibrium(sheet: ChoiceParSheet) -> list[Block]:
    equilibrium = sheet.equilibrium
    certificate = equilibrium.certificate
    player_regret = certificate.player_best_response - equilibrium.value
    banker_regret = equilibrium.value - certificate.banker_best_response
    rows = [
        ["game value for the player", fraction_text(equilibrium.value),
         f"{float(equilibrium.value):+.10f}"],
        ["game value for the banker", fraction_text(-equilibrium.value),
         f"{float(-equilibrium.value):+.10f}"],
        ["player's best response to the banker's strategy (upper bound)",
         fraction_text(certificate.player_best_response),
         f"{float(certificate.player_best_response):+.10f}"],
        ["banker's best response to the player's strategy (lower bound)",
         fraction_text(certificate.banker_best_response),
         f"{float(certificate.banker_best_response):+.10f}"],
        ["player's regret (what it gains by deviating alone)", fraction_text(player_regret),
         decimal_text(player_regret)],
        ["banker's regret", fraction_text(banker_regret), decimal_text(banker_regret)],
        ["information sets with a mixed choice (both sides)", str(equilibrium.mixed), ""],
    ]
    verdict = ("Both best responses equal the value: a certified equilibrium, no side gains "
               "by deviating, and that value is the game's." if certificate.certified else
               f"The best responses differ by {fraction_text(certificate.gap)}: NOT certified.")
    return [("page", "equilibrium"), ("h2", "The equilibrium", "equilibrium"),
            ("table", ["figure", "exact", "decimal"], rows, (2,), (1,)),
            ("p", f"{verdict} Method: {equilibrium.method}. Per unit the player stakes; the "
                  f"game is zero-sum. Reproduce: `{sheet.command('solve')}`.")]


def _result(sheet: ChoiceParSheet) -> list[Block]:
    outcomes = sheet.outcomes
    payoffs = sheet.profile.choice_rules().payoffs
    win_pays = ("1:1" if payoffs.even_money
                else f"{float(outcomes.win_value):.6g} on average")
    tie = ("Push", "push") if payoffs.ties == "push" else ("Tie (the bank takes it)", "-1")
    outcome_rows = [
        [name, pays, fraction_text(p), decimal_text(p), one_in(p), f"{float(p * value):+.6f}"]
        for name, pays, p, value in (("Player wins", win_pays, outcomes.win,
                                      outcomes.win_value),
                                     (*tie, outcomes.push, payoffs.tie),
                                     ("Player loses", "-1", outcomes.lose, -1))]
    outcome_rows.append(["**total**", "", "1", "1", "", f"{float(outcomes.ev):+.6f}"])
    resolved = outcomes.ev / outcomes.decided
    figures = [
        ["player's expected result per unit staked", fraction_text(outcomes.ev),
         f"{float(outcomes.ev):+.8f}"],
        ["banker's edge per unit staked", fraction_text(sheet.banker_edge),
         percent(sheet.banker_edge)],
        ["banker's edge per resolved coup (pushes not counted)", fraction_text(-resolved),
         percent(-resolved)],
        ["hit frequency (the player wins)", fraction_text(outcomes.hit_frequency),
         percent(outcomes.hit_frequency)],
        ["push frequency", fraction_text(outcomes.push), percent(outcomes.push)],
        ["variance per unit staked", fraction_text(outcomes.variance),
         decimal_text(outcomes.variance)],
        ["standard deviation", "", f"{sheet.sd:.6f}"],
        ["volatility index (90%)", "", f"{sheet.volatility_index:.6f}"],
        [f"hands to verify: to detect a {RTP_ERROR:.1%} error in the return at alpha {ALPHA}",
         f"{sheet.hands_needed:,}", ""],
    ]
    return [
        ("page", "result"), ("h2", "The player's result under the equilibrium", "result"),
        ("p", "Both sides play the equilibrium above (a mixed choice drawn with its "
              "probability); one unit staked, "
              + ("even money, ties push." if payoffs.even_money
                 else payoffs.describe() + ".")),
        ("h3", "Outcomes"),
        ("table", ["outcome", "pays", "probability (exact)", "probability", "1 in", "return"],
         outcome_rows, (1, 3, 4, 5), (2,)),
        ("h3", "Figures"),
        ("table", ["figure", "exact", "decimal"], figures, (2,), (1,)),
        *ranges_blocks(sheet, sheet.win_ranges),
        ("p", "Ranges are of the bank's win per unit the player stakes after that many "
              "one-unit coups (normal approximation). Reproduce: "
              f"`{sheet.command('par')}`."),
    ]


def _cards(sheet: ChoiceParSheet) -> list[Block]:
    return [("page", "cards"), ("h2", "Strategy cards", "cards"),
            ("p", "The equilibrium as each side reads it at the table, exactly as "
                  f"`{sheet.command('card')}` prints it (`--format markdown`). `any`: the "
                  "choice cannot change the result there (the banker stands in the figures "
                  "above); `(rule)`: the rules decide."),
            ("card", render_strategy_card(sheet.equilibrium, "markdown"))]


def _table_sizes(sheet: ChoiceParSheet) -> list[Block]:
    if not sheet.table_sizes:
        return []
    largest = sheet.table_sizes[-1].table.players + 1
    return [("page", "table-sizes"), ("h2", "The bank's edge by table size", "table-sizes"),
            ("p", f"The certified equilibrium of the whole table, 2 to {largest} people, at "
                  f"the infinite deck, each side seeing its own total, as "
                  f"`{sheet.command('tables')}` prints it (`--format markdown`). Larger "
                  "tables take seconds each: every size up to 9 people is published in "
                  "`tables/lucky9/` (`nine tables`)."),
            ("card", render_edges(sheet.table_sizes, "markdown"))]


def _method(sheet: ChoiceParSheet) -> tuple[list[str], list[str]]:
    """The Method section's definitions of this kind, before the shared ones."""
    return [
        "**Game value**: the player's expected result per unit staked when both sides play "
        "the equilibrium; the banker's is its negative (no commission: zero-sum).",
        "**Certificate**: the player's value when it best-responds to the banker's "
        "strategy, and when the banker best-responds to the player's, both computed "
        "exactly; equal, they prove an equilibrium. A side's regret is what it gains by "
        "switching alone to its best response.",
        "**Outcome probabilities**: the same game counted for the player's wins and for the "
        "pushes, evaluated exactly under the equilibrium strategies over every ordered "
        "six-card sequence of the shoe (docs/rules/README.md §5); the losses are the rest, "
        "and wins minus losses is checked to equal the game value.",
        "**Standard deviation**: the variance is the mean square of the player's net, "
        "counted exactly as the value is, less EV^2 (at even money, where nets are +1, 0 "
        "and -1, P(win) + P(lose) - EV^2).",
    ], []


def render_choice_par(sheet: ChoiceParSheet, fmt: str = "html") -> str:
    """The sheet as one self-contained HTML page (``html``) or Markdown (``markdown``)."""
    body = (_summary(sheet) + _rules(sheet) + _equilibrium(sheet) + _result(sheet)
            + _cards(sheet) + _table_sizes(sheet))
    return sheet_page(sheet, fmt, _intro(sheet), body, _method(sheet),
                      seen=f" · each side sees {_SEES[sheet.equilibrium.by]}")
