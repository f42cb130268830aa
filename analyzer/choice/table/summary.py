"""What ``nine solve --players N`` reports for home Lucky 9: the certified equilibrium of the
table with its bank edge, the exact cost of simple rules, and every side's plan by what it
sees (the strategy cards and the JSON ``strategy`` fields); and every information set of a
subgame at once, its play and the expected result of each choice (:func:`situations`, for
pages that answer any situation without the solver).

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> summary = summarize_table(LUCKY9, Shoe.infinite(), 2, "total", costs=False)
>>> summary.table.certified, len(summary.seat_plans), summary.edge.players
(True, 2, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.choice.table.alternatives import Alternative, alternatives
from analyzer.choice.table.costs import BankEdge, RuleCost, bank_edge, rule_costs
from analyzer.choice.table.dealt.played import MAX_AT_SHOE_PEOPLE, played_at
from analyzer.choice.table.exact.evaluation import exact_counterfactual
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

__all__ = ["by_size", "Cell", "INFORMATION", "Situations", "situations", "summarize_table",
           "TableSummary"]

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


#: One information set's equilibrium draw probability and expected results (stand, draw),
#: or None where the equilibrium never reaches it.
Cell = tuple[Fraction, Fraction, Fraction] | None


@dataclass(frozen=True)
class Situations:
    """Every information set of the subgame of ``live`` live seats, what
    :func:`~analyzer.choice.table.advice.advise_seat` and
    :func:`~analyzer.choice.table.advice.advise_bank` read one at a time:
    ``seats[k][earlier][class]`` for the live seat ``k`` (0-based), the earlier live choices
    as a binary number (the first seat the highest bit, 1 = drew); ``bank[class][vector]``
    likewise for every live choice; ``classes`` the totals (or holdings) of the classes."""

    live: int
    classes: tuple[str, ...]
    seats: tuple[tuple[tuple[Cell, ...], ...], ...]
    bank: tuple[tuple[Cell, ...], ...]


def situations(table: TableEquilibrium, live: int) -> Situations:
    """Every information set of ``table``'s subgame of ``live`` live seats (no natural's
    cards out of the shoe), its counterfactual values computed once."""
    solution = table.solution((live, ()))
    game = solution.game
    seats = [[list(row) for row in rows] for rows in solution.seats]
    bank = [list(row) for row in solution.bank]
    seat_cf, bank_cf = exact_counterfactual(game, seats, bank)

    def cell(draw: Fraction, reach: Fraction, values: Sequence[Fraction]) -> Cell:
        return None if reach == 0 else (draw, values[0] / reach, values[1] / reach)

    seat_cells = tuple(
        tuple(tuple(cell(solution.seats[k][e][c], game.seat_reach(seats, k, e, c),
                         seat_cf[k][e][c]) for c in range(len(game.seat_classes)))
              for e in range(2**k))
        for k in range(live))
    bank_cells = tuple(
        tuple(cell(solution.bank[c][v], game.bank_reach(seats, v, c), bank_cf[c][v])
              for v in range(game.vectors))
        for c in range(len(game.bank_classes)))
    return Situations(live, tuple(c.label for c in game.seat_classes), seat_cells, bank_cells)
