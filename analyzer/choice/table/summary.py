"""What ``nine solve --players N`` reports for home Lucky 9: the certified equilibrium of the
table with its bank edge, the exact cost of simple rules, and every side's plan by what it
sees (the strategy cards and the JSON ``strategy`` fields).

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> summary = summarize_table(LUCKY9, Shoe.infinite(), 2, "total", costs=False)
>>> summary.table.certified, len(summary.seat_plans), summary.edge.players
(True, 2, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.choice.table.alternatives import Alternative, alternatives
from analyzer.choice.table.costs import BankEdge, RuleCost, bank_edge, rule_costs
from analyzer.choice.table.dealt.played import MAX_AT_SHOE_PEOPLE, played_at
from analyzer.choice.table.solve import TableEquilibrium, TableValues, solve_table
from analyzer.choice.table.stored.algebraic import AlgebraicTable
from analyzer.choice.table.stored.certificate import (
    Certificate,
    algebraic_certificate,
    certified_strategies,
    closed_certificate,
    epsilon_of,
    shipped_certificate,
)
from analyzer.choice.table.strategy import Situation, bank_plan, seat_plan
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.shoe import Shoe

__all__ = ["by_size", "INFORMATION", "summarize_table", "TableSummary"]

#: What each side sees when it chooses (docs/rules/lucky9-home.md section 7), in words.
INFORMATION = ("a seat sees its own two cards, every seat's natural (the later seats' too; "
               "at a finite shoe their cards) and the earlier live seats' choices; the bank "
               "sees its own two cards, every natural and every choice; third cards stay "
               "face down")


@dataclass(frozen=True)
class TableSummary:
    """A solved table and everything reported about it."""

    table: TableEquilibrium
    edge: BankEdge
    costs: tuple[RuleCost, ...]
    seat_plans: tuple[tuple[Situation, ...], ...]
    bank_plan: tuple[Situation, ...]
    alternatives: tuple[Alternative, ...] = ()
    information: str = INFORMATION
    #: A table solved at another shoe, played at the one asked for (by cards): every
    #: side's exact value and regret there (an epsilon-certificate), when computed.
    played: TableValues | None = None
    #: A table not evaluated at its finite shoe (6+ people): the shipped epsilon-certificate
    #: of the best play found there (``nine certify``), as its file states it.
    certificate: Certificate | None = None
    #: A table certified through its certificate's algebraic block (5 people at one deck by
    #: total: one subgame's equilibrium irrational): ``table`` is the file's fraction profile
    #: (that subgame's mixing rounded) evaluated exactly, not itself the equilibrium; the
    #: certified figures are ``closed``'s, verified here against it
    #: (:func:`~analyzer.choice.table.stored.certificate.closed_certificate`), and
    #: ``closed_from`` is the file.
    closed: AlgebraicTable | None = None
    closed_from: Certificate | None = None

    @property
    def certified(self) -> bool:
        """Every side's exact regret is 0 at the shoe asked for: the table's, or (one
        irrational subgame) the verified block's in its field."""
        return self.closed.certified if self.closed is not None else self.table.certified


def summarize_table(rules: ChoiceRules, shoe: Shoe, players: int, by: str = "total",
                    title: str = "", costs: bool = True, starts: int = 0,
                    at_shoe: bool = True) -> TableSummary:
    """Solve and certify the table (:func:`~analyzer.choice.table.solve.solve_table`), with
    the bank's edge, the simple rules' exact costs (``costs``), each side's plan, and
    ``starts`` other equilibria from seeded CFR+ starts when the equations leave a
    continuum; a table solved at the infinite deck for a finite shoe is also played there
    exactly, up to :data:`MAX_AT_SHOE_PEOPLE` people (``played``; unless not ``at_shoe``),
    and beyond, the shipped epsilon-certificate of the best play found there when there is
    one (``certificate``, as its file states it). A table shipped certified through an
    algebraic block is evaluated at its file's fraction profile and its block verified
    against that (``closed``; no rule costs: they would be the rounded play's)."""
    shipped = shipped_certificate(rules, shoe, players, by)  # read once: the views below
    known = certified_strategies(shipped)
    irrational = algebraic_certificate(shipped)
    if irrational is not None:
        known = irrational.strategies
    table = solve_table(rules, shoe, players, by, title, known=known,
                        given_only=known is not None)
    closed = None if irrational is None else closed_certificate(irrational, table)
    # a rule's cost against the rounded play is not the certified figure: not computed
    found = rule_costs(table) if costs and closed is None else ()
    others = alternatives(table, starts) if starts and any(r.solution.free
                                                            for r in table.subgames) else ()
    played = (played_at(rules, shoe, players, "cards")
              if at_shoe and not table.exact and players + 1 <= MAX_AT_SHOE_PEOPLE else None)
    certificate = epsilon_of(shipped) if at_shoe and not table.exact else None
    return TableSummary(table, bank_edge(table), found,
                        tuple(tuple(seat_plan(table, seat)) for seat in range(1, players + 1)),
                        tuple(bank_plan(table)), others, played=played, certificate=certificate,
                        closed=closed, closed_from=irrational)


def by_size(rules: ChoiceRules, shoe: Shoe, players: int, by: str = "total",
            title: str = "") -> tuple[TableSummary, ...]:
    """Every table from one player to ``players`` (the bank's edge by table size)."""
    return tuple(summarize_table(rules, shoe, n, by, title, costs=False, at_shoe=False)
                 for n in range(1, players + 1))
