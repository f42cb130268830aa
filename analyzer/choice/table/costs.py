"""What a table's equilibrium is worth: the bank's edge by table size, and the exact cost of
simple rules of thumb.

*The bank's edge.* The bank covers every stake, so its expected net per hand is minus the
seats' sum (:attr:`BankEdge.total`); per player stake it is that divided by the number of
players. The bank passes after every hand (``docs/rules/lucky9-home.md`` section 1), so in
one rotation of ``P`` hands every person banks once and sits once in every seat: when
everyone plays the equilibrium, each person's net over a rotation is exactly zero -- the
edge it earns as the bank it gives back as a player (:attr:`BankEdge.rotation_net`).

*Simple rules.* A rule says draw or stand on each own total, whatever the side sees. Its
cost is measured exactly against the certified equilibrium
(:func:`~analyzer.choice.table.solve.evaluate_table`): every seat (or the bank) plays the
rule, the others keep the equilibrium; ``value`` is then the rule-player's expected result,
``loss`` how much worse that is than the equilibrium, and ``exploitability`` what the other
side gains by best-responding to it (the bank's regret against seats playing the rule; the
sum of the seats' regrets, each deviating alone, against a bank playing it).

>>> from analyzer.choice.table.tree import LUCKY9
>>> from analyzer.rules.shoe import Shoe
>>> from analyzer.choice.table.solve import solve_table
>>> table = solve_table(LUCKY9, Shoe.infinite(), 1, "total")
>>> edge = bank_edge(table)
>>> edge.total == edge.per_stake == -table.seat_values[0], edge.rotation_net
(True, Fraction(0, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analyzer.choice.strategy import Side
from analyzer.choice.table.solve import (
    Pattern,
    TableEquilibrium,
    evaluate_table,
)

__all__ = ["bank_edge", "BankEdge", "rule_cost", "rule_costs", "RuleCost",
           "SIMPLE_RULES", "SimpleRule"]


@dataclass(frozen=True)
class BankEdge:
    """The bank's expected net at the equilibrium of a table of ``players`` seats."""

    players: int
    total: Fraction
    certified: bool

    @property
    def people(self) -> int:
        """People at the table, the bank included."""
        return self.players + 1

    @property
    def per_stake(self) -> Fraction:
        """The bank's net per player stake."""
        return self.total / self.players

    @property
    def rotation_banking(self) -> Fraction:
        """What each person earns in its one hand as the bank per rotation."""
        return self.total

    @property
    def rotation_net(self) -> Fraction:
        """Each person's expected net over a whole rotation when everyone plays the
        equilibrium: it banks once and sits once in every seat."""
        return Fraction(0)


def bank_edge(table: TableEquilibrium) -> BankEdge:
    """The bank's edge at a solved table."""
    return BankEdge(table.players, table.bank_value, table.certified)


@dataclass(frozen=True)
class SimpleRule:
    """A pure rule on the own total: draw on ``draws``, stand otherwise."""

    name: str
    side: Side
    draws: frozenset[int]

    def draw(self, total: int) -> Fraction:
        """The rule's play holding ``total``."""
        return Fraction(int(total in self.draws))


#: The rules of thumb whose cost is reported.
SIMPLE_RULES = (
    SimpleRule("draw on 0-4, stand on 5+ (house rule)", "player", frozenset(range(5))),
    SimpleRule("draw on 0-4 and on 5, stand on 6+", "player", frozenset(range(6))),
    SimpleRule("draw on 0-4, stand on 5+ (house rule)", "banker", frozenset(range(5))),
    SimpleRule("draw on 0-5, stand on 6+", "banker", frozenset(range(6))),
)


@dataclass(frozen=True)
class RuleCost:
    """A simple rule played against the equilibrium (see the module docstring): the
    rule-player's value (seats: their mean), the equilibrium's, and the other side's gain
    from best-responding."""

    rule: SimpleRule
    players: int
    value: Fraction
    equilibrium: Fraction
    exploitability: Fraction
    seat_values: tuple[Fraction, ...]

    @property
    def loss(self) -> Fraction:
        """How much the rule-player gives up against the equilibrium."""
        return self.equilibrium - self.value


def rule_cost(table: TableEquilibrium, rule: SimpleRule) -> RuleCost:
    """The exact cost of ``rule`` at a solved table."""
    n = table.players

    def seat_rule(pattern: Pattern, seat: int, position: int, earlier: int,
                  cls: int) -> Fraction:
        del seat, position, earlier
        return rule.draw(table.solution(pattern.key).game.seat_classes[cls].total)

    def bank_rule(pattern: Pattern, vector: int, cls: int) -> Fraction:
        del vector
        return rule.draw(table.solution(pattern.key).game.bank_classes[cls].total)

    if rule.side == "player":
        found = evaluate_table(table, seats=seat_rule)
        return RuleCost(rule, n, sum(found.seats, Fraction(0)) / n,
                        sum(table.seat_values, Fraction(0)) / n, found.bank_regret,
                        found.seats)
    found = evaluate_table(table, bank=bank_rule)
    return RuleCost(rule, n, found.bank, table.bank_value,
                    sum(found.seat_regrets, Fraction(0)), found.seats)


def rule_costs(table: TableEquilibrium, rules: Sequence[SimpleRule] = SIMPLE_RULES,
               ) -> tuple[RuleCost, ...]:
    """Every rule's cost at a solved table."""
    return tuple(rule_cost(table, rule) for rule in rules)

